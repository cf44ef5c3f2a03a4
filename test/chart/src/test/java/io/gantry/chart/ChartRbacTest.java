package io.gantry.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.deviceagent.kube.DeviceAgentApiAccess;
import io.gantry.dradriver.kube.DraDriverApiAccess;
import io.gantry.nodecommon.kube.ApiAccessRule;
import io.gantry.scheduler.kube.access.ApiRule;
import io.gantry.scheduler.kube.access.SchedulerApiAccess;
import io.gantry.scheduler.kube.crd.CrdInstaller;
import org.junit.jupiter.api.Test;

/**
 * The chart's RBAC against the rules the components keep next to their calls ({@link
 * SchedulerApiAccess}, {@link CrdInstaller#API_ACCESS}, {@link DraDriverApiAccess}); the end-to-end
 * tests check those lists against the calls the code really makes.
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
  void theExtenderIsGrantedWhatTheSchedulerIs() {
    RenderedChart chart = RenderedChart.render(java.util.Map.of("mode", "extender"));
    RbacGrants grants = RbacGrants.of(chart, "gantry-extender", NS);

    assertThat(grants.missing(SchedulerApiAccess.RULES)).isEmpty();
    assertThat(grants.unneeded(SchedulerApiAccess.RULES)).isEmpty();
    assertThat(RbacGrants.of(chart, "gantry-scheduler", NS).grants()).isEmpty();
  }

  /**
   * The device agent's calls, as it keeps them next to its calls ({@link DeviceAgentApiAccess}).
   */
  private static final java.util.List<ApiRule> DEVICE_AGENT =
      DeviceAgentApiAccess.RULES.stream().map(ChartRbacTest::clusterRule).toList();

  private static ApiRule clusterRule(ApiAccessRule r) {
    return new ApiRule(r.group(), r.resource(), r.verbs(), ApiRule.Scope.CLUSTER);
  }

  @Test
  void theDeviceAgentIsGrantedItsNodeAndPodCallsAndEvictionOnlyWhenItEvicts() {
    RbacGrants plain = RbacGrants.of(RenderedChart.render(), "gantry-device-agent", NS);
    RbacGrants evicting =
        RbacGrants.of(
            RenderedChart.render(java.util.Map.of("deviceAgent.evictOverGrant", true)),
            "gantry-device-agent",
            NS);
    java.util.List<ApiRule> withEviction = new java.util.ArrayList<>(DEVICE_AGENT);
    withEviction.add(clusterRule(DeviceAgentApiAccess.EVICTION));

    assertThat(plain.missing(DEVICE_AGENT)).isEmpty();
    assertThat(plain.unneeded(DEVICE_AGENT)).isEmpty();
    assertThat(evicting.missing(withEviction)).isEmpty();
    assertThat(evicting.unneeded(withEviction)).isEmpty();
  }

  /** The DRA driver's calls, as it keeps them next to its calls ({@link DraDriverApiAccess}). */
  private static final java.util.List<ApiRule> DRA_DRIVER =
      DraDriverApiAccess.RULES.stream().map(ChartRbacTest::clusterRule).toList();

  @Test
  void theDraDriverIsGrantedEveryCallItMakesAndNothingElseOnlyWhenEnabled() {
    RenderedChart chart = RenderedChart.render(java.util.Map.of("draDriver.enabled", true));
    RbacGrants grants = RbacGrants.of(chart, "gantry-dra-driver", NS);

    assertThat(grants.missing(DRA_DRIVER)).isEmpty();
    assertThat(grants.unneeded(DRA_DRIVER)).isEmpty();
    assertThat(RbacGrants.of(RenderedChart.render(), "gantry-dra-driver", NS).grants()).isEmpty();
  }

  @Test
  void removingAnyRuleTheDraDriverNeedsIsReported() {
    RenderedChart on = RenderedChart.render(java.util.Map.of("draDriver.enabled", true));
    ObjectNode role = on.find("ClusterRole", "gantry-dra-driver").orElseThrow().deepCopy();
    int rules = role.path("rules").size();
    assertThat(rules).isEqualTo(DRA_DRIVER.size());
    for (int i = 0; i < rules; i++) {
      ObjectNode cut = role.deepCopy();
      ObjectNode removed = (ObjectNode) ((ArrayNode) cut.get("rules")).remove(i);
      RenderedChart chart = withRole(on, "gantry-dra-driver", cut);

      assertThat(RbacGrants.of(chart, "gantry-dra-driver", NS).missing(DRA_DRIVER))
          .as("the chart without rule %s", removed)
          .isNotEmpty();
    }
  }

  @Test
  void theAdmissionServerIsGrantedWhatTheExtenderIs() {
    RbacGrants grants = RbacGrants.of(RenderedChart.render(), "gantry-admission", NS);

    assertThat(
            grants.missing(
                SchedulerApiAccess.RULES.stream()
                    .filter(r -> r.scope() == ApiRule.Scope.CLUSTER)
                    .toList()))
        .isEmpty();
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
    return withRole(RenderedChart.render(), "gantry-scheduler", role);
  }

  /** {@code chart} with its ClusterRole {@code name} replaced by {@code role}. */
  private static RenderedChart withRole(RenderedChart chart, String name, ObjectNode role) {
    StringBuilder manifest = new StringBuilder();
    for (ObjectNode o : chart.objects()) {
      boolean replaced =
          o.path("kind").asText().equals("ClusterRole")
              && o.path("metadata").path("name").asText().equals(name);
      manifest.append("---\n").append(Manifests.yaml(replaced ? role : o));
    }
    return RenderedChart.parse(manifest.toString());
  }
}
