package io.gantry.scheduler.fairness;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.ResourceVector;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.testing.Queues;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kai-reference §5.7: the first step that tells two sibling queues apart decides. Each case is
 * built so that one step decides and the later steps would have decided the other way, where that
 * is possible. Resources are (GPUs, CPU millicores, memory bytes).
 */
// The cases carry the engine's double[] inputs (per ResourceKind) and are never compared.
@SuppressWarnings("ArrayRecordComponent")
class QueueOrderRuleTest {
  private static final ResourceVector CLUSTER = new ResourceVector(8, 64_000, 512e9);
  private static final Resources NONE = Resources.ZERO;
  private static final Resources ONE_GPU = gpus(1);

  /** A queue's state: quotas and limits, fair share and allocation per resource, priority, age. */
  static final class Q {
    private final String name;
    private double gpuQuota = 4;
    private double gpuLimit = -1;
    private double cpuQuota = -1;
    private double cpuLimit = -1;
    private ResourceVector fairShare = new ResourceVector(4, 32_000, 256e9);
    private Resources allocated = NONE;
    private int priority = 100;
    private long creationOrder;

    private Q(String name) {
      this.name = name;
    }

    static Q q(String name) {
      return new Q(name);
    }

    Q gpuQuota(double quota) {
      this.gpuQuota = quota;
      return this;
    }

    Q gpuLimit(double limit) {
      this.gpuLimit = limit;
      return this;
    }

    Q cpuQuota(double quota) {
      this.cpuQuota = quota;
      return this;
    }

    Q cpuLimit(double limit) {
      this.cpuLimit = limit;
      return this;
    }

    Q fairShare(double gpu, double cpu, double memory) {
      this.fairShare = new ResourceVector(gpu, cpu, memory);
      return this;
    }

    Q allocated(long gpus, long cpuMillis, long memoryBytes) {
      this.allocated = Resources.of(cpuMillis, memoryBytes, GpuAmount.ofDevices(gpus));
      return this;
    }

    Q priority(int p) {
      this.priority = p;
      return this;
    }

    Q created(long order) {
      this.creationOrder = order;
      return this;
    }

    QueueAttributes attributes() {
      QueueAttributes a =
          new QueueAttributes(
              Queues.queue(name)
                  .gpu(gpuQuota, 1, gpuLimit)
                  .cpu(cpuQuota, 1, cpuLimit)
                  .priority(priority)
                  .creationOrder(creationOrder)
                  .build());
      for (ResourceKind r : ResourceKind.values()) {
        a.setFairShare(r, fairShare.get(r));
      }
      a.addAllocated(allocated, false);
      return a;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  record Case(String name, Q a, Resources requestA, Q b, Resources requestB, int expectedSign) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        // 1. over fair share (in all three resources) loses, even with higher priority
        new Case(
            "1: a queue over its fair share in every resource goes last",
            Q.q("a").fairShare(2, 8_000, 8e9).allocated(3, 9_000, 9_000_000_000L).priority(200),
            ONE_GPU,
            Q.q("b").fairShare(2, 8_000, 8e9).allocated(3, 0, 0),
            ONE_GPU,
            1),
        new Case(
            "1: over fair share in GPUs alone is not over fair share",
            Q.q("a").fairShare(2, 8_000, 8e9).allocated(3, 0, 0).priority(200),
            ONE_GPU,
            Q.q("b").fairShare(2, 8_000, 8e9).allocated(0, 0, 0),
            ONE_GPU,
            -1),
        // 2. within deserved quota with the job beats beyond it, even against priority
        new Case(
            "2: allocation plus job within quota beats beyond quota",
            Q.q("a").gpuQuota(2).allocated(2, 0, 0).priority(200),
            ONE_GPU,
            Q.q("b").gpuQuota(2).allocated(1, 0, 0),
            ONE_GPU,
            1),
        new Case(
            "2: an unlimited quota is always within quota",
            Q.q("a").gpuQuota(-1).allocated(6, 0, 0),
            ONE_GPU,
            Q.q("b").gpuQuota(2).allocated(2, 0, 0).priority(200),
            ONE_GPU,
            -1),
        // 3. higher priority, even with the higher dominant share
        new Case(
            "3: higher priority first",
            Q.q("a").allocated(2, 0, 0).priority(150),
            ONE_GPU,
            Q.q("b").allocated(0, 0, 0),
            ONE_GPU,
            -1),
        // 4. a job that needs a resource whose allocatable share is 0 loses, even with lower DRS
        new Case(
            "4: asking for a resource with zero allocatable share goes last",
            Q.q("a").gpuQuota(0).gpuLimit(0),
            ONE_GPU,
            Q.q("b").gpuQuota(0).cpuLimit(0).allocated(0, 5_000, 0),
            ONE_GPU,
            1),
        // 5. lower dominant resource share with the job
        new Case(
            "5: lower dominant share with the job first",
            Q.q("a").allocated(2, 0, 0),
            ONE_GPU,
            Q.q("b").allocated(0, 0, 0),
            ONE_GPU,
            1),
        new Case(
            "5: the job's own request counts in the dominant share",
            Q.q("a").allocated(0, 0, 0),
            gpus(3),
            Q.q("b").allocated(1, 0, 0),
            ONE_GPU,
            1),
        new Case(
            "5: the dominant resource may be CPU",
            Q.q("a").allocated(1, 56_000, 0),
            ONE_GPU,
            Q.q("b").allocated(2, 0, 0),
            ONE_GPU,
            1),
        // 6. equal share with the job: lower share without it
        new Case(
            "6: equal share with the job, lower share without it first",
            Q.q("a").allocated(1, 0, 0),
            gpus(2),
            Q.q("b").allocated(2, 0, 0),
            ONE_GPU,
            -1),
        // 7. smaller allocatable share (≤ in all, < in one)
        new Case(
            "7: smaller allocatable share first",
            Q.q("a").gpuQuota(2).fairShare(2, 32_000, 256e9),
            NONE,
            Q.q("b").gpuQuota(4).fairShare(4, 32_000, 256e9),
            NONE,
            -1),
        new Case(
            "7: allocatable shares that cross are not ordered, so age decides",
            Q.q("a").gpuQuota(2).cpuQuota(48_000).fairShare(2, 48_000, 256e9).created(2),
            NONE,
            Q.q("b").gpuQuota(4).cpuQuota(32_000).fairShare(4, 32_000, 256e9).created(1),
            NONE,
            1),
        // 8. older first
        new Case(
            "8: otherwise the older queue first",
            Q.q("a").created(1),
            ONE_GPU,
            Q.q("b").created(0),
            ONE_GPU,
            1));
  }

  private static Resources gpus(long devices) {
    return Resources.of(0, 0, GpuAmount.ofDevices(devices));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void firstDifferenceWins(Case c) {
    QueueOrderRule rule = new QueueOrderRule(CLUSTER);
    QueueAttributes a = c.a().attributes();
    QueueAttributes b = c.b().attributes();

    assertThat(Integer.signum(rule.compare(a, c.requestA(), b, c.requestB())))
        .isEqualTo(c.expectedSign());
    assertThat(Integer.signum(rule.compare(b, c.requestB(), a, c.requestA())))
        .isEqualTo(-c.expectedSign());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void positionsComputedOnceOrderTheSame(Case c) {
    QueueOrderRule rule = new QueueOrderRule(CLUSTER);
    QueueAttributes a = c.a().attributes();
    QueueAttributes b = c.b().attributes();

    assertThat(rule.compare(rule.position(a, c.requestA()), rule.position(b, c.requestB())))
        .isEqualTo(rule.compare(a, c.requestA(), b, c.requestB()));
    assertThat(rule.compare(rule.position(b, c.requestB()), rule.position(a, c.requestA())))
        .isEqualTo(rule.compare(b, c.requestB(), a, c.requestA()));
  }
}
