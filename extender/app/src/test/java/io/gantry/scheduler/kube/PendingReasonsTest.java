package io.gantry.scheduler.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.gantry.fakekube.FakeKubeServer;
import io.gantry.fakekube.FakeKubelet;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.scheduler.kube.config.SchedulerSettings;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A pod that can never be scheduled as it is written is told why, over a fake API server: its
 * {@code PodScheduled=False} condition and a warning event carry the reason. A pod naming a
 * PodGroup that does not exist used to get nothing at all; one of a parent queue, of a queue whose
 * parent is missing or of a queue in a cycle got {@code Queue 'X' does not exist}.
 */
class PendingReasonsTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String SCHEDULER = SchedulerSettings.DEFAULT_SCHEDULER_NAME;

  private final FakeKubeServer kube = FakeKubeServer.start();
  private final FakeKubelet kubelet = FakeKubelet.start(kube);
  private KubeScheduler scheduler;

  @AfterEach
  void stop() {
    if (scheduler != null) {
      scheduler.close();
    }
    kubelet.close();
    kube.close();
  }

  private void startScheduler() {
    scheduler =
        KubeScheduler.start(
            KubeClients.forUrl(kube.url()),
            Schedulers.settings(Duration.ofMillis(100), Optional.empty()),
            Clock.systemUTC());
  }

  /** Waits until the pod shows PodScheduled=False with {@code message}, and its event says so. */
  private void awaitUnschedulable(String pod, String message) {
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              JsonNode p = kube.store().get(ResourceKinds.PODS, "ml", pod).orElseThrow();
              assertThat(p.at("/status/conditions"))
                  .as(pod)
                  .anySatisfy(
                      c -> {
                        assertThat(c.path("type").asText()).isEqualTo("PodScheduled");
                        assertThat(c.path("status").asText()).isEqualTo("False");
                        assertThat(c.path("reason").asText()).isEqualTo("Unschedulable");
                        assertThat(c.path("message").asText()).isEqualTo(message);
                      });
              assertThat(kube.store().list(ResourceKinds.EVENTS, "ml"))
                  .as(pod)
                  .anySatisfy(
                      e -> {
                        assertThat(e.at("/involvedObject/name").asText()).isEqualTo(pod);
                        assertThat(e.path("type").asText()).isEqualTo("Warning");
                        assertThat(e.path("reason").asText()).isEqualTo("Unschedulable");
                        assertThat(e.path("message").asText()).isEqualTo(message);
                      });
            });
  }

  @Test
  void aPodNamingAPodGroupThatDoesNotExistIsToldSo() {
    kubelet.registerNode(TestObjects.gpuNode("gpu-0", 8));
    TestObjects.defaultQueues(kube);
    TestObjects.create(
        kube,
        TestObjects.inGroup(
            TestObjects.labelled(
                TestObjects.pod("ml", "lost", SCHEDULER, "1", 1),
                "kai.scheduler/queue",
                "default-queue"),
            "ghost"));

    startScheduler();

    awaitUnschedulable(
        "lost",
        "PodGroup \"ghost\" named by the pod's pod-group-name annotation does not exist in its"
            + " namespace; the pod waits until it is created");
    JsonNode lost = kube.store().get(ResourceKinds.PODS, "ml", "lost").orElseThrow();
    assertThat(lost.at("/spec/nodeName").isMissingNode()).isTrue();
  }

  @Test
  void aPodOfAQueueThatHoldsNoJobsIsToldWhy() {
    kubelet.registerNode(TestObjects.gpuNode("gpu-0", 8));
    TestObjects.defaultQueues(kube);
    kube.store().create(TestObjects.queue("orphan", "ghost", 0));
    kube.store().create(TestObjects.queue("a", "b", 0));
    kube.store().create(TestObjects.queue("b", "a", 0));
    for (String queue : new String[] {"default-parent-queue", "orphan", "a"}) {
      kube.store().create(TestObjects.podGroup("ml", "pg-" + queue, queue, 1));
      TestObjects.create(
          kube,
          TestObjects.inGroup(
              TestObjects.pod("ml", "in-" + queue, SCHEDULER, "1", 1), "pg-" + queue));
    }

    startScheduler();

    // KAI's form of a job's fit error on its pods: "<reason code>: <message>."
    awaitUnschedulable(
        "in-default-parent-queue",
        "QueueDoesNotExist: Queue 'default-parent-queue' is not a leaf queue (it is the parent of"
            + " 'default-queue'); jobs go to leaf queues.");
    awaitUnschedulable(
        "in-orphan", "QueueDoesNotExist: Parent queue 'ghost' of queue 'orphan' does not exist.");
    awaitUnschedulable("in-a", "QueueDoesNotExist: Queue 'a' is in a cycle: a -> b -> a.");
  }
}
