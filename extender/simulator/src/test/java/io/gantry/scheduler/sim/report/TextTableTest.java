package io.gantry.scheduler.sim.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gantry.scheduler.sim.report.TextTable.Column;
import java.util.List;
import org.junit.jupiter.api.Test;

class TextTableTest {

  @Test
  void widensColumnsToTheWidestCellAndAlignsNumbersRight() {
    TextTable table =
        new TextTable(List.of(Column.left("NAME"), Column.right("N"), Column.left("NOTE")))
            .row(List.of("a", "1234", "x"))
            .row(List.of("longer-name", "5", ""), List.of("a note", "another"));

    assertThat(table.render())
        .isEqualTo(
            """
              NAME            N  NOTE
              a            1234  x
              longer-name     5
                  a note
                  another
            """);
  }

  @Test
  void countsCodePointsNotChars() {
    TextTable table =
        new TextTable(List.of(Column.left("K"), Column.left("V")))
            .row(List.of("\uD83D\uDE80", "rocket"))
            .row(List.of("ab", "text"));

    assertThat(table.render().lines())
        .containsExactly("  K   V", "  \uD83D\uDE80   rocket", "  ab  text");
  }

  @Test
  void rejectsARowOfTheWrongWidth() {
    TextTable table = new TextTable(List.of(Column.left("A"), Column.left("B")));

    assertThatThrownBy(() -> table.row(List.of("only one")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("row has 1 cells, table has 2 columns");
  }
}
