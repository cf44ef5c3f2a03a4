package io.gantry.scheduler.plugins.dynamicresources;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.api.dra.DeviceSelectorEvaluator;
import io.gantry.scheduler.api.dra.SharedGpuClaimQueue;
import io.gantry.scheduler.api.result.ClaimAllocation;
import io.gantry.scheduler.framework.AllocationListener;
import io.gantry.scheduler.framework.ClaimAllocationSource;
import io.gantry.scheduler.framework.FitStatus;
import io.gantry.scheduler.framework.NodePredicate;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.SessionOpenHook;
import io.gantry.scheduler.framework.SessionView;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.framework.fit.ClaimUnallocatable;
import io.gantry.scheduler.model.dra.AllocationResult;
import io.gantry.scheduler.model.dra.DynamicResources;
import io.gantry.scheduler.model.dra.PodClaim;
import io.gantry.scheduler.model.dra.ResourceClaim;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * KAI's {@code dynamicresources} plugin (kai-reference §8): a task's DRA claims must be allocatable
 * on the node. A claim that already holds an allocation must be usable there; the others are
 * allocated together by the structured allocator ({@link ClaimAllocator}) from the devices the node
 * reaches; a shared GPU claim must carry the job's queue label ({@link SharedGpuClaimQueue}).
 * Placing a task records its claims' allocations in the session and taking it back (a statement's
 * rollback included) releases them, so a gang's claims are allocated all or none.
 */
public final class DynamicResourcesPlugin
    implements NodePredicate, AllocationListener, SessionOpenHook, ClaimAllocationSource {
  public static final String NAME = "dynamicresources";

  private final DeviceSelectorEvaluator evaluator;
  private SessionView session;
  private DynamicResources resources = DynamicResources.NONE;
  private DevicePools pools = new DevicePools(ImmutableList.of());
  private DeviceMatcher matcher;
  private ClaimLedger ledger =
      new ClaimLedger(DynamicResources.NONE, new CounterBudget(ImmutableList.of()));

  public DynamicResourcesPlugin(DeviceSelectorEvaluator evaluator) {
    this.evaluator = evaluator;
    this.matcher = new DeviceMatcher(evaluator, Map.of());
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(SessionView session) {
    this.session = session;
    resources = session.snapshot().dynamicResources();
    pools = new DevicePools(resources.slices());
    matcher = new DeviceMatcher(evaluator, resources.deviceClasses());
    ledger = new ClaimLedger(resources, new CounterBudget(pools.current()));
  }

  @Override
  public FitStatus filter(TaskState task, NodeState node) {
    if (task.info().resourceClaims().isEmpty()) {
      return FitStatus.SUCCESS;
    }
    Optional<ClaimUnallocatable> failure = plan(task, node).failure();
    return failure.isEmpty() ? FitStatus.SUCCESS : FitStatus.unschedulable(NAME, failure.get());
  }

  /**
   * A task without claims passes every node without reading it, so a task no node takes is
   * explained by one node per class; a task with claims reads the devices its node reaches.
   */
  @Override
  public boolean readsOnlyNodeClass(TaskState task) {
    return task.info().resourceClaims().isEmpty();
  }

  @Override
  public void onAllocate(TaskState task, GpuAmount gpus) {
    if (task.info().resourceClaims().isEmpty()) {
      return;
    }
    NodeState node = task.nodeName().flatMap(session::findNode).orElseThrow();
    Plan plan = plan(task, node);
    if (plan.failure().isPresent()) {
      throw new IllegalStateException(
          "task " + task.id() + " was placed on " + node.name() + " but " + plan.failure().get());
    }
    for (String claim : plan.held()) {
      ledger.use(claim);
    }
    for (int i = 0; i < plan.toAllocate().size(); i++) {
      ledger.allocate(plan.toAllocate().get(i).key(), plan.allocations().get(i));
    }
  }

  @Override
  public void onDeallocate(TaskState task, GpuAmount gpus) {
    for (String claim : claimKeys(task)) {
      ledger.release(claim);
    }
  }

  @Override
  public ImmutableList<ClaimAllocation> claimAllocations(TaskState task) {
    if (task.info().resourceClaims().isEmpty()) {
      return ImmutableList.of(); // most pods, asked at every placement
    }
    ImmutableList.Builder<ClaimAllocation> out = ImmutableList.builder();
    for (PodClaim pc : distinctClaims(task)) {
      ledger
          .allocation(ResourceClaim.key(task.info().namespace(), pc.claimName()))
          .ifPresent(a -> out.add(new ClaimAllocation(pc.name(), pc.claimName(), a)));
    }
    return out.build();
  }

  /**
   * What placing the task on the node would do with its claims: which already hold an allocation
   * usable there, and which get which new allocation; or why the node cannot serve them.
   */
  private record Plan(
      List<String> held,
      List<ResourceClaim> toAllocate,
      List<AllocationResult> allocations,
      Optional<ClaimUnallocatable> failure) {
    static Plan failed(String claim, String why) {
      return new Plan(
          List.of(), List.of(), List.of(), Optional.of(new ClaimUnallocatable(claim, why)));
    }
  }

  private Plan plan(TaskState task, NodeState node) {
    List<String> held = new ArrayList<>();
    List<ResourceClaim> toAllocate = new ArrayList<>();
    for (PodClaim pc : distinctClaims(task)) {
      String key = ResourceClaim.key(task.info().namespace(), pc.claimName());
      Optional<ResourceClaim> claim = resources.claim(task.info().namespace(), pc.claimName());
      if (claim.isEmpty()) {
        return Plan.failed(key, "the ResourceClaim does not exist");
      }
      Optional<String> queueLabel =
          SharedGpuClaimQueue.violation(pc, claim.get(), task.job().info().queue());
      if (queueLabel.isPresent()) {
        return Plan.failed(key, queueLabel.get());
      }
      Optional<AllocationResult> existing = ledger.allocation(key);
      if (existing.isPresent()) {
        if (!existing.get().usableOn(node.name(), node.info().labels())) {
          return Plan.failed(
              key,
              existing
                  .get()
                  .nodeName()
                  .map(n -> "it is allocated on node " + n)
                  .orElse("its allocation's node selector does not select the node"));
        }
        held.add(key);
      } else {
        toAllocate.add(claim.get());
      }
    }
    if (toAllocate.isEmpty()) {
      return new Plan(held, toAllocate, List.of(), Optional.empty());
    }
    AllocationOutcome outcome =
        new ClaimAllocator(
                toAllocate,
                pools.reachableFrom(node.info()),
                ledger.heldDevices(),
                ledger.counters(),
                matcher)
            .allocate();
    if (outcome instanceof AllocationOutcome.Failed f) {
      return Plan.failed(f.claim(), f.why());
    }
    return new Plan(
        held, toAllocate, ((AllocationOutcome.Allocated) outcome).results(), Optional.empty());
  }

  /** The pod's claims, each claim once even if the pod names it twice, in the pod's order. */
  private static List<PodClaim> distinctClaims(TaskState task) {
    if (task.info().resourceClaims().isEmpty()) {
      return List.of();
    }
    Map<String, PodClaim> byClaim = new LinkedHashMap<>();
    for (PodClaim pc : task.info().resourceClaims()) {
      byClaim.putIfAbsent(pc.claimName(), pc);
    }
    return new ArrayList<>(byClaim.values());
  }

  private static List<String> claimKeys(TaskState task) {
    List<String> keys = new ArrayList<>();
    for (PodClaim pc : distinctClaims(task)) {
      keys.add(ResourceClaim.key(task.info().namespace(), pc.claimName()));
    }
    return keys;
  }
}
