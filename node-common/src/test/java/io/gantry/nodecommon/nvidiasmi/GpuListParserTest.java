package io.gantry.nodecommon.nvidiasmi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gantry.nodecommon.nvidiasmi.MigListing.MigIdentity;
import io.gantry.nodecommon.testing.Fixtures;
import org.junit.jupiter.api.Test;

class GpuListParserTest {

  @Test
  void h100CaptureListsFourMigDevicesWithProfilesAndUuids() throws Exception {
    MigListing listing = GpuListParser.parse(Fixtures.captureSection("capabilities :: list (-L)"));

    assertThat(listing.byGpuUuid()).containsOnlyKeys("GPU-00000000-0000-0000-0000-000000000000");
    assertThat(listing.of("GPU-00000000-0000-0000-0000-000000000000"))
        .containsExactly(
            new MigIdentity(0, "3g.40gb", "MIG-00000000-0000-0000-0000-000000000000"),
            new MigIdentity(1, "2g.20gb", "MIG-00000001-0000-0000-0000-000000000001"),
            new MigIdentity(2, "1g.10gb", "MIG-00000002-0000-0000-0000-000000000002"),
            new MigIdentity(3, "1g.10gb", "MIG-00000003-0000-0000-0000-000000000003"));
  }

  @Test
  void gpusWithoutMigHaveNoEntries() throws Exception {
    MigListing listing =
        GpuListParser.parse(
            """
            GPU 0: Tesla T4 (UUID: GPU-00000000-0000-0000-0000-000000000000)
            GPU 1: Tesla T4 (UUID: GPU-00000001-0000-0000-0000-000000000001)
            """);

    assertThat(listing.byGpuUuid()).hasSize(2);
    assertThat(listing.of("GPU-00000001-0000-0000-0000-000000000001")).isEmpty();
    assertThat(listing.of("GPU-unknown")).isEmpty();
  }

  @Test
  void aMigLineBeforeAnyGpuIsRefused() {
    assertThatThrownBy(
            () ->
                GpuListParser.parse(
                    "\n  MIG 1g.10gb     Device  0: (UUID: MIG-00000000-0000-0000-0000-000000000000)\n"))
        .isInstanceOf(NvidiaSmiException.class)
        .hasMessage(
            "nvidia-smi -L: line 2: a MIG device before any GPU line: 'MIG 1g.10gb     Device  0:"
                + " (UUID: MIG-00000000-0000-0000-0000-000000000000)'");
  }
}
