package io.gantry.deviceagent.mps;

import static java.util.Objects.requireNonNull;

import com.google.gson.reflect.TypeToken;
import io.gantry.deviceagent.kube.NodePods;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import io.kubernetes.client.util.Watch;
import java.io.IOException;
import java.time.Duration;
import java.util.SortedMap;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MPS daemons follow the node's MPS pods as soon as those change, for reservation-pods mode:
 * there no {@code Allocate} starts a GPU's daemon before a fraction container starts, and the
 * discovery round ({@link MpsWatch}, 30 s by default) comes too late: a CUDA process that starts
 * before its GPU's daemon runs without MPS and its limits. Lists the pods bound to the node, then
 * watches them from the list's resourceVersion, and reconciles the daemons whenever the limits the
 * pods want change; after an error or the end of a watch it lists again, {@link #RETRY} later on
 * errors. The discovery round still checks that the daemons answer.
 */
public final class MpsPodWatch implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(MpsPodWatch.class);

  /** The wait before listing again after a failed list or watch. */
  static final Duration RETRY = Duration.ofSeconds(1);

  private final ApiClient client;
  private final CoreV1Api core;
  private final String nodeName;
  private final MpsDaemons daemons;
  private final Thread thread;
  // only the watch thread touches these
  private final SortedMap<String, V1Pod> podsByUid = new TreeMap<>();
  private SortedMap<String, MpsLimits> applied;
  private volatile boolean closed;
  private volatile Watch<V1Pod> current;

  private MpsPodWatch(ApiClient client, String nodeName, MpsDaemons daemons) {
    this.client = requireNonNull(client, "client is null");
    this.core = new CoreV1Api(client);
    this.nodeName = requireNonNull(nodeName, "nodeName is null");
    this.daemons = requireNonNull(daemons, "daemons is null");
    this.thread = new Thread(this::run, "gantry-mps-pods");
    thread.setDaemon(true);
  }

  /**
   * Starts watching on a thread of its own.
   *
   * @param client a client for this watch alone, without a read timeout (a watch waits for events)
   */
  public static MpsPodWatch start(ApiClient client, String nodeName, MpsDaemons daemons) {
    MpsPodWatch watch = new MpsPodWatch(client, nodeName, daemons);
    watch.thread.start();
    return watch;
  }

  private void run() {
    while (!closed) {
      try {
        String resourceVersion = list();
        watch(resourceVersion);
      } catch (ApiException | IOException | RuntimeException e) {
        if (closed) {
          return;
        }
        log.warn(
            "watching the MPS pods of node {} failed, listing again: {}", nodeName, e.toString());
        try {
          Thread.sleep(RETRY.toMillis());
        } catch (InterruptedException interrupted) {
          return;
        }
      }
    }
  }

  private String list() throws ApiException {
    V1PodList list =
        core.listPodForAllNamespaces().fieldSelector(NodePods.fieldSelector(nodeName)).execute();
    podsByUid.clear();
    for (V1Pod pod : list.getItems()) {
      podsByUid.put(pod.getMetadata().getUid(), pod);
    }
    apply();
    return list.getMetadata().getResourceVersion();
  }

  private void watch(String resourceVersion) throws ApiException, IOException {
    try (Watch<V1Pod> watch =
        Watch.createWatch(
            client,
            core.listPodForAllNamespaces()
                .fieldSelector(NodePods.fieldSelector(nodeName))
                .resourceVersion(resourceVersion)
                .watch(true)
                .buildCall(null),
            new TypeToken<Watch.Response<V1Pod>>() {}.getType())) {
      current = watch;
      for (Watch.Response<V1Pod> event : watch) {
        if (closed) {
          return;
        }
        switch (event.type) {
          case "ADDED", "MODIFIED" ->
              podsByUid.put(event.object.getMetadata().getUid(), event.object);
          case "DELETED" -> podsByUid.remove(event.object.getMetadata().getUid());
          default -> {
            // ERROR (410 Gone: the resourceVersion is too old) or unknown: list again
            return;
          }
        }
        apply();
      }
    } finally {
      current = null;
    }
  }

  /** Reconciles the daemons when the live pods want other limits than last time. */
  private void apply() {
    SortedMap<String, MpsLimits> wanted =
        MpsPods.wantedOf(podsByUid.values().stream().filter(NodePods::isLive).toList(), nodeName);
    if (!wanted.equals(applied)) {
      daemons.reconcile(wanted);
      applied = wanted;
    }
  }

  /** Stops watching; the daemons are left as they are. */
  @Override
  public void close() {
    closed = true;
    Watch<V1Pod> watch = current;
    if (watch != null) {
      try {
        watch.close();
      } catch (IOException e) {
        log.debug("closing the MPS pod watch: {}", e.getMessage());
      }
    }
    thread.interrupt();
    try {
      thread.join(Duration.ofSeconds(5).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
