package io.gantry.scheduler.kube.snapshot;

import static io.gantry.scheduler.kube.TestObjects.SCHEDULER;
import static io.gantry.scheduler.kube.TestObjects.inGroup;
import static io.gantry.scheduler.kube.TestObjects.pod;
import static io.gantry.scheduler.kube.TestObjects.podGroup;
import static io.gantry.scheduler.kube.TestObjects.queue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import io.gantry.fakekube.FakeKubeServer;
import io.gantry.fakekube.Json;
import io.gantry.fakekube.PatchType;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.scheduler.api.usage.UsageSource;
import io.gantry.scheduler.kube.TestObjects;
import io.gantry.scheduler.kube.config.NodePool;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.dra.AllocationConfig;
import io.gantry.scheduler.model.dra.AllocationResult;
import io.gantry.scheduler.model.dra.DeviceResult;
import io.gantry.scheduler.model.dra.DynamicResources;
import io.gantry.scheduler.model.dra.OpaqueConfig;
import io.gantry.scheduler.model.dra.PodClaim;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The DRA objects of the caches reach the snapshot, claims with their status; a pod whose claims
 * cannot be used waits with why, naming the field, and the other pods are scheduled as before.
 */
class DraSnapshotTest {
  private static final Duration WAIT = Duration.ofSeconds(15);

  private final SnapshotFixture fixture = new SnapshotFixture();
  private final FakeKubeServer kube = fixture.kube;

  @AfterEach
  void stop() {
    fixture.close();
  }

  @Test
  void claimsReachTheSnapshotAndABadOneKeepsOnlyItsPodWaiting() {
    TestObjects.create(kube, queue("q", null, 0));
    TestObjects.create(kube, podGroup("ns", "pg", "q", 1));
    TestObjects.create(kube, deviceClass());
    ObjectNode held = claim("held", "{\"name\":\"gpu\",\"exactly\":{\"deviceClassName\":\"gpu\"}}");
    TestObjects.create(kube, held);
    // the status subresource: what a create sends in status is dropped
    kube.store()
        .patch(
            ResourceKinds.RESOURCE_CLAIMS,
            "ns",
            "held",
            PatchType.MERGE_PATCH,
            "{\"status\":"
                + "{\"allocation\":{\"devices\":{\"results\":[{\"request\":\"gpu\",\"driver\":"
                + "\"gpu.gantry.io\",\"pool\":\"n1\",\"device\":\"gpu-0\"}],\"config\":[{\"source\":"
                + "\"FromClaim\",\"opaque\":{\"driver\":\"gpu.gantry.io\",\"parameters\":"
                + "{\"computeMode\":\"mps\",\"fraction\":0.5}}}]},\"nodeSelector\":"
                + "{\"nodeSelectorTerms\":[{\"matchFields\":[{\"key\":\"metadata.name\","
                + "\"operator\":\"In\",\"values\":[\"n1\"]}]}]}},\"reservedFor\":[{\"resource\":"
                + "\"pods\",\"name\":\"good\",\"uid\":\"u1\"}]}"
                + "}",
            true);
    TestObjects.create(kube, claim("bad", "{\"name\":\"gpu\",\"exactly\":{\"count\":1}}"));
    TestObjects.create(
        kube, inGroup(withClaim(pod("ns", "good", SCHEDULER, "1", 0), "held"), "pg"));
    TestObjects.create(
        kube, inGroup(withClaim(pod("ns", "broken", SCHEDULER, "1", 0), "bad"), "pg"));
    TestObjects.create(kube, inGroup(pod("ns", "plain", SCHEDULER, "1", 0), "pg"));
    ObjectNode both = withClaim(pod("ns", "both", SCHEDULER, "1", 0), "held");
    ((ObjectNode) both.at("/spec/resourceClaims/0")).put("resourceClaimTemplateName", "t");
    TestObjects.create(kube, inGroup(both, "pg"));
    SnapshotBuilder builder = builder();

    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              LiveSnapshot live = builder.build();
              assertThat(live.snapshot().jobs().get(0).tasks())
                  .extracting(TaskInfo::name, TaskInfo::resourceClaims)
                  .containsExactlyInAnyOrder(
                      org.assertj.core.groups.Tuple.tuple(
                          "good", ImmutableList.of(new PodClaim("gpu", "held", false))),
                      org.assertj.core.groups.Tuple.tuple("plain", ImmutableList.of()));
              assertThat(live.unschedulablePods())
                  .containsExactlyInAnyOrder(
                      new LiveSnapshot.Problem(
                          "ns/broken",
                          new SnapshotReason.UnresolvedClaims(
                              "ResourceClaim ns/bad of pod claim \"gpu\":"
                                  + " spec.devices.requests[0].exactly.deviceClassName:"
                                  + " is required")),
                      new LiveSnapshot.Problem(
                          "ns/both",
                          new SnapshotReason.InvalidPod(
                              "spec.resourceClaims[0]: exactly one of resourceClaimName and"
                                  + " resourceClaimTemplateName must be set")));
              DynamicResources dra = live.snapshot().dynamicResources();
              assertThat(dra.deviceClasses()).containsOnlyKeys("gpu");
              assertThat(dra.claims()).containsOnlyKeys("ns/held");
              assertThat(dra.claim("ns", "held").orElseThrow().allocation())
                  .contains(
                      AllocationResult.onNode(
                          ImmutableList.of(new DeviceResult("gpu", "gpu.gantry.io", "n1", "gpu-0")),
                          // kept as the status has it: neither the claim nor its class has config
                          ImmutableList.of(
                              new AllocationConfig(
                                  AllocationConfig.Source.FROM_CLAIM,
                                  ImmutableList.of(),
                                  new OpaqueConfig(
                                      "gpu.gantry.io",
                                      "{\"computeMode\":\"mps\",\"fraction\":0.5}"))),
                          "n1"));
              assertThat(dra.claim("ns", "held").orElseThrow().reservedFor())
                  .containsExactly("good");
            });
  }

  @Test
  void aTemplateClaimNotCreatedYetKeepsThePodWaitingWithWhy() {
    TestObjects.create(kube, queue("q", null, 0));
    TestObjects.create(kube, podGroup("ns", "pg", "q", 1));
    ObjectNode p = pod("ns", "p", SCHEDULER, "1", 0);
    ((ObjectNode) p.get("spec"))
        .putArray("resourceClaims")
        .addObject()
        .put("name", "gpu")
        .put("resourceClaimTemplateName", "missing");
    TestObjects.create(kube, inGroup(p, "pg"));
    SnapshotBuilder builder = builder();

    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(builder.build().unschedulablePods())
                    .containsExactly(
                        new LiveSnapshot.Problem(
                            "ns/p",
                            new SnapshotReason.UnresolvedClaims(
                                "waiting for the ResourceClaim of pod claim \"gpu\" to be created"
                                    + " from ResourceClaimTemplate ns/missing, which does not"
                                    + " exist: the pod's status.resourceClaimStatuses does not"
                                    + " name it yet"))));
  }

  private SnapshotBuilder builder() {
    return fixture.builder(
        NodePool.ALL, Clock.systemUTC(), key -> Optional.empty(), UsageSource.NONE);
  }

  private static ObjectNode deviceClass() {
    ObjectNode dc = Json.object();
    dc.put("apiVersion", "resource.k8s.io/v1").put("kind", "DeviceClass");
    dc.putObject("metadata").put("name", "gpu");
    dc.set(
        "spec",
        Json.parse(
            "{\"selectors\":[{\"cel\":{\"expression\":\"device.driver == 'gpu.gantry.io'\"}}]}"));
    return dc;
  }

  private static ObjectNode claim(String name, String request) {
    ObjectNode c = Json.object();
    c.put("apiVersion", "resource.k8s.io/v1").put("kind", "ResourceClaim");
    c.putObject("metadata").put("name", name).put("namespace", "ns");
    c.set("spec", Json.parse("{\"devices\":{\"requests\":[" + request + "]}}"));
    return c;
  }

  private static ObjectNode withClaim(ObjectNode pod, String claim) {
    ((ObjectNode) pod.get("spec"))
        .putArray("resourceClaims")
        .addObject()
        .put("name", "gpu")
        .put("resourceClaimName", claim);
    return pod;
  }
}
