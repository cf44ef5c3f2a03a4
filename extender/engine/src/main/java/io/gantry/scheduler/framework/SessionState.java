package io.gantry.scheduler.framework;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.NodeInfo;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The mutable node, job and task state of one cycle, built once from a snapshot in its order, with
 * the node index and the lookups by name and id. Building places no task: {@link TaskMoves} puts
 * the snapshot's tasks on their nodes, then {@link #indexNodes} fills the index. Single-threaded.
 */
final class SessionState {
  private final ImmutableList<NodeState> nodes;
  private final NodeIndex nodeIndex = new NodeIndex();
  private final ImmutableList<JobState> jobs;
  // looked up by name or id, never iterated
  private final Map<String, NodeState> nodesByName;
  private final Map<String, JobState> jobsById;
  private final Map<String, TaskState> tasksById;

  SessionState(ClusterSnapshot snapshot) {
    ImmutableList.Builder<NodeState> nodeList =
        ImmutableList.builderWithExpectedSize(snapshot.nodes().size());
    Map<String, NodeState> byName = new HashMap<>();
    int position = 0;
    for (NodeInfo n : snapshot.nodes()) {
      NodeState state = new NodeState(n, position++);
      nodeList.add(state);
      byName.put(n.name(), state);
    }
    this.nodes = nodeList.build();
    this.nodesByName = byName;
    ImmutableList.Builder<JobState> jobList =
        ImmutableList.builderWithExpectedSize(snapshot.jobs().size());
    Map<String, JobState> jobMap = new HashMap<>();
    for (JobInfo j : snapshot.jobs()) {
      JobState state = new JobState(j);
      jobList.add(state);
      jobMap.put(j.id(), state);
    }
    this.jobs = jobList.build();
    this.jobsById = jobMap;
    Map<String, TaskState> taskMap = new HashMap<>();
    for (JobState j : jobs) {
      for (TaskState t : j.tasks()) {
        taskMap.put(t.id(), t);
      }
    }
    this.tasksById = taskMap;
  }

  /** Indexes every node, once every running task is in place rather than re-sorting at each. */
  void indexNodes() {
    nodeIndex.addAll(nodes);
  }

  ImmutableList<NodeState> nodes() {
    return nodes;
  }

  /** The node named {@code name}; a name the snapshot does not list is a caller's bug. */
  NodeState node(String name) {
    NodeState n = nodesByName.get(name);
    if (n == null) {
      throw new IllegalArgumentException("unknown node " + name);
    }
    return n;
  }

  Optional<NodeState> findNode(String name) {
    return Optional.ofNullable(nodesByName.get(name));
  }

  NodeIndex nodeIndex() {
    return nodeIndex;
  }

  ImmutableList<JobState> jobs() {
    return jobs;
  }

  /** The job with {@code id}, or null. */
  JobState job(String id) {
    return jobsById.get(id);
  }

  /** The task with {@code id}, or null. */
  TaskState task(String id) {
    return tasksById.get(id);
  }
}
