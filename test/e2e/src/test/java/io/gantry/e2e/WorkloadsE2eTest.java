package io.gantry.e2e;

import static io.gantry.scheduler.kube.TestObjects.gpuNode;
import static io.gantry.scheduler.kube.TestObjects.pod;
import static io.gantry.scheduler.kube.TestObjects.queue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.fakekube.Json;
import io.gantry.fakekube.ResourceKind;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.scheduler.kube.KaiManifests;
import io.gantry.scheduler.kube.Schedulers;
import io.gantry.scheduler.kube.TestObjects;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Workloads as their controllers run them (kai-reference §1.3, §3.4): pods created with owner
 * references, grouped by {@code gantry scheduler} through the API. A PyTorchJob's pods are one gang
 * with a SubGroup per replica type; a Deployment's pods get one PodGroup each; a pod whose owner
 * cannot be read waits with an event naming it.
 */
class WorkloadsE2eTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final ResourceKind PYTORCH_JOBS =
      ResourceKinds.crd("kubeflow.org", "v1", "pytorchjobs", "PyTorchJob", true);

  private final E2eCluster cluster = new E2eCluster();

  @AfterEach
  void stop() {
    cluster.close();
  }

  private void queues() {
    cluster.create(queue("default-parent-queue", null, 8));
    cluster.create(queue("default-queue", "default-parent-queue", 8));
  }

  @Test
  void aPyTorchJobsPodsAreScheduledAsOneGang() {
    cluster.kube.registry().register(PYTORCH_JOBS);
    queues();
    cluster.node(gpuNode("gpu-0", 1));
    cluster.node(gpuNode("gpu-1", 1));
    ObjectNode job =
        cluster
            .kube
            .store()
            .create(PYTORCH_JOBS, "ml", KaiManifests.load("batch-pytorch-job.yaml", "ml"));
    String jobName = job.at("/metadata/name").asText();
    String jobUid = job.at("/metadata/uid").asText();
    // as the training operator creates them: one master and two workers
    operatorPod(job, "master", 0);
    operatorPod(job, "worker", 0);
    operatorPod(job, "worker", 1);
    cluster.scheduler(Schedulers.settings(Duration.ofMillis(200), Optional.empty()));

    String group = "pg-" + jobName + "-" + jobUid;
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              for (String pod : pods(jobName)) {
                JsonNode p = cluster.pod("ml", pod);
                assertThat(p.at("/metadata/annotations/pod-group-name").asText()).isEqualTo(group);
                assertThat(GangE2eTest.podScheduled(p).path("reason").asText())
                    .isEqualTo("Unschedulable");
              }
            });
    JsonNode pg = cluster.kube.store().get(ResourceKinds.POD_GROUPS, "ml", group).orElseThrow();
    assertThat(pg.at("/spec/queue").asText()).isEqualTo("default-queue");
    assertThat(pg.at("/spec/priorityClassName").asText()).isEqualTo("train");
    assertThat(pg.at("/metadata/ownerReferences/0/kind").asText()).isEqualTo("PyTorchJob");
    assertThat(pg.at("/metadata/ownerReferences/0/uid").asText()).isEqualTo(jobUid);
    assertThat(pg.at("/spec/subGroups"))
        .extracting(s -> s.path("name").asText() + ":" + s.path("minMember").asInt())
        .containsExactly("master:1", "worker:2");
    assertThat(
            cluster
                .pod("ml", jobName + "-worker-1")
                .at("/metadata/labels")
                .path("kai.scheduler/subgroup-name")
                .asText())
        .isEqualTo("worker");
    assertThat(cluster.bindings()).isZero();

    cluster.node(gpuNode("gpu-2", 1));

    await().atMost(WAIT).until(() -> cluster.boundPods("ml") == 3);
    assertThat(cluster.bindings()).isEqualTo(3);
    assertThat(cluster.kube.store().list(ResourceKinds.POD_GROUPS, "ml")).hasSize(1);
  }

  @Test
  void eachPodOfADeploymentGetsItsOwnPodGroup() {
    queues();
    cluster.node(gpuNode("gpu-0", 2));
    ObjectNode deployment = Json.object();
    deployment.put("apiVersion", "apps/v1").put("kind", "Deployment");
    ObjectNode meta = deployment.putObject("metadata").put("name", "serve").put("namespace", "web");
    meta.putObject("labels").put("kai.scheduler/queue", "default-queue");
    deployment.putObject("spec").put("replicas", 2);
    ObjectNode createdDeployment =
        cluster.kube.store().create(ResourceKinds.DEPLOYMENTS, "web", deployment);
    ObjectNode replicaSet = Json.object();
    replicaSet.put("apiVersion", "apps/v1").put("kind", "ReplicaSet");
    ownedBy(
        replicaSet.putObject("metadata").put("name", "serve-5d8f").put("namespace", "web"),
        createdDeployment);
    replicaSet.putObject("spec").put("replicas", 2);
    ObjectNode createdReplicaSet =
        cluster.kube.store().create(ResourceKinds.REPLICA_SETS, "web", replicaSet);
    for (String name : List.of("serve-5d8f-a", "serve-5d8f-b")) {
      ObjectNode p = pod("web", name, TestObjects.SCHEDULER, "1", 1);
      ownedBy((ObjectNode) p.get("metadata"), createdReplicaSet);
      cluster.kube.store().create(ResourceKinds.PODS, "web", p);
    }
    cluster.scheduler(Schedulers.settings(Duration.ofMillis(200), Optional.empty()));

    await().atMost(WAIT).until(() -> cluster.boundPods("web") == 2);
    List<ObjectNode> groups = cluster.kube.store().list(ResourceKinds.POD_GROUPS, "web");
    assertThat(groups).hasSize(2);
    for (JsonNode pg : groups) {
      String podName = pg.at("/metadata/ownerReferences/0/name").asText();
      JsonNode p = cluster.pod("web", podName);
      assertThat(pg.at("/metadata/ownerReferences/0/kind").asText()).isEqualTo("Pod");
      assertThat(pg.at("/metadata/name").asText())
          .isEqualTo("pg-" + podName + "-" + p.at("/metadata/uid").asText());
      assertThat(pg.at("/spec/priorityClassName").asText()).isEqualTo("inference");
      assertThat(pg.at("/spec/minMember").asInt()).isEqualTo(1);
      assertThat(p.at("/metadata/annotations/pod-group-name").asText())
          .isEqualTo(pg.at("/metadata/name").asText());
    }
  }

  @Test
  void aPodWhoseOwnerCannotBeReadWaitsWithAnEventNamingIt() {
    queues();
    cluster.node(gpuNode("gpu-0", 1));
    ObjectNode p = pod("ml", "orphan", TestObjects.SCHEDULER, "1", 1);
    ((ObjectNode) p.get("metadata"))
        .putArray("ownerReferences")
        .addObject()
        .put("apiVersion", "batch/v1")
        .put("kind", "Job")
        .put("name", "gone")
        .put("uid", "0000")
        .put("controller", true);
    cluster.kube.store().create(ResourceKinds.PODS, "ml", p);
    cluster.scheduler(Schedulers.settings(Duration.ofMillis(200), Optional.empty()));

    String reason = "Pod ml/orphan cannot be grouped: owner Job ml/gone not found";
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              assertThat(
                      GangE2eTest.podScheduled(cluster.pod("ml", "orphan"))
                          .path("message")
                          .asText())
                  .isEqualTo(reason);
              assertThat(cluster.kube.store().list(ResourceKinds.EVENTS, "ml"))
                  .anySatisfy(
                      e -> {
                        assertThat(e.path("reason").asText()).isEqualTo("PodGrouperWarning");
                        assertThat(e.path("message").asText()).isEqualTo(reason);
                      });
            });
    assertThat(cluster.kube.store().list(ResourceKinds.POD_GROUPS, "ml")).isEmpty();
    assertThat(cluster.bindings()).isZero();
  }

  private List<String> pods(String jobName) {
    return List.of(jobName + "-master-0", jobName + "-worker-0", jobName + "-worker-1");
  }

  /** A pod as the training operator makes it: named, labelled and owned by the job. */
  private void operatorPod(JsonNode job, String type, int index) {
    String jobName = job.at("/metadata/name").asText();
    ObjectNode p = pod("ml", jobName + "-" + type + "-" + index, TestObjects.SCHEDULER, "1", 1);
    ObjectNode labels = ((ObjectNode) p.get("metadata")).putObject("labels");
    labels.put("training.kubeflow.org/job-name", jobName);
    labels.put("training.kubeflow.org/replica-type", type);
    labels.put("training.kubeflow.org/replica-index", Integer.toString(index));
    if (type.equals("master")) {
      labels.put("training.kubeflow.org/job-role", "master");
    }
    ownedBy((ObjectNode) p.get("metadata"), job);
    cluster.kube.store().create(ResourceKinds.PODS, "ml", p);
  }

  private static ObjectNode ownedBy(ObjectNode metadata, JsonNode owner) {
    metadata
        .putArray("ownerReferences")
        .addObject()
        .put("apiVersion", owner.path("apiVersion").asText())
        .put("kind", owner.path("kind").asText())
        .put("name", owner.at("/metadata/name").asText())
        .put("uid", owner.at("/metadata/uid").asText())
        .put("controller", true);
    return metadata;
  }
}
