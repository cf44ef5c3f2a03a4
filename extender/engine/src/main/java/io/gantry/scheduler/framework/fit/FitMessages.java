package io.gantry.scheduler.framework.fit;

import io.gantry.scheduler.api.config.GoDuration;
import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.ResourceNames;
import io.gantry.scheduler.model.ResourceVector;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The one place fit reasons become text: KAI's and kube-scheduler's exact sentences (kai-reference
 * §5.5, §11), the aggregated "no nodes with enough resources were found" summary and a job's
 * message. Users, dashboards and {@code kubectl describe} read the same whichever scheduler placed
 * the pod; golden tests pin the text, so change it only together with KAI.
 */
public final class FitMessages {
  public static final String UNABLE_TO_SCHEDULE_PODGROUP = "Unable to schedule podgroup";

  /** KAI's ResourcesWereNotFoundMsg, the head of every node summary. */
  public static final String NO_NODES_FOUND = "no nodes with enough resources were found";

  private FitMessages() {}

  /** The sentence for one reason, without a final period. */
  public static String sentence(FitReason reason) {
    return switch (reason.kind()) {
      // kube-scheduler's legacy CheckNodeCondition ErrNodeNotReady
      case NODE_NOT_READY -> "node(s) were not ready";
      // kube-scheduler NodeUnschedulable's ErrReasonUnschedulable
      case NODE_UNSCHEDULABLE -> "node(s) were unschedulable";
      // KAI's NodePodNumberExceeded
      case TOO_MANY_PODS -> "node(s) pod number exceeded";
      // kube-scheduler NodeAffinity's ErrReasonPod, for nodeSelector and required terms alike
      case NODE_SELECTOR_MISMATCH, NODE_AFFINITY_MISMATCH ->
          "node(s) didn't match Pod's node affinity/selector";
      case UNTOLERATED_TAINT -> untoleratedTaint((UntoleratedTaint) reason);
      // kube-scheduler InterPodAffinity's ErrReasonAffinityRulesNotMatch,
      // ErrReasonAntiAffinityRulesNotMatch and ErrReasonExistingAntiAffinityRulesNotMatch
      case POD_AFFINITY_UNSATISFIED -> "node(s) didn't match pod affinity rules";
      case POD_ANTI_AFFINITY_CONFLICT -> "node(s) didn't match pod anti-affinity rules";
      case EXISTING_POD_ANTI_AFFINITY_CONFLICT ->
          "node(s) didn't satisfy existing pods anti-affinity rules";
      case INSUFFICIENT_RESOURCE ->
          "node(s) didn't have enough resources: "
              + resourceName(((InsufficientResource) reason).resource());
      case INSUFFICIENT_EXTENDED_RESOURCE ->
          "node(s) didn't have enough resources: "
              + ((InsufficientExtendedResource) reason).resource();
      case GPU_MEMORY_NOT_SYNCED -> "node(s) didn't have a synced GPU memory label";
      // Gantry's wording: KAI has no sentence of its own for a portion over one device
      case GPU_MEMORY_TOO_SMALL -> "node(s) didn't have enough GPU memory per device";
      case SHARED_GPUS_UNAVAILABLE -> "node(s) didn't have enough resources: shared GPUs";
      case NODE_RESOURCE_TYPE_MISMATCH -> resourceType((NodeResourceTypeMismatch) reason);
      case OVER_LIMIT -> overLimit((OverLimit) reason);
      case NON_PREEMPTIBLE_OVER_QUOTA -> nonPreemptibleOverQuota((NonPreemptibleOverQuota) reason);
      case QUEUE_DOES_NOT_EXIST -> ((QueueDoesNotExist) reason).problem().sentence();
      case JOB_NOT_READY -> notReady((JobNotReady) reason);
      case GANG_INCOMPLETE -> gangIncomplete((GangIncomplete) reason);
      case POD_RESOURCES_NOT_FOUND -> podResourcesNotFound((PodResourcesNotFound) reason);
      // Gantry's wording: the victim-invariant check before an eviction search
      case ALLOCATABLE_TOO_SMALL ->
          "node(s) didn't have enough allocatable resources: "
              + kubernetesResourceName(((AllocatableTooSmall) reason).resource());
      case NO_EVICTION_CAN_HELP -> noEvictionCanHelp((NoEvictionCanHelp) reason);
      case PREEMPTION_DELAY_NOT_ELAPSED ->
          preemptionDelayNotElapsed((PreemptionDelayNotElapsed) reason);
      case TOPOLOGY_MISSING ->
          "Requested topology " + ((TopologyMissing) reason).topology() + " does not exist";
      // Gantry's wording: KAI resolves levels when it reads the constraint and has no sentence
      case TOPOLOGY_LEVEL_MISSING ->
          "topology "
              + ((TopologyLevelMissing) reason).topology()
              + " has no level "
              + ((TopologyLevelMissing) reason).level();
      case TOPOLOGY_UNSATISFIABLE -> topologyUnsatisfiable((TopologyUnsatisfiable) reason);
      case TOPOLOGY_NO_DOMAIN_FITS -> topologyNoDomainFits((TopologyNoDomainFits) reason);
      case TOPOLOGY_DOMAIN_TOO_SMALL -> topologyDomainTooSmall((TopologyDomainTooSmall) reason);
      // kube-scheduler's DRA plugin reports "cannot allocate all claims"; Gantry adds which and why
      case CLAIM_UNALLOCATABLE ->
          "cannot allocate all claims: claim "
              + ((ClaimUnallocatable) reason).claim()
              + ": "
              + ((ClaimUnallocatable) reason).why();
    };
  }

  /** KAI's eviction message (kai-reference §4.7–4.10). */
  public static String eviction(EvictionReason reason) {
    if (reason instanceof EvictionReason.Reclaimed r) {
      String head = String.format("Pod %s was preempted by workload %s.", r.pod(), r.reclaimer());
      if (r.reclaimeeQueue().isEmpty() || r.reclaimerQueue().isEmpty()) {
        return head;
      }
      return head
          + "\n"
          + queueDetails(r.reclaimeeQueue().get())
          + "\n"
          + queueDetails(r.reclaimerQueue().get());
    }
    if (reason instanceof EvictionReason.Preempted p) {
      return String.format(
          "Pod %s was preempted by higher priority workload %s", p.pod(), p.preemptor());
    }
    if (reason instanceof EvictionReason.Consolidated c) {
      return String.format(
          "Pod %s was preempted and rescheduled due to bin packing (resource consolidation)"
              + " procedure",
          c.pod());
    }
    EvictionReason.GangBelowMinimum g = (EvictionReason.GangBelowMinimum) reason;
    if (g.subGroup().isPresent()) {
      return String.format(
          "Workload doesn't meet the minimum required number of pods (%d) in sub-group %s,"
              + " evicting remaining pod: %s",
          g.minMember(), g.subGroup().get(), g.pod());
    }
    return String.format(
        "Workload doesn't meet the minimum required number of pods (%d), evicting remaining pod:"
            + " %s",
        g.minMember(), g.pod());
  }

  /** The {@code StaleJob} event's message (kai-reference §4.10). */
  public static String staleJob(StaleJob e) {
    String head =
        String.format(
            "Job is stale. %d pods are active, minMember is %d", e.active(), e.minMember());
    return e.subGroup()
        .map(
            s ->
                head
                    + String.format(
                        ", subGroup %s minMember is %d and %d pods are active",
                        s.name(), s.minMember(), s.active()))
        .orElse(head);
  }

  /** KAI's ResourceRequirements.String(): GPUs, cores and GB with up to three decimals. */
  public static String resources(ResourceVector v) {
    return String.format(
        "GPU: %s, CPU: %s (cores), memory: %s (GB)",
        humanize(v.gpus(), 1), humanize(v.cpuMillis(), 1000), humanize(v.memoryBytes(), 1e9));
  }

  /** KAI's name for a job fit error's reason. */
  public static String code(JobFitReason.Code code) {
    return switch (code) {
      case POD_SCHEDULING_ERRORS -> "PodSchedulingErrors";
      case OVER_LIMIT -> "OverLimit";
      case NON_PREEMPTIBLE_OVER_QUOTA -> "NonPreemptibleOverQuota";
      case QUEUE_DOES_NOT_EXIST -> "QueueDoesNotExist";
      case NOT_READY -> "NotReady";
      case PREEMPTION_DELAY_NOT_ELAPSED -> "PreemptionDelayNotElapsed";
      case NOT_ENOUGH_RESOURCES -> "Not enough resources for the workload";
    };
  }

  /**
   * Why no node took a task, as KAI's FitErrors.Error() prints it: {@code no nodes with enough
   * resources were found: 1 node(s) had untolerated taint {a: b}. \n2 node(s) didn't have enough
   * resources: GPUs.} Each reason a node gave counts that node once; the entries {@code <count>
   * <reason>} are sorted as strings (count included, as KAI does) and joined with ". \n". Without a
   * reported reason only the head remains, with no colon or period.
   */
  public static String summary(NoNodeFits noNodeFits) {
    Map<String, Integer> counts = new TreeMap<>();
    for (NoNodeFits.NodeRejection rejection : noNodeFits.rejections()) {
      for (NodeFitReason reason : rejection.reasons()) {
        if (reason instanceof SharedGpusUnavailable s && !s.reported()) {
          continue;
        }
        counts.merge(nodeSentence(reason), rejection.nodes(), Integer::sum);
      }
    }
    if (counts.isEmpty()) {
      return NO_NODES_FOUND;
    }
    String reasons =
        counts.entrySet().stream()
            .map(e -> e.getValue() + " " + e.getKey())
            .sorted()
            .collect(Collectors.joining(". \n"));
    return NO_NODES_FOUND + ": " + reasons + ".";
  }

  /**
   * One node's reason in the summary: a queue capacity check on a node is wrapped the way KAI's
   * predicates plugin wraps it, {@code node does not have enough capacity. Reason: <code>, Details:
   * <message>}; every other reason is its sentence.
   */
  private static String nodeSentence(NodeFitReason reason) {
    if (reason instanceof CapacityExceeded c) {
      return "node does not have enough capacity. Reason: "
          + code(c.code())
          + ", Details: "
          + sentence(c);
    }
    return sentence(reason);
  }

  /**
   * {@code <reason>: <msg1>. \n<msg2>.}: the single reason, or {@value UNABLE_TO_SCHEDULE_PODGROUP}
   * when there are several; identical messages collapsed as {@code <count> <msg>}, sorted.
   */
  public static Optional<String> jobMessage(List<? extends JobFitReason> errors) {
    if (errors.isEmpty()) {
      return Optional.empty();
    }
    long codes = errors.stream().map(JobFitReason::code).distinct().count();
    String head = codes == 1 ? code(errors.get(0).code()) : UNABLE_TO_SCHEDULE_PODGROUP;
    Map<String, Integer> counts = new TreeMap<>();
    for (JobFitReason e : errors) {
      counts.merge(stripPeriod(sentence(e)), 1, Integer::sum);
    }
    String body =
        counts.entrySet().stream()
            .map(e -> (e.getValue() > 1 ? e.getValue() + " " : "") + e.getKey() + ".")
            .collect(Collectors.joining(" \n"));
    return Optional.of(head + ": " + body);
  }

  /**
   * kube-scheduler TaintToleration's reason, which prints only key and value (not the effect) as
   * {@code {key: value}}, with an empty value left empty.
   */
  private static String untoleratedTaint(UntoleratedTaint reason) {
    return "node(s) had untolerated taint {"
        + reason.taint().key()
        + ": "
        + reason.taint().value()
        + "}";
  }

  /** KAI's node_info PredicateByNodeResourcesType sentences. */
  private static String resourceType(NodeResourceTypeMismatch r) {
    return switch (r.rule()) {
      case LEGACY_MIG_POD -> "Legacy MIG jobs cannot be scheduled on node " + r.node();
      case MIG_ON_NON_MIG_NODE -> "MIG job cannot be scheduled on non-MIG node";
      // Go's %v of a string slice: "[a b]"
      case LEGACY_MIG_PODS_ON_NODE ->
          "MIG job cannot be scheduled on node with legacy MIG jobs: <["
              + String.join(" ", r.legacyMigPods())
              + "]>";
      case SINGLE_STRATEGY_WHOLE_GPUS_ONLY ->
          "only whole gpu jobs can run on a node with MigStrategy='single'";
      case MIXED_STRATEGY_MIG_ONLY -> "non MIG jobs cant run on a node with MigStrategy='mixed'";
    };
  }

  private static String overLimit(OverLimit r) {
    return String.format(
        "%s quota has reached the allowable limit of %s. Limit is %s, currently %s allocated and"
            + " workload requested %s",
        r.queue(),
        resourceName(r.resource()),
        amount(r.limit(), r.resource()),
        amount(r.allocated(), r.resource()),
        amount(r.requested(), r.resource()));
  }

  private static String nonPreemptibleOverQuota(NonPreemptibleOverQuota r) {
    return String.format(
        "Non-preemptible workload is over quota. Workload requested %s, but %s quota is %s, while"
            + " %s are already allocated for non-preemptible pods. Use a preemptible workload to go"
            + " over quota.",
        requestedAmount(r.requested(), r.resource()),
        r.queue(),
        amount(r.quota(), r.resource()),
        amount(r.allocatedNonPreemptible(), r.resource()));
  }

  private static String notReady(JobNotReady r) {
    return String.format(
        "Job is not ready for scheduling. Waiting for %d pods, currently %d exist, %d are gated",
        r.minMember(), r.existing(), r.gated());
  }

  private static String gangIncomplete(GangIncomplete r) {
    return String.format(
        "Resources were found for %d pods while %d are required for gang scheduling. Additional"
            + " pods cannot be scheduled due to: %s",
        r.found(), r.required(), summary(r.nodes()));
  }

  private static String podResourcesNotFound(PodResourcesNotFound r) {
    return String.format(
        "Resources were not found for pod %s/%s due to: %s",
        r.namespace(), r.pod(), summary(r.nodes()));
  }

  private static String noEvictionCanHelp(NoEvictionCanHelp r) {
    return String.format(
        "Resources were not found for pod %s/%s due to: no eviction can make room for it: %s",
        r.namespace(), r.pod(), summary(r.nodes()));
  }

  private static String preemptionDelayNotElapsed(PreemptionDelayNotElapsed r) {
    return String.format(
        "Workload is within its preemption delay window (%s) and may not trigger evictions before"
            + " %s",
        GoDuration.format(r.delay()), r.until().truncatedTo(ChronoUnit.SECONDS));
  }

  private static String topologyUnsatisfiable(TopologyUnsatisfiable r) {
    return topologyRequirement(r.topology(), r.requirement(), r.job(), r.subGroup())
        + ": not enough resources in "
        + r.domain().orElse("the cluster")
        + " to allocate the job";
  }

  private static String topologyNoDomainFits(TopologyNoDomainFits r) {
    return topologyRequirement(r.topology(), r.requirement(), r.job(), r.subGroup());
  }

  /** KAI's topology plugin names the job in angle brackets: {@code job <ns/name>}. */
  private static String topologyRequirement(
      String topology, String requirement, String job, Optional<String> subGroup) {
    return String.format(
        "topology %s, requirement %s couldn't be satisfied for job <%s>%s",
        topology, requirement, job, subGroup.map(s -> ", subgroup " + s).orElse(""));
  }

  /** KAI's short messages for a domain that cannot hold the group (§9 (e)). */
  private static String topologyDomainTooSmall(TopologyDomainTooSmall r) {
    return r.resource()
        .map(kind -> "node-group(s) didn't have enough resources: " + resourceName(kind))
        .orElseGet(
            () ->
                String.format(
                    "node-group %s can allocate only %d of %d required pods",
                    r.domain(), r.allocatablePods(), r.requiredPods()));
  }

  private static String queueDetails(EvictionReason.QueueState q) {
    return String.format(
        "%s uses <%s> with a quota of <%s>, fair-share of <%s> and queue priority of <%d>.",
        q.queue(),
        resources(q.allocated()),
        resources(q.deserved()),
        resources(q.fairShare()),
        q.priority());
  }

  /** KAI's HumanizeResource: -1 is Unlimited, else up to three decimals without trailing zeros. */
  private static String humanize(double value, double unit) {
    if (value == -1) {
      return "Unlimited";
    }
    BigDecimal d =
        new BigDecimal(value / unit).setScale(3, RoundingMode.HALF_EVEN).stripTrailingZeros();
    return d.signum() == 0 ? "0" : d.toPlainString();
  }

  /** A Kubernetes resource name as fit sentences call it. */
  private static String kubernetesResourceName(String resource) {
    return switch (resource) {
      case ResourceNames.GPU -> resourceName(ResourceKind.GPU);
      case ResourceNames.CPU -> resourceName(ResourceKind.CPU);
      case ResourceNames.MEMORY -> resourceName(ResourceKind.MEMORY);
      default -> resource;
    };
  }

  /** What a resource is called: "GPUs", "CPU cores", "memory" (KAI's wording). */
  private static String resourceName(ResourceKind r) {
    return switch (r) {
      case GPU -> "GPUs";
      case CPU -> "CPU cores";
      case MEMORY -> "memory";
    };
  }

  /** An amount as KAI prints it: "4 GPUs", "16 cores", "500 GB". */
  private static String amount(double value, ResourceKind r) {
    String unit =
        switch (r) {
          case GPU -> "GPUs";
          case CPU -> "cores";
          case MEMORY -> "GB";
        };
    return number(value, r) + " " + unit;
  }

  /** A workload's request as KAI prints it: "3 GPUs", "6 CPU cores", "200 GB memory". */
  private static String requestedAmount(double value, ResourceKind r) {
    String unit =
        switch (r) {
          case GPU -> "GPUs";
          case CPU -> "CPU cores";
          case MEMORY -> "GB memory";
        };
    return number(value, r) + " " + unit;
  }

  /** GPUs as devices, CPU in cores, memory in GB (10^9 bytes), without trailing zeros. */
  private static String number(double value, ResourceKind r) {
    double shown =
        switch (r) {
          case GPU -> value;
          case CPU -> value / 1000.0;
          case MEMORY -> value / 1e9;
        };
    return BigDecimal.valueOf(Math.round(shown * 1000.0) / 1000.0)
        .stripTrailingZeros()
        .toPlainString();
  }

  private static String stripPeriod(String s) {
    return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
  }
}
