package io.gantry.e2e;

import static io.gantry.scheduler.kube.TestObjects.gpuNode;
import static io.gantry.scheduler.kube.TestObjects.inGroup;
import static io.gantry.scheduler.kube.TestObjects.pod;
import static io.gantry.scheduler.kube.TestObjects.podGroup;
import static io.gantry.scheduler.kube.TestObjects.queue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.fakekube.DeleteOptions;
import io.gantry.fakekube.Json;
import io.gantry.fakekube.RequestCounts;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.scheduler.kube.Schedulers;
import io.gantry.scheduler.kube.TestObjects;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A pod with a claim from a ResourceClaimTemplate, scheduled by {@code gantry scheduler}: it waits
 * until its claim exists, then the claim is allocated and reserved before the pod is bound, and
 * released once the pod is deleted. The fake API server runs no controllers, so the test plays
 * Kubernetes' resourceclaim controller: it creates the claim {@code <pod>-<claim>-<suffix>} from
 * the template, owned by the pod, and records it in the pod's {@code status.resourceClaimStatuses}.
 */
class DraE2eTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String NS = "ml";
  private static final String CLAIM = "worker-gpu-x7k2p";
  private static final String CLAIM_PATH =
      "/apis/resource.k8s.io/v1/namespaces/" + NS + "/resourceclaims/" + CLAIM;
  private static final String BINDING_PATH = "/api/v1/namespaces/" + NS + "/pods/worker/binding";

  private final E2eCluster cluster = new E2eCluster();

  @BeforeEach
  void cluster() {
    cluster.node(gpuNode("gpu-0", 0));
    cluster.create(DraObjects.deviceClass());
    cluster.create(slice("gpu-0", "gpu-0", "gpu-1"));
    cluster.create(queue("root", null, 0));
    cluster.create(queue("team", "root", 0));
    cluster.create(podGroup(NS, "train", "team", 1));
    cluster.create(DraObjects.template(NS, "one-gpu"));
    cluster.create(
        inGroup(
            DraObjects.withTemplateClaim(
                pod(NS, "worker", TestObjects.SCHEDULER, "1", 0), "one-gpu"),
            "train"));
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void aTemplateClaimIsAllocatedAndReservedBeforeTheBindingAndReleasedAfterThePod() {
    cluster.scheduler(Schedulers.settings(Duration.ofMillis(200), Optional.empty()));

    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(
                        GangE2eTest.podScheduled(cluster.pod(NS, "worker"))
                            .path("message")
                            .asText())
                    .isEqualTo(
                        "waiting for the ResourceClaim of pod claim \"gpu\" to be created from"
                            + " ResourceClaimTemplate ml/one-gpu: the pod's"
                            + " status.resourceClaimStatuses does not name it yet"));
    assertThat(cluster.bindings()).isZero();

    playResourceClaimController();

    await().atMost(WAIT).until(() -> cluster.boundPods(NS) == 1);
    JsonNode pod = cluster.pod(NS, "worker");
    assertThat(pod.at("/spec/nodeName").asText()).isEqualTo("gpu-0");
    JsonNode claim = claim();
    JsonNode result = claim.at("/status/allocation/devices/results/0");
    assertThat(result.path("request").asText()).isEqualTo("gpu");
    assertThat(result.path("driver").asText()).isEqualTo("gpu.gantry.io");
    assertThat(result.path("pool").asText()).isEqualTo("gpu-0");
    assertThat(result.path("device").asText()).isIn("gpu-0", "gpu-1");
    assertThat(claim.at("/status/allocation/devices/results")).hasSize(1);
    assertThat(claim.at("/status/allocation/nodeSelector").toString())
        .isEqualTo(
            "{\"nodeSelectorTerms\":[{\"matchFields\":[{\"key\":\"metadata.name\","
                + "\"operator\":\"In\",\"values\":[\"gpu-0\"]}]}]}");
    JsonNode reserved = claim.at("/status/reservedFor");
    assertThat(reserved).hasSize(1);
    assertThat(reserved.get(0).path("resource").asText()).isEqualTo("pods");
    assertThat(reserved.get(0).path("name").asText()).isEqualTo("worker");
    assertThat(reserved.get(0).path("uid").asText()).isEqualTo(pod.at("/metadata/uid").asText());
    assertThat(claim.at("/metadata/finalizers").toString())
        .isEqualTo("[\"resource.kubernetes.io/delete-protection\"]");

    // the order the fake API server saw: finalizer, then allocation and reservation, then binding
    List<RequestCounts.Key> writes = cluster.kube.requests().writes();
    int finalizer = writes.indexOf(new RequestCounts.Key("patch", CLAIM_PATH));
    int status = writes.indexOf(new RequestCounts.Key("patch", CLAIM_PATH + "/status"));
    int binding = writes.indexOf(new RequestCounts.Key("create", BINDING_PATH));
    assertThat(finalizer).isNotNegative();
    assertThat(status).isGreaterThan(finalizer);
    assertThat(binding).isGreaterThan(status);

    cluster.kube.store().delete(ResourceKinds.PODS, NS, "worker", DeleteOptions.gracePeriod(0));

    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              JsonNode released = claim();
              assertThat(released.at("/status/reservedFor").isMissingNode()).isTrue();
              assertThat(released.at("/status/allocation").isMissingNode()).isTrue();
              assertThat(released.at("/metadata/finalizers")).isEmpty();
            });
  }

  @Test
  void aRefusedClaimWriteLeavesThePodUnboundWithAnEventAndIsRetried() {
    cluster
        .kube
        .refusals()
        .refuse("patch", CLAIM_PATH + "/status", 403, "Forbidden", "claim writes are refused");
    playResourceClaimController();
    cluster.scheduler(Schedulers.settings(Duration.ofMillis(200), Optional.empty()));

    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              JsonNode scheduled = GangE2eTest.podScheduled(cluster.pod(NS, "worker"));
              assertThat(scheduled.path("reason").asText()).isEqualTo("BindingError");
              assertThat(cluster.kube.store().list(ResourceKinds.EVENTS, NS))
                  .anySatisfy(
                      e -> {
                        assertThat(e.path("reason").asText()).isEqualTo("FailedBinding");
                        assertThat(e.path("message").asText())
                            .contains("Failed to bind pod ml/worker to node gpu-0")
                            .contains("writing ResourceClaim ml/" + CLAIM + ": HTTP 403")
                            .contains("claim writes are refused");
                      });
            });
    assertThat(cluster.bindings()).isZero();
    assertThat(claim().at("/status/allocation").isMissingNode()).isTrue();

    cluster.kube.refusals().clear();

    await().atMost(WAIT).until(() -> cluster.boundPods(NS) == 1);
    assertThat(claim().at("/status/reservedFor/0/name").asText()).isEqualTo("worker");
  }

  private void playResourceClaimController() {
    DraObjects.generateClaim(cluster, NS, "worker", "one-gpu", CLAIM);
  }

  private JsonNode claim() {
    return cluster.kube.store().get(ResourceKinds.RESOURCE_CLAIMS, NS, CLAIM).orElseThrow();
  }

  /** A ResourceSlice of the node's GPUs, as the DRA driver publishes it. */
  private static ObjectNode slice(String node, String... devices) {
    ObjectNode s = Json.object();
    s.put("apiVersion", "resource.k8s.io/v1").put("kind", "ResourceSlice");
    s.putObject("metadata").put("name", node + "-gpu.gantry.io");
    ObjectNode spec = s.putObject("spec").put("driver", "gpu.gantry.io").put("nodeName", node);
    spec.putObject("pool").put("name", node).put("generation", 1).put("resourceSliceCount", 1);
    ArrayNode list = spec.putArray("devices");
    for (String d : devices) {
      ObjectNode device = list.addObject().put("name", d);
      device
          .putObject("attributes")
          .putObject("productName")
          .put("string", "NVIDIA H100 80GB HBM3");
      device.putObject("capacity").putObject("memory").put("value", "80Gi");
    }
    return s;
  }
}
