package io.gantry.scheduler.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Random small worlds for multi-cycle properties, as values jqwik can shrink and as the scenario
 * YAML that {@code gantry simulate} reads: 1–4 nodes, two queues, up to six gangs whose tasks ask
 * for whole GPUs, a fraction, GPU memory, a fraction of two devices, or CPU only. A task the world
 * says is running or releasing gets a node where it fits (in order, first fit), or stays pending,
 * so every world loads.
 */
final class RandomWorlds {
  private RandomWorlds() {}

  /** What a task asks for. */
  enum Request {
    CPU_ONLY,
    ONE_GPU,
    TWO_GPUS,
    HALF_GPU,
    FRACTION_0_3,
    FRACTION_0_7,
    MEMORY_8000_MIB,
    MEMORY_20000_MIB,
    HALF_OF_TWO_GPUS;

    /** Whole devices it takes. */
    int wholeGpus() {
      return switch (this) {
        case ONE_GPU -> 1;
        case TWO_GPUS -> 2;
        default -> 0;
      };
    }

    boolean shared() {
      return wholeGpus() == 0 && this != CPU_ONLY;
    }

    int devices() {
      return this == HALF_OF_TWO_GPUS ? 2 : 1;
    }

    /** Hundredths of a device a gpuFraction request takes on each device; 0 for the others. */
    int fractionHundredths() {
      return switch (this) {
        case HALF_GPU, HALF_OF_TWO_GPUS -> 50;
        case FRACTION_0_3 -> 30;
        case FRACTION_0_7 -> 70;
        default -> 0;
      };
    }

    String yaml() {
      String cpu = "resources: {cpu: '1', memory: 1Gi";
      return switch (this) {
        case CPU_ONLY -> cpu + "}";
        case ONE_GPU -> cpu + ", nvidia.com/gpu: 1}";
        case TWO_GPUS -> cpu + ", nvidia.com/gpu: 2}";
        case HALF_GPU -> cpu + "}, gpuFraction: 0.5";
        case FRACTION_0_3 -> cpu + "}, gpuFraction: 0.3";
        case FRACTION_0_7 -> cpu + "}, gpuFraction: 0.7";
        case MEMORY_8000_MIB -> cpu + "}, gpuMemory: 8000";
        case MEMORY_20000_MIB -> cpu + "}, gpuMemory: 20000";
        case HALF_OF_TWO_GPUS -> cpu + "}, gpuFraction: 0.5, gpuFractionNumDevices: 2";
      };
    }
  }

  /** Where a task is when the world starts; placed ones may end up pending (no room). */
  enum Start {
    PENDING,
    RUNNING,
    RELEASING,
    FAILED
  }

  record Node(int gpus, boolean largeMemory) {
    int gpuMemoryMib() {
      return largeMemory ? 40960 : 16000;
    }
  }

  record Task(Request request, Start start) {}

  record Job(
      int queue,
      int priorityClass,
      int minMember,
      boolean finishesAfterOneSecond,
      boolean staleAtOnce,
      List<Task> tasks) {}

  record World(List<Node> nodes, int gpuQuota0, int gpuQuota1, List<Job> jobs, int cycles) {
    @Override
    public String toString() {
      return "\n" + yaml();
    }

    String yaml() {
      return RandomWorlds.yaml(this);
    }
  }

  static final String[] PRIORITY_CLASSES = {"train", "build-preemptible", "build", "inference"};

  static Arbitrary<World> worlds() {
    Arbitrary<Node> node =
        Combinators.combine(Arbitraries.integers().between(0, 4), Arbitraries.of(true, false))
            .as(Node::new);
    Arbitrary<Task> task =
        Combinators.combine(Arbitraries.of(Request.class), Arbitraries.of(Start.class))
            .as(Task::new);
    Arbitrary<Job> job =
        Combinators.combine(
                Arbitraries.integers().between(0, 1),
                Arbitraries.integers().between(0, PRIORITY_CLASSES.length - 1),
                Arbitraries.integers().between(1, 4),
                Arbitraries.of(false, true),
                Arbitraries.of(false, true),
                task.list().ofMinSize(1).ofMaxSize(4))
            .as(
                (queue, priority, min, finishes, stale, tasks) ->
                    new Job(queue, priority, Math.min(min, tasks.size()), finishes, stale, tasks));
    return Combinators.combine(
            node.list().ofMinSize(1).ofMaxSize(4),
            Arbitraries.integers().between(0, 4),
            Arbitraries.integers().between(0, 4),
            job.list().ofMinSize(1).ofMaxSize(6),
            Arbitraries.integers().between(2, 3))
        .as(World::new);
  }

  /** A task's place in the starting world: its node and shared groups, or nowhere. */
  record Place(int node, List<String> groups) {}

  /**
   * First-fit places for the running and releasing tasks, in job and task order; a task that fits
   * nowhere gets none (and starts pending).
   */
  static List<List<Place>> places(World world) {
    int n = world.nodes().size();
    int[] freeGpus = new int[n];
    int[] pods = new int[n];
    List<TreeMap<String, Integer>> groups = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      freeGpus[i] = world.nodes().get(i).gpus();
      groups.add(new TreeMap<>());
    }
    List<List<Place>> out = new ArrayList<>();
    for (Job job : world.jobs()) {
      List<Place> places = new ArrayList<>();
      for (Task task : job.tasks()) {
        Place place = null;
        if (task.start() == Start.RUNNING || task.start() == Start.RELEASING) {
          for (int i = 0; i < n && place == null; i++) {
            place = placeOn(world, task.request(), i, freeGpus, pods, groups.get(i));
          }
        }
        places.add(place);
      }
      out.add(places);
    }
    return out;
  }

  private static Place placeOn(
      World world,
      Request r,
      int node,
      int[] freeGpus,
      int[] pods,
      TreeMap<String, Integer> groups) {
    // 16 CPUs a node, one per task
    if (pods[node] >= 16) {
      return null;
    }
    int portion = portionOn(r, world.nodes().get(node));
    if (!r.shared()) {
      if (freeGpus[node] < r.wholeGpus()) {
        return null;
      }
      freeGpus[node] -= r.wholeGpus();
      pods[node]++;
      return new Place(node, List.of());
    }
    if (portion <= 0 || portion > 100) {
      return null;
    }
    List<String> chosen = new ArrayList<>();
    for (var g : groups.entrySet()) {
      if (chosen.size() < r.devices() && g.getValue() + portion <= 100) {
        chosen.add(g.getKey());
      }
    }
    int fresh = r.devices() - chosen.size();
    if (fresh > freeGpus[node]) {
      return null;
    }
    for (int k = 0; chosen.size() < r.devices(); k++) {
      String id = "g" + node + "-" + k;
      if (!groups.containsKey(id)) {
        groups.put(id, 0);
        chosen.add(id);
      }
    }
    freeGpus[node] -= fresh;
    for (String g : chosen) {
      groups.merge(g, portion, Integer::sum);
    }
    pods[node]++;
    return new Place(node, chosen);
  }

  /**
   * Hundredths of a device the request takes on the node (kai-reference §7: memory over the label
   * floored to 100 MiB, rounded up); only used to keep starting groups within one device, so memory
   * requests round up one more hundredth to stay clear of the engine's rounding.
   */
  private static int portionOn(Request r, Node node) {
    if (r.fractionHundredths() > 0) {
      return r.fractionHundredths();
    }
    int mib =
        switch (r) {
          case MEMORY_8000_MIB -> 8000;
          case MEMORY_20000_MIB -> 20000;
          default -> 0;
        };
    if (mib == 0) {
      return 0;
    }
    int deviceMib = node.gpuMemoryMib() / 100 * 100;
    return (int) Math.ceil(mib * 100.0 / deviceMib) + 1;
  }

  static String nodeName(int i) {
    return "n" + i;
  }

  static String jobName(int i) {
    return "j" + i;
  }

  static String taskName(int i) {
    return "t" + i;
  }

  static String yaml(World world) {
    StringBuilder y = new StringBuilder();
    y.append("apiVersion: gantry.io/v1alpha1\nkind: Scenario\nmetadata: {name: random}\n");
    y.append("config: {cycles: ").append(world.cycles()).append("}\nnodes:\n");
    for (int i = 0; i < world.nodes().size(); i++) {
      Node node = world.nodes().get(i);
      y.append(
          String.format(
              Locale.ROOT,
              "- {name: %s, gpus: %d, gpuMemory: %d, cpu: '16', memory: 64Gi}%n",
              nodeName(i),
              node.gpus(),
              node.gpuMemoryMib()));
    }
    y.append("queues:\n");
    int[] quotas = {world.gpuQuota0(), world.gpuQuota1()};
    for (int q = 0; q < 2; q++) {
      y.append("- name: q")
          .append(q)
          .append("\n  resources:\n    gpu: {quota: ")
          .append(quotas[q])
          .append(", overQuotaWeight: 1, limit: -1}\n")
          .append("    cpu: {quota: -1, overQuotaWeight: 1, limit: -1}\n")
          .append("    memory: {quota: -1, overQuotaWeight: 1, limit: -1}\n");
    }
    y.append("jobs:\n");
    List<List<Place>> places = places(world);
    for (int j = 0; j < world.jobs().size(); j++) {
      Job job = world.jobs().get(j);
      y.append("- name: ").append(jobName(j)).append("\n  queue: q").append(job.queue());
      y.append("\n  priorityClass: ").append(PRIORITY_CLASSES[job.priorityClass()]);
      y.append("\n  createdAt: -").append(100 - j).append("s\n  minMember: ");
      y.append(job.minMember()).append('\n');
      if (job.finishesAfterOneSecond()) {
        y.append("  duration: 1s\n");
      }
      if (job.staleAtOnce()) {
        y.append("  stalenessGracePeriod: 0s\n");
      }
      y.append("  tasks:\n");
      for (int t = 0; t < job.tasks().size(); t++) {
        Task task = job.tasks().get(t);
        y.append("  - {name: ").append(taskName(t)).append(", ").append(task.request().yaml());
        Place place = places.get(j).get(t);
        if (place != null) {
          y.append(", node: ").append(nodeName(place.node()));
          y.append(", status: ").append(task.start() == Start.RUNNING ? "Running" : "Releasing");
          if (!place.groups().isEmpty()) {
            y.append(", gpuGroups: [").append(String.join(", ", place.groups())).append(']');
          }
          if (task.start() == Start.RUNNING) {
            y.append(", startedAt: -1h");
          }
        } else if (task.start() == Start.FAILED) {
          y.append(", status: Failed");
        }
        y.append("}\n");
      }
    }
    return y.toString();
  }
}
