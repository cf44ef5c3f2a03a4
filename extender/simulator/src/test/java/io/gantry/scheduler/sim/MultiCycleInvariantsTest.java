package io.gantry.scheduler.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.sim.RandomWorlds.Job;
import io.gantry.scheduler.sim.RandomWorlds.Place;
import io.gantry.scheduler.sim.RandomWorlds.Request;
import io.gantry.scheduler.sim.RandomWorlds.Start;
import io.gantry.scheduler.sim.RandomWorlds.World;
import io.gantry.scheduler.sim.SimulationResult.NodeResult;
import io.gantry.scheduler.sim.SimulationResult.SharedGpuGroup;
import io.gantry.scheduler.sim.SimulationResult.TaskResult;
import io.gantry.scheduler.sim.spec.ScenarioLoader;
import io.gantry.scheduler.sim.spec.ScenarioSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Rules that hold whatever KAI decides, checked after every cycle of a multi-cycle run of all five
 * actions on a random small world (issue 23), through the path {@code gantry simulate --cycles N}
 * takes: the world after cycle n is the result of a run of n cycles. A task "holds" a device while
 * it is Running, Bound, Binding, Releasing or StuckInReleasing on it; a victim that a cycle evicts
 * and re-places elsewhere (reported Pipelined at its new place) still holds its old place until its
 * release ends.
 */
class MultiCycleInvariantsTest {
  private static final Simulator SIMULATOR = new Simulator();
  private static final double EPSILON = 0.005;

  private static final Set<String> HOLDING =
      Set.of("Running", "Bound", "Binding", "Releasing", "StuckInReleasing");

  /** Who holds a node once every release has ended: pipelined tasks take what is released. */
  private static final Set<String> HOLDING_AFTER_RELEASES =
      Set.of("Running", "Bound", "Binding", "Pipelined", "StuckInReleasing");

  /** Placed for a gang: active-allocated (kai-reference §4.2). */
  private static final Set<String> PLACED = Set.of("Running", "Bound", "Binding", "Pipelined");

  @Provide
  Arbitrary<World> worlds() {
    return RandomWorlds.worlds();
  }

  @Property(tries = 1000)
  void noDeviceIsOverCommittedOnceReleasesEnd(@ForAll("worlds") World world) {
    Run run = Run.of(world);
    for (int n = 1; n <= run.cycles(); n++) {
      for (int node = 0; node < world.nodes().size(); node++) {
        List<TaskView> holders = run.on(n, node, HOLDING_AFTER_RELEASES);
        Set<String> groups = new TreeSet<>();
        int whole = 0;
        for (TaskView t : holders) {
          whole += t.request().wholeGpus();
          groups.addAll(t.groups());
          if (t.request().shared()) {
            assertThat(Set.copyOf(t.groups()))
                .as("cycle %d: %s takes distinct devices, one per device it asks for", n, t)
                .hasSize(t.request().devices())
                .hasSameSizeAs(t.groups());
          }
        }
        assertThat(whole + groups.size())
            .as("cycle %d node %s: whole GPUs %d + shared devices %s", n, node, whole, groups)
            .isLessThanOrEqualTo(world.nodes().get(node).gpus());
      }
    }
  }

  @Property(tries = 1000)
  void sharedGroupsHoldAtMostOneDevice(@ForAll("worlds") World world) {
    Run run = Run.of(world);
    for (int n = 1; n <= run.cycles(); n++) {
      for (int node = 0; node < world.nodes().size(); node++) {
        for (Set<String> statuses : List.of(HOLDING, HOLDING_AFTER_RELEASES)) {
          for (var g : portions(run.on(n, node, statuses)).entrySet()) {
            assertThat(g.getValue())
                .as("cycle %d node %s group %s, held by %s", n, node, g.getKey(), statuses)
                .isLessThanOrEqualTo(1 + EPSILON);
          }
        }
        for (SharedGpuGroup g : run.node(n, node).sharedGpuGroups()) {
          assertThat(g.usedFraction()).as("cycle %d %s", n, g).isLessThanOrEqualTo(1 + EPSILON);
        }
      }
    }
  }

  @Property(tries = 1000)
  void gangsArePlacedWholeAndUnreadyJobsWait(@ForAll("worlds") World world) {
    Run run = Run.of(world);
    for (int n = 1; n <= run.cycles(); n++) {
      Set<String> notReady = new TreeSet<>();
      for (SimulationResult.EventResult e : run.result(n).events()) {
        if (e.cycle() == n && e.reason().equals("NotReady")) {
          notReady.add(e.object());
        }
      }
      for (int j = 0; j < world.jobs().size(); j++) {
        int min = world.jobs().get(j).minMember();
        String id = "default/" + RandomWorlds.jobName(j);
        List<TaskView> before = run.job(n - 1, j);
        List<TaskView> after = run.job(n, j);
        long placedNow = count(after, Set.of("Binding", "Pipelined"));
        String what = "cycle " + n + " job " + id + " (minMember " + min + "): " + after;
        if (placedNow > 0) {
          assertThat(count(after, PLACED))
              .as("a job placed in a cycle meets its gang; " + what)
              .isGreaterThanOrEqualTo(min);
          assertThat(notReady)
              .as("a job reported NotReady is not placed; " + what)
              .doesNotContain(id);
        }
        if (waitingForReleases(before, after) && count(after, Set.of("Binding")) > 0) {
          assertThat(count(after, Set.of("Binding", "Running", "Bound")))
              .as("no member binds ahead of members waiting for releases; " + what)
              .isGreaterThanOrEqualTo(min);
        }
        // pipelined tasks are decided anew next cycle, so they make no gang whole for it; a gang
        // some of whose members have finished may end below its minimum
        long placedBefore = count(before, Set.of("Running", "Bound", "Binding"));
        boolean finishing = count(after, Set.of("Succeeded")) > 0;
        if (!finishing && (placedBefore == 0 || placedBefore >= min)) {
          assertThat(count(after, PLACED))
              .as("a gang whole or empty stays whole or empty; before: " + before + "; " + what)
              .satisfiesAnyOf(
                  c -> assertThat(c).isZero(), c -> assertThat(c).isGreaterThanOrEqualTo(min));
        }
      }
    }
  }

  @Property(tries = 1000)
  void releasedCapacityComesBack(@ForAll("worlds") World world) {
    Run run = Run.of(world);
    for (int n = 1; n <= run.cycles(); n++) {
      for (int node = 0; node < world.nodes().size(); node++) {
        List<TaskView> holders = new ArrayList<>(run.on(n, node, HOLDING));
        List<TaskView> releasing = new ArrayList<>(run.on(n, node, Set.of("Releasing")));
        List<TaskView> oldPlaces = run.replacedVictimsLeaving(n, node);
        holders.addAll(oldPlaces);
        releasing.addAll(oldPlaces);
        Map<String, Double> portions = portions(holders);
        Map<String, Double> releasingPortions = portions(releasing);
        int wholeReleasing = releasing.stream().mapToInt(t -> t.request().wholeGpus()).sum();
        long groupsReleasing =
            portions.keySet().stream()
                .filter(
                    g ->
                        Math.abs(portions.get(g) - releasingPortions.getOrDefault(g, 0.0))
                            < EPSILON)
                .count();
        int held = holders.stream().mapToInt(t -> t.request().wholeGpus()).sum() + portions.size();
        NodeResult result = run.node(n, node);
        String what = "cycle " + n + " " + result + " held by " + holders;
        assertThat(result.idleGpus())
            .as("idle GPUs are the node's less those held; " + what)
            .isEqualTo(world.nodes().get(node).gpus() - held);
        assertThat(result.releasingGpus())
            .as("releasing GPUs are those only releasing tasks hold; " + what)
            .isEqualTo(wholeReleasing + (int) groupsReleasing);
        Map<String, Double> listed = new TreeMap<>();
        result.sharedGpuGroups().forEach(g -> listed.put(g.group(), g.usedFraction()));
        assertThat(listed.keySet())
            .as("every shared group listed is held; " + what)
            .containsExactlyElementsOf(portions.keySet());
        for (var g : listed.entrySet()) {
          assertThat(g.getValue()).as(what).isCloseTo(portions.get(g.getKey()), offset(EPSILON));
        }
      }
    }
  }

  /**
   * Whether a task of the job that was not placed before the cycle is pipelined now; a running
   * member that an eviction action moves is pipelined too, but its gang was placed already.
   */
  private static boolean waitingForReleases(List<TaskView> before, List<TaskView> after) {
    for (int t = 0; t < after.size(); t++) {
      if (after.get(t).status().equals("Pipelined")
          && !Set.of("Running", "Bound", "Binding").contains(before.get(t).status())) {
        return true;
      }
    }
    return false;
  }

  private static long count(List<TaskView> tasks, Set<String> statuses) {
    return tasks.stream().filter(t -> statuses.contains(t.status())).count();
  }

  /** Portion of each shared group the tasks hold, by group id. */
  private static Map<String, Double> portions(List<TaskView> tasks) {
    Map<String, Double> out = new TreeMap<>();
    for (TaskView t : tasks) {
      for (String g : t.groups()) {
        out.merge(g, t.portion(), Double::sum);
      }
    }
    return out;
  }

  /**
   * One task at the end of a cycle (or at the start of the world): what it asks and where it is.
   */
  record TaskView(
      String name,
      Request request,
      String status,
      OptionalInt node,
      List<String> groups,
      double portion) {
    @Override
    public String toString() {
      return name
          + " "
          + request
          + " "
          + status
          + node.stream().mapToObj(i -> " n" + i).findFirst().orElse("")
          + (groups.isEmpty() ? "" : " " + groups + " " + portion);
    }
  }

  /** A world and what it looked like after each cycle; cycle 0 is the world as it starts. */
  record Run(World world, List<SimulationResult> results, List<List<List<TaskView>>> tasks) {
    static Run of(World world) {
      ScenarioSpec spec;
      try {
        spec = ScenarioLoader.parse("random.yaml", world.yaml());
      } catch (ScenarioException e) {
        throw new AssertionError("the random world does not load: " + e.getMessage(), e);
      }
      List<SimulationResult> results = new ArrayList<>();
      List<List<List<TaskView>>> tasks = new ArrayList<>();
      tasks.add(start(world));
      for (int n = 1; n <= world.cycles(); n++) {
        SimulationResult r;
        try {
          r = SIMULATOR.run(spec, OptionalInt.of(n));
        } catch (ScenarioException e) {
          throw new AssertionError(e);
        }
        results.add(r);
        tasks.add(views(world, r));
      }
      return new Run(world, results, tasks);
    }

    int cycles() {
      return results.size();
    }

    SimulationResult result(int cycle) {
      return results.get(cycle - 1);
    }

    NodeResult node(int cycle, int node) {
      String name = RandomWorlds.nodeName(node);
      return result(cycle).nodes().stream()
          .filter(r -> r.node().equals(name))
          .findFirst()
          .orElseThrow();
    }

    List<TaskView> job(int cycle, int job) {
      return tasks.get(cycle).get(job);
    }

    List<TaskView> on(int cycle, int node, Set<String> statuses) {
      List<TaskView> out = new ArrayList<>();
      for (List<TaskView> job : tasks.get(cycle)) {
        for (TaskView t : job) {
          if (t.node().equals(OptionalInt.of(node)) && statuses.contains(t.status())) {
            out.add(t);
          }
        }
      }
      return out;
    }

    /**
     * Victims the cycle evicted and re-placed (Pipelined now, running before): their old pods still
     * release the place they held after the previous cycle.
     */
    List<TaskView> replacedVictimsLeaving(int cycle, int node) {
      List<TaskView> out = new ArrayList<>();
      for (int j = 0; j < world.jobs().size(); j++) {
        List<TaskView> now = job(cycle, j);
        List<TaskView> before = job(cycle - 1, j);
        for (int t = 0; t < now.size(); t++) {
          TaskView was = before.get(t);
          if (now.get(t).status().equals("Pipelined")
              && Set.of("Running", "Bound", "Binding").contains(was.status())
              && was.node().equals(OptionalInt.of(node))) {
            out.add(
                new TaskView(
                    was.name(),
                    was.request(),
                    "Releasing",
                    was.node(),
                    was.groups(),
                    was.portion()));
          }
        }
      }
      return out;
    }

    private static List<List<TaskView>> start(World world) {
      List<List<Place>> places = RandomWorlds.places(world);
      List<List<TaskView>> out = new ArrayList<>();
      for (int j = 0; j < world.jobs().size(); j++) {
        Job job = world.jobs().get(j);
        List<TaskView> views = new ArrayList<>();
        for (int t = 0; t < job.tasks().size(); t++) {
          Request request = job.tasks().get(t).request();
          Start start = job.tasks().get(t).start();
          Place place = places.get(j).get(t);
          String name = RandomWorlds.jobName(j) + "/" + RandomWorlds.taskName(t);
          if (place == null) {
            String status = start == Start.FAILED ? "Failed" : "Pending";
            views.add(new TaskView(name, request, status, OptionalInt.empty(), List.of(), 0));
          } else {
            String status = start == Start.RUNNING ? "Running" : "Releasing";
            double portion =
                place.groups().isEmpty() ? 0 : portionOn(request, world.nodes().get(place.node()));
            views.add(
                new TaskView(
                    name, request, status, OptionalInt.of(place.node()), place.groups(), portion));
          }
        }
        out.add(views);
      }
      return out;
    }

    /** A shared request's portion on the node, as the engine computes it (kai-reference §7). */
    private static double portionOn(Request request, RandomWorlds.Node node) {
      if (request.fractionHundredths() > 0) {
        return request.fractionHundredths() / 100.0;
      }
      int mib = request == Request.MEMORY_8000_MIB ? 8000 : 20000;
      int deviceMib = node.gpuMemoryMib() / 100 * 100;
      return Math.ceil(mib * 100.0 / deviceMib) / 100.0;
    }

    private static List<List<TaskView>> views(World world, SimulationResult r) {
      List<List<TaskView>> out = new ArrayList<>();
      for (int j = 0; j < world.jobs().size(); j++) {
        String jobName = RandomWorlds.jobName(j);
        Job job = world.jobs().get(j);
        List<TaskView> views = new ArrayList<>();
        for (int t = 0; t < job.tasks().size(); t++) {
          String taskName = RandomWorlds.taskName(t);
          TaskResult tr =
              r.tasks().stream()
                  .filter(x -> x.jobName().equals(jobName) && x.task().equals(taskName))
                  .findFirst()
                  .orElseThrow();
          Optional<String> node = tr.node();
          views.add(
              new TaskView(
                  jobName + "/" + taskName,
                  job.tasks().get(t).request(),
                  tr.status(),
                  node.isPresent()
                      ? OptionalInt.of(Integer.parseInt(node.get().substring(1)))
                      : OptionalInt.empty(),
                  tr.gpuGroups(),
                  tr.gpuPortion().orElse(0)));
        }
        out.add(views);
      }
      return out;
    }
  }
}
