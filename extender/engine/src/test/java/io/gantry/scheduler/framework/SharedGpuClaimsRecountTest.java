package io.gantry.scheduler.framework;

import static io.gantry.scheduler.testing.Dra.claim;
import static io.gantry.scheduler.testing.Dra.exactly;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableMap;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.model.dra.ResourceClaim;
import io.gantry.scheduler.plugins.ProportionArgs;
import io.gantry.scheduler.plugins.ProportionPlugin;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Sessions;
import io.gantry.scheduler.testing.Tasks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random allocate, pipeline, evict, unevict, rollback and commit sequences over pods that share DRA
 * GPU claims: after every step the incremental counts (the holder counts, and each queue's GPUs in
 * the proportion plugin) equal a recount from scratch of where the tasks are now.
 */
class SharedGpuClaimsRecountTest {
  private static final List<String> NODES = List.of("n1", "n2");
  private static final List<String> QUEUES = List.of("q1", "q2");
  private static final List<String> CLAIMS = List.of("c0", "c1", "c2");

  static LongStream seeds() {
    return LongStream.range(1, 41);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void incrementalCountsEqualARecount(long seed) {
    Random random = new Random(seed);
    List<JobInfo> jobs = new ArrayList<>();
    for (int j = 0; j < 8; j++) {
      Jobs.Builder job = Jobs.job("j" + j).queue(QUEUES.get(random.nextInt(QUEUES.size())));
      if (random.nextBoolean()) {
        job.nonPreemptible();
      }
      for (int t = 0; t < 1 + random.nextInt(2); t++) {
        Tasks.Builder task = Tasks.task("t" + t).cpu("1");
        if (random.nextInt(3) > 0) {
          task.claim("gpu", CLAIMS.get(random.nextInt(CLAIMS.size())));
        }
        if (random.nextInt(4) == 0) {
          task.claim("own", "own-" + j + "-" + t);
        }
        if (random.nextBoolean()) {
          task.running(NODES.get(random.nextInt(NODES.size())));
        }
        job.task(task);
      }
      jobs.add(job.build());
    }
    List<ResourceClaim> claims = new ArrayList<>();
    CLAIMS.forEach(c -> claims.add(claim(c, exactly("gpu", 1 + c.charAt(1) - '0'))));
    for (JobInfo job : jobs) {
      job.tasks().stream()
          .flatMap(t -> t.resourceClaims().stream())
          .filter(pc -> pc.claimName().startsWith("own-"))
          .forEach(pc -> claims.add(claim(pc.claimName(), exactly("gpu", 1))));
    }
    List<NodeInfo> nodes = new ArrayList<>();
    NODES.forEach(n -> nodes.add(Nodes.node(n).cpu("64").build()));
    ProportionPlugin proportion = new ProportionPlugin(ProportionArgs.DEFAULTS);
    Session s =
        Sessions.open(
            SharedGpuClaimsTest.withClaims(
                nodes,
                List.of(Queues.queue("q1").build(), Queues.queue("q2").build()),
                jobs,
                claims),
            proportion);
    List<TaskState> tasks = new ArrayList<>();
    s.jobs().forEach(j -> tasks.addAll(j.tasks()));
    Map<String, Double> atStart = queueGpus(proportion);
    assertMatchesRecount(s, proportion);

    for (int round = 0; round < 6; round++) {
      Statement st = s.statement();
      List<Statement.Checkpoint> checkpoints = new ArrayList<>();
      for (int step = 0; step < 12; step++) {
        TaskState task = tasks.get(random.nextInt(tasks.size()));
        NodeState node = s.node(NODES.get(random.nextInt(NODES.size())));
        switch (random.nextInt(6)) {
          case 0, 1 -> {
            if (task.status() == TaskStatus.PENDING) {
              st.allocate(task, node, List.of(), GpuAmount.ZERO);
            }
          }
          case 2 -> {
            if (task.status() == TaskStatus.PENDING) {
              st.pipeline(task, node, List.of(), GpuAmount.ZERO);
            } else if (st.evicted(task)) {
              st.pipeline(task, s.node(task.nodeName().orElseThrow()), List.of(), GpuAmount.ZERO);
            }
          }
          case 3 -> {
            if (task.status() == TaskStatus.RUNNING) {
              st.evict(task, "evicted", SharedGpuClaimsTest.CAUSE);
            }
          }
          case 4 -> checkpoints.add(st.checkpoint());
          default -> {
            if (!checkpoints.isEmpty()) {
              st.rollback(checkpoints.remove(checkpoints.size() - 1));
            }
          }
        }
        assertMatchesRecount(s, proportion);
      }
      if (random.nextBoolean()) {
        st.commit();
      } else {
        st.close();
        if (round == 0) {
          assertThat(queueGpus(proportion)).isEqualTo(atStart);
        }
      }
      assertMatchesRecount(s, proportion);
    }
  }

  private static void assertMatchesRecount(Session s, ProportionPlugin proportion) {
    SharedGpuClaims recount = new SharedGpuClaims(s.snapshot().dynamicResources());
    Map<String, List<TaskState>> countedByQueue = new TreeMap<>();
    QUEUES.forEach(q -> countedByQueue.put(q, new ArrayList<>()));
    for (JobState job : s.jobs()) {
      for (TaskState t : job.tasks()) {
        if (TaskMoves.countsAsAllocated(t.status())) {
          recount.hold(t, t.nodeName().orElseThrow());
          countedByQueue.get(job.info().queue()).add(t);
        }
      }
    }
    assertThat(s.sharedClaims().holdersView()).isEqualTo(recount.holdersView());
    Map<String, Double> recounted = new TreeMap<>();
    countedByQueue.forEach((q, held) -> recounted.put(q, s.heldGpus(held).toDouble()));
    assertThat(queueGpus(proportion)).isEqualTo(recounted);
  }

  private static Map<String, Double> queueGpus(ProportionPlugin proportion) {
    Map<String, Double> out = new TreeMap<>();
    QUEUES.forEach(q -> out.put(q, proportion.queues().get(q).allocated(ResourceKind.GPU)));
    return ImmutableMap.copyOf(out);
  }
}
