package io.gantry.kubemodel.kai.grouping;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.kai.KaiObjectException;
import io.gantry.kubemodel.kai.Preemptibility;
import io.gantry.scheduler.model.TopologyConstraint;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * KAI's default grouper (kai-reference §3.3–3.4): one PodGroup {@code pg-<top owner>-<uid>} with
 * minMember 1, which every other grouper starts from.
 *
 * <ul>
 *   <li>Queue: {@link io.gantry.kubemodel.kai.QueueAssignment} over the top owner's and the pod's
 *       labels.
 *   <li>Priority class: for each owner in turn, its {@value #PRIORITY_LABEL} label, else the pod's,
 *       else the pod's {@code spec.priorityClassName} — the first that names an existing class;
 *       then the per-type defaults of each owner; then the kind's default ({@value #TRAIN} here).
 *   <li>Preemptibility: the owners' {@value #PREEMPTIBILITY_LABEL} label, then the pod's, then the
 *       per-type defaults — the first valid value; else empty (decided by priority).
 *   <li>Topology constraint: the top owner's {@value #TOPOLOGY}, {@value #TOPOLOGY_REQUIRED} and
 *       {@value #TOPOLOGY_PREFERRED} annotations; none without a topology.
 *   <li>Labels and annotations: the top owner's, plus the pod's {@value #USER} label and annotation
 *       when the owner has none.
 * </ul>
 *
 * <p>As in KAI, groupers of specific kinds pass only the top owner as the owners to read; the
 * default grouper, used for its own kinds, reads every owner of the chain.
 */
public final class DefaultGrouper implements Grouper {
  public static final String POD_GROUP_PREFIX = "pg";
  public static final String PRIORITY_LABEL = "priorityClassName";
  public static final String PREEMPTIBILITY_LABEL = "kai.scheduler/preemptibility";
  public static final String USER = "user";
  public static final String TRAIN = "train";
  public static final String BUILD = "build";
  public static final String INFERENCE = "inference";
  public static final String TOPOLOGY = "kai.scheduler/topology";
  public static final String TOPOLOGY_REQUIRED = "kai.scheduler/topology-required-placement";
  public static final String TOPOLOGY_PREFERRED = "kai.scheduler/topology-preferred-placement";
  public static final String MIN_MEMBER_OVERRIDE = "kai.scheduler/batch-min-member";
  public static final String SEGMENT_SIZE = "kai.scheduler/segment-size";
  public static final String SEGMENT_TOPOLOGY_REQUIRED =
      "kai.scheduler/segment-topology-required-placement";
  public static final String SEGMENT_TOPOLOGY_PREFERRED =
      "kai.scheduler/segment-topology-preferred-placement";

  private final GroupingConfig config;

  public DefaultGrouper(GroupingConfig config) {
    this.config = requireNonNull(config, "config is null");
  }

  public GroupingConfig config() {
    return config;
  }

  @Override
  public PodGroupPlan plan(GroupingInput input) {
    List<OwnerMeta> owners =
        input.owners().isEmpty() ? ImmutableList.of(input.topOwner()) : input.owners();
    return plan(input.topOwner(), owners, input.pod(), TRAIN);
  }

  /**
   * The default PodGroup of {@code top}, reading {@code owners} for priority and preemptibility,
   * with {@code kindDefault} as the last-resort priority class.
   */
  public PodGroupPlan plan(OwnerMeta top, List<OwnerMeta> owners, PodMeta pod, String kindDefault) {
    return new PodGroupPlan(
        name(top),
        pod.namespace(),
        PodGroupOwner.of(top),
        OptionalInt.of(1),
        OptionalInt.empty(),
        ImmutableList.of(),
        queue(top, pod),
        priorityClassName(owners, pod, kindDefault),
        preemptibility(owners, pod),
        topologyConstraint(top.annotations()),
        labels(top, pod),
        annotations(top, pod),
        Optional.empty());
  }

  /** {@code pg-<name>-<uid>}. */
  public static String name(OwnerMeta owner) {
    return name(owner.name(), owner.uid());
  }

  public static String name(String name, String uid) {
    return POD_GROUP_PREFIX + "-" + name + "-" + uid;
  }

  public String queue(OwnerMeta top, PodMeta pod) {
    return config.queues().queueOf(top.labels(), pod.labels());
  }

  /** KAI's priority class resolution over {@code owners} (§3.3). */
  public String priorityClassName(List<OwnerMeta> owners, PodMeta pod, String kindDefault) {
    for (OwnerMeta owner : owners) {
      Optional<String> named = labelled(owner, pod);
      if (named.isPresent() && config.priorityClasses().knows(named.get())) {
        return named.get();
      }
    }
    for (OwnerMeta owner : owners) {
      Optional<String> typeDefault =
          config
              .typeDefaults()
              .forType(owner.group(), owner.kind())
              .flatMap(WorkloadTypeDefaults.TypeDefault::priorityClassName);
      if (typeDefault.isPresent() && config.priorityClasses().knows(typeDefault.get())) {
        return typeDefault.get();
      }
    }
    return kindDefault;
  }

  /** The owner's priority label, else the pod's, else the pod's {@code priorityClassName}. */
  private static Optional<String> labelled(OwnerMeta owner, PodMeta pod) {
    if (owner.labels().containsKey(PRIORITY_LABEL)) {
      return Optional.of(owner.labels().get(PRIORITY_LABEL));
    }
    if (pod.labels().containsKey(PRIORITY_LABEL)) {
      return Optional.of(pod.labels().get(PRIORITY_LABEL));
    }
    return pod.priorityClassName();
  }

  /** KAI's preemptibility resolution over {@code owners} (§3.3). */
  public Optional<Preemptibility> preemptibility(List<OwnerMeta> owners, PodMeta pod) {
    for (OwnerMeta owner : owners) {
      Optional<Preemptibility> labelled =
          Optional.ofNullable(owner.labels().get(PREEMPTIBILITY_LABEL))
              .flatMap(Preemptibility::parse);
      if (labelled.isPresent()) {
        return labelled;
      }
    }
    Optional<Preemptibility> podLabel =
        Optional.ofNullable(pod.labels().get(PREEMPTIBILITY_LABEL)).flatMap(Preemptibility::parse);
    if (podLabel.isPresent()) {
      return podLabel;
    }
    for (OwnerMeta owner : owners) {
      Optional<Preemptibility> typeDefault =
          config
              .typeDefaults()
              .forType(owner.group(), owner.kind())
              .flatMap(WorkloadTypeDefaults.TypeDefault::preemptibility)
              .flatMap(p -> Preemptibility.parse(p.toLowerCase(Locale.ROOT)));
      if (typeDefault.isPresent()) {
        return typeDefault;
      }
    }
    return Optional.empty();
  }

  /** The constraint {@code annotations} ask for; none without a topology. */
  public static Optional<TopologyConstraint> topologyConstraint(Map<String, String> annotations) {
    String topology = annotations.getOrDefault(TOPOLOGY, "");
    if (topology.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new TopologyConstraint(
            topology,
            nonEmpty(annotations.get(TOPOLOGY_REQUIRED)),
            nonEmpty(annotations.get(TOPOLOGY_PREFERRED))));
  }

  static ImmutableSortedMap<String, String> labels(OwnerMeta top, PodMeta pod) {
    TreeMap<String, String> labels = new TreeMap<>(top.labels());
    if (!labels.containsKey(USER) && pod.labels().containsKey(USER)) {
      labels.put(USER, pod.labels().get(USER));
    }
    return ImmutableSortedMap.copyOf(labels);
  }

  static ImmutableSortedMap<String, String> annotations(OwnerMeta top, PodMeta pod) {
    TreeMap<String, String> annotations = new TreeMap<>();
    if (pod.annotations().containsKey(USER)) {
      annotations.put(USER, pod.annotations().get(USER));
    }
    annotations.putAll(top.annotations());
    return ImmutableSortedMap.copyOf(annotations);
  }

  static Optional<String> nonEmpty(String value) {
    return value == null || value.isEmpty() ? Optional.empty() : Optional.of(value);
  }

  /**
   * A {@value #MIN_MEMBER_OVERRIDE} value: a whole number of at least 1.
   *
   * @throws KaiObjectException naming {@code field}
   */
  static int minMemberOverride(String value, String field) {
    int parsed;
    try {
      parsed = Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new KaiObjectException(
          field, "invalid " + MIN_MEMBER_OVERRIDE + " annotation: " + quote(value));
    }
    if (parsed < 1) {
      throw new KaiObjectException(
          field,
          "invalid " + MIN_MEMBER_OVERRIDE + " annotation: value " + parsed + " must be >= 1");
    }
    return parsed;
  }

  static String quote(String value) {
    return '"' + value + '"';
  }

  /** The input's spec as the kind's type, or an error naming both. */
  static <T extends WorkloadSpec> T spec(GroupingInput input, Class<T> type) {
    if (!type.isInstance(input.spec())) {
      throw new IllegalArgumentException(
          "a "
              + input.topOwner().kind()
              + " is grouped from a "
              + type.getSimpleName()
              + ", got a "
              + input.spec().getClass().getSimpleName());
    }
    return type.cast(input.spec());
  }
}
