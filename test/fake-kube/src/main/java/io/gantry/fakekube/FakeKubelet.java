package io.gantry.fakekube;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A kubelet for every node at once, driven by the fake store's changes: a pod bound to a node
 * becomes Running (phase, {@code startTime}, Initialized / ContainersReady / Ready conditions, one
 * running container status per container); a pod marked for deletion is removed once its grace
 * period (capped, so tests stay fast) has passed, by a delete with grace 0 as the real kubelet
 * does. It also registers nodes and finishes pods on request. Work runs on one thread, in order.
 */
public final class FakeKubelet implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(FakeKubelet.class);

  /** The grace-period cap of {@link #start(FakeKubeServer)}. */
  public static final Duration DEFAULT_GRACE_PERIOD_CAP = Duration.ofSeconds(1);

  private final ResourceStore store;
  private final Duration gracePeriodCap;
  private final ScheduledExecutorService worker;
  private final Consumer<StoreEvent> listener = this::onEvent;
  private final Set<String> removalsScheduled = new HashSet<>();

  private FakeKubelet(ResourceStore store, Duration gracePeriodCap) {
    this.store = requireNonNull(store, "store is null");
    this.gracePeriodCap = requireNonNull(gracePeriodCap, "gracePeriodCap is null");
    this.worker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "fake-kubelet");
              thread.setDaemon(true);
              return thread;
            });
  }

  /** Starts a kubelet with the default grace-period cap of one second. */
  public static FakeKubelet start(FakeKubeServer server) {
    return start(server, DEFAULT_GRACE_PERIOD_CAP);
  }

  /** Starts a kubelet that waits at most {@code gracePeriodCap} before removing a deleted pod. */
  public static FakeKubelet start(FakeKubeServer server, Duration gracePeriodCap) {
    FakeKubelet kubelet = new FakeKubelet(server.store(), gracePeriodCap);
    kubelet.store.subscribe(kubelet.listener);
    kubelet.worker.execute(
        () -> kubelet.store.list(ResourceKinds.PODS, "").forEach(kubelet::reconcile));
    return kubelet;
  }

  /** Creates the Node object: Ready, capacity = allocatable, an InternalIP and hostname label. */
  public ObjectNode registerNode(FakeNode node) {
    ObjectNode object = Json.object();
    object.put("apiVersion", "v1");
    object.put("kind", "Node");
    ObjectNode meta = object.putObject("metadata");
    meta.put("name", node.name());
    ObjectNode labels = meta.putObject("labels");
    labels.put("kubernetes.io/hostname", node.name());
    node.labels().forEach(labels::put);
    object.putObject("spec");
    ObjectNode status = object.putObject("status");
    ObjectNode capacity = status.putObject("capacity");
    node.capacity().forEach(capacity::put);
    status.set("allocatable", capacity.deepCopy());
    String now = Json.timestamp(store.now());
    status
        .putArray("conditions")
        .addObject()
        .put("type", "Ready")
        .put("status", "True")
        .put("reason", "KubeletReady")
        .put("message", "kubelet is posting ready status")
        .put("lastHeartbeatTime", now)
        .put("lastTransitionTime", now);
    ArrayNode addresses = status.putArray("addresses");
    int number = store.list(ResourceKinds.NODES, "").size() + 1;
    addresses.addObject().put("type", "InternalIP").put("address", internalIp(number));
    addresses.addObject().put("type", "Hostname").put("address", node.name());
    return store.create(ResourceKinds.NODES, "", object);
  }

  /**
   * Ends a running pod's containers: phase Succeeded (exit code 0) or Failed (exit code 1), Ready
   * and ContainersReady False.
   */
  public ObjectNode finishPod(String namespace, String name, boolean succeeded) {
    ObjectNode pod =
        store
            .get(ResourceKinds.PODS, namespace, name)
            .orElseThrow(() -> new StatusException(KubeStatus.notFound(ResourceKinds.PODS, name)));
    String now = Json.timestamp(store.now());
    ObjectNode status = statusOf(pod);
    status.put("phase", succeeded ? "Succeeded" : "Failed");
    for (JsonNode condition : status.path("conditions")) {
      String type = condition.path("type").asText();
      if (type.equals("Ready") || type.equals("ContainersReady")) {
        ((ObjectNode) condition).put("status", "False").put("lastTransitionTime", now);
      }
    }
    for (JsonNode container : status.path("containerStatuses")) {
      ObjectNode c = (ObjectNode) container;
      c.put("ready", false).put("started", false);
      ObjectNode terminated = c.putObject("state").putObject("terminated");
      terminated.put("exitCode", succeeded ? 0 : 1);
      terminated.put("reason", succeeded ? "Completed" : "Error");
      terminated.put("finishedAt", now);
    }
    return store.updateStatus(ResourceKinds.PODS, namespace, name, pod);
  }

  @Override
  public void close() {
    store.unsubscribe(listener);
    worker.shutdownNow();
  }

  private void onEvent(StoreEvent event) {
    if (event.kind().equals(ResourceKinds.PODS) && !event.type().equals(StoreEvent.DELETED)) {
      ObjectNode pod = event.object();
      worker.execute(() -> reconcileLatest(Json.namespace(pod), Json.name(pod)));
    }
  }

  private void reconcileLatest(String namespace, String name) {
    store.get(ResourceKinds.PODS, namespace, name).ifPresent(this::reconcile);
  }

  private void reconcile(ObjectNode pod) {
    try {
      if (pod.path("metadata").hasNonNull("deletionTimestamp")) {
        scheduleRemoval(pod);
      } else if (!Json.text(pod, "spec.nodeName").orElse("").isEmpty()
          && Json.text(pod, "status.phase").orElse("Pending").equals("Pending")) {
        markRunning(pod);
      }
    } catch (StatusException e) {
      // The pod changed or went away meanwhile; its next change brings it back here.
      log.debug("kubelet skipped {}/{}: {}", Json.namespace(pod), Json.name(pod), e.getMessage());
    }
  }

  private void markRunning(ObjectNode pod) {
    String now = Json.timestamp(store.now());
    ObjectNode status = statusOf(pod);
    status.put("phase", "Running");
    status.put("startTime", now);
    status.put("hostIP", hostIp(Json.text(pod, "spec.nodeName").orElse("")));
    for (String type : new String[] {"Initialized", "ContainersReady", "Ready", "PodScheduled"}) {
      PodRules.setCondition(pod, type, store.now());
    }
    ArrayNode containers = status.putArray("containerStatuses");
    for (JsonNode container : pod.path("spec").path("containers")) {
      ObjectNode c = containers.addObject();
      String containerName = container.path("name").asText();
      c.put("name", containerName);
      c.put("image", container.path("image").asText(""));
      c.put("imageID", "");
      c.put(
          "containerID",
          "containerd://" + Json.text(pod, "metadata.uid").orElse("") + "-" + containerName);
      c.put("ready", true);
      c.put("started", true);
      c.put("restartCount", 0);
      c.putObject("state").putObject("running").put("startedAt", now);
    }
    store.updateStatus(ResourceKinds.PODS, Json.namespace(pod), Json.name(pod), pod);
  }

  private void scheduleRemoval(ObjectNode pod) {
    String uid = Json.text(pod, "metadata.uid").orElse("");
    if (!removalsScheduled.add(uid)) {
      return;
    }
    long graceMillis = pod.path("metadata").path("deletionGracePeriodSeconds").asLong(0) * 1000;
    long delay = Math.min(graceMillis, gracePeriodCap.toMillis());
    String namespace = Json.namespace(pod);
    String name = Json.name(pod);
    // Fire and forget: the removal logs its own expected failure, and nothing waits on it.
    ScheduledFuture<?> unused =
        worker.schedule(
            () -> {
              try {
                store.delete(
                    ResourceKinds.PODS,
                    namespace,
                    name,
                    new DeleteOptions(
                        java.util.OptionalLong.of(0), Optional.of(uid), Optional.empty()));
              } catch (StatusException e) {
                log.debug("kubelet removal of {}/{} skipped: {}", namespace, name, e.getMessage());
              }
            },
            delay,
            TimeUnit.MILLISECONDS);
  }

  private String hostIp(String nodeName) {
    return store
        .get(ResourceKinds.NODES, "", nodeName)
        .flatMap(
            node -> {
              for (JsonNode address : node.path("status").path("addresses")) {
                if (address.path("type").asText().equals("InternalIP")) {
                  return Optional.of(address.path("address").asText());
                }
              }
              return Optional.empty();
            })
        .orElse("10.0.0.1");
  }

  private static ObjectNode statusOf(ObjectNode pod) {
    JsonNode status = pod.get("status");
    return status instanceof ObjectNode o ? o : pod.putObject("status");
  }

  private static String internalIp(int number) {
    return "10.0." + (number / 250) + "." + (number % 250 + 1);
  }
}
