package io.gantry.scheduler.testing;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.JobLifecycle;
import io.gantry.scheduler.model.PodSet;
import io.gantry.scheduler.model.SubGroupNode;
import io.gantry.scheduler.model.SubGroupSet;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TopologyConstraint;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.UnaryOperator;

/**
 * Builds {@link JobInfo}s: {@code Jobs.job("j1").queue("q").minMember(2).task(...).build()}. Job id
 * {@code ns/j1}; task ids {@code ns/j1/<task>}; pod names {@code j1-<task>}. Defaults: namespace
 * {@code ns}, queue {@code q}, priority 50, preemptible, one PodSet {@code default} with minMember
 * 1 under the root {@code ""}, created at {@link Snapshots#T0}, creation order assigned by {@link
 * Snapshots#of} from the job's position unless set.
 */
public final class Jobs {
  private Jobs() {}

  public static Builder job(String name) {
    return new Builder(name);
  }

  /** A leaf SubGroup. */
  public static PodSet podSet(String name, int minMember) {
    return new PodSet(name, minMember);
  }

  /** An inner SubGroup; {@code minSubGroup} empty means all children are required. */
  public static SubGroupSet subGroupSet(
      String name, OptionalInt minSubGroup, SubGroupNode... children) {
    return new SubGroupSet(name, minSubGroup, ImmutableList.copyOf(children));
  }

  public static final class Builder {
    private final String name;
    private String namespace = "ns";
    private String queue = "q";
    private int priority = 50;
    private boolean preemptible = true;
    private Instant createdAt = Snapshots.T0;
    private long creationOrder = Snapshots.UNSET;
    private int minMember = 1;
    private SubGroupSet root;
    private Optional<TopologyConstraint> topologyConstraint = Optional.empty();
    private final List<TaskInfo> tasks = new ArrayList<>();
    private JobLifecycle lifecycle = JobLifecycle.NONE;

    private Builder(String name) {
      this.name = name;
    }

    public Builder namespace(String namespace) {
      this.namespace = namespace;
      return this;
    }

    public Builder queue(String queue) {
      this.queue = queue;
      return this;
    }

    public Builder priority(int priority) {
      this.priority = priority;
      return this;
    }

    public Builder nonPreemptible() {
      this.preemptible = false;
      return this;
    }

    public Builder createdAt(Instant createdAt) {
      this.createdAt = createdAt;
      return this;
    }

    public Builder creationOrder(long creationOrder) {
      this.creationOrder = creationOrder;
      return this;
    }

    /** The {@code kai.scheduler/last-start-timestamp} annotation. */
    public Builder lastStartedAt(Instant at) {
      lifecycle = lifecycle.withLastStartedAt(Optional.of(at));
      return this;
    }

    /** The {@code kai.scheduler/last-eviction-timestamp} annotation. */
    public Builder lastEvictedAt(Instant at) {
      lifecycle = lifecycle.withLastEvictedAt(Optional.of(at));
      return this;
    }

    /** The {@code kai.scheduler/stale-podgroup-timestamp} annotation. */
    public Builder staleSince(Instant at) {
      lifecycle = lifecycle.withStaleSince(Optional.of(at));
      return this;
    }

    public Builder preemptionDelay(Duration delay) {
      lifecycle =
          new JobLifecycle(
              lifecycle.lastStartedAt(),
              lifecycle.lastEvictedAt(),
              lifecycle.staleSince(),
              Optional.of(delay),
              lifecycle.stalenessGracePeriod());
      return this;
    }

    public Builder stalenessGracePeriod(Duration grace) {
      lifecycle =
          new JobLifecycle(
              lifecycle.lastStartedAt(),
              lifecycle.lastEvictedAt(),
              lifecycle.staleSince(),
              lifecycle.preemptionDelay(),
              Optional.of(grace));
      return this;
    }

    /** minMember of the single {@code default} PodSet. */
    public Builder minMember(int minMember) {
      this.minMember = minMember;
      return this;
    }

    /**
     * A SubGroup tree instead of the single {@code default} PodSet; the root is named {@code ""}.
     */
    public Builder subGroups(OptionalInt minSubGroup, SubGroupNode... children) {
      this.root = subGroupSet("", minSubGroup, children);
      return this;
    }

    /** The PodGroup's own {@code topologyConstraint}, on the root of its SubGroup tree. */
    public Builder topologyConstraint(TopologyConstraint constraint) {
      this.topologyConstraint = Optional.of(constraint);
      return this;
    }

    public Builder task(TaskInfo... more) {
      tasks.addAll(List.of(more));
      return this;
    }

    public Builder task(Tasks.Builder... more) {
      for (Tasks.Builder t : more) {
        tasks.add(t.build());
      }
      return this;
    }

    /** {@code count} tasks named {@code t0, t1, …}, each shaped by {@code shape}. */
    public Builder tasks(int count, UnaryOperator<Tasks.Builder> shape) {
      for (int i = 0; i < count; i++) {
        tasks.add(shape.apply(Tasks.task("t" + i)).build());
      }
      return this;
    }

    public JobInfo build() {
      String jobId = namespace + "/" + name;
      ImmutableList.Builder<TaskInfo> stamped = ImmutableList.builder();
      for (int i = 0; i < tasks.size(); i++) {
        TaskInfo t = tasks.get(i);
        stamped.add(
            new TaskInfo(
                jobId + "/" + t.name(),
                t.name(),
                name + "-" + t.name(),
                namespace,
                jobId,
                t.podSetName(),
                t.request(),
                t.gpuSharing(),
                t.status(),
                t.nodeName(),
                t.gpuGroups(),
                t.gpuPortion(),
                t.taskPriority(),
                t.labels(),
                t.placement(),
                i,
                t.resourceClaims(),
                t.gpuDevices(),
                t.legacyMig()));
      }
      SubGroupSet shape =
          root != null
              ? root
              : subGroupSet(
                  "", OptionalInt.empty(), new PodSet(JobInfo.DEFAULT_POD_SET, minMember));
      SubGroupSet tree =
          new SubGroupSet(shape.name(), shape.minSubGroup(), shape.children(), topologyConstraint);
      return new JobInfo(
          jobId,
          name,
          namespace,
          queue,
          priority,
          preemptible,
          createdAt,
          creationOrder,
          tree,
          stamped.build(),
          lifecycle);
    }
  }
}
