package io.gantry.scheduler.plugins.dynamicresources;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.gantry.scheduler.model.dra.AllocationMode;
import io.gantry.scheduler.model.dra.AllocationResult;
import io.gantry.scheduler.model.dra.DeviceAttribute;
import io.gantry.scheduler.model.dra.DeviceConstraint;
import io.gantry.scheduler.model.dra.DeviceNodes;
import io.gantry.scheduler.model.dra.DeviceRequest;
import io.gantry.scheduler.model.dra.DeviceResult;
import io.gantry.scheduler.model.dra.DeviceSubRequest;
import io.gantry.scheduler.model.dra.ResourceClaim;
import io.gantry.scheduler.model.placement.Taint;
import io.gantry.scheduler.plugins.predicates.TaintTolerationRule;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The structured-parameters allocator (protocols.md §4.5 items 3–5) for the claims one pod still
 * needs on one node, allocated together so no two of them get one device. Requests are filled in
 * claim order, then request order; a {@code firstAvailable} request tries its choices in order; an
 * {@code ExactCount} choice takes the first {@code count} free matching devices that keep every
 * {@code matchAttribute} constraint, backtracking over earlier picks when a later request cannot be
 * met; an {@code All} choice takes every matching device the node reaches, which must all be free
 * and come from complete pools. A device with a NoSchedule or NoExecute taint that the choice's
 * tolerations do not tolerate is never taken, nor one whose shared counters, with what held devices
 * and the earlier picks consume, would be overdrawn. One instance serves one question; not
 * thread-safe.
 */
final class ClaimAllocator {
  /** Device picks one allocation may try before it gives up, so a hopeless search ends. */
  static final long MAX_STEPS = 100_000;

  private record Slot(int claim, DeviceRequest request) {}

  private record Pick(int slot, DeviceSubRequest choice, CandidateDevice device) {}

  /** The devices a choice can take on this node, or why it can take none. */
  private record Options(List<CandidateDevice> devices, Optional<String> unavailable) {}

  /** Ends the search with a failure that no other pick can mend. */
  private static final class Abort extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient AllocationOutcome.Failed failed;

    Abort(AllocationOutcome.Failed failed) {
      super(failed.why(), null, false, false);
      this.failed = failed;
    }
  }

  private final List<ResourceClaim> claims;
  private final List<CandidateDevice> reachable;
  private final Set<String> allocatedElsewhere;
  private final CounterBudget counters;
  // what the picks so far take from shared counters; looked up, never iterated
  private final Map<CounterBudget.CounterKey, BigDecimal> pickedCounters = new HashMap<>();
  private final DeviceMatcher matcher;
  private final List<Slot> slots = new ArrayList<>();
  private final List<Pick> picks = new ArrayList<>();
  private final Set<String> pickedIds = new HashSet<>();
  private final Map<DeviceSubRequest, Options> options = new HashMap<>();
  private long steps;
  private int deepestFailure = -1;
  private String deepestReason = "";

  /**
   * @param reachable the devices a pod on the node reaches ({@link DevicePools})
   * @param allocatedElsewhere ids of devices other claims hold or were given this session
   * @param counters the pools' shared counters, with what those devices consume of them
   */
  ClaimAllocator(
      List<ResourceClaim> claims,
      List<CandidateDevice> reachable,
      Set<String> allocatedElsewhere,
      CounterBudget counters,
      DeviceMatcher matcher) {
    this.claims = claims;
    this.reachable = reachable;
    this.allocatedElsewhere = allocatedElsewhere;
    this.counters = counters;
    this.matcher = matcher;
  }

  AllocationOutcome allocate() {
    for (int c = 0; c < claims.size(); c++) {
      for (DeviceRequest r : claims.get(c).requests()) {
        for (DeviceSubRequest choice : r.choices()) {
          if (matcher.deviceClass(choice.deviceClassName()).isEmpty()) {
            return new AllocationOutcome.Failed(
                claims.get(c).key(),
                "request "
                    + r.resultName(choice)
                    + ": device class "
                    + choice.deviceClassName()
                    + " does not exist");
          }
        }
        slots.add(new Slot(c, r));
      }
    }
    try {
      if (search(0)) {
        return new AllocationOutcome.Allocated(results());
      }
      Slot failed = slots.get(deepestFailure);
      return new AllocationOutcome.Failed(claims.get(failed.claim()).key(), deepestReason);
    } catch (Abort e) {
      return e.failed;
    }
  }

  private boolean search(int slot) throws Abort {
    if (slot == slots.size()) {
      return true;
    }
    Slot s = slots.get(slot);
    List<String> reasons = new ArrayList<>();
    for (DeviceSubRequest choice : s.request().choices()) {
      Options o = options(s, choice);
      String name = s.request().resultName(choice);
      if (o.unavailable().isPresent()) {
        reasons.add("request " + name + ": " + o.unavailable().get());
        continue;
      }
      boolean found;
      if (choice.allocationMode() == AllocationMode.ALL) {
        found = takeAll(slot, s, choice, o.devices());
      } else {
        found = take(slot, s, choice, o.devices(), 0, choice.count());
      }
      if (found) {
        return true;
      }
      String wanted =
          choice.allocationMode() == AllocationMode.ALL
              ? "all matching devices"
              : choice.count() + " matching free device(s)";
      reasons.add(
          "request "
              + name
              + ": no "
              + wanted
              + " of class "
              + choice.deviceClassName()
              + " fit together with the claims' other devices"
              + constraintsNote(s));
    }
    if (slot >= deepestFailure) {
      deepestFailure = slot;
      deepestReason = String.join("; ", reasons);
    }
    return false;
  }

  private String constraintsNote(Slot s) {
    List<String> attributes = new ArrayList<>();
    for (DeviceConstraint c : claims.get(s.claim()).constraints()) {
      if (c.covers(s.request().name())) {
        attributes.add(c.matchAttribute());
      }
    }
    return attributes.isEmpty()
        ? ""
        : " with one value of matchAttribute " + String.join(", ", attributes);
  }

  private boolean take(
      int slot, Slot s, DeviceSubRequest choice, List<CandidateDevice> devices, int from, long left)
      throws Abort {
    if (left == 0) {
      return search(slot + 1);
    }
    for (int i = from; i < devices.size(); i++) {
      if (++steps > MAX_STEPS) {
        throw new Abort(
            new AllocationOutcome.Failed(
                claims.get(s.claim()).key(),
                "no allocation found within " + MAX_STEPS + " device picks"));
      }
      CandidateDevice d = devices.get(i);
      if (pickedIds.contains(d.id()) || !keepsConstraints(s, d) || !fitsCounters(d)) {
        continue;
      }
      push(new Pick(slot, choice, d));
      if (take(slot, s, choice, devices, i + 1, left - 1)) {
        return true;
      }
      pop();
    }
    return false;
  }

  private boolean takeAll(int slot, Slot s, DeviceSubRequest choice, List<CandidateDevice> devices)
      throws Abort {
    int mark = picks.size();
    for (CandidateDevice d : devices) {
      if (pickedIds.contains(d.id()) || !keepsConstraints(s, d) || !fitsCounters(d)) {
        truncate(mark);
        return false;
      }
      push(new Pick(slot, choice, d));
    }
    if (search(slot + 1)) {
      return true;
    }
    truncate(mark);
    return false;
  }

  /**
   * Whether the device has every constrained attribute of its claim's constraints that cover the
   * request, with the value the claim's earlier picks under the same constraint have.
   */
  private boolean keepsConstraints(Slot s, CandidateDevice d) {
    for (DeviceConstraint c : claims.get(s.claim()).constraints()) {
      if (!c.covers(s.request().name())) {
        continue;
      }
      Optional<DeviceAttribute> value = d.device().attribute(d.driver(), c.matchAttribute());
      if (value.isEmpty()) {
        return false;
      }
      for (Pick p : picks) {
        Slot other = slots.get(p.slot());
        if (other.claim() != s.claim() || !c.covers(other.request().name())) {
          continue;
        }
        Optional<DeviceAttribute> theirs =
            p.device().device().attribute(p.device().driver(), c.matchAttribute());
        if (!value.equals(theirs)) {
          return false;
        }
      }
    }
    return true;
  }

  private Options options(Slot s, DeviceSubRequest choice) throws Abort {
    Options known = options.get(choice);
    if (known != null) {
      return known;
    }
    try {
      Options o = computeOptions(choice);
      options.put(choice, o);
      return o;
    } catch (DeviceMatcher.SelectorFailure e) {
      throw new Abort(new AllocationOutcome.Failed(claims.get(s.claim()).key(), e.getMessage()));
    }
  }

  private Options computeOptions(DeviceSubRequest choice) throws DeviceMatcher.SelectorFailure {
    List<CandidateDevice> free = new ArrayList<>();
    int matching = 0;
    int taken = 0;
    Exclusion tainted = new Exclusion("have a taint the request does not tolerate");
    Exclusion overdrawing = new Exclusion("would overdraw the shared counters of their pool");
    Optional<String> incompletePool = Optional.empty();
    for (CandidateDevice d : reachable) {
      if (!matcher.matches(choice, d)) {
        continue;
      }
      matching++;
      if (!d.poolComplete() && incompletePool.isEmpty()) {
        incompletePool = Optional.of(d.driver() + "/" + d.pool());
      }
      Optional<Taint> taint =
          TaintTolerationRule.firstUntolerated(d.device().taints(), choice.tolerations());
      Optional<CounterBudget.CounterKey> overdrawn =
          counters.overdrawn(d.counterUses(), ImmutableMap.of());
      if (taint.isPresent()) {
        tainted.add("device " + d.id() + " has the taint " + taint.get());
      } else if (allocatedElsewhere.contains(d.id())) {
        taken++;
      } else if (overdrawn.isPresent()) {
        overdrawing.add("device " + d.id() + " would overdraw " + overdrawn.get());
      } else {
        free.add(d);
      }
    }
    Optional<String> unavailable = Optional.empty();
    String all = "allocationMode All needs every matching device, but ";
    if (matching == 0) {
      unavailable =
          Optional.of("no device of class " + choice.deviceClassName() + " matches its selectors");
    } else if (choice.allocationMode() == AllocationMode.ALL && incompletePool.isPresent()) {
      unavailable =
          Optional.of(
              "allocationMode All needs every device, but resource pool "
                  + incompletePool.get()
                  + " is incomplete");
    } else if (choice.allocationMode() == AllocationMode.ALL && tainted.count() > 0) {
      unavailable = Optional.of(all + tainted.count() + " of " + matching + " " + tainted);
    } else if (choice.allocationMode() == AllocationMode.ALL && taken > 0) {
      unavailable = Optional.of(all + taken + " of " + matching + " are allocated");
    } else if (choice.allocationMode() == AllocationMode.ALL && overdrawing.count() > 0) {
      unavailable = Optional.of(all + overdrawing.count() + " of " + matching + " " + overdrawing);
    } else if (free.size() < choice.count()
        && choice.allocationMode() == AllocationMode.EXACT_COUNT) {
      unavailable =
          Optional.of(
              "needs "
                  + choice.count()
                  + " device(s) of class "
                  + choice.deviceClassName()
                  + ", "
                  + free.size()
                  + " matching device(s) are free"
                  + tainted.clause()
                  + overdrawing.clause());
    }
    return new Options(free, unavailable);
  }

  /** Matching devices kept out for one reason: how many, and the first of them. */
  private static final class Exclusion {
    private final String reason;
    private int count;
    private String first = "";

    Exclusion(String reason) {
      this.reason = reason;
    }

    void add(String what) {
      if (count++ == 0) {
        first = what;
      }
    }

    int count() {
      return count;
    }

    /** {@code ", 2 <reason> (<first>)"}, or nothing when no device was kept out. */
    String clause() {
      return count == 0 ? "" : ", " + count + " " + this;
    }

    @Override
    public String toString() {
      return reason + " (" + first + ")";
    }
  }

  private boolean fitsCounters(CandidateDevice d) {
    return counters.overdrawn(d.counterUses(), pickedCounters).isEmpty();
  }

  private void push(Pick p) {
    picks.add(p);
    pickedIds.add(p.device().id());
    for (CounterBudget.Use u : p.device().counterUses()) {
      pickedCounters.merge(u.counter(), u.amount(), BigDecimal::add);
    }
  }

  private void pop() {
    Pick p = picks.remove(picks.size() - 1);
    pickedIds.remove(p.device().id());
    for (CounterBudget.Use u : p.device().counterUses()) {
      pickedCounters.merge(u.counter(), u.amount().negate(), BigDecimal::add);
    }
  }

  private void truncate(int size) {
    while (picks.size() > size) {
      pop();
    }
  }

  private ImmutableList<AllocationResult> results() {
    ImmutableList.Builder<AllocationResult> out = ImmutableList.builder();
    // every slot has at least one pick: ExactCount asks for one device or more, All finds one
    DeviceSubRequest[] chosen = new DeviceSubRequest[slots.size()];
    for (Pick p : picks) {
      chosen[p.slot()] = p.choice();
    }
    int firstSlot = 0;
    for (int c = 0; c < claims.size(); c++) {
      ImmutableList.Builder<DeviceResult> devices = ImmutableList.builder();
      List<DeviceNodes> nodes = new ArrayList<>();
      for (Pick p : picks) {
        Slot s = slots.get(p.slot());
        if (s.claim() != c) {
          continue;
        }
        CandidateDevice d = p.device();
        devices.add(
            new DeviceResult(
                s.request().resultName(p.choice()), d.driver(), d.pool(), d.device().name()));
        nodes.add(d.nodes());
      }
      int requests = claims.get(c).requests().size();
      List<DeviceSubRequest> claimChoices =
          Arrays.asList(chosen).subList(firstSlot, firstSlot + requests);
      firstSlot += requests;
      out.add(
          new AllocationResult(
              devices.build(),
              AllocationConfigs.of(
                  claims.get(c), claimChoices, name -> matcher.deviceClass(name).orElseThrow()),
              AllocationNodeSelector.of(nodes)));
    }
    return out.build();
  }
}
