package io.gantry.scheduler.kube;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.kubemodel.kai.KaiObjectException;
import io.gantry.kubemodel.kai.PriorityClassTable;
import io.gantry.scheduler.api.result.ClaimAllocation;
import io.gantry.scheduler.api.usage.UsageSource;
import io.gantry.scheduler.kube.LiveSnapshot.Problem;
import io.gantry.scheduler.kube.crd.KaiPodGroup;
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
import io.kubernetes.client.openapi.models.V1PriorityClass;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Builds each cycle's {@link ClusterSnapshot} from the informer caches. Pods and nodes are
 * converted once per resourceVersion and reused while unchanged, so a cycle assembles the snapshot
 * from values it already has instead of converting the world again.
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
final class SnapshotBuilder {
  /** KAI's {@code --stuck-in-releasing-threshold}. */
  static final Duration STUCK_IN_RELEASING = Duration.ofMinutes(2);

  private final ClusterInformers cache;
  private final String schedulerName;
  private final NodePool pool;
  private final Clock clock;
  private final Function<String, Optional<InFlightBind>> inFlight;
  private final Function<String, Optional<String>> groupedPods;
  private final Function<String, Optional<String>> groupingProblems;
  private final UsageSource usage;
  private final GpuInventoryReader inventories;
  private final DraReader dra;
  private final Map<String, PodFacts> podMemo = new HashMap<>();
  private final Map<String, Memo<NodeInfo>> nodeMemo = new HashMap<>();

  private record Memo<T>(String resourceVersion, T value) {}

  SnapshotBuilder(
      ClusterInformers cache,
      String schedulerName,
      NodePool pool,
      Clock clock,
      Function<String, Optional<InFlightBind>> inFlight,
      Function<String, Optional<String>> groupedPods,
      UsageSource usage,
      GpuInventoryReader inventories) {
    this(
        cache,
        schedulerName,
        pool,
        clock,
        inFlight,
        groupedPods,
        key -> Optional.empty(),
        usage,
        inventories);
  }

  /**
   * @param groupingProblems why the pod grouper could not group a pod, which waits with it as its
   *     message
   * @param inventories reads each node's GPU inventory annotation
   */
  SnapshotBuilder(
      ClusterInformers cache,
      String schedulerName,
      NodePool pool,
      Clock clock,
      Function<String, Optional<InFlightBind>> inFlight,
      Function<String, Optional<String>> groupedPods,
      Function<String, Optional<String>> groupingProblems,
      UsageSource usage,
      GpuInventoryReader inventories) {
    this.inventories = requireNonNull(inventories, "inventories is null");
    this.groupingProblems = requireNonNull(groupingProblems, "groupingProblems is null");
    this.cache = requireNonNull(cache, "cache is null");
    this.schedulerName = requireNonNull(schedulerName, "schedulerName is null");
    this.pool = requireNonNull(pool, "pool is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.inFlight = requireNonNull(inFlight, "inFlight is null");
    this.groupedPods = requireNonNull(groupedPods, "groupedPods is null");
    this.usage = requireNonNull(usage, "usage is null");
    this.dra = new DraReader(cache.dra());
  }

  synchronized LiveSnapshot build() {
    Instant now = clock.instant();
    List<PodFacts> pods = pods();
    LiveDra liveDra = dra.read();
    PriorityClassTable priorities = priorityClasses(cache.priorityClasses());

    // PodGroups of the pool, oldest first (ties by uid, as KAI's)
    List<KaiPodGroup> groups = new ArrayList<>();
    for (KaiPodGroup pg : cache.podGroups()) {
      if (pool.contains(pg.getMetadata().getLabels())) {
        groups.add(pg);
      }
    }
    groups.sort(
        Comparator.comparing(PodGroupReader::created)
            .thenComparing(pg -> nullToEmpty(pg.getMetadata().getUid()))
            .thenComparing(pg -> pg.getMetadata().getName()));
    Map<String, KaiPodGroup> groupsById = new HashMap<>();
    Map<String, JobInfo> jobTemplates = new TreeMap<>();
    List<String> jobOrder = new ArrayList<>();
    ImmutableList.Builder<Problem> invalidGroups = ImmutableList.builder();
    long order = 0;
    for (KaiPodGroup pg : groups) {
      String id = PodGroupReader.jobId(pg.getMetadata().getNamespace(), pg.getMetadata().getName());
      try {
        jobTemplates.put(id, PodGroupReader.read(pg, priorities, order++));
        groupsById.put(id, pg);
        jobOrder.add(id);
      } catch (KaiObjectException e) {
        invalidGroups.add(new Problem(id, e.getMessage()));
      }
    }

    // pods of this scheduler that belong to a PodGroup of the snapshot become its tasks
    Map<String, List<PodFacts>> tasksByJob = new HashMap<>();
    ImmutableMap.Builder<String, PodFacts> taskPods = ImmutableMap.builder();
    ImmutableList.Builder<Problem> unschedulable = ImmutableList.builder();
    Map<String, Resources> otherUse = new HashMap<>();
    Map<String, Integer> otherPods = new HashMap<>();
    Map<String, ImmutableList<PodClaim>> podClaims = new HashMap<>();
    for (PodFacts p : pods) {
      Optional<String> jobId = jobOf(p);
      JobInfo job = jobId.map(jobTemplates::get).orElse(null);
      boolean task = false;
      if (job != null && !(p.deletionTimestamp().isPresent() && p.nodeName().isEmpty())) {
        PodClaims.Resolution claims = PodClaims.resolve(p.namespace(), p.resourceClaims(), liveDra);
        podClaims.put(p.key(), claims.claims());
        if (p.problem().isPresent()) {
          unschedulable.add(new Problem(p.key(), p.problem().get()));
          taskPods.put(p.key(), p);
        } else if (!leaves(job.root()).contains(p.subGroup())) {
          unschedulable.add(
              new Problem(
                  p.key(),
                  "SubGroup \""
                      + p.subGroup()
                      + "\" of label "
                      + PodFacts.SUBGROUP_LABEL
                      + " does not exist in PodGroup "
                      + job.name()));
          taskPods.put(p.key(), p);
        } else if (claims.problem().isPresent() && p.nodeName().isEmpty()) {
          // a pod on a node keeps its place (and what it holds) even if its claims cannot be read
          unschedulable.add(new Problem(p.key(), claims.problem().get()));
          taskPods.put(p.key(), p);
        } else {
          tasksByJob.computeIfAbsent(job.id(), k -> new ArrayList<>()).add(p);
          taskPods.put(p.key(), p);
          task = true;
        }
      }
      if (job == null && jobId.isEmpty()) {
        Optional<String> problem = groupingProblems.apply(p.key());
        if (problem.isPresent()) {
          unschedulable.add(new Problem(p.key(), problem.get()));
          taskPods.put(p.key(), p);
        }
      }
      if (!task && p.occupiesNode()) {
        otherUse.merge(p.nodeName().get(), p.request(), Resources::plus);
        otherPods.merge(p.nodeName().get(), 1, Integer::sum);
      }
    }

    ImmutableList.Builder<JobInfo> jobs = ImmutableList.builder();
    Map<String, AllocationResult> assumed = new HashMap<>();
    for (String id : jobOrder) {
      JobInfo t = jobTemplates.get(id);
      List<PodFacts> members = new ArrayList<>(tasksByJob.getOrDefault(id, List.of()));
      members.sort(Comparator.comparing(PodFacts::createdAt).thenComparing(PodFacts::name));
      ImmutableList.Builder<TaskInfo> tasks = ImmutableList.builder();
      long taskOrder = 0;
      for (PodFacts p : members) {
        tasks.add(task(p, t.id(), now, taskOrder++, podClaims.get(p.key()), assumed));
      }
      jobs.add(t.with(tasks.build(), t.lifecycle()));
    }

    ClusterSnapshot snapshot =
        new ClusterSnapshot(
            now,
            nodes(otherUse, otherPods),
            QueueReader.read(cache.queues()),
            jobs.build(),
            usage.usage(now),
            TopologyReader.read(cache.topologies()),
            liveDra.assuming(assumed));
    return new LiveSnapshot(
        snapshot,
        taskPods.buildKeepingLast(),
        ImmutableMap.copyOf(groupsById),
        unschedulable.build(),
        invalidGroups.build());
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
  Optional<TaskStatus> candidateStatus(String podKey) {
    int slash = podKey.indexOf('/');
    V1Pod pod =
        slash < 0 ? null : cache.pod(podKey.substring(0, slash), podKey.substring(slash + 1));
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
    if (pg == null || !pool.contains(pg.getMetadata().getLabels())) {
      return Optional.empty();
    }
    return Optional.of(status(p, binding(p).isPresent(), clock.instant()));
  }

  /** The PodGroup a pod of this scheduler belongs to: its annotation, or the grouper's choice. */
  private Optional<String> jobOf(PodFacts p) {
    if (!p.schedulerName().equals(schedulerName)) {
      return Optional.empty();
    }
    return p.podGroupName()
        .or(() -> groupedPods.apply(p.key()))
        .map(name -> PodGroupReader.jobId(p.namespace(), name));
  }

  /** The bind in flight for this pod, while the cache does not show it bound yet. */
  private Optional<InFlightBind> binding(PodFacts p) {
    return p.nodeName().isEmpty()
        ? inFlight.apply(p.key()).filter(b -> b.podUid().equals(p.uid()))
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
    return claims.isEmpty() ? task : task.withResourceClaims(claims);
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

  private List<PodFacts> pods() {
    List<V1Pod> live = cache.pods();
    Set<String> seen = new HashSet<>();
    List<PodFacts> out = new ArrayList<>(live.size());
    for (V1Pod pod : live) {
      String uid = nullToEmpty(pod.getMetadata().getUid());
      String rv = nullToEmpty(pod.getMetadata().getResourceVersion());
      PodFacts facts = podMemo.get(uid);
      if (facts == null || !facts.resourceVersion().equals(rv)) {
        facts = PodFacts.of(pod);
        podMemo.put(uid, facts);
      }
      seen.add(uid);
      out.add(facts);
    }
    podMemo.keySet().retainAll(seen);
    return out;
  }

  private ImmutableList<NodeInfo> nodes(
      Map<String, Resources> otherUse, Map<String, Integer> otherPods) {
    List<NodeInfo> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (V1Node node : cache.nodes()) {
      if (!pool.contains(node.getMetadata().getLabels())) {
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

  static PriorityClassTable priorityClasses(List<V1PriorityClass> classes) {
    Map<String, Integer> values = new TreeMap<>();
    java.util.OptionalInt globalDefault = java.util.OptionalInt.empty();
    for (V1PriorityClass pc : classes) {
      values.put(pc.getMetadata().getName(), pc.getValue());
      if (Boolean.TRUE.equals(pc.getGlobalDefault())) {
        globalDefault = java.util.OptionalInt.of(pc.getValue());
      }
    }
    return new PriorityClassTable(ImmutableMap.copyOf(values), globalDefault);
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
