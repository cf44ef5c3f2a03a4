package io.gantry.deviceagent.kube;

import static java.util.Objects.requireNonNull;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Eviction;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import java.io.IOException;
import java.time.Clock;
import okhttp3.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the agent does to a pod that breaks its GPU grant: a Warning event on the pod, reported by
 * component {@value #COMPONENT} on this node, and, when configured, an eviction through the pod's
 * {@code eviction} subresource (so PodDisruptionBudgets are respected).
 */
public final class PodEnforcer {
  private static final Logger log = LoggerFactory.getLogger(PodEnforcer.class);

  /** The event source. */
  public static final String COMPONENT = WarningEvents.COMPONENT;

  private final CoreV1Api core;
  private final WarningEvents events;

  public PodEnforcer(ApiClient client, String nodeName, Clock clock) {
    this.core = new CoreV1Api(requireNonNull(client, "client is null"));
    this.events = new WarningEvents(client, nodeName, clock);
  }

  /** Records a Warning event {@code reason} with {@code message} on the pod. */
  public void warn(PodRef pod, String reason, String message) throws ApiException {
    events.record(
        new V1ObjectReference()
            .apiVersion("v1")
            .kind("Pod")
            .namespace(pod.namespace())
            .name(pod.name())
            .uid(pod.uid()),
        pod.namespace(),
        reason,
        message);
    log.warn("{} {}/{}: {}", reason, pod.namespace(), pod.name(), message);
  }

  /**
   * Evicts the pod. The API server answers a {@code Status}, not an Eviction, so the call is made
   * without reading the body into a model (protocols.md §7.1).
   *
   * @throws ApiException when the API server refuses (for example a PodDisruptionBudget, 429)
   */
  public void evict(PodRef pod) throws ApiException {
    V1Eviction eviction =
        new V1Eviction()
            .apiVersion("policy/v1")
            .kind("Eviction")
            .metadata(new V1ObjectMeta().name(pod.name()).namespace(pod.namespace()));
    try (Response response =
        core.createNamespacedPodEviction(pod.name(), pod.namespace(), eviction)
            .buildCall(null)
            .execute()) {
      if (!response.isSuccessful()) {
        throw new ApiException(
            response.code(),
            "evicting pod " + pod.namespace() + "/" + pod.name() + ": HTTP " + response.code());
      }
    } catch (IOException e) {
      throw new ApiException(e);
    }
    log.warn("evicted {}/{}", pod.namespace(), pod.name());
  }
}
