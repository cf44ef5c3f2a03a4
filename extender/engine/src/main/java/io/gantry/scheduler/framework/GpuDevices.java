package io.gantry.scheduler.framework;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.DeviceSource;
import io.gantry.gpusharing.GpuGroupView;
import io.gantry.scheduler.model.GpuTopology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which physical GPUs of a node that names its devices ({@link GpuTopology#known()}) hold what:
 * whole-GPU tasks and shared GPU groups, each device free, held, or held only by releasing tasks.
 * The node's resource vectors stay the count that fit checks read; this class only names the
 * devices behind them, so that a multi-GPU task gets devices of one interconnect domain where one
 * has room (issue 8 item 4). Devices whose holder is not known (a running task of a snapshot that
 * does not say) are taken the same way a new task would take them.
 */
final class GpuDevices {
  private enum State {
    FREE,
    RELEASING,
    HELD
  }

  /** Each device's domain ({@link GpuTopology#domainOf}), looked up once. */
  private final int[] domainOf;

  private final int domainCount;
  private final int[] held;
  private final int[] releasing;
  private final Map<String, Integer> groupDevices = new TreeMap<>();

  /**
   * @param offeredCount the node's allocatable whole GPUs; its unhealthy devices come on top, held
   *     for good, so that no task is given one
   */
  GpuDevices(GpuTopology topology, int offeredCount) {
    int deviceCount = offeredCount + topology.unhealthyDevices().size();
    this.domainOf = new int[deviceCount];
    int domains = 0;
    for (int d = 0; d < deviceCount; d++) {
      domainOf[d] = topology.domainOf(d);
      domains = Math.max(domains, domainOf[d] + 1);
    }
    this.domainCount = domains;
    this.held = new int[deviceCount];
    this.releasing = new int[deviceCount];
    for (int d : topology.unhealthyDevices()) {
      if (d < deviceCount) {
        held[d]++;
      }
    }
  }

  /**
   * Takes devices for a whole-GPU task: {@code wanted} when each of them can take it, otherwise
   * {@code fromIdle} free devices and {@code fromReleasing} devices held only by releasing tasks,
   * chosen inside one domain where possible.
   */
  ImmutableList<Integer> takeWhole(
      int fromIdle,
      int fromReleasing,
      boolean asReleasing,
      List<Integer> wanted,
      List<GpuGroupView> groups) {
    State[] states = states(groups);
    ImmutableList<Integer> devices;
    if (usable(wanted, fromIdle + fromReleasing, states)) {
      devices = ImmutableList.copyOf(wanted);
    } else {
      List<Integer> chosen = new ArrayList<>(choose(fromIdle, State.FREE, states, List.of()));
      chosen.addAll(choose(fromReleasing, State.RELEASING, states, chosen));
      devices = ImmutableList.sortedCopyOf(chosen);
    }
    for (int d : devices) {
      if (asReleasing) {
        releasing[d]++;
      } else {
        held[d]++;
      }
    }
    return devices;
  }

  /** Gives back what {@link #takeWhole} took. */
  void giveWhole(List<Integer> devices, boolean asReleasing) {
    for (int d : devices) {
      if (asReleasing) {
        releasing[d]--;
      } else {
        held[d]--;
      }
    }
  }

  /** Names the device a new shared group takes, from free or from releasing capacity. */
  void openGroup(String groupId, DeviceSource source, List<GpuGroupView> groups) {
    State[] states = states(groups);
    State wanted = source == DeviceSource.IDLE ? State.FREE : State.RELEASING;
    List<Integer> chosen = choose(1, wanted, states, List.of());
    if (!chosen.isEmpty()) {
      groupDevices.put(groupId, chosen.get(0));
    }
  }

  void closeGroup(String groupId) {
    groupDevices.remove(groupId);
  }

  /**
   * The most devices free now (holding nothing, not even a releasing task) inside one domain: a
   * whole-GPU task of up to that many gets devices of one domain when it takes free ones.
   */
  int mostFreeInOneDomain(List<GpuGroupView> groups) {
    State[] states = states(groups);
    int[] free = new int[domainCount];
    int most = 0;
    for (int d = 0; d < states.length; d++) {
      if (states[d] == State.FREE) {
        most = Math.max(most, ++free[domainOf[d]]);
      }
    }
    return most;
  }

  private boolean usable(List<Integer> wanted, int count, State[] states) {
    if (wanted.size() != count || count == 0) {
      return false;
    }
    for (int d : wanted) {
      if (d < 0 || d >= states.length || states[d] == State.HELD) {
        return false;
      }
    }
    return wanted.stream().distinct().count() == wanted.size();
  }

  /**
   * The device states now: a shared group holds its device unless every fraction on it is
   * releasing.
   */
  private State[] states(List<GpuGroupView> groups) {
    State[] states = new State[held.length];
    for (int d = 0; d < held.length; d++) {
      states[d] = held[d] > 0 ? State.HELD : releasing[d] > 0 ? State.RELEASING : State.FREE;
    }
    for (GpuGroupView g : groups) {
      Integer d = groupDevices.get(g.id());
      if (d != null && states[d] != State.HELD) {
        states[d] = g.allReleasing() ? State.RELEASING : State.HELD;
      }
    }
    return states;
  }

  /**
   * {@code count} devices in state {@code wanted}, not in {@code taken}: the domain that has room
   * for all of them with the fewest such devices (keeping larger domains whole), else the domains
   * with the most such devices first; lowest indices first inside a domain. Fewer when the node has
   * fewer such devices (the resource vectors, not this class, decide whether a task fits).
   */
  private List<Integer> choose(int count, State wanted, State[] states, List<Integer> taken) {
    if (count == 0) {
      return List.of();
    }
    Map<Integer, List<Integer>> byDomain = new TreeMap<>();
    for (int d = 0; d < states.length; d++) {
      if (states[d] == wanted && !taken.contains(d)) {
        byDomain.computeIfAbsent(domainOf[d], k -> new ArrayList<>()).add(d);
      }
    }
    List<Integer> best = null;
    for (List<Integer> devices : byDomain.values()) {
      if (devices.size() >= count && (best == null || devices.size() < best.size())) {
        best = devices;
      }
    }
    if (best != null) {
      return best.subList(0, count);
    }
    List<List<Integer>> largestFirst = new ArrayList<>(byDomain.values());
    largestFirst.sort((a, b) -> Integer.compare(b.size(), a.size()));
    List<Integer> chosen = new ArrayList<>();
    for (List<Integer> devices : largestFirst) {
      for (int d : devices) {
        if (chosen.size() < count) {
          chosen.add(d);
        }
      }
    }
    return chosen;
  }
}
