package io.gantry.fakekube;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The parts of {@code DeleteOptions} the fake honours: the grace period and the uid /
 * resourceVersion preconditions. {@code propagationPolicy} and {@code orphanDependents} are
 * accepted and ignored (there is no garbage collector).
 */
public record DeleteOptions(
    OptionalLong gracePeriodSeconds,
    Optional<String> preconditionUid,
    Optional<String> preconditionResourceVersion) {

  public static final DeleteOptions DEFAULT =
      new DeleteOptions(OptionalLong.empty(), Optional.empty(), Optional.empty());

  public DeleteOptions {
    requireNonNull(gracePeriodSeconds, "gracePeriodSeconds is null");
    requireNonNull(preconditionUid, "preconditionUid is null");
    requireNonNull(preconditionResourceVersion, "preconditionResourceVersion is null");
  }

  public static DeleteOptions gracePeriod(long seconds) {
    return new DeleteOptions(OptionalLong.of(seconds), Optional.empty(), Optional.empty());
  }

  /** From a {@code DeleteOptions} body (may be empty) and the {@code gracePeriodSeconds} query. */
  static DeleteOptions from(JsonNode body, Optional<String> gracePeriodQuery) {
    OptionalLong grace = OptionalLong.empty();
    if (body.hasNonNull("gracePeriodSeconds")) {
      grace = OptionalLong.of(body.get("gracePeriodSeconds").asLong());
    }
    if (gracePeriodQuery.isPresent()) {
      try {
        grace = OptionalLong.of(Long.parseLong(gracePeriodQuery.get()));
      } catch (NumberFormatException e) {
        throw new StatusException(
            KubeStatus.badRequest(
                "invalid gracePeriodSeconds \"" + gracePeriodQuery.get() + "\": not an integer"));
      }
    }
    JsonNode preconditions = body.path("preconditions");
    return new DeleteOptions(
        grace,
        Optional.ofNullable(preconditions.get("uid"))
            .filter(JsonNode::isTextual)
            .map(JsonNode::asText),
        Optional.ofNullable(preconditions.get("resourceVersion"))
            .filter(JsonNode::isTextual)
            .map(JsonNode::asText));
  }

  /** 409 Conflict, with the real server's message, when a precondition does not hold. */
  void checkPreconditions(ResourceKind kind, ObjectNode current) {
    String uid = Json.text(current, "metadata.uid").orElse("");
    String version = Json.text(current, "metadata.resourceVersion").orElse("");
    if (preconditionUid.isPresent() && !preconditionUid.get().equals(uid)) {
      throw failed(
          kind,
          current,
          "UID in precondition: " + preconditionUid.get() + ", UID in object meta: " + uid);
    }
    if (preconditionResourceVersion.isPresent()
        && !preconditionResourceVersion.get().equals(version)) {
      throw failed(
          kind,
          current,
          "ResourceVersion in precondition: "
              + preconditionResourceVersion.get()
              + ", ResourceVersion in object meta: "
              + version);
    }
  }

  private static StatusException failed(ResourceKind kind, ObjectNode current, String why) {
    return new StatusException(
        KubeStatus.conflict(
            kind.qualifiedResource(),
            kind.group(),
            Json.name(current),
            "Precondition failed: " + why));
  }
}
