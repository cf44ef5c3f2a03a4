// Over 450 lines on purpose: the one place the informer caches become a cycle's snapshot, in the
// order kai-reference §4.1–4.2 gives (pool, queues, PodGroups, pods, what other pods hold); each
// conversion that stands alone already has its own class in this package.
package io.gantry.scheduler.kube.snapshot;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.kubemodel.config.GpuSharingMode;
import io.gantry.kubemodel.kai.KaiObjectException;
import io.gantry.kubemodel.kai.LegacyMigAnnotation;
import io.gantry.kubemodel.kai.PriorityClassTable;
import io.gantry.kubemodel.kai.SharedGpuPods;
import io.gantry.scheduler.api.result.ClaimAllocation;
import io.gantry.scheduler.api.usage.UsageSource;
import io.gantry.scheduler.kube.crd.KaiPodGroup;
import io.gantry.scheduler.kube.informers.ClusterObjects;
import io.gantry.scheduler.kube.snapshot.LiveSnapshot.Problem;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.PodSet;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.model.SubGroupNode;
import io.gantry.scheduler.model.SubGroupSet;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.model.dra.AllocationResult;
import io.gantry.scheduler.model.dra.PodClaim;
import io.gantry.scheduler.model.dra.ResourceClaim;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Builds each cycle's {@link ClusterSnapshot} from the informer caches. Pods ({@link PodFactsMemo})
 * and nodes are converted once per resourceVersion and reused while unchanged, so a cycle assembles
 * the snapshot from values it already has instead of converting the world again.
 *
 * <p>What goes in (kai-reference §4.1–4.2): the nodes of this scheduler's pool, minus what pods
 * outside the snapshot hold on them (pods of other schedulers, pods without a PodGroup); every
 * Queue with a parent chain that exists; every PodGroup of the pool with its pods of this
 * scheduler. A pod's status follows KAI's model; a pod whose bind is in flight is {@code Binding}
 * on its chosen node, and the claims that bind allocates count as allocated until the claim cache
 * shows them so. A pending pod whose DRA claims cannot be resolved (a template's claim not created
 * yet, a claim that does not exist or cannot be read) waits with why ({@link PodClaims}). Time is
 * the injected clock's; each queue's historical usage (time-based fair share) is the usage source's
 * answer at that time.
 */
public final class SnapshotBuilder {
  /** KAI's {@code --stuck-in-releasing-threshold}. */
  static final Duration STUCK_IN_RELEASING = Duration.ofMinutes(2);

  private final ClusterObjects cache;
  private final SnapshotScope scope;
  private final Clock clock;
  private final InFlightBinds inFlight;
  private final PodGroupAssignments grouping;
  private final UsageSource usage;
  private final GpuInventoryReader inventories;
  private final DraReader dra;
  private final PodFactsMemo podFacts;
  private final Map<String, Memo<NodeInfo>> nodeMemo = new HashMap<>();

  private record Memo<T>(String resourceVersion, T value) {}

  /**
   * The pool's readable PodGroups as job templates (no tasks yet), oldest first, and the ones KAI's
   * object rules reject.
   */
  private record PodGroups(
      ImmutableList<String> jobOrder,
      Map<String, JobInfo> templates,
      Map<String, KaiPodGroup> byId,
      ImmutableList<Problem> invalid) {}

  /**
   * Where each pod went: the tasks of each job, the pods left out with why, the pods behind both,
   * what the other pods hold on each node, and each task's resolved claims.
   */
  private record SortedPods(
      Map<String, List<PodFacts>> tasksByJob,
      ImmutableMap<String, PodFacts> taskPods,
      ImmutableList<Problem> unschedulable,
      Map<String, Resources> otherUse,
      Map<String, Integer> otherPods,
      Map<String, ImmutableList<PodClaim>> podClaims) {}

  /**
   * A PodGroup with what it is sorted by, read once rather than at each of the sort's comparisons
   * (some half a million at 30,000 PodGroups).
   */
  private record AgedPodGroup(Instant created, String uid, String name, KaiPodGroup pg)
      implements Comparable<AgedPodGroup> {
    static AgedPodGroup of(KaiPodGroup pg) {
      return new AgedPodGroup(
          PodGroupReader.created(pg),
          nullToEmpty(pg.getMetadata().getUid()),
          pg.getMetadata().getName(),
          pg);
    }

    /** Oldest first, ties by uid, then by name. */
    @Override
    public int compareTo(AgedPodGroup o) {
      int byAge = created.compareTo(o.created);
      if (byAge != 0) {
        return byAge;
      }
      int byUid = uid.compareTo(o.uid);
      return byUid != 0 ? byUid : name.compareTo(o.name);
    }
  }

  /** The jobs with their tasks, and the claim allocations their binds in flight assume. */
  private record Jobs(ImmutableList<JobInfo> jobs, Map<String, AllocationResult> assumed) {}

  /**
   * @param grouping the PodGroups the pod grouper chose, and why it could not for a pod, which
   *     waits with that as its message
   * @param inventories reads each node's GPU inventory annotation
   * @param podFacts the pods' facts, shared with the pod grouper
   */
  public SnapshotBuilder(
      ClusterObjects cache,
      SnapshotScope scope,
      Clock clock,
      InFlightBinds inFlight,
      PodGroupAssignments grouping,
      UsageSource usage,
      GpuInventoryReader inventories,
      PodFactsMemo podFacts) {
    this.cache = requireNonNull(cache, "cache is null");
    this.scope = requireNonNull(scope, "scope is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.inFlight = requireNonNull(inFlight, "inFlight is null");
    this.grouping = requireNonNull(grouping, "grouping is null");
    this.usage = requireNonNull(usage, "usage is null");
    this.inventories = requireNonNull(inventories, "inventories is null");
    this.podFacts = requireNonNull(podFacts, "podFacts is null");
    this.dra = new DraReader(cache.dra());
  }

  public synchronized LiveSnapshot build() {
    Instant now = clock.instant();
    List<PodFacts> pods = podFacts.of(cache.pods());
    LiveDra liveDra = dra.read();
    PodGroups groups = podGroups(PriorityClassReader.read(cache.priorityClasses()));
    SortedPods sorted = sortPods(pods, groups, liveDra);
    Jobs jobs = jobs(groups, sorted, now);
    ClusterSnapshot snapshot =
        new ClusterSnapshot(
            now,
            nodes(sorted.otherUse(), sorted.otherPods()),
            QueueReader.read(cache.queues()),
            jobs.jobs(),
            usage.usage(now),
            TopologyReader.read(cache.topologies()),
            liveDra.assuming(jobs.assumed()),
            QueueReader.hierarchy(cache.queues()));
    return new LiveSnapshot(
        snapshot,
        sorted.taskPods(),
        ImmutableMap.copyOf(groups.byId()),
        sorted.unschedulable(),
        groups.invalid());
  }

  /** The PodGroups of the pool, oldest first (ties by uid, as KAI's), read as job templates. */
  private PodGroups podGroups(PriorityClassTable priorities) {
    List<AgedPodGroup> aged = new ArrayList<>();
    for (KaiPodGroup pg : cache.podGroups()) {
      if (scope.pool().contains(pg.getMetadata().getLabels())) {
        aged.add(AgedPodGroup.of(pg));
      }
    }
    Collections.sort(aged);
    List<KaiPodGroup> groups = new ArrayList<>(aged.size());
    aged.forEach(a -> groups.add(a.pg()));
    Map<String, KaiPodGroup> byId = new HashMap<>();
    Map<String, JobInfo> templates = new TreeMap<>();
    ImmutableList.Builder<String> jobOrder = ImmutableList.builder();
    ImmutableList.Builder<Problem> invalid = ImmutableList.builder();
    long order = 0;
    for (KaiPodGroup pg : groups) {
      String id = PodGroupReader.jobId(pg.getMetadata().getNamespace(), pg.getMetadata().getName());
      try {
        templates.put(id, PodGroupReader.read(pg, priorities, order++));
        byId.put(id, pg);
        jobOrder.add(id);
      } catch (KaiObjectException e) {
        invalid.add(new Problem(id, new SnapshotReason.InvalidPodGroup(e.getMessage())));
      }
    }
    return new PodGroups(jobOrder.build(), templates, byId, invalid.build());
  }

  /**
   * Sorts the pods: those of this scheduler that belong to a PodGroup of the snapshot become its
   * tasks, unless something about them is invalid; every other pod on a node is counted against
   * that node.
   */
  private SortedPods sortPods(List<PodFacts> pods, PodGroups groups, LiveDra liveDra) {
    Map<String, List<PodFacts>> tasksByJob = new HashMap<>();
    ImmutableMap.Builder<String, PodFacts> taskPods = ImmutableMap.builder();
    ImmutableList.Builder<Problem> unschedulable = ImmutableList.builder();
    Map<String, Resources> otherUse = new HashMap<>();
    Map<String, Integer> otherPods = new HashMap<>();
    Map<String, ImmutableList<PodClaim>> podClaims = new HashMap<>();
    for (PodFacts p : pods) {
      Optional<String> jobId = jobOf(p);
      JobInfo job = jobId.map(groups.templates()::get).orElse(null);
      boolean task = false;
      if (job != null && !(p.deletionTimestamp().isPresent() && p.nodeName().isEmpty())) {
        PodClaims.Resolution claims = PodClaims.resolve(p.namespace(), p.resourceClaims(), liveDra);
        podClaims.put(p.key(), claims.claims());
        Optional<SnapshotReason> invalid = invalidTask(p, job, claims);
        if (invalid.isPresent()) {
          unschedulable.add(new Problem(p.key(), invalid.get()));
        } else {
          tasksByJob.computeIfAbsent(job.id(), k -> new ArrayList<>()).add(p);
          task = true;
        }
        taskPods.put(p.key(), p);
      }
      if (job == null && missingPodGroup(p)) {
        // KAI leaves such a pod pending without a word; the user is told what to create
        unschedulable.add(
            new Problem(p.key(), new SnapshotReason.MissingPodGroup(p.podGroupName().get())));
        taskPods.put(p.key(), p);
      }
      if (job == null && jobId.isEmpty()) {
        Optional<String> problem = grouping.problem(p.key());
        if (problem.isPresent()) {
          unschedulable.add(new Problem(p.key(), new SnapshotReason.Ungrouped(problem.get())));
          taskPods.put(p.key(), p);
        }
      }
      // a reservation pod's GPU is its group's device, which the group's fraction tasks count;
      // a scaling pod only stands for pending fractions until the autoscaler's node is there
      if (!task
          && p.occupiesNode()
          && !SharedGpuPods.isReservation(p.labels())
          && !SharedGpuPods.isScaling(p.labels())) {
        otherUse.merge(p.nodeName().get(), p.request(), Resources::plus);
        otherPods.merge(p.nodeName().get(), 1, Integer::sum);
      }
    }
    return new SortedPods(
        tasksByJob,
        taskPods.buildKeepingLast(),
        unschedulable.build(),
        otherUse,
        otherPods,
        podClaims);
  }

  /**
   * Whether the pod is a pending pod of this scheduler whose {@value PodFacts#POD_GROUP_ANNOTATION}
   * annotation names a PodGroup that does not exist (one of another pool exists and is not this
   * scheduler's to report).
   */
  private boolean missingPodGroup(PodFacts p) {
    return p.schedulerName().equals(scope.schedulerName())
        && p.podGroupName().isPresent()
        && p.nodeName().isEmpty()
        && p.deletionTimestamp().isEmpty()
        && cache.podGroup(p.namespace(), p.podGroupName().get()) == null;
  }

  /** Why a pod of a PodGroup of the snapshot cannot be its task as written; empty when it can. */
  private Optional<SnapshotReason> invalidTask(
      PodFacts p, JobInfo job, PodClaims.Resolution claims) {
    if (p.problem().isPresent()) {
      return Optional.of(new SnapshotReason.InvalidPod(p.problem().get()));
    }
    if (!leaves(job.root()).contains(p.subGroup())) {
      return Optional.of(new SnapshotReason.UnknownSubGroup(p.subGroup(), job.name()));
    }
    if (claims.problem().isPresent() && p.nodeName().isEmpty()) {
      // a pod on a node keeps its place (and what it holds) even if its claims cannot be read
      return Optional.of(new SnapshotReason.UnresolvedClaims(claims.problem().get()));
    }
    if (scope.gpuSharing() == GpuSharingMode.RESERVATION_PODS
        && p.gpuSharing().isPresent()
        && p.nodeName().isEmpty()
        && SharedGpuPods.envConfigMapPrefix(p.annotations()).isEmpty()) {
      // binding it would leave it every GPU of its node; it waits, told to be recreated, and is
      // never tried again until it is (no reservation pod, no failed bind, cycle after cycle)
      return Optional.of(new SnapshotReason.NoGpuEnvironment());
    }
    return Optional.empty();
  }

  /** Each job of the snapshot with its tasks, oldest pod first (ties by name). */
  private Jobs jobs(PodGroups groups, SortedPods sorted, Instant now) {
    ImmutableList.Builder<JobInfo> jobs = ImmutableList.builder();
    Map<String, AllocationResult> assumed = new HashMap<>();
    for (String id : groups.jobOrder()) {
      JobInfo t = groups.templates().get(id);
      List<PodFacts> members = new ArrayList<>(sorted.tasksByJob().getOrDefault(id, List.of()));
      members.sort(Comparator.comparing(PodFacts::createdAt).thenComparing(PodFacts::name));
      ImmutableList.Builder<TaskInfo> tasks = ImmutableList.builder();
      long taskOrder = 0;
      for (PodFacts p : members) {
        tasks.add(task(p, t.id(), now, taskOrder++, sorted.podClaims().get(p.key()), assumed));
      }
      jobs.add(t.with(tasks.build(), t.lifecycle()));
    }
    return new Jobs(jobs.build(), assumed);
  }

  /**
   * The status the pod's task would have in a snapshot built now, read from the caches without
   * building one (and without this builder's lock, so a caller does not wait behind a build). Empty
   * when no snapshot would make the pod a task: it is not cached, not this scheduler's, in no
   * PodGroup of the pool, or deleted before it was bound. A pod this answers for may still be left
   * out of a snapshot: {@link #build} also drops pods whose PodGroup or SubGroup is invalid.
   *
   * @param podKey {@code namespace/name}
   */
  public Optional<TaskStatus> candidateStatus(String podKey) {
    V1Pod pod = cache.pod(podKey);
    if (pod == null) {
      return Optional.empty();
    }
    PodFacts p = PodFacts.of(pod);
    Optional<String> jobId = jobOf(p);
    if (jobId.isEmpty() || (p.deletionTimestamp().isPresent() && p.nodeName().isEmpty())) {
      return Optional.empty();
    }
    String id = jobId.get();
    KaiPodGroup pg = cache.podGroup(p.namespace(), id.substring(id.indexOf('/') + 1));
    if (pg == null || !scope.pool().contains(pg.getMetadata().getLabels())) {
      return Optional.empty();
    }
    return Optional.of(status(p, binding(p).isPresent(), clock.instant()));
  }

  /** The PodGroup a pod of this scheduler belongs to: its annotation, or the grouper's choice. */
  private Optional<String> jobOf(PodFacts p) {
    if (!p.schedulerName().equals(scope.schedulerName())) {
      return Optional.empty();
    }
    return p.podGroupName()
        .or(() -> grouping.assigned(p.key()))
        .map(name -> PodGroupReader.jobId(p.namespace(), name));
  }

  /** The bind in flight for this pod, while the cache does not show it bound yet. */
  private Optional<InFlightBind> binding(PodFacts p) {
    return p.nodeName().isEmpty()
        ? inFlight.inFlight(p.key()).filter(b -> b.podUid().equals(p.uid()))
        : Optional.empty();
  }

  /**
   * The pod's task; {@code assumed} gains the claim allocations of its bind in flight, if it has
   * one.
   */
  private TaskInfo task(
      PodFacts p,
      String jobId,
      Instant now,
      long order,
      ImmutableList<PodClaim> claims,
      Map<String, AllocationResult> assumed) {
    Optional<InFlightBind> binding = binding(p);
    binding.ifPresent(
        b -> {
          for (ClaimAllocation c : b.claims()) {
            assumed.put(ResourceClaim.key(p.namespace(), c.claimName()), c.allocation());
          }
        });
    TaskStatus status = status(p, binding.isPresent(), now);
    Optional<String> node = binding.map(InFlightBind::node).or(p::nodeName);
    ImmutableList<String> groups = ImmutableList.of();
    GpuAmount portion = GpuAmount.ZERO;
    if (p.gpuSharing().isPresent() && status.holdsNodeResources()) {
      if (binding.isPresent()) {
        groups = binding.get().gpuGroups();
        portion = binding.get().gpuPortion();
      } else if (p.allocation().isPresent() && p.allocation().get().node().equals(node.get())) {
        groups = p.allocation().get().gpuGroups();
        portion = p.allocation().get().portion();
      }
    }
    TaskInfo task =
        new TaskInfo(
            p.key(),
            p.name(),
            p.name(),
            p.namespace(),
            jobId,
            p.subGroup(),
            p.request(),
            p.gpuSharing(),
            status,
            status == TaskStatus.PENDING || status == TaskStatus.GATED ? Optional.empty() : node,
            groups,
            portion,
            p.taskPriority(),
            p.labels(),
            p.placement(),
            order);
    TaskInfo read = LegacyMigAnnotation.apply(task, p.annotations());
    return claims.isEmpty() ? read : read.withResourceClaims(claims);
  }

  /** KAI's task status model (kai-reference §4.2). */
  static TaskStatus status(PodFacts p, boolean binding, Instant now) {
    switch (p.phase()) {
      case "Succeeded":
        return TaskStatus.SUCCEEDED;
      case "Failed":
        return TaskStatus.FAILED;
      case "Running":
        if (p.deletionTimestamp().isPresent()) {
          return now.isAfter(p.deletionTimestamp().get().plus(STUCK_IN_RELEASING))
              ? TaskStatus.STUCK_IN_RELEASING
              : TaskStatus.RELEASING;
        }
        return TaskStatus.RUNNING;
      default:
        if (p.deletionTimestamp().isPresent()) {
          return TaskStatus.RELEASING;
        }
        if (p.nodeName().isPresent()) {
          return TaskStatus.BOUND;
        }
        if (binding) {
          return TaskStatus.BINDING;
        }
        return p.gated() ? TaskStatus.GATED : TaskStatus.PENDING;
    }
  }

  private ImmutableList<NodeInfo> nodes(
      Map<String, Resources> otherUse, Map<String, Integer> otherPods) {
    List<NodeInfo> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (V1Node node : cache.nodes()) {
      if (!scope.pool().contains(node.getMetadata().getLabels())) {
        continue;
      }
      String name = node.getMetadata().getName();
      String rv = nullToEmpty(node.getMetadata().getResourceVersion());
      Memo<NodeInfo> memo = nodeMemo.get(name);
      if (memo == null || !memo.resourceVersion().equals(rv)) {
        memo = new Memo<>(rv, NodeReader.read(node, inventories));
        nodeMemo.put(name, memo);
      }
      seen.add(name);
      out.add(
          NodeReader.minus(
              memo.value(),
              otherUse.getOrDefault(name, Resources.ZERO),
              otherPods.getOrDefault(name, 0)));
    }
    nodeMemo.keySet().retainAll(seen);
    out.sort(Comparator.comparing(NodeInfo::name));
    return ImmutableList.copyOf(out);
  }

  static Set<String> leaves(SubGroupSet root) {
    Set<String> out = new HashSet<>();
    for (SubGroupNode child : root.children()) {
      if (child instanceof PodSet) {
        out.add(child.name());
      } else {
        out.addAll(leaves((SubGroupSet) child));
      }
    }
    return out;
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
