package io.gantry.deviceagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TextTableTest {
  @Test
  void columnsAreAsWideAsTheirWidestCellWithoutTrailingSpaces() {
    String table =
        new TextTable("A", "LONG HEADER", "C").row("wide cell", 1, "").row("x", 22, "z").render();

    assertThat(table)
        .isEqualTo(
            """
            A          LONG HEADER  C
            wide cell  1
            x          22           z
            """);
  }
}
