package io.gantry.scheduler.fairness;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.ResourceVector;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.testing.FitTexts;
import io.gantry.scheduler.testing.FitTexts.JobFitText;
import io.gantry.scheduler.testing.Queues;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kai-reference §4.6 step 2 and §5.5: from the leaf queue up to the root, OverLimit when {@code
 * limit ≠ -1 and limit < allocated + requested} for a requested resource, and, for non-preemptible
 * jobs, NonPreemptibleOverQuota when {@code quota ≠ -1 and quota < allocatedNonPreemptible +
 * requested}; with KAI's messages. Amounts are (GPUs, CPU millicores, memory bytes).
 */
// The cases carry the engine's double[] inputs (per ResourceKind) and are never compared.
@SuppressWarnings("ArrayRecordComponent")
class CapacityChecksTest {
  private static final long GB = 1_000_000_000L;
  private static final ResourceVector CLUSTER = new ResourceVector(16, 128_000, 1024e9);

  /** Allocation already in a leaf queue (and so in its ancestors). */
  record Allocation(String queue, Resources amounts, boolean nonPreemptible) {}

  /** The job's queue is the last one listed. */
  record Case(
      String name,
      List<QueueInfo> queues,
      List<Allocation> allocations,
      Resources request,
      boolean nonPreemptible,
      Optional<JobFitText> expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "within the limit",
            List.of(Queues.queue("q").gpu(-1, 1, 4).build()),
            List.of(preemptible("q", 2, 0, 0)),
            gpus(2),
            false,
            Optional.empty()),
        new Case(
            "over the GPU limit",
            List.of(Queues.queue("q").gpu(-1, 1, 4).build()),
            List.of(preemptible("q", 3, 0, 0)),
            gpus(2),
            false,
            overLimit(
                "q quota has reached the allowable limit of GPUs. Limit is 4 GPUs, currently 3 GPUs"
                    + " allocated and workload requested 2 GPUs")),
        new Case(
            "limit 0 is a cap of zero",
            List.of(Queues.queue("q").gpu(0, 1, 0).build()),
            List.of(),
            gpus(1),
            false,
            overLimit(
                "q quota has reached the allowable limit of GPUs. Limit is 0 GPUs, currently 0 GPUs"
                    + " allocated and workload requested 1 GPUs")),
        new Case(
            "limit 0 on GPUs does not stop a CPU-only job",
            List.of(Queues.queue("q").gpu(0, 1, 0).build()),
            List.of(),
            amounts(0, 4_000, 8 * GB),
            false,
            Optional.empty()),
        new Case(
            "limit -1 is unlimited",
            List.of(Queues.queue("q").gpu(-1, 1, -1).build()),
            List.of(preemptible("q", 100, 0, 0)),
            gpus(100),
            false,
            Optional.empty()),
        new Case(
            "fractional GPUs are printed with their decimals",
            List.of(Queues.queue("q").gpu(-1, 1, 1).build()),
            List.of(preemptible("q", 0.75, 0, 0)),
            gpus(0.5),
            false,
            overLimit(
                "q quota has reached the allowable limit of GPUs. Limit is 1 GPUs, currently 0.75"
                    + " GPUs allocated and workload requested 0.5 GPUs")),
        new Case(
            "over the limit of the parent queue, allocated through a sibling",
            List.of(
                Queues.queue("p").gpu(-1, 1, 3).build(),
                Queues.queue("b").parent("p").build(),
                Queues.queue("a").parent("p").build()),
            List.of(preemptible("b", 2, 0, 0)),
            gpus(2),
            false,
            overLimit(
                "p quota has reached the allowable limit of GPUs. Limit is 3 GPUs, currently 2 GPUs"
                    + " allocated and workload requested 2 GPUs")),
        new Case(
            "the leaf is checked before the parent",
            List.of(
                Queues.queue("p").gpu(-1, 1, 1).build(),
                Queues.queue("a").parent("p").gpu(-1, 1, 1).build()),
            List.of(),
            gpus(2),
            false,
            overLimit(
                "a quota has reached the allowable limit of GPUs. Limit is 1 GPUs, currently 0 GPUs"
                    + " allocated and workload requested 2 GPUs")),
        new Case(
            "non-preemptible job over the GPU quota",
            List.of(Queues.queue("q").gpu(2, 1, -1).build()),
            List.of(nonPreemptible("q", 1, 0, 0)),
            gpus(2),
            true,
            overQuota(
                "Non-preemptible workload is over quota. Workload requested 2 GPUs, but q quota is"
                    + " 2 GPUs, while 1 GPUs are already allocated for non-preemptible pods. Use a"
                    + " preemptible workload to go over quota.")),
        new Case(
            "non-preemptible job exactly at the quota",
            List.of(Queues.queue("q").gpu(2, 1, -1).build()),
            List.of(nonPreemptible("q", 1, 0, 0)),
            gpus(1),
            true,
            Optional.empty()),
        new Case(
            "preemptible allocation does not use up non-preemptible quota",
            List.of(Queues.queue("q").gpu(2, 1, -1).build()),
            List.of(preemptible("q", 2, 0, 0)),
            gpus(2),
            true,
            Optional.empty()),
        new Case(
            "preemptible job may go over quota",
            List.of(Queues.queue("q").gpu(2, 1, -1).build()),
            List.of(nonPreemptible("q", 2, 0, 0)),
            gpus(2),
            false,
            Optional.empty()),
        new Case(
            "non-preemptible job with an unlimited quota",
            List.of(Queues.queue("q").gpu(-1, 1, -1).build()),
            List.of(nonPreemptible("q", 8, 0, 0)),
            gpus(8),
            true,
            Optional.empty()),
        new Case(
            "non-preemptible job over the quota of the parent queue",
            List.of(
                Queues.queue("p").gpu(3, 1, -1).build(),
                Queues.queue("b").parent("p").build(),
                Queues.queue("a").parent("p").gpu(-1, 1, -1).build()),
            List.of(nonPreemptible("b", 2, 0, 0)),
            gpus(2),
            true,
            overQuota(
                "Non-preemptible workload is over quota. Workload requested 2 GPUs, but p quota is"
                    + " 3 GPUs, while 2 GPUs are already allocated for non-preemptible pods. Use a"
                    + " preemptible workload to go over quota.")),
        new Case(
            "the limit is checked before the non-preemptible quota",
            List.of(Queues.queue("q").gpu(1, 1, 1).build()),
            List.of(),
            gpus(2),
            true,
            overLimit(
                "q quota has reached the allowable limit of GPUs. Limit is 1 GPUs, currently 0 GPUs"
                    + " allocated and workload requested 2 GPUs")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void checksLeafToRoot(Case c) {
    assertThat(check(c)).isEqualTo(c.expected());
  }

  record ReasonCase(
      String name,
      List<QueueInfo> queues,
      Resources request,
      boolean nonPreemptible,
      String reason) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<ReasonCase> cpuAndMemoryReasons() {
    return Stream.of(
        new ReasonCase(
            "over the CPU limit",
            List.of(Queues.queue("q").cpu(-1, 1, 4_000).build()),
            amounts(0, 5_000, 0),
            false,
            "OverLimit"),
        new ReasonCase(
            "over the memory limit",
            List.of(Queues.queue("q").memory(-1, 1, 8e9).build()),
            amounts(0, 0, 9 * GB),
            false,
            "OverLimit"),
        new ReasonCase(
            "non-preemptible over the CPU quota",
            List.of(Queues.queue("q").cpu(4_000, 1, -1).build()),
            amounts(0, 5_000, 0),
            true,
            "NonPreemptibleOverQuota"),
        new ReasonCase(
            "non-preemptible over the memory quota",
            List.of(Queues.queue("q").memory(8e9, 1, -1).build()),
            amounts(0, 0, 9 * GB),
            true,
            "NonPreemptibleOverQuota"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cpuAndMemoryReasons")
  void checksCpuAndMemoryToo(ReasonCase c) {
    Optional<JobFitText> error =
        check(tree(c.queues(), List.of()).pathToRoot("q"), c.request(), c.nonPreemptible());

    assertThat(error).map(JobFitText::reason).contains(c.reason());
  }

  /** KAI's wording (pkg/scheduler/api/unschedule_info.go): cores, and GB without "memory GB". */
  static Stream<Case> cpuAndMemoryWording() {
    return Stream.of(
        new Case(
            "over the CPU limit, in cores",
            List.of(Queues.queue("q").cpu(-1, 1, 16_000).build()),
            List.of(preemptible("q", 0, 12_000, 0)),
            amounts(0, 8_000, 0),
            false,
            overLimit(
                "q quota has reached the allowable limit of CPU cores. Limit is 16 cores, currently"
                    + " 12 cores allocated and workload requested 8 cores")),
        new Case(
            "over the memory limit, in GB",
            List.of(Queues.queue("q").memory(-1, 1, 500e9).build()),
            List.of(preemptible("q", 0, 0, 400 * GB)),
            amounts(0, 0, 200 * GB),
            false,
            overLimit(
                "q quota has reached the allowable limit of memory. Limit is 500 GB, currently 400"
                    + " GB allocated and workload requested 200 GB")),
        new Case(
            "non-preemptible over the CPU quota, in cores",
            List.of(Queues.queue("q").cpu(8_000, 1, -1).build()),
            List.of(nonPreemptible("q", 0, 4_000, 0)),
            amounts(0, 6_000, 0),
            true,
            overQuota(
                "Non-preemptible workload is over quota. Workload requested 6 CPU cores, but q"
                    + " quota is 8 cores, while 4 cores are already allocated for non-preemptible"
                    + " pods. Use a preemptible workload to go over quota.")),
        new Case(
            "non-preemptible over the memory quota, in GB",
            List.of(Queues.queue("q").memory(100e9, 1, -1).build()),
            List.of(nonPreemptible("q", 0, 0, 50 * GB)),
            amounts(0, 0, 200 * GB),
            true,
            overQuota(
                "Non-preemptible workload is over quota. Workload requested 200 GB memory, but q"
                    + " quota is 100 GB, while 50 GB are already allocated for non-preemptible"
                    + " pods. Use a preemptible workload to go over quota.")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cpuAndMemoryWording")
  void cpuAndMemoryMessagesUseKaisWording(Case c) {
    assertThat(check(c)).isEqualTo(c.expected());
  }

  private static Optional<JobFitText> check(Case c) {
    QueueTree tree = tree(c.queues(), c.allocations());
    String jobQueue = c.queues().get(c.queues().size() - 1).name();
    return check(tree.pathToRoot(jobQueue), c.request(), c.nonPreemptible());
  }

  /** The check's result as KAI reports it. */
  private static Optional<JobFitText> check(
      List<QueueAttributes> path, Resources request, boolean nonPreemptible) {
    return FitTexts.of(CapacityChecks.check(path, request, nonPreemptible));
  }

  private static QueueTree tree(List<QueueInfo> queues, List<Allocation> allocations) {
    QueueTree tree = new QueueTree(queues, CLUSTER);
    for (Allocation a : allocations) {
      tree.addAllocated(a.queue(), a.amounts(), a.nonPreemptible());
    }
    return tree;
  }

  private static Resources gpus(double devices) {
    return amounts(devices, 0, 0);
  }

  /** GPUs in devices ({@code 0.75}), CPU in millicores, memory in bytes. */
  private static Resources amounts(double gpus, long cpuMillis, long memoryBytes) {
    return Resources.of(cpuMillis, memoryBytes, GpuAmount.ofDevicesRoundedHalfUp(gpus));
  }

  private static Allocation preemptible(
      String queue, double gpus, long cpuMillis, long memoryBytes) {
    return new Allocation(queue, amounts(gpus, cpuMillis, memoryBytes), false);
  }

  private static Allocation nonPreemptible(
      String queue, double gpus, long cpuMillis, long memoryBytes) {
    return new Allocation(queue, amounts(gpus, cpuMillis, memoryBytes), true);
  }

  private static Optional<JobFitText> overLimit(String message) {
    return Optional.of(FitTexts.overLimit(message));
  }

  private static Optional<JobFitText> overQuota(String message) {
    return Optional.of(FitTexts.nonPreemptibleOverQuota(message));
  }
}
