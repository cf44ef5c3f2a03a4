package io.gantry.e2e;

import static io.gantry.scheduler.kube.TestObjects.gpuNode;
import static io.gantry.scheduler.kube.TestObjects.inGroup;
import static io.gantry.scheduler.kube.TestObjects.pod;
import static io.gantry.scheduler.kube.TestObjects.podGroup;
import static io.gantry.scheduler.kube.TestObjects.queue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.gantry.scheduler.kube.KubeScheduler;
import io.gantry.scheduler.kube.Schedulers;
import io.gantry.scheduler.kube.TestObjects;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two replicas elect a leader on a Lease: only the leader binds; when it dies (no release), the
 * standby takes over within the lease duration and nothing is bound twice; a replica that dies in
 * the middle of binding leaves no node over-booked once another finishes the work.
 */
class LeaderElectionE2eTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  /** Schedulers.settings: lease 3 s, renew deadline 2 s, retry 250 ms. */
  private static final Duration LEASE = Duration.ofSeconds(3);

  private final E2eCluster cluster = new E2eCluster();
  private int created;

  @AfterEach
  void stop() {
    cluster.close();
  }

  /** Two binds at a time, so that a replica dies with binds under way. */
  private static io.gantry.scheduler.kube.config.SchedulerSettings replica(String identity) {
    return Schedulers.settings(
        Duration.ofMillis(100),
        Optional.of(identity),
        io.gantry.scheduler.api.config.SchedulerConfig.DEFAULTS,
        2);
  }

  private void pods(int n) {
    for (int i = 0; i < n; i++) {
      String name = "job-" + created++;
      cluster.create(podGroup("ns", name, "team", 1));
      cluster.create(inGroup(pod("ns", name, TestObjects.SCHEDULER, "1", 1), name));
    }
  }

  @Test
  void onlyTheLeaderBindsAndAStandbyTakesOverWithoutDoubleBooking() {
    for (int i = 0; i < 16; i++) {
      cluster.node(gpuNode("gpu-" + i, 8));
    }
    cluster.create(queue("root", null, 0));
    cluster.create(queue("team", "root", 0));
    KubeScheduler a = cluster.scheduler(replica("replica-a"));
    KubeScheduler b = cluster.scheduler(replica("replica-b"));
    await().atMost(WAIT).until(() -> a.isLeader() != b.isLeader());
    KubeScheduler leader = a.isLeader() ? a : b;
    KubeScheduler standby = leader == a ? b : a;

    pods(8);
    await().atMost(WAIT).until(() -> cluster.boundPods("ns") == 8);
    assertThat(standby.cycles()).isZero();
    assertThat(standby.isLeader()).isFalse();

    long killedAt = System.nanoTime();
    leader.halt();
    await().atMost(LEASE.plus(Duration.ofSeconds(3))).until(standby::isLeader);
    Duration handover = Duration.ofNanos(System.nanoTime() - killedAt);
    System.out.printf(
        "leader killed; standby took over after %d ms (lease %d ms)%n",
        handover.toMillis(), LEASE.toMillis());

    pods(8);
    await().atMost(WAIT).until(() -> cluster.boundPods("ns") == 16);
    for (int i = 0; i < 16; i++) {
      assertThat(cluster.bindings("ns", "job-" + i)).as("job-" + i).isEqualTo(1);
    }

    // the new leader dies in the middle of binding 100 pods; a third replica finishes the work
    long before = cluster.bindings();
    pods(100);
    await().atMost(WAIT).until(() -> cluster.bindings() >= before + 10);
    standby.halt();
    KubeScheduler c = cluster.scheduler(replica("replica-c"));
    await().atMost(WAIT).until(() -> cluster.boundPods("ns") == 116);
    await().atMost(WAIT).until(c::isLeader);
    Map<String, Integer> gpusPerNode = new HashMap<>();
    for (JsonNode p : cluster.pods("ns")) {
      gpusPerNode.merge(p.at("/spec/nodeName").asText(), 1, Integer::sum);
    }
    assertThat(gpusPerNode.values()).allMatch(gpus -> gpus <= 8);
    assertThat(gpusPerNode.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(116);
  }
}
