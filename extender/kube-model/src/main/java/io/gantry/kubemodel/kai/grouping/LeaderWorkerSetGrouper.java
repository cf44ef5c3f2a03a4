package io.gantry.kubemodel.kai.grouping;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.kubemodel.kai.KaiObjectException;
import io.gantry.scheduler.model.TopologyConstraint;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A LeaderWorkerSet, {@code leaderworkerset.x-k8s.io/v1} (kai-reference §3.4): one PodGroup per
 * group, {@code pg-<lws>-<uid>-group-<group index>}, of {@code size} pods (with startup policy
 * {@value #LEADER_READY}, a leader not yet scheduled needs only itself) and SubGroups {@value
 * #LEADER} (1) and {@value #WORKERS} (the rest).
 *
 * <p>Segments: with a segment size S ({@code subGroupPolicy.subGroupSize}, else the {@value
 * DefaultGrouper#SEGMENT_SIZE} annotation of the LeaderWorkerSet, else of its worker template) the
 * group's pods, by {@value #WORKER_INDEX_LABEL} (the leader is 0), form segments {@code segment-0
 * …}: pod {@code i} is in segment {@code i/S}, except that when the workers divide evenly into
 * segments the leader is an extra member of the first and worker {@code i} is in {@code (i-1)/S}.
 * With policy {@value #LEADER_WORKER} (the default) the first segment holds SubGroups {@value
 * #LEADER} and {@value #WORKERS}; with {@value #LEADER_EXCLUDED} (only when the workers divide
 * evenly) the leader has a SubGroup of its own beside the segments. Each segment takes the topology
 * of the segment annotations.
 *
 * <p>One departure from KAI's code, which counts the leader twice in a single segment when the
 * workers divide evenly (asking the workers' SubGroup for one pod more than exists): the segment
 * sizes here always add up to the group's pods.
 */
public final class LeaderWorkerSetGrouper implements Grouper {
  public static final String LEADER = "leader";
  public static final String WORKERS = "workers";
  public static final String LEADER_READY = "LeaderReady";
  public static final String LEADER_CREATED = "LeaderCreated";
  public static final String LEADER_WORKER = "LeaderWorker";
  public static final String LEADER_EXCLUDED = "LeaderExcluded";
  public static final String SIZE_ANNOTATION = "leaderworkerset.sigs.k8s.io/size";
  public static final String GROUP_INDEX_LABEL = "leaderworkerset.sigs.k8s.io/group-index";
  public static final String WORKER_INDEX_LABEL = "leaderworkerset.sigs.k8s.io/worker-index";

  static final int MAX_SEGMENTS = 10_000;

  private static final String TEMPLATE = "spec.leaderWorkerTemplate";

  private final DefaultGrouper defaults;

  public LeaderWorkerSetGrouper(DefaultGrouper defaults) {
    this.defaults = requireNonNull(defaults, "defaults is null");
  }

  @Override
  public PodGroupPlan plan(GroupingInput input) {
    WorkloadSpec.LeaderWorkerSetSpec spec =
        DefaultGrouper.spec(input, WorkloadSpec.LeaderWorkerSetSpec.class);
    OwnerMeta lws = input.topOwner();
    PodMeta pod = input.pod();
    PodGroupPlan plan = defaults.plan(lws, List.of(lws), pod, DefaultGrouper.TRAIN);
    String where = pod.namespace() + "/" + lws.name();
    if (spec.size().isEmpty()) {
      throw new KaiObjectException(
          TEMPLATE + ".size", "leaderWorkerTemplate.size not found in LWS " + where);
    }
    int size = spec.size().getAsInt();
    if (size <= 0) {
      throw new KaiObjectException(
          TEMPLATE + ".size", "invalid leaderWorkerTemplate.size " + size + " in LWS " + where);
    }
    String startupPolicy = spec.startupPolicy().orElse(LEADER_CREATED);
    OptionalInt workerIndex = workerIndex(pod);
    int members;
    if (startupPolicy.equals(LEADER_READY)) {
      members = leaderReadyMembers(pod, size, workerIndex);
    } else if (startupPolicy.equals(LEADER_CREATED)) {
      members = size;
    } else {
      throw new KaiObjectException("spec.startupPolicy", "unknown startupPolicy: " + startupPolicy);
    }
    plan = plan.withMinMember(members);
    boolean leader = workerIndex.isPresent() && workerIndex.getAsInt() == 0;
    OptionalInt segmentSize = segmentSize(lws, spec, members);
    ImmutableList.Builder<PlannedSubGroup> subGroups = ImmutableList.builder();
    Optional<String> leaf;
    if (segmentSize.isEmpty()) {
      subGroups.add(PlannedSubGroup.leaf(LEADER, Optional.empty(), 1));
      if (members > 1) {
        subGroups.add(PlannedSubGroup.leaf(WORKERS, Optional.empty(), members - 1));
      }
      leaf = leader ? Optional.of(LEADER) : Optional.of(WORKERS).filter(w -> members > 1);
    } else {
      leaf = segments(input, spec, members, segmentSize.getAsInt(), leader, subGroups);
    }
    plan = plan.withSubGroups(OptionalInt.empty(), subGroups.build(), leaf);
    String groupIndex = pod.labels().get(GROUP_INDEX_LABEL);
    if (groupIndex != null) {
      try {
        plan = plan.withName(plan.name() + "-group-" + Integer.parseInt(groupIndex));
      } catch (NumberFormatException e) {
        // KAI keeps the LeaderWorkerSet's name when the group index is not a number
      }
    }
    return plan;
  }

  private static OptionalInt workerIndex(PodMeta pod) {
    if (!pod.labels().containsKey(WORKER_INDEX_LABEL)) {
      return OptionalInt.empty();
    }
    return OptionalInt.of(Segments.podIndex(pod, WORKER_INDEX_LABEL));
  }

  private static int leaderReadyMembers(PodMeta pod, int size, OptionalInt workerIndex) {
    int groupSize = size;
    String annotated = pod.annotations().get(SIZE_ANNOTATION);
    if (annotated != null) {
      try {
        groupSize = Integer.parseInt(annotated);
      } catch (NumberFormatException e) {
        // KAI falls back to the template's size
      }
    }
    boolean leader = workerIndex.isPresent() && workerIndex.getAsInt() == 0;
    return leader && !pod.scheduled() ? 1 : groupSize;
  }

  private static OptionalInt segmentSize(
      OwnerMeta lws, WorkloadSpec.LeaderWorkerSetSpec spec, int members) {
    int size;
    String field;
    if (spec.subGroupSize().isPresent()) {
      size = spec.subGroupSize().getAsInt();
      field = TEMPLATE + ".subGroupPolicy.subGroupSize";
    } else {
      String onLws = lws.annotations().get(DefaultGrouper.SEGMENT_SIZE);
      String onTemplate =
          spec.workerTemplate()
              .map(t -> t.annotations().get(DefaultGrouper.SEGMENT_SIZE))
              .orElse(null);
      if (onLws != null) {
        field = "metadata.annotations." + DefaultGrouper.SEGMENT_SIZE;
        size = parse(onLws, field);
      } else if (onTemplate != null) {
        field = TEMPLATE + ".workerTemplate.metadata.annotations." + DefaultGrouper.SEGMENT_SIZE;
        size = parse(onTemplate, field);
      } else {
        return OptionalInt.empty();
      }
    }
    if (size <= 1) {
      throw new KaiObjectException(
          field, "segmentSize " + size + " is not valid. It must be greater than 1");
    }
    if (size > members) {
      throw new KaiObjectException(
          field, "segmentSize " + size + " is greater than replicasSize " + members);
    }
    return OptionalInt.of(size);
  }

  private static int parse(String value, String field) {
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new KaiObjectException(
          field, "invalid segment size annotation " + DefaultGrouper.quote(value));
    }
  }

  /** Adds the segment SubGroups; the pod's leaf. */
  private static Optional<String> segments(
      GroupingInput input,
      WorkloadSpec.LeaderWorkerSetSpec spec,
      int members,
      int size,
      boolean leader,
      ImmutableList.Builder<PlannedSubGroup> subGroups) {
    boolean even = (members - 1) % size == 0;
    int count = segmentIndex(members - 1, size, even) + 1;
    if (count > MAX_SEGMENTS) {
      throw new KaiObjectException(
          TEMPLATE + ".subGroupPolicy.subGroupSize",
          "number of subgroups segments "
              + count
              + " is greater than max allowed segmentation "
              + MAX_SEGMENTS);
    }
    String policy = spec.subGroupPolicyType().orElse(LEADER_WORKER);
    if (!policy.equals(LEADER_WORKER) && !policy.equals(LEADER_EXCLUDED)) {
      throw new KaiObjectException(
          TEMPLATE + ".subGroupPolicy.subGroupPolicyType", "unknown subGroupPolicyType: " + policy);
    }
    if (policy.equals(LEADER_EXCLUDED) && !even) {
      throw new KaiObjectException(
          TEMPLATE + ".subGroupPolicy.subGroupPolicyType",
          "replicasSize "
              + members
              + " is not divisible by segmentSize "
              + size
              + ". LeaderExcluded policy is only supported when replicasSize is divisible by"
              + " segmentSize.");
    }
    PodMeta pod = input.pod();
    Optional<TopologyConstraint> topology =
        Segments.topologyConstraint(
            pod.annotations(),
            spec.workerTemplate().orElse(PodTemplateMeta.EMPTY).annotations(),
            input.topOwner().annotations());
    int podSegment = segmentIndex(Segments.podIndex(pod, WORKER_INDEX_LABEL), size, even);
    if (policy.equals(LEADER_EXCLUDED)) {
      subGroups.add(PlannedSubGroup.leaf(LEADER, Optional.empty(), 1));
    }
    for (int i = 0; i < count; i++) {
      int pods = i < count - 1 ? size : even ? size : members - i * size;
      if (i == 0 && policy.equals(LEADER_WORKER)) {
        subGroups.add(
            PlannedSubGroup.inner(segmentName(0), Optional.empty(), OptionalInt.of(2))
                .withTopologyConstraint(topology));
      } else {
        subGroups.add(
            PlannedSubGroup.leaf(segmentName(i), Optional.empty(), pods)
                .withTopologyConstraint(topology));
      }
    }
    if (policy.equals(LEADER_WORKER)) {
      int first = count == 1 && !even ? members : size;
      int firstMembers = even ? first + 1 : first;
      subGroups.add(PlannedSubGroup.leaf(LEADER, Optional.of(segmentName(0)), 1));
      subGroups.add(PlannedSubGroup.leaf(WORKERS, Optional.of(segmentName(0)), firstMembers - 1));
      if (leader) {
        return Optional.of(LEADER);
      }
      return Optional.of(podSegment == 0 ? WORKERS : segmentName(podSegment));
    }
    return Optional.of(leader ? LEADER : segmentName(podSegment));
  }

  /** The segment of pod index {@code index} (the leader is 0). */
  static int segmentIndex(int index, int size, boolean even) {
    if (index == 0) {
      return 0;
    }
    return even ? (index - 1) / size : index / size;
  }

  private static String segmentName(int index) {
    return "segment-" + index;
  }
}
