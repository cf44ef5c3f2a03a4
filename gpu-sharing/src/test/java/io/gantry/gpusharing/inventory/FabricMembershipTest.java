package io.gantry.gpusharing.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class FabricMembershipTest {
  @Test
  void aZeroClusterUuidIsANodeLocalFabricWithoutClique() {
    FabricMembership hgx =
        new FabricMembership(
            Optional.of("00000000-0000-0000-0000-000000000000"), OptionalInt.of(0));

    assertThat(hgx.multiNode()).isFalse();
    assertThat(hgx.clique()).isEmpty();
  }

  @Test
  void aClusterUuidNamesTheClique() {
    FabricMembership gb200 =
        new FabricMembership(
            Optional.of("00000001-0000-0000-0000-000000000001"), OptionalInt.of(2));

    assertThat(gb200.multiNode()).isTrue();
    assertThat(gb200.clique()).contains("00000001-0000-0000-0000-000000000001.2");
  }

  @Test
  void driversWithoutCliqueFieldsAreNodeLocal() {
    assertThat(new FabricMembership(Optional.empty(), OptionalInt.empty()).clique()).isEmpty();
  }
}
