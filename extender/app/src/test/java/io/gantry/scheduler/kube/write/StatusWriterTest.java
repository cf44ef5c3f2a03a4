package io.gantry.scheduler.kube.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import io.gantry.fakekube.FakeKubeServer;
import io.gantry.fakekube.PatchType;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.kubemodel.kai.PodGroupLifecycle;
import io.gantry.scheduler.kube.KubeClients;
import io.gantry.scheduler.kube.TestObjects;
import io.gantry.scheduler.kube.config.NodePool;
import io.gantry.scheduler.kube.informers.ClusterInformers;
import io.gantry.scheduler.kube.lease.Leadership;
import io.gantry.scheduler.kube.write.StatusPlanner.Plan;
import io.gantry.scheduler.kube.write.StatusPlanner.PodGroupAnnotations;
import io.gantry.scheduler.kube.write.StatusPlanner.PodGroupResources;
import io.gantry.scheduler.kube.write.StatusPlanner.PodGroupStatus;
import io.gantry.scheduler.model.JobLifecycle;
import io.gantry.scheduler.model.ResourceVector;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What StatusWriter queues and writes for planned values, over a fake API server. The writing
 * thread is held at its first write (the leadership check just before it) while a test plans more,
 * so what is queued meanwhile is observable.
 */
class StatusWriterTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final Instant PLANNED = Instant.parse("2026-03-01T10:00:00Z");
  private static final Instant WRITTEN = Instant.parse("2026-03-01T10:05:00Z");
  private static final String STATUS_PATH =
      "/apis/scheduling.run.ai/v2alpha2/namespaces/ml/podgroups/%s/status";
  private static final PodGroupResources ONE_GPU =
      new PodGroupResources(
          ResourceVector.ZERO, ResourceVector.ZERO, new ResourceVector(1, 1000, 1 << 30));
  private static final PodGroupResources TWO_GPUS =
      new PodGroupResources(
          ResourceVector.ZERO, ResourceVector.ZERO, new ResourceVector(2, 1000, 1 << 30));

  private final FakeKubeServer kube = FakeKubeServer.start();
  private final ClusterInformers cache = new ClusterInformers(KubeClients.forUrl(kube.url()));
  private final KubeWriter writer = new KubeWriter(KubeClients.forUrl(kube.url()));
  private final SettableClock clock = new SettableClock(PLANNED);
  private final EventRecorder events = new EventRecorder(writer, "gantry-scheduler", clock, 1000);
  private final HeldLeadership leadership = new HeldLeadership();
  private final StatusWriter status =
      new StatusWriter(cache, writer, events, leadership, NodePool.ALL, clock, 1000);

  @BeforeEach
  void start() {
    for (String name : List.of("blocker", "pg")) {
      kube.store().create(TestObjects.podGroup("ml", name, "default-queue", 1));
    }
    cache.start();
    await().atMost(WAIT).until(() -> cache.hasSynced() && cache.podGroup("ml", "pg") != null);
  }

  @AfterEach
  void stop() {
    leadership.release();
    status.close();
    events.close();
    cache.close();
    kube.close();
  }

  /** Plans a write for "blocker" and waits until the writing thread holds at it. */
  private void holdTheWriter() {
    status.publish(plan(statusOf("blocker", ONE_GPU)));
    await().atMost(WAIT).until(() -> leadership.waiting.get() > 0);
  }

  private static PodGroupStatus statusOf(String name, PodGroupResources resources) {
    return new PodGroupStatus("ml", name, Optional.empty(), resources);
  }

  private static PodGroupStatus unschedulable(String name, String message) {
    return new PodGroupStatus(
        "ml", name, Optional.of(List.of(StatusPlanner.condition(message, NodePool.ALL))), ONE_GPU);
  }

  private static Plan plan(PodGroupStatus... statuses) {
    return new Plan(
        ImmutableList.of(), ImmutableList.copyOf(statuses), ImmutableList.of(), ImmutableList.of());
  }

  private static Plan lifecycle(JobLifecycle lifecycle) {
    return new Plan(
        ImmutableList.of(),
        ImmutableList.of(),
        ImmutableList.of(new PodGroupAnnotations("ml", "pg", lifecycle)),
        ImmutableList.of());
  }

  private int statusPatches(String name) {
    return kube.requests().count("patch", STATUS_PATH.formatted(name));
  }

  private JsonNode podGroup(String name) {
    return kube.store().get(ResourceKinds.POD_GROUPS, "ml", name).orElseThrow();
  }

  @Test
  void aNewerValueReplacesTheQueuedOneAndItsConditionIsTimedWhenWritten() {
    kube.store()
        .patch(
            ResourceKinds.POD_GROUPS,
            "ml",
            "pg",
            PatchType.MERGE_PATCH,
            "{\"status\":{\"schedulingConditions\":[{\"type\":\"UnschedulableOnNodePool\","
                + "\"message\":\"old\",\"transitionID\":\"3\"}]}}",
            true);
    await()
        .atMost(WAIT)
        .until(() -> cache.podGroup("ml", "pg").status().schedulingConditions() != null);
    holdTheWriter();

    status.publish(plan(unschedulable("pg", "first")));
    status.publish(plan(unschedulable("pg", "second")));
    assertThat(status.backlog()).isEqualTo(1);
    clock.set(WRITTEN);
    leadership.release();

    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(podGroup("pg").at("/status/schedulingConditions/0").toString())
                    .isEqualTo(
                        "{\"type\":\"UnschedulableOnNodePool\",\"nodePool\":\"default\","
                            + "\"reason\":\"Unschedulable\",\"message\":\"second\",\"reasons\":"
                            + "[{\"reason\":\"PodSchedulingErrors\",\"message\":\"second\"}],"
                            + "\"status\":\"True\",\"transitionID\":\"4\","
                            + "\"lastTransitionTime\":\"2026-03-01T10:05:00Z\"}"));
    assertThat(statusPatches("pg")).isEqualTo(1);
  }

  @Test
  void aValueEqualToTheOneQueuedOrWrittenIsNotQueuedAgain() {
    holdTheWriter();

    status.publish(plan(statusOf("pg", ONE_GPU)));
    status.publish(plan(statusOf("pg", ONE_GPU)));
    assertThat(status.backlog()).isEqualTo(1);
    leadership.release();
    await().atMost(WAIT).until(() -> statusPatches("pg") == 1);
    // someone else changes the status; within RESUBMIT_AFTER the same value is not written again
    // (the cache may not show the write yet), a different one is
    kube.store()
        .patch(
            ResourceKinds.POD_GROUPS,
            "ml",
            "pg",
            PatchType.MERGE_PATCH,
            "{\"status\":{\"resourcesStatus\":null}}",
            true);
    await()
        .atMost(WAIT)
        .until(
            () ->
                cache.podGroup("ml", "pg").status() == null
                    || cache.podGroup("ml", "pg").status().resourcesStatus() == null);

    status.publish(plan(statusOf("pg", ONE_GPU)));
    // a write of another PodGroup after it: once that is made, the writer has passed any write of
    // "pg" the same value could have queued
    status.publish(plan(statusOf("blocker", TWO_GPUS)));
    await().atMost(WAIT).until(() -> statusPatches("blocker") == 2);
    assertThat(statusPatches("pg")).isEqualTo(1);

    status.publish(plan(statusOf("pg", TWO_GPUS)));
    await().atMost(WAIT).until(() -> statusPatches("pg") == 2);
  }

  @Test
  void aValueTheCacheShowsIsNotWritten() {
    kube.store()
        .patch(
            ResourceKinds.POD_GROUPS,
            "ml",
            "pg",
            PatchType.MERGE_PATCH,
            "{\"status\":{\"resourcesStatus\":{\"allocated\":{\"cpu\":\"0m\",\"memory\":\"0\","
                + "\"nvidia.com/gpu\":\"0\"},\"allocatedNonPreemptible\":{\"cpu\":\"0m\","
                + "\"memory\":\"0\",\"nvidia.com/gpu\":\"0\"},\"requested\":{\"cpu\":\"1000m\","
                + "\"memory\":\"1073741824\",\"nvidia.com/gpu\":\"2\"}}}}",
            true);
    await().atMost(WAIT).until(() -> cache.podGroup("ml", "pg").status() != null);
    holdTheWriter();

    status.publish(plan(statusOf("pg", TWO_GPUS)));
    assertThat(status.backlog()).isZero();
    status.publish(plan(statusOf("pg", ONE_GPU)));
    assertThat(status.backlog()).isEqualTo(1);
    leadership.release();

    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(podGroup("pg").at("/status/resourcesStatus/requested").toString())
                    .isEqualTo(
                        "{\"cpu\":\"1000m\",\"memory\":\"1073741824\",\"nvidia.com/gpu\":\"1\"}"));
    assertThat(statusPatches("pg")).isEqualTo(1);
  }

  @Test
  void aFailedWriteIsQueuedAgainByTheNextPlanOfTheSameValue() {
    leadership.release();
    kube.refusals().refuse("patch", STATUS_PATH.formatted("pg"), 500, "InternalError", "down");

    status.publish(plan(statusOf("pg", ONE_GPU)));
    await().atMost(WAIT).until(() -> statusPatches("pg") == 1);
    await().atMost(WAIT).until(() -> status.backlog() == 0);
    kube.refusals().clear();
    status.publish(plan(statusOf("pg", ONE_GPU)));

    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(podGroup("pg").at("/status/resourcesStatus/requested/nvidia.com~1gpu"))
                    .hasToString("\"1\""));
    assertThat(statusPatches("pg")).isEqualTo(2);
  }

  @Test
  void aStartPlannedOnceIsWrittenThoughTheCyclesAfterItPlanWhatTheCacheShows() {
    holdTheWriter();

    status.publish(lifecycle(JobLifecycle.NONE.withLastStartedAt(Optional.of(PLANNED))));
    // the next cycles read the job back from the PodGroup, which has no start annotation yet
    status.publish(lifecycle(JobLifecycle.NONE));
    status.publish(lifecycle(JobLifecycle.NONE));
    leadership.release();

    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(podGroup("pg").at("/metadata/annotations").toString())
                    .isEqualTo(
                        "{\"" + PodGroupLifecycle.LAST_START + "\":\"2026-03-01T10:00:00Z\"}"));
  }

  /** Leads, but holds the first caller until released. */
  private static final class HeldLeadership implements Leadership {
    private final CountDownLatch released = new CountDownLatch(1);
    private final AtomicInteger waiting = new AtomicInteger();

    @Override
    public boolean isLeader() {
      waiting.incrementAndGet();
      try {
        released.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return true;
    }

    void release() {
      released.countDown();
    }
  }

  private static final class SettableClock extends Clock {
    private volatile Instant now;

    SettableClock(Instant now) {
      this.now = now;
    }

    void set(Instant at) {
      now = at;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException("a test clock stays in UTC");
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
