package io.gantry.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.scheduler.kube.CrdInstaller;
import io.gantry.scheduler.kube.SchedulerApiAccess;
import org.junit.jupiter.api.Test;

/**
 * The chart's RBAC against the rules the components keep next to their calls ({@link
 * SchedulerApiAccess}, {@link CrdInstaller#API_ACCESS}); the end-to-end tests check those lists
 * against the calls the code really makes.
 */
class ChartRbacTest {
  private static final String NS = RenderedChart.NAMESPACE;

  @Test
  void theSchedulerIsGrantedEveryCallItMakesAndNothingElse() {
    RenderedChart chart = RenderedChart.render();
    RbacGrants grants = RbacGrants.of(chart, "gantry-scheduler", NS);

    assertThat(grants.missing(SchedulerApiAccess.RULES)).isEmpty();
    assertThat(grants.unneeded(SchedulerApiAccess.RULES)).isEmpty();
  }

  @Test
  void theCrdUpgraderIsGrantedCrdsOnly() {
    RenderedChart chart = RenderedChart.render();
    RbacGrants grants = RbacGrants.of(chart, "gantry-crd-upgrader", NS);

    assertThat(grants.missing(CrdInstaller.API_ACCESS)).isEmpty();
    assertThat(grants.unneeded(CrdInstaller.API_ACCESS)).isEmpty();
  }

  @Test
  void removingAnyRuleTheSchedulerNeedsIsReported() {
    ObjectNode role =
        RenderedChart.render().find("ClusterRole", "gantry-scheduler").orElseThrow().deepCopy();
    int rules = role.path("rules").size();
    assertThat(rules).isGreaterThan(1);
    for (int i = 0; i < rules; i++) {
      ObjectNode cut = role.deepCopy();
      ObjectNode removed = (ObjectNode) ((ArrayNode) cut.get("rules")).remove(i);
      RenderedChart chart = withRole(cut);

      assertThat(RbacGrants.of(chart, "gantry-scheduler", NS).missing(SchedulerApiAccess.RULES))
          .as("the chart without rule %s", removed)
          .isNotEmpty();
    }
  }

  @Test
  void theLeaseIsGrantedOnlyInTheReleaseNamespace() {
    RbacGrants grants = RbacGrants.of(RenderedChart.render(), "gantry-scheduler", NS);

    assertThat(grants.grants())
        .filteredOn(g -> g.resource().equals("leases"))
        .isNotEmpty()
        .allMatch(g -> !g.clusterWide());
  }

  /** The default chart with its scheduler ClusterRole replaced by {@code role}. */
  private static RenderedChart withRole(ObjectNode role) {
    StringBuilder manifest = new StringBuilder();
    for (ObjectNode o : RenderedChart.render().objects()) {
      boolean replaced =
          o.path("kind").asText().equals("ClusterRole")
              && o.path("metadata").path("name").asText().equals("gantry-scheduler");
      manifest.append("---\n").append(Manifests.yaml(replaced ? role : o));
    }
    return RenderedChart.parse(manifest.toString());
  }
}
