package io.gantry.nodecommon.nvidiasmi;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuHealth;
import io.gantry.gpusharing.inventory.HealthStatus;
import io.gantry.nodecommon.testing.Fixtures;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Unhealthy variants are real fixtures with one element's text changed in memory. */
class GpuHealthReaderTest {

  record Case(String name, String fixture, String from, String to, List<String> reasons) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> unhealthy() {
    return Stream.of(
        new Case(
            "recovery action",
            Fixtures.A100_40GB,
            "<gpu_recovery_action>None</gpu_recovery_action>",
            "<gpu_recovery_action>Node Reboot</gpu_recovery_action>",
            List.of("gpu_recovery_action is Node Reboot")),
        new Case(
            "row remapping failure",
            Fixtures.A10G,
            "<remapped_row_failure>No</remapped_row_failure>",
            "<remapped_row_failure>Yes</remapped_row_failure>",
            List.of("memory row remapping failed (remapped_row_failure: Yes)")),
        new Case(
            "fabric registration in progress",
            Fixtures.GB200,
            "<state>Completed</state>",
            "<state>In Progress</state>",
            List.of("NVLink fabric registration is not complete (fabric/state: In Progress)")),
        new Case(
            "fabric registration failed",
            Fixtures.HGX_H100,
            "<status>Success</status>",
            "<status>Failure</status>",
            List.of("NVLink fabric registration failed (fabric/status: Failure)")),
        new Case(
            "fabric health degraded",
            Fixtures.GB200,
            "<summary>Healthy</summary>",
            "<summary>Degraded Bandwidth</summary>",
            List.of("NVLink fabric health is Degraded Bandwidth (fabric/health/summary)")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("unhealthy")
  void aChangedElementMakesTheFirstGpuUnhealthy(Case c) throws Exception {
    String original = Fixtures.read(c.fixture());
    String xml = original.replaceFirst(c.from(), c.to());
    assertThat(xml).isNotEqualTo(original);

    GpuDevice first = QueryXmlParser.parse(xml).devices().get(0);

    assertThat(first.health()).isEqualTo(new GpuHealth(HealthStatus.UNHEALTHY, c.reasons()));
  }

  @Test
  void pendingRemappingsAndRetirementsLeaveTheGpuHealthy() throws Exception {
    String a10g =
        Fixtures.read(Fixtures.A10G)
            .replaceFirst("<remapped_row_pending>No<", "<remapped_row_pending>Yes<");
    String t4 =
        Fixtures.read(Fixtures.TESLA_T4)
            .replaceFirst("<pending_retirement>No<", "<pending_retirement>Yes<");
    assertThat(a10g).contains("<remapped_row_pending>Yes<");
    assertThat(t4).contains("<pending_retirement>Yes<");

    assertThat(QueryXmlParser.parse(a10g).devices().get(0).health()).isEqualTo(GpuHealth.HEALTHY);
    assertThat(QueryXmlParser.parse(t4).devices().get(0).health()).isEqualTo(GpuHealth.HEALTHY);
  }

  @Test
  void fabricStateNotApplicableIsNotAProblem() throws Exception {
    assertThat(Fixtures.read(Fixtures.A100_80GB_MIG)).contains("<state>N/A</state>");

    assertThat(
            QueryXmlParser.parse(Fixtures.read(Fixtures.A100_80GB_MIG)).devices().get(0).health())
        .isEqualTo(GpuHealth.HEALTHY);
  }
}
