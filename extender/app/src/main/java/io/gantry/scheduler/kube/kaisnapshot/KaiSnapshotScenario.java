package io.gantry.scheduler.kube.kaisnapshot;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.kubemodel.scenario.ScenarioWriter;
import io.gantry.scheduler.api.usage.UsageSource;
import io.gantry.scheduler.kube.KubeClients;
import io.gantry.scheduler.kube.snapshot.GpuInventoryReader;
import io.gantry.scheduler.kube.snapshot.InFlightBinds;
import io.gantry.scheduler.kube.snapshot.LiveSnapshot;
import io.gantry.scheduler.kube.snapshot.PodFacts;
import io.gantry.scheduler.kube.snapshot.PodFactsMemo;
import io.gantry.scheduler.kube.snapshot.PodGroupAssignments;
import io.gantry.scheduler.kube.snapshot.SnapshotBuilder;
import io.gantry.scheduler.kube.snapshot.SnapshotScope;
import io.gantry.scheduler.kube.write.EventRecorder;
import io.gantry.scheduler.kube.write.KubeWriter;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1Pod;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A KAI snapshot as the scenario file {@code gantry simulate} runs: its raw objects go through the
 * live scheduler's own {@link SnapshotBuilder} (the pods, nodes and PodGroups of the snapshot's
 * scheduler name and node pool, exactly as a running Gantry would see that cluster), and the result
 * is written as the scheduler's {@code /snapshot} writes one ({@link ScenarioWriter}), with KAI's
 * configuration mapped by {@link KaiSchedulerConfig}. The snapshot's time is the newest {@code
 * creationTimestamp} in it, so that the same file always gives the same scenario.
 */
public final class KaiSnapshotScenario {
  /** Where an offline read sends its events: nowhere that answers, so they are dropped. */
  private static final String NO_SERVER = "http://127.0.0.1:0";

  private KaiSnapshotScenario() {}

  /**
   * The scenario file's text, the snapshot it was written from, and what of the file was not taken
   * over (one entry each, for one line on stderr).
   */
  public record Result(String scenario, LiveSnapshot live, ImmutableList<String> ignored) {
    public Result {
      requireNonNull(scenario, "scenario is null");
      requireNonNull(live, "live is null");
      requireNonNull(ignored, "ignored is null");
    }
  }

  /**
   * The snapshot's cluster as a scenario.
   *
   * @param unbound place this scheduler's pods from scratch: every pod of its PodGroups that holds
   *     a node (and is not terminating) enters as pending, so a run shows where Gantry would put
   *     each ({@code --compare})
   */
  public static Result of(String source, KaiSnapshot snapshot, boolean unbound)
      throws ScenarioException {
    KaiSchedulerConfig.Mapped mapped =
        KaiSchedulerConfig.fromKai(source, snapshot.config(), snapshot.schedulerParams());
    List<String> ignored = new ArrayList<>(mapped.ignored());
    snapshot.unreadLists().forEach(l -> ignored.add("rawObjects." + l));
    RawObjects objects = snapshot.objects();
    if (!objects.dra().isEmpty()) {
      Optional<V1Pod> claiming =
          objects.pods().stream()
              .filter(p -> p.getSpec() != null && p.getSpec().getResourceClaims() != null)
              .filter(p -> !p.getSpec().getResourceClaims().isEmpty())
              .findFirst();
      if (claiming.isPresent()) {
        throw new ScenarioException(
            source,
            0,
            "rawObjects.resourceClaims",
            "pod "
                + claiming.get().getMetadata().getNamespace()
                + "/"
                + claiming.get().getMetadata().getName()
                + " claims DRA devices, which a snapshot cannot be simulated with yet");
      }
      // no pod claims a device: the DeviceClasses and ResourceSlices change no decision
      ignored.add("rawObjects DRA objects (no pod claims a device)");
      objects = objects.withoutDra();
    }
    if (unbound) {
      objects = objects.withPods(unbound(objects.pods(), mapped.scope()));
    }
    Instant at = newest(objects);
    KubeClients.installRelaxedJson();
    EventRecorder events =
        new EventRecorder(
            new KubeWriter(KubeClients.forUrl(NO_SERVER)),
            mapped.scope().schedulerName(),
            Clock.fixed(at, ZoneOffset.UTC),
            1);
    LiveSnapshot live;
    try {
      live =
          new SnapshotBuilder(
                  objects,
                  mapped.scope(),
                  Clock.fixed(at, ZoneOffset.UTC),
                  // from scratch, a bind under way is undone as a bound pod is
                  unbound
                      ? InFlightBinds.NONE
                      : BindRequestsInFlight.of(snapshot.bindRequests(), objects.pods()),
                  PodGroupAssignments.NONE,
                  UsageSource.NONE,
                  new GpuInventoryReader(events, Optional.empty()),
                  new PodFactsMemo())
              .build();
    } finally {
      events.close();
    }
    String yaml =
        ScenarioWriter.write(
            "snapshot",
            "KAI snapshot "
                + source
                + " as scheduler "
                + mapped.scope().schedulerName()
                + " (node pool "
                + mapped.scope().pool().name()
                + ") sees it at "
                + at,
            live.snapshot(),
            mapped.engine());
    return new Result(yaml, live, ImmutableList.copyOf(ignored));
  }

  /**
   * Where each task of the snapshot was: its pod ({@code namespace/name}) and the node it held,
   * empty for a pending one; tasks in other states (releasing, finished, gated) are left out.
   */
  public static ImmutableSortedMap<String, Optional<String>> placements(LiveSnapshot live) {
    TreeMap<String, Optional<String>> out = new TreeMap<>();
    for (JobInfo job : live.snapshot().jobs()) {
      for (TaskInfo task : job.tasks()) {
        if (task.status() == TaskStatus.PENDING) {
          out.put(task.id(), Optional.empty());
        } else if (task.status().isAllocated()) {
          out.put(task.id(), task.nodeName());
        }
      }
    }
    return ImmutableSortedMap.copyOfSorted(out);
  }

  /**
   * The pods, those of this scheduler in a PodGroup that hold a node taken off it, as if never
   * bound.
   */
  private static ImmutableList<V1Pod> unbound(List<V1Pod> pods, SnapshotScope scope) {
    JSON json = new JSON();
    ImmutableList.Builder<V1Pod> out = ImmutableList.builder();
    for (V1Pod pod : pods) {
      boolean ours =
          pod.getSpec() != null
              && scope.schedulerName().equals(pod.getSpec().getSchedulerName())
              && pod.getSpec().getNodeName() != null
              && pod.getMetadata().getAnnotations() != null
              && pod.getMetadata().getAnnotations().containsKey(PodFacts.POD_GROUP_ANNOTATION)
              && pod.getMetadata().getDeletionTimestamp() == null
              && (pod.getStatus() == null
                  || !List.of("Succeeded", "Failed").contains(pod.getStatus().getPhase()));
      if (!ours) {
        out.add(pod);
        continue;
      }
      V1Pod copy = json.deserialize(json.serialize(pod), V1Pod.class);
      copy.getSpec().setNodeName(null);
      if (copy.getStatus() != null) {
        copy.getStatus().setPhase("Pending");
        copy.getStatus().setConditions(null);
      }
      out.add(copy);
    }
    return out.build();
  }

  /** The newest creationTimestamp of the objects, or the epoch when none has one. */
  static Instant newest(RawObjects objects) {
    Instant newest = Instant.EPOCH;
    List<KubernetesObject> all = new ArrayList<>();
    all.addAll(objects.pods());
    all.addAll(objects.nodes());
    all.addAll(objects.queues());
    all.addAll(objects.podGroups());
    for (KubernetesObject o : all) {
      OffsetDateTime created = o.getMetadata().getCreationTimestamp();
      if (created != null && created.toInstant().isAfter(newest)) {
        newest = created.toInstant();
      }
    }
    return newest;
  }
}
