package io.gantry.scheduler.kube.snapshot;

import static io.gantry.scheduler.kube.TestObjects.SCHEDULER;
import static io.gantry.scheduler.kube.TestObjects.inGroup;
import static io.gantry.scheduler.kube.TestObjects.labelled;
import static io.gantry.scheduler.kube.TestObjects.onNode;
import static io.gantry.scheduler.kube.TestObjects.pod;
import static io.gantry.scheduler.kube.TestObjects.podGroup;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.fakekube.DeleteOptions;
import io.gantry.fakekube.FakeKubeServer;
import io.gantry.fakekube.Json;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.scheduler.api.usage.UsageSource;
import io.gantry.scheduler.kube.TestObjects;
import io.gantry.scheduler.kube.config.NodePool;
import io.gantry.scheduler.kube.informers.ClusterInformers;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import io.kubernetes.client.openapi.models.V1Pod;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.SortedSet;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link SnapshotBuilder#candidateStatus}, read from the caches without a snapshot, agrees with a
 * snapshot built from the same caches, pod by pod, after random creates, updates and deletes of
 * pods and of their PodGroups.
 */
class CandidateStatusTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
  private static final String NS = "default";

  /** In the pool, out of the pool, never created. */
  private static final String[] GROUPS = {"pg-in", "pg-out", "pg-missing"};

  private final SnapshotFixture fixture = new SnapshotFixture();
  private final FakeKubeServer kube = fixture.kube;
  private final ClusterInformers informers = fixture.informers;

  @AfterEach
  void stop() {
    fixture.close();
  }

  @Test
  void agreesWithASnapshotAfterRandomEvents() {
    TestObjects.defaultQueues(kube);
    createGroups();
    SnapshotBuilder builder =
        fixture.builder(
            new NodePool(Optional.of("pool"), Optional.of("a")),
            Clock.fixed(NOW, ZoneOffset.UTC),
            key -> Optional.empty(),
            UsageSource.NONE);
    Random random = new Random(20261201);
    TreeSet<String> names = new TreeSet<>();
    for (int i = 0; i < 40; i++) {
      names.add("p" + i);
      write("p" + i, random, true);
    }
    assertAgree(builder, names, true);

    for (int round = 0; round < 4; round++) {
      for (String name : names) {
        boolean exists = kube.store().get(ResourceKinds.PODS, NS, name).isPresent();
        int pick = random.nextInt(4);
        if (!exists) {
          if (pick < 2) {
            write(name, random, true);
          }
        } else if (pick == 0) {
          kube.store().delete(ResourceKinds.PODS, NS, name, DeleteOptions.DEFAULT);
        } else if (pick == 1) {
          write(name, random, false);
        }
      }
      if (round == 2) {
        // a PodGroup that goes away takes its pods out of the snapshot
        kube.store().delete(ResourceKinds.POD_GROUPS, NS, "pg-in", DeleteOptions.DEFAULT);
      }
      if (round == 3) {
        createGroups();
      }
      assertAgree(builder, names, round != 2);
    }
  }

  private void createGroups() {
    if (kube.store().get(ResourceKinds.POD_GROUPS, NS, "pg-in").isEmpty()) {
      kube.store().create(labelled(podGroup(NS, "pg-in", "default-queue", 1), "pool", "a"));
    }
    if (kube.store().get(ResourceKinds.POD_GROUPS, NS, "pg-out").isEmpty()) {
      kube.store().create(labelled(podGroup(NS, "pg-out", "default-queue", 1), "pool", "b"));
    }
  }

  /**
   * Creates a random pod of either scheduler, in any group or none, bound or not, gated or not; or
   * moves the pod to a random group or none (a pod's spec does not change). Then sets its phase,
   * Pending or Running.
   */
  private void write(String name, Random random, boolean create) {
    if (create) {
      TestObjects.create(kube, randomPod(name, random));
    } else {
      ObjectNode p = kube.store().get(ResourceKinds.PODS, NS, name).orElseThrow().deepCopy();
      TestObjects.annotations(p).remove(PodFacts.POD_GROUP_ANNOTATION);
      int group = random.nextInt(GROUPS.length + 1);
      if (group < GROUPS.length) {
        inGroup(p, GROUPS[group]);
      }
      kube.store().update(ResourceKinds.PODS, NS, name, p);
    }
    // the phase is status, which only the status subresource writes
    ObjectNode status = Json.object();
    status.putObject("status").put("phase", random.nextInt(4) == 0 ? "Running" : "Pending");
    kube.store().updateStatus(ResourceKinds.PODS, NS, name, status);
  }

  private static ObjectNode randomPod(String name, Random random) {
    ObjectNode p = pod(NS, name, random.nextInt(4) == 0 ? "default-scheduler" : SCHEDULER, "1", 0);
    int group = random.nextInt(GROUPS.length + 1);
    if (group < GROUPS.length) {
      inGroup(p, GROUPS[group]);
    }
    if (random.nextInt(3) == 0) {
      onNode(p, "n0");
    }
    if (random.nextInt(5) == 0) {
      ((ObjectNode) p.get("spec")).putArray("schedulingGates").addObject().put("name", "wait");
    }
    return p;
  }

  /**
   * Waits until the pod cache holds what the store holds, then compares every name's candidate
   * status with its task's status in a snapshot.
   */
  private void assertAgree(SnapshotBuilder builder, SortedSet<String> names, boolean groupExists) {
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              for (String name : names) {
                Optional<String> stored =
                    kube.store()
                        .get(ResourceKinds.PODS, NS, name)
                        .map(o -> o.path("metadata").path("resourceVersion").asText());
                V1Pod cached = informers.pod(PodFacts.key(NS, name));
                assertThat(
                        Optional.ofNullable(cached).map(c -> c.getMetadata().getResourceVersion()))
                    .as(name)
                    .isEqualTo(stored);
              }
              assertThat(informers.podGroups())
                  .hasSize(kube.store().list(ResourceKinds.POD_GROUPS, NS).size());
            });
    Map<String, TaskStatus> inSnapshot = new HashMap<>();
    for (JobInfo j : builder.build().snapshot().jobs()) {
      for (TaskInfo t : j.tasks()) {
        inSnapshot.put(t.id(), t.status());
      }
    }
    int members = 0;
    for (String name : names) {
      String key = PodFacts.key(NS, name);
      Optional<TaskStatus> expected = Optional.ofNullable(inSnapshot.get(key));
      assertThat(builder.candidateStatus(key)).as(key).isEqualTo(expected);
      members += expected.isPresent() ? 1 : 0;
    }
    // the random pods leave some in the snapshot and some out, so both answers are compared
    assertThat(members).isBetween(groupExists ? 1 : 0, groupExists ? names.size() - 1 : 0);
    assertThat(builder.candidateStatus("no-such-namespace/no-such-pod")).isEmpty();
  }
}
