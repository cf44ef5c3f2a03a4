package io.gantry.scheduler.sim.report;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.sim.SimulationResult;
import io.gantry.scheduler.sim.SimulationResult.Amounts;
import io.gantry.scheduler.sim.SimulationResult.ClaimResult;
import io.gantry.scheduler.sim.SimulationResult.EventResult;
import io.gantry.scheduler.sim.SimulationResult.JobResult;
import io.gantry.scheduler.sim.SimulationResult.NodeResult;
import io.gantry.scheduler.sim.SimulationResult.QueueResult;
import io.gantry.scheduler.sim.SimulationResult.SharedGpuGroup;
import io.gantry.scheduler.sim.SimulationResult.TaskResult;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/** Builders for hand-made simulation results; jobs are {@code namespace/name}. */
final class Results {
  private Results() {}

  static ResultBuilder result(String scenario) {
    return new ResultBuilder(scenario);
  }

  static TaskBuilder task(String job, String task) {
    return new TaskBuilder(job, task);
  }

  static JobBuilder job(String job) {
    return new JobBuilder(job);
  }

  static QueueResult queue(String name, Amounts fairShare, Amounts allocated, Amounts quota) {
    return new QueueResult(name, fairShare, allocated, quota);
  }

  static Amounts amounts(double gpu, double cpuMillis, double memoryBytes) {
    return new Amounts(gpu, cpuMillis, memoryBytes);
  }

  static NodeResult node(String name, int idle, int releasing, int used, SharedGpuGroup... groups) {
    return new NodeResult(name, idle, releasing, used, List.of(groups));
  }

  static SharedGpuGroup group(String name, double usedFraction) {
    return new SharedGpuGroup(name, usedFraction);
  }

  static EventResult event(int cycle, String object, String reason, String message) {
    return new EventResult(cycle, object, reason, message);
  }

  private static String name(String job) {
    return job.substring(job.indexOf('/') + 1);
  }

  static final class ResultBuilder {
    private final String scenario;
    private int cycles = 1;
    private final ImmutableList.Builder<TaskResult> tasks = ImmutableList.builder();
    private final ImmutableList.Builder<JobResult> jobs = ImmutableList.builder();
    private final ImmutableList.Builder<QueueResult> queues = ImmutableList.builder();
    private final ImmutableList.Builder<NodeResult> nodes = ImmutableList.builder();
    private final ImmutableList.Builder<EventResult> events = ImmutableList.builder();
    private final ImmutableList.Builder<ClaimResult> claims = ImmutableList.builder();

    private ResultBuilder(String scenario) {
      this.scenario = scenario;
    }

    ResultBuilder cycles(int cycles) {
      this.cycles = cycles;
      return this;
    }

    ResultBuilder tasks(TaskBuilder... tasks) {
      for (TaskBuilder t : tasks) {
        this.tasks.add(t.build());
      }
      return this;
    }

    ResultBuilder jobs(JobBuilder... jobs) {
      for (JobBuilder j : jobs) {
        this.jobs.add(j.build());
      }
      return this;
    }

    ResultBuilder queues(QueueResult... queues) {
      this.queues.add(queues);
      return this;
    }

    ResultBuilder nodes(NodeResult... nodes) {
      this.nodes.add(nodes);
      return this;
    }

    ResultBuilder events(EventResult... events) {
      this.events.add(events);
      return this;
    }

    ResultBuilder claims(ClaimResult... claims) {
      this.claims.add(claims);
      return this;
    }

    SimulationResult build() {
      return new SimulationResult(
          scenario,
          cycles,
          tasks.build(),
          jobs.build(),
          queues.build(),
          nodes.build(),
          events.build(),
          claims.build());
    }
  }

  static final class TaskBuilder {
    private final String job;
    private final String task;
    private String status = "Pending";
    private Optional<String> node = Optional.empty();
    private List<String> gpuGroups = List.of();
    private OptionalDouble gpuPortion = OptionalDouble.empty();
    private Optional<String> message = Optional.empty();

    private TaskBuilder(String job, String task) {
      this.job = job;
      this.task = task;
    }

    TaskBuilder status(String status) {
      this.status = status;
      return this;
    }

    TaskBuilder node(String node) {
      this.node = Optional.of(node);
      return this;
    }

    TaskBuilder groups(String... groups) {
      this.gpuGroups = List.of(groups);
      return this;
    }

    TaskBuilder portion(double portion) {
      this.gpuPortion = OptionalDouble.of(portion);
      return this;
    }

    TaskBuilder message(String message) {
      this.message = Optional.of(message);
      return this;
    }

    TaskResult build() {
      return new TaskResult(
          job, name(job), task, status, node, gpuGroups, gpuPortion, List.of(), message);
    }
  }

  static final class JobBuilder {
    private final String job;
    private String status = "Pending";
    private final ImmutableSortedMap.Builder<String, Integer> taskStatuses =
        ImmutableSortedMap.naturalOrder();
    private List<String> nodes = List.of();
    private String queue = "default";
    private Optional<String> message = Optional.empty();

    private JobBuilder(String job) {
      this.job = job;
    }

    JobBuilder status(String status) {
      this.status = status;
      return this;
    }

    JobBuilder count(String status, int count) {
      taskStatuses.put(status, count);
      return this;
    }

    JobBuilder nodes(String... nodes) {
      this.nodes = List.of(nodes);
      return this;
    }

    JobBuilder queue(String queue) {
      this.queue = queue;
      return this;
    }

    JobBuilder message(String message) {
      this.message = Optional.of(message);
      return this;
    }

    JobResult build() {
      return new JobResult(job, name(job), status, taskStatuses.build(), nodes, queue, message);
    }
  }
}
