package io.gantry.scheduler.kube.write;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.util.concurrent.RateLimiter;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.kube.config.NodePool;
import io.gantry.scheduler.kube.crd.KaiPodGroup;
import io.gantry.scheduler.kube.crd.KaiPodGroupStatus;
import io.gantry.scheduler.kube.crd.KaiQueue;
import io.gantry.scheduler.kube.crd.KaiQueueStatus;
import io.gantry.scheduler.kube.crd.KaiSchedulingCondition;
import io.gantry.scheduler.kube.crd.KaiUnschedulableReason;
import io.gantry.scheduler.kube.informers.ClusterInformers;
import io.gantry.scheduler.kube.lease.Leadership;
import io.gantry.scheduler.kube.snapshot.LiveSnapshot;
import io.gantry.scheduler.kube.snapshot.PodFacts;
import io.gantry.scheduler.kube.snapshot.PodGroupReader;
import io.gantry.scheduler.kube.write.StatusPlanner.PodCondition;
import io.gantry.scheduler.kube.write.StatusPlanner.PodGroupAnnotations;
import io.gantry.scheduler.kube.write.StatusPlanner.PodGroupStatus;
import io.gantry.scheduler.kube.write.StatusPlanner.QueueStatus;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the status a cycle planned ({@link StatusPlanner}), and the PodGroups' lifecycle
 * annotations, from one background thread, at most {@code perSecond} writes a second. A write is
 * skipped when the cached object already shows it, or when the same write was made within {@link
 * #RESUBMIT_AFTER} (the cache may not show it yet); a newer write for an object replaces one still
 * queued. Only the leader writes.
 */
public final class StatusWriter implements AutoCloseable {
  static final Duration RESUBMIT_AFTER = Duration.ofSeconds(30);

  private static final Logger LOG = LoggerFactory.getLogger(StatusWriter.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ClusterInformers cache;
  private final KubeWriter writer;
  private final EventRecorder events;
  private final Leadership leadership;
  private final NodePool pool;
  private final Clock clock;
  private final RateLimiter limiter;
  private final Map<String, Runnable> pending = new ConcurrentHashMap<>();
  private final BlockingQueue<String> order = new LinkedBlockingQueue<>();
  private final Cache<String, String> submitted =
      CacheBuilder.newBuilder().expireAfterWrite(RESUBMIT_AFTER).maximumSize(500_000).build();
  private final Thread thread;
  private volatile boolean running = true;

  public StatusWriter(
      ClusterInformers cache,
      KubeWriter writer,
      EventRecorder events,
      Leadership leadership,
      NodePool pool,
      Clock clock,
      double perSecond) {
    this.cache = requireNonNull(cache, "cache is null");
    this.writer = requireNonNull(writer, "writer is null");
    this.events = requireNonNull(events, "events is null");
    this.leadership = requireNonNull(leadership, "leadership is null");
    this.pool = requireNonNull(pool, "pool is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.limiter = RateLimiter.create(perSecond);
    this.thread = new Thread(this::drain, "gantry-status");
    this.thread.setDaemon(true);
    this.thread.start();
  }

  /** Queues the status writes of one cycle that would change something. */
  public void publish(LiveSnapshot live, CycleResult result) {
    StatusPlanner.Plan plan = StatusPlanner.plan(live, result, pool);
    plan.pods().forEach(this::podCondition);
    plan.podGroups().forEach(this::podGroup);
    plan.lifecycles().forEach(this::lifecycle);
    plan.queues().forEach(this::queue);
  }

  /** Writes queued and not yet made. */
  int backlog() {
    return pending.size();
  }

  private void podCondition(PodCondition c) {
    PodFacts p = c.pod();
    V1Pod cached = cache.pod(p.namespace(), p.name());
    if (cached == null || showsUnschedulable(cached, c.message())) {
      return;
    }
    String patch =
        PodConditions.patch(
            PodConditions.POD_SCHEDULED, "False", "Unschedulable", c.message(), clock.instant());
    submit(
        "pod/" + p.key(),
        c.message(),
        () -> {
          writer.patchPodStatus(p.namespace(), p.name(), patch);
          events.warning(ObjectRef.pod(p), "Unschedulable", c.message());
        });
  }

  private static boolean showsUnschedulable(V1Pod pod, String message) {
    if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
      return false;
    }
    for (V1PodCondition c : pod.getStatus().getConditions()) {
      if (PodConditions.POD_SCHEDULED.equals(c.getType())) {
        return "False".equals(c.getStatus())
            && "Unschedulable".equals(c.getReason())
            && message.equals(c.getMessage());
      }
    }
    return false;
  }

  private void podGroup(PodGroupStatus s) {
    String ns = s.podGroup().getMetadata().getNamespace();
    String name = s.podGroup().getMetadata().getName();
    KaiPodGroup cached = cache.podGroup(ns, name);
    if (cached == null) {
      return;
    }
    KaiPodGroupStatus current = cached.status();
    List<KaiSchedulingCondition> currentConditions =
        current == null || current.schedulingConditions() == null
            ? List.of()
            : current.schedulingConditions();
    boolean conditionsChange =
        s.conditions().isPresent() && !sameConditions(currentConditions, s.conditions().get());
    boolean resourcesChange =
        current == null || !Objects.equals(current.resourcesStatus(), s.resources());
    if (!conditionsChange && !resourcesChange) {
      return;
    }
    String key = "podgroup/" + ns + "/" + name;
    String fingerprint = fingerprint(s);
    // checked before the patch is built: most PodGroups of a large cluster have a write queued
    if (alreadySubmitted(key, fingerprint)) {
      return;
    }
    ArrayNode conditions = conditionsChange ? conditionsJson(s, currentConditions) : null;
    // a waiting write holds its patch as text: a tree is several times larger, and a scheduler
    // starting on a large cluster queues one for most PodGroups
    String body = statusPatch(conditions, s).toString();
    submit(key, fingerprint, () -> writer.patchPodGroupStatus(ns, name, body));
  }

  private ArrayNode conditionsJson(
      PodGroupStatus s, List<KaiSchedulingCondition> currentConditions) {
    ArrayNode list = JSON.createArrayNode();
    for (KaiSchedulingCondition c : s.conditions().get()) {
      list.add(conditionJson(c, nextTransition(currentConditions)));
    }
    return list;
  }

  private static ObjectNode statusPatch(ArrayNode conditions, PodGroupStatus s) {
    ObjectNode patch = JSON.createObjectNode();
    ObjectNode status = patch.putObject("status");
    if (conditions != null) {
      status.set("schedulingConditions", conditions);
    }
    status.set("resourcesStatus", JSON.valueToTree(s.resources()));
    return patch;
  }

  /** Patches the PodGroup's lifecycle annotations where the cached PodGroup differs. */
  private void lifecycle(PodGroupAnnotations a) {
    String ns = a.podGroup().getMetadata().getNamespace();
    String name = a.podGroup().getMetadata().getName();
    KaiPodGroup cached = cache.podGroup(ns, name);
    if (cached == null) {
      return;
    }
    Map<String, String> current = PodGroupReader.annotations(cached);
    Map<String, Optional<String>> changes = new TreeMap<>();
    a.annotations()
        .forEach(
            (key, value) -> {
              if (!Objects.equals(current.get(key), value.orElse(null))) {
                changes.put(key, value);
              }
            });
    if (changes.isEmpty()) {
      return;
    }
    String key = "podgroup-lifecycle/" + ns + "/" + name;
    String fingerprint = changes.toString();
    if (alreadySubmitted(key, fingerprint)) {
      return;
    }
    // a waiting write holds its patch as text: a tree is several times larger
    String body = annotationsPatch(changes).toString();
    submit(key, fingerprint, () -> writer.patchPodGroup(ns, name, body));
  }

  private static String fingerprint(PodGroupStatus s) {
    return s.conditions().map(l -> l.stream().map(KaiSchedulingCondition::message).toList())
        + "|"
        + s.resources();
  }

  /** The merge patch setting the annotations, in key order; an empty value removes one. */
  private static ObjectNode annotationsPatch(Map<String, Optional<String>> changes) {
    ObjectNode annotations = JSON.createObjectNode();
    changes.forEach(
        (key, value) -> {
          if (value.isPresent()) {
            annotations.put(key, value.get());
          } else {
            annotations.putNull(key);
          }
        });
    ObjectNode patch = JSON.createObjectNode();
    patch.putObject("metadata").set("annotations", annotations);
    return patch;
  }

  private static boolean sameConditions(
      List<KaiSchedulingCondition> current, List<KaiSchedulingCondition> desired) {
    if (current.size() != desired.size()) {
      return false;
    }
    for (int i = 0; i < current.size(); i++) {
      KaiSchedulingCondition a = current.get(i);
      KaiSchedulingCondition b = desired.get(i);
      if (!Objects.equals(a.type(), b.type())
          || !Objects.equals(a.nodePool(), b.nodePool())
          || !Objects.equals(a.reason(), b.reason())
          || !Objects.equals(a.message(), b.message())
          || !Objects.equals(a.status(), b.status())) {
        return false;
      }
    }
    return true;
  }

  private static String nextTransition(List<KaiSchedulingCondition> current) {
    int highest = -1;
    for (KaiSchedulingCondition c : current) {
      try {
        highest = Math.max(highest, Integer.parseInt(c.transitionID()));
      } catch (NumberFormatException e) {
        // not one of ours: start counting after it
      }
    }
    return Integer.toString(highest + 1);
  }

  private ObjectNode conditionJson(KaiSchedulingCondition c, String transitionId) {
    ObjectNode o = JSON.createObjectNode();
    o.put("type", c.type());
    o.put("nodePool", c.nodePool());
    o.put("reason", c.reason());
    o.put("message", c.message());
    ArrayNode reasons = o.putArray("reasons");
    for (KaiUnschedulableReason r : c.reasons()) {
      reasons.addObject().put("reason", r.reason()).put("message", r.message());
    }
    o.put("status", c.status());
    o.put("transitionID", transitionId);
    o.put("lastTransitionTime", clock.instant().toString());
    return o;
  }

  private void queue(QueueStatus s) {
    KaiQueue cached = cache.queue(s.name());
    if (cached == null) {
      return;
    }
    KaiQueueStatus current = cached.status();
    if (current != null
        && Objects.equals(current.allocated(), s.allocated())
        && Objects.equals(current.allocatedNonPreemptible(), s.allocatedNonPreemptible())
        && Objects.equals(current.requested(), s.requested())) {
      return;
    }
    ObjectNode patch = JSON.createObjectNode();
    ObjectNode status = patch.putObject("status");
    status.set("allocated", JSON.valueToTree(s.allocated()));
    status.set("allocatedNonPreemptible", JSON.valueToTree(s.allocatedNonPreemptible()));
    status.set("requested", JSON.valueToTree(s.requested()));
    submit(
        "queue/" + s.name(),
        patch.toString(),
        () -> writer.patchQueueStatus(s.name(), patch.toString()));
  }

  private interface Write {
    void run() throws ApiException;
  }

  /** Whether the same write (equal fingerprints) was queued or made within the last while. */
  private boolean alreadySubmitted(String key, String fingerprint) {
    return fingerprint.equals(submitted.getIfPresent(key));
  }

  private void submit(String key, String fingerprint, Write write) {
    if (alreadySubmitted(key, fingerprint)) {
      return;
    }
    submitted.put(key, fingerprint);
    Runnable task =
        () -> {
          if (!leadership.isLeader()) {
            submitted.invalidate(key);
            return;
          }
          try {
            write.run();
          } catch (ApiException | RuntimeException e) {
            submitted.invalidate(key);
            LOG.debug("status write {} failed: {}", key, e.toString());
          }
        };
    if (pending.put(key, task) == null) {
      order.add(key);
    }
  }

  private void drain() {
    while (running) {
      try {
        String key = order.take();
        Runnable task = pending.remove(key);
        if (task != null) {
          limiter.acquire();
          task.run();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  @Override
  public void close() {
    running = false;
    thread.interrupt();
  }
}
