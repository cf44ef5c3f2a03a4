package io.gantry.scheduler.kube.write;

import static com.google.common.base.Strings.nullToEmpty;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.scheduler.api.result.ClaimAllocation;
import io.gantry.scheduler.model.dra.AllocationResult;
import io.kubernetes.client.openapi.ApiException;
import java.util.List;
import java.util.Optional;

/**
 * The claim writes around a pod's life (protocols.md §4.5 items 7–8). Before the pod is bound,
 * {@link #reserve} adds the finalizer {@value ClaimStatus#FINALIZER} and then writes {@code
 * status.allocation} (unless the claim holds it already) with the pod appended to {@code
 * status.reservedFor}; once the pod is gone, {@link #release} takes it out of {@code reservedFor}
 * and, when no consumer is left, clears the allocation and then the finalizer. Every write is
 * conditional on the resourceVersion just read, so a concurrent change is a 409 that the caller
 * retries from a fresh read; both are idempotent.
 */
final class ClaimReservations {
  /** Kubernetes' {@code ResourceClaimReservedForMaxSize}. */
  static final int MAX_RESERVED_FOR = 256;

  private final KubeWriter writer;

  /** A claim that cannot be reserved as decided, for a reason a retry does not fix. */
  static final class ClaimRefused extends Exception {
    private static final long serialVersionUID = 1L;

    ClaimRefused(String message) {
      super(message);
    }
  }

  ClaimReservations(KubeWriter writer) {
    this.writer = requireNonNull(writer, "writer is null");
  }

  /**
   * Allocates the claim as decided and reserves it for the pod.
   *
   * @throws ApiException a failure worth retrying (a conflict, the server unavailable)
   * @throws ClaimRefused any other failure, with what the API server said
   */
  void reserve(String namespace, String podName, String podUid, ClaimAllocation decided)
      throws ApiException, ClaimRefused {
    String what = "ResourceClaim " + namespace + "/" + decided.claimName();
    try {
      JsonNode claim = writer.getResourceClaim(namespace, decided.claimName());
      Optional<AllocationResult> existing;
      try {
        existing = ClaimStatus.allocation(claim);
      } catch (IllegalArgumentException e) {
        throw new ClaimRefused(what + ": " + e.getMessage());
      }
      if (existing.isPresent() && !existing.get().equals(decided.allocation())) {
        throw new ClaimRefused(what + " was allocated meanwhile to other devices or another node");
      }
      JsonNode reservedFor = claim.path("status").path("reservedFor");
      boolean reserved = false;
      for (JsonNode r : reservedFor) {
        reserved |= podUid.equals(r.path("uid").asText());
      }
      if (!reserved && reservedFor.size() >= MAX_RESERVED_FOR) {
        throw new ClaimRefused(
            what + ": status.reservedFor already holds " + MAX_RESERVED_FOR + " consumers");
      }
      if (!hasFinalizer(claim)) {
        Patch patch = Patch.conditional(claim);
        ArrayNode finalizers = patch.metadata().putArray("finalizers");
        claim.path("metadata").path("finalizers").forEach(finalizers::add);
        finalizers.add(ClaimStatus.FINALIZER);
        claim = writer.patchResourceClaim(namespace, decided.claimName(), patch.json());
      }
      if (existing.isPresent() && reserved) {
        return;
      }
      Patch patch = Patch.conditional(claim);
      ObjectNode status = patch.root().putObject("status");
      if (existing.isEmpty()) {
        status.set("allocation", ClaimStatus.json(decided.allocation()));
      }
      ArrayNode consumers = status.putArray("reservedFor");
      reservedFor.forEach(consumers::add);
      if (!reserved) {
        consumers.add(ClaimStatus.podConsumer(podName, podUid));
      }
      writer.patchResourceClaimStatus(namespace, decided.claimName(), patch.json());
    } catch (ApiException e) {
      if (retriable(e.getCode())) {
        throw e;
      }
      throw new ClaimRefused(
          "writing " + what + ": HTTP " + e.getCode() + " " + nullToEmpty(e.getResponseBody()));
    }
  }

  /**
   * Takes the pods with these UIDs out of the claim's {@code reservedFor}; when none is left,
   * clears the allocation and then removes the finalizer.
   */
  void release(String namespace, String name, List<String> goneUids) throws ApiException {
    JsonNode claim = writer.getResourceClaim(namespace, name);
    JsonNode reservedFor = claim.path("status").path("reservedFor");
    ArrayNode remaining = JsonNodeFactory.instance.arrayNode();
    for (JsonNode r : reservedFor) {
      if (!goneUids.contains(r.path("uid").asText())) {
        remaining.add(r);
      }
    }
    boolean allocated =
        !claim.path("status").path("allocation").isMissingNode()
            && !claim.path("status").path("allocation").isNull();
    if (remaining.size() != reservedFor.size() || (remaining.isEmpty() && allocated)) {
      Patch patch = Patch.conditional(claim);
      ObjectNode status = patch.root().putObject("status");
      if (remaining.isEmpty()) {
        status.putNull("reservedFor");
        status.putNull("allocation");
      } else {
        status.set("reservedFor", remaining);
      }
      claim = writer.patchResourceClaimStatus(namespace, name, patch.json());
    }
    if (remaining.isEmpty() && hasFinalizer(claim)) {
      Patch patch = Patch.conditional(claim);
      ArrayNode finalizers = patch.metadata().putArray("finalizers");
      for (JsonNode f : claim.path("metadata").path("finalizers")) {
        if (!f.asText().equals(ClaimStatus.FINALIZER)) {
          finalizers.add(f);
        }
      }
      writer.patchResourceClaim(namespace, name, patch.json());
    }
  }

  static boolean hasFinalizer(JsonNode claim) {
    for (JsonNode f : claim.path("metadata").path("finalizers")) {
      if (f.asText().equals(ClaimStatus.FINALIZER)) {
        return true;
      }
    }
    return false;
  }

  /** A JSON merge patch that applies only to the resourceVersion of the claim it was made from. */
  private record Patch(ObjectNode root, ObjectNode metadata) {
    static Patch conditional(JsonNode claim) {
      ObjectNode root = JsonNodeFactory.instance.objectNode();
      ObjectNode metadata = root.putObject("metadata");
      metadata.put("resourceVersion", claim.path("metadata").path("resourceVersion").asText());
      return new Patch(root, metadata);
    }

    String json() {
      return root.toString();
    }
  }

  static boolean retriable(int code) {
    return code == 0 || code == 409 || code == 429 || code >= 500;
  }
}
