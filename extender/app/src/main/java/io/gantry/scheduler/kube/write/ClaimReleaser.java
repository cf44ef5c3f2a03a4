package io.gantry.scheduler.kube.write;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.gantry.scheduler.kube.informers.ClusterInformers;
import io.gantry.scheduler.model.dra.ResourceClaim;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Releases the claims of pods that are gone (protocols.md §4.5 item 8), once per cycle on the
 * leader: a pod in a claim's {@code reservedFor} that the pod cache no longer holds is looked up on
 * the API server, and if it is deleted, replaced (another UID) or finished it is taken out; a claim
 * left without consumers loses its allocation and the finalizer. Claims a bind in flight is writing
 * are left alone. A failed write is logged and tried again next cycle.
 */
public final class ClaimReleaser {
  private static final Logger LOG = LoggerFactory.getLogger(ClaimReleaser.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ClusterInformers cache;
  private final KubeWriter writer;
  private final ClaimReservations claims;
  private final Predicate<String> inFlight;

  /**
   * @param inFlight whether a bind in flight writes the claim ({@code namespace/name})
   */
  public ClaimReleaser(ClusterInformers cache, KubeWriter writer, Predicate<String> inFlight) {
    this.cache = requireNonNull(cache, "cache is null");
    this.writer = requireNonNull(writer, "writer is null");
    this.claims = new ClaimReservations(writer);
    this.inFlight = requireNonNull(inFlight, "inFlight is null");
  }

  public void run() {
    if (!cache.dra().hasSynced()) {
      return;
    }
    Set<String> livePods = null;
    for (DynamicKubernetesObject o : cache.dra().claims()) {
      if (untouched(o)) {
        continue;
      }
      JsonNode claim;
      try {
        claim = JSON.readTree(o.getRaw().toString());
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("client-java sent JSON Jackson cannot read", e);
      }
      JsonNode reservedFor = claim.path("status").path("reservedFor");
      JsonNode allocation = claim.path("status").path("allocation");
      boolean allocated = !allocation.isMissingNode() && !allocation.isNull();
      boolean stale = reservedFor.isEmpty() && (allocated || ClaimReservations.hasFinalizer(claim));
      if (reservedFor.isEmpty() && !stale) {
        continue;
      }
      String namespace = o.getMetadata().getNamespace();
      String name = o.getMetadata().getName();
      if (inFlight.test(ResourceClaim.key(namespace, name))) {
        continue;
      }
      if (livePods == null) {
        livePods = livePodUids();
      }
      try {
        List<String> gone = new ArrayList<>();
        for (JsonNode r : reservedFor) {
          String uid = r.path("uid").asText();
          if (ClaimStatus.isPod(r)
              && !livePods.contains(uid)
              && gone(namespace, r.path("name").asText(), uid)) {
            gone.add(uid);
          }
        }
        if (!gone.isEmpty() || stale) {
          claims.release(namespace, name, gone);
          LOG.info(
              "released ResourceClaim {}/{} (pods gone: {}; stale without consumers: {})",
              namespace,
              name,
              gone,
              stale);
        }
      } catch (ApiException e) {
        LOG.warn(
            "releasing ResourceClaim {}/{}: HTTP {} {}; trying again next cycle",
            namespace,
            name,
            e.getCode(),
            e.getResponseBody());
      }
    }
  }

  /**
   * A claim with no consumer, no allocation and no finalizer, told from the cached JSON without
   * reading it all: most claims, skipped cheaply every cycle.
   */
  private static boolean untouched(DynamicKubernetesObject o) {
    JsonObject status = o.getRaw().getAsJsonObject("status");
    List<String> finalizers = o.getMetadata().getFinalizers();
    return (status == null || (absent(status, "reservedFor") && absent(status, "allocation")))
        && (finalizers == null || finalizers.isEmpty());
  }

  private static boolean absent(JsonObject object, String key) {
    JsonElement value = object.get(key);
    return value == null
        || value.isJsonNull()
        || (value.isJsonArray() && value.getAsJsonArray().isEmpty());
  }

  private Set<String> livePodUids() {
    Set<String> out = new HashSet<>();
    for (V1Pod p : cache.pods()) {
      out.add(p.getMetadata().getUid());
    }
    return out;
  }

  /** Whether the API server confirms the pod is gone: deleted, replaced, or finished. */
  private boolean gone(String namespace, String name, String uid) throws ApiException {
    JsonNode pod;
    try {
      pod = writer.getPod(namespace, name);
    } catch (ApiException e) {
      if (e.getCode() == 404) {
        return true;
      }
      throw e;
    }
    String phase = pod.path("status").path("phase").asText();
    return !uid.equals(pod.path("metadata").path("uid").asText())
        || phase.equals("Succeeded")
        || phase.equals("Failed");
  }
}
