package io.gantry.scheduler.kube.grouping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.fakekube.DeleteOptions;
import io.gantry.fakekube.FakeKubeServer;
import io.gantry.fakekube.Json;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.kubemodel.kai.PriorityClassTable;
import io.gantry.kubemodel.kai.QueueAssignment;
import io.gantry.kubemodel.kai.grouping.DefaultGrouper;
import io.gantry.scheduler.kube.KaiManifests;
import io.gantry.scheduler.kube.KubeClients;
import io.gantry.scheduler.kube.TestObjects;
import io.gantry.scheduler.kube.informers.ClusterInformers;
import io.gantry.scheduler.kube.informers.OwnerCache;
import io.gantry.scheduler.kube.snapshot.PodFacts;
import io.gantry.scheduler.kube.snapshot.PodFactsMemo;
import io.gantry.scheduler.kube.write.EventRecorder;
import io.gantry.scheduler.kube.write.KubeWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * PodGroups for bare pods, batch Jobs (their owner read through the API's discovery and a watching
 * cache) and JobSets, with queue, priority and preemptibility resolved as KAI's podgrouper does
 * (kai-reference §3.1–3.4), from KAI's own example manifests.
 */
class PodGrouperTest {
  private static final Duration WAIT = Duration.ofSeconds(15);

  private final FakeKubeServer kube = FakeKubeServer.start();
  private final ClusterInformers informers = new ClusterInformers(KubeClients.forUrl(kube.url()));
  private final OwnerCache owners = informers.owners(Clock.systemUTC());
  private final ExecutorService executor = Executors.newFixedThreadPool(2);
  private final KubeWriter writer = new KubeWriter(KubeClients.forUrl(kube.url()));
  private final EventRecorder events =
      new EventRecorder(writer, TestObjects.SCHEDULER, Clock.systemUTC(), 100);
  private final PodFactsMemo podFacts = new PodFactsMemo();
  private final PodGrouper grouper =
      new PodGrouper(
          informers,
          new OwnerResolver(owners, () -> podFacts.of(informers.pods())),
          writer,
          events,
          executor,
          TestObjects.SCHEDULER,
          QueueAssignment.kaiDefaults(),
          new WorkloadDefaultsConfigMap(owners, Optional.of("kai-system/priority-defaults")),
          podFacts);

  @AfterEach
  void stop() {
    executor.shutdownNow();
    events.close();
    owners.close();
    informers.close();
    kube.close();
  }

  private void startInformers() {
    informers.start();
    await().atMost(WAIT).until(informers::hasSynced);
  }

  private JsonNode podGroupOf(String namespace, String pod) {
    await()
        .atMost(WAIT)
        .until(
            () -> {
              grouper.run(PriorityClassTable.KAI_DEFAULTS);
              return kube.store()
                  .get(ResourceKinds.PODS, namespace, pod)
                  .orElseThrow()
                  .path("metadata")
                  .path("annotations")
                  .has(PodFacts.POD_GROUP_ANNOTATION);
            });
    String name =
        kube.store()
            .get(ResourceKinds.PODS, namespace, pod)
            .orElseThrow()
            .path("metadata")
            .path("annotations")
            .path(PodFacts.POD_GROUP_ANNOTATION)
            .asText();
    return kube.store().get(ResourceKinds.POD_GROUPS, namespace, name).orElseThrow();
  }

  @Test
  void aBarePodGetsItsOwnPodGroupInItsLabelledQueueAsTrain() {
    ObjectNode pod = KaiManifests.load("quickstart-pods-gpu-pod.yaml", "team");
    kube.store().create(ResourceKinds.PODS, "team", pod);
    String uid =
        kube.store()
            .get(ResourceKinds.PODS, "team", "gpu-pod")
            .orElseThrow()
            .at("/metadata/uid")
            .asText();
    startInformers();

    JsonNode pg = podGroupOf("team", "gpu-pod");

    assertThat(pg.at("/metadata/name").asText()).isEqualTo("pg-gpu-pod-" + uid);
    assertThat(pg.at("/spec/queue").asText()).isEqualTo("default-queue");
    assertThat(pg.at("/spec/minMember").asInt()).isEqualTo(1);
    assertThat(pg.at("/spec/priorityClassName").asText()).isEqualTo("train");
    assertThat(pg.at("/spec/preemptibility").isMissingNode()).isTrue();
    assertThat(pg.at("/metadata/ownerReferences/0/kind").asText()).isEqualTo("Pod");
  }

  @Test
  void thePriorityClassLabelCountsWhenTheClassExists() {
    ObjectNode pod = KaiManifests.load("priority-example-build-priority-pod.yaml", "team");
    TestObjects.labelled(pod, DefaultGrouper.PREEMPTIBILITY_LABEL, "preemptible");
    kube.store().create(ResourceKinds.PODS, "team", pod);
    startInformers();

    JsonNode pg = podGroupOf("team", "build-pod");

    assertThat(pg.at("/spec/priorityClassName").asText()).isEqualTo("build");
    assertThat(pg.at("/spec/preemptibility").asText()).isEqualTo("preemptible");
  }

  @Test
  void podsOfABatchJobShareOnePodGroupWithTheJobsMinMember() {
    ObjectNode job = KaiManifests.load("batch-batch-job-min-member.yaml", "team");
    ObjectNode created = kube.store().create(ResourceKinds.JOBS, "team", job);
    String jobUid = created.at("/metadata/uid").asText();
    for (int i = 0; i < 3; i++) {
      ObjectNode pod = jobPod("worker-" + i, jobUid);
      TestObjects.labelled(pod, "kai.scheduler/queue", "default-queue");
      kube.store().create(ResourceKinds.PODS, "team", pod);
    }
    startInformers();

    JsonNode pg = podGroupOf("team", "worker-0");
    podGroupOf("team", "worker-2");

    assertThat(pg.at("/metadata/name").asText()).isEqualTo("pg-batch-job-min-member-" + jobUid);
    assertThat(pg.at("/spec/minMember").asInt()).isEqualTo(2);
    assertThat(pg.at("/metadata/ownerReferences/0/kind").asText()).isEqualTo("Job");
    assertThat(kube.store().list(ResourceKinds.POD_GROUPS, "team")).hasSize(1);
  }

  @Test
  void thePodGroupIsUpdatedWhenTheOwnerAsksForMoreAndOnlyThen() {
    ObjectNode job = KaiManifests.load("batch-batch-job-min-member.yaml", "team");
    ObjectNode created = kube.store().create(ResourceKinds.JOBS, "team", job);
    String jobUid = created.at("/metadata/uid").asText();
    kube.store().create(ResourceKinds.PODS, "team", jobPod("worker-0", jobUid));
    startInformers();
    JsonNode pg = podGroupOf("team", "worker-0");
    String path =
        "/apis/scheduling.run.ai/v2alpha2/namespaces/team/podgroups/"
            + pg.at("/metadata/name").asText();
    kube.store().create(ResourceKinds.PODS, "team", jobPod("worker-1", jobUid));
    podGroupOf("team", "worker-1");
    assertThat(kube.requests().count("patch", path)).as("nothing changed").isZero();

    ObjectNode stored =
        kube.store().get(ResourceKinds.JOBS, "team", "batch-job-min-member").orElseThrow();
    ((ObjectNode) stored.at("/metadata/annotations")).put("kai.scheduler/batch-min-member", "3");
    kube.store().update(ResourceKinds.JOBS, "team", "batch-job-min-member", stored);
    kube.store().create(ResourceKinds.PODS, "team", jobPod("worker-2", jobUid));

    await()
        .atMost(WAIT)
        .until(
            () -> {
              grouper.run(PriorityClassTable.KAI_DEFAULTS);
              return kube.store()
                      .get(ResourceKinds.POD_GROUPS, "team", pg.at("/metadata/name").asText())
                      .orElseThrow()
                      .at("/spec/minMember")
                      .asInt()
                  == 3;
            });
    assertThat(kube.requests().count("patch", path)).isEqualTo(1);
  }

  private static ObjectNode jobPod(String name, String jobUid) {
    ObjectNode pod = TestObjects.pod("team", name, TestObjects.SCHEDULER, "1", 1);
    ((ObjectNode) pod.get("metadata"))
        .putArray("ownerReferences")
        .addObject()
        .put("apiVersion", "batch/v1")
        .put("kind", "Job")
        .put("name", "batch-job-min-member")
        .put("uid", jobUid)
        .put("controller", true);
    return pod;
  }

  @Test
  void aJobSetsPodIsWalkedThroughItsJobToTheJobSetsSubGroupTree() {
    kube.registry()
        .register(ResourceKinds.crd("jobset.x-k8s.io", "v1alpha2", "jobsets", "JobSet", true));
    ObjectNode jobSet = Json.object();
    jobSet.put("apiVersion", "jobset.x-k8s.io/v1alpha2").put("kind", "JobSet");
    jobSet.putObject("metadata").put("name", "train").put("namespace", "team");
    ArrayNode replicatedJobs = jobSet.putObject("spec").putArray("replicatedJobs");
    for (String name : new String[] {"driver", "workers"}) {
      ObjectNode rj = replicatedJobs.addObject().put("name", name);
      rj.put("replicas", name.equals("driver") ? 1 : 2);
      rj.putObject("template").putObject("spec").put("parallelism", name.equals("driver") ? 1 : 4);
    }
    ObjectNode createdSet = kube.store().create(jobSet);
    String setUid = createdSet.at("/metadata/uid").asText();
    ObjectNode job = Json.object();
    job.put("apiVersion", "batch/v1").put("kind", "Job");
    ObjectNode jobMeta = job.putObject("metadata").put("name", "train-workers-1");
    ownedBy(jobMeta, "jobset.x-k8s.io/v1alpha2", "JobSet", "train", setUid);
    ObjectNode createdJob = kube.store().create(ResourceKinds.JOBS, "team", job);
    ObjectNode pod = TestObjects.pod("team", "train-workers-1-0", TestObjects.SCHEDULER, "1", 1);
    TestObjects.labelled(pod, "jobset.sigs.k8s.io/replicatedjob-name", "workers");
    TestObjects.labelled(pod, "jobset.sigs.k8s.io/job-index", "1");
    ownedBy(
        (ObjectNode) pod.get("metadata"),
        "batch/v1",
        "Job",
        "train-workers-1",
        createdJob.at("/metadata/uid").asText());
    kube.store().create(ResourceKinds.PODS, "team", pod);
    startInformers();

    JsonNode pg = podGroupOf("team", "train-workers-1-0");

    assertThat(pg.at("/metadata/name").asText()).isEqualTo("pg-train-" + setUid);
    assertThat(pg.at("/metadata/ownerReferences/0/kind").asText()).isEqualTo("JobSet");
    assertThat(pg.at("/spec/minSubGroup").asInt()).isEqualTo(2);
    assertThat(pg.at("/spec/subGroups"))
        .extracting(
            s ->
                s.path("name").asText()
                    + "<"
                    + s.path("parent").asText()
                    + ">"
                    + (s.has("minMember") ? s.path("minMember").asInt() : -1)
                    + "/"
                    + (s.has("minSubGroup") ? s.path("minSubGroup").asInt() : -1))
        .containsExactly(
            "driver<>-1/1",
            "driver-replica-0<driver>1/-1",
            "workers<>-1/2",
            "workers-replica-0<workers>4/-1",
            "workers-replica-1<workers>4/-1");
    assertThat(
            kube.store()
                .get(ResourceKinds.PODS, "team", "train-workers-1-0")
                .orElseThrow()
                .at("/metadata/labels")
                .path(PodFacts.SUBGROUP_LABEL)
                .asText())
        .isEqualTo("workers-replica-1");
  }

  @Test
  void aPodWhoseOwnerKindTheApiDoesNotServeIsNotGrouped() {
    rayWorkerWhoseOwnerKindIsNotServedHasAProblem();

    assertThat(grouper.problem("team/ray-worker"))
        .contains(
            "Pod team/ray-worker cannot be grouped: owner RayCluster team/rc: the API server"
                + " serves no ray.io/v1/RayCluster");
    assertThat(kube.store().list(ResourceKinds.POD_GROUPS, "team")).isEmpty();
  }

  @Test
  void theProblemOfADeletedPodIsForgotten() {
    rayWorkerWhoseOwnerKindIsNotServedHasAProblem();

    kube.store().delete(ResourceKinds.PODS, "team", "ray-worker", DeleteOptions.DEFAULT);

    await()
        .atMost(WAIT)
        .until(
            () -> {
              grouper.run(PriorityClassTable.KAI_DEFAULTS);
              return grouper.problem("team/ray-worker").isEmpty();
            });
    assertThat(informers.pod("team/ray-worker")).isNull();
  }

  /** A pod owned by a RayCluster, a kind the fake API server does not serve, and its grouping. */
  private void rayWorkerWhoseOwnerKindIsNotServedHasAProblem() {
    ObjectNode pod = TestObjects.pod("team", "ray-worker", TestObjects.SCHEDULER, "1", 1);
    ownedBy((ObjectNode) pod.get("metadata"), "ray.io/v1", "RayCluster", "rc", "uid-1");
    kube.store().create(ResourceKinds.PODS, "team", pod);
    startInformers();
    await()
        .atMost(WAIT)
        .until(
            () -> {
              grouper.run(PriorityClassTable.KAI_DEFAULTS);
              return grouper.problem("team/ray-worker").isPresent();
            });
  }

  private static void ownedBy(
      ObjectNode metadata, String apiVersion, String kind, String name, String uid) {
    metadata
        .putArray("ownerReferences")
        .addObject()
        .put("apiVersion", apiVersion)
        .put("kind", kind)
        .put("name", name)
        .put("uid", uid)
        .put("controller", true);
  }

  @Test
  void thePerTypeDefaultsConfigMapGivesAJobItsPriorityClass() {
    ObjectNode defaults = Json.object();
    defaults.put("apiVersion", "v1").put("kind", "ConfigMap");
    defaults.putObject("metadata").put("name", "priority-defaults").put("namespace", "kai-system");
    defaults
        .putObject("data")
        .put(
            "types",
            "[{\"typeName\":\"Job.batch\",\"priorityName\":\"build\","
                + "\"preemptibility\":\"preemptible\"}]");
    kube.store().create(ResourceKinds.CONFIG_MAPS, "kai-system", defaults);
    ObjectNode job = KaiManifests.load("batch-batch-job-min-member.yaml", "team");
    String jobUid =
        kube.store().create(ResourceKinds.JOBS, "team", job).at("/metadata/uid").asText();
    kube.store().create(ResourceKinds.PODS, "team", jobPod("worker-0", jobUid));
    startInformers();

    JsonNode pg = podGroupOf("team", "worker-0");

    assertThat(pg.at("/spec/priorityClassName").asText()).isEqualTo("build");
    assertThat(pg.at("/spec/preemptibility").asText()).isEqualTo("preemptible");
  }

  @Test
  void aBadTypesValueIsRefusedSayingWhy() {
    assertThatThrownBy(() -> WorkloadDefaultsConfigMap.parse("{\"typeName\":\"Job\"}"))
        .hasMessage("expected a JSON list of {typeName, priorityName}");
    assertThatThrownBy(() -> WorkloadDefaultsConfigMap.parse("[{\"priorityName\":\"build\"}]"))
        .hasMessage("an entry has no typeName: {\"priorityName\":\"build\"}");
  }

  @Test
  void aUserPodGroupIsHonouredAndNotRewritten() {
    kube.store().create(TestObjects.podGroup("team", "mine", "q", 4));
    ObjectNode pod =
        TestObjects.inGroup(TestObjects.pod("team", "p", TestObjects.SCHEDULER, "1", 0), "mine");
    kube.store().create(ResourceKinds.PODS, "team", pod);
    startInformers();

    grouper.run(PriorityClassTable.KAI_DEFAULTS);

    assertThat(kube.store().list(ResourceKinds.POD_GROUPS, "team")).hasSize(1);
    assertThat(kube.requests().total("patch")).isZero();
  }
}
