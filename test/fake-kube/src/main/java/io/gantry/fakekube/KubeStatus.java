package io.gantry.fakekube;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A {@code meta/v1 Status} as the API server writes it: {@code kind: Status}, {@code apiVersion:
 * v1}, {@code status: Failure|Success}, message, reason, details and code. The factories copy the
 * real server's message forms (k8s.io/apimachinery/pkg/api/errors).
 */
public record KubeStatus(
    int code, String status, String reason, String message, Optional<Details> details) {

  public KubeStatus {
    requireNonNull(status, "status is null");
    requireNonNull(reason, "reason is null");
    requireNonNull(message, "message is null");
    requireNonNull(details, "details is null");
  }

  /** {@code details} of a Status: the object named, and for Invalid the causes. */
  public record Details(String name, String group, String kind, List<Cause> causes) {
    public Details {
      requireNonNull(name, "name is null");
      requireNonNull(group, "group is null");
      requireNonNull(kind, "kind is null");
      causes = ImmutableList.copyOf(causes);
    }
  }

  /** One {@code StatusCause}: reason such as {@code FieldValueRequired}, message, field path. */
  public record Cause(String reason, String message, String field) {
    public Cause {
      requireNonNull(reason, "reason is null");
      requireNonNull(message, "message is null");
      requireNonNull(field, "field is null");
    }
  }

  public static KubeStatus success(int code) {
    return new KubeStatus(code, "Success", "", "", Optional.empty());
  }

  public static KubeStatus notFound(ResourceKind kind, String name) {
    return failure(
        404,
        "NotFound",
        kind.qualifiedResource() + " \"" + name + "\" not found",
        details(kind, name));
  }

  /** 404 for a path the server does not serve (wrong scope, unknown verb target). */
  public static KubeStatus pathNotFound() {
    return new KubeStatus(
        404,
        "Failure",
        "NotFound",
        "the server could not find the requested resource",
        Optional.of(new Details("", "", "", List.of())));
  }

  public static KubeStatus alreadyExists(ResourceKind kind, String name) {
    return failure(
        409,
        "AlreadyExists",
        kind.qualifiedResource() + " \"" + name + "\" already exists",
        details(kind, name));
  }

  /** 409 Conflict: {@code Operation cannot be fulfilled on pods "x": <why>}. */
  public static KubeStatus conflict(
      String qualifiedResource, String group, String name, String why) {
    return failure(
        409,
        "Conflict",
        "Operation cannot be fulfilled on " + qualifiedResource + " \"" + name + "\": " + why,
        Optional.of(new Details(name, group, resourceOf(qualifiedResource, group), List.of())));
  }

  /** The optimistic-concurrency conflict of an update with a stale resourceVersion. */
  public static KubeStatus modified(ResourceKind kind, String name) {
    return conflict(
        kind.qualifiedResource(),
        kind.group(),
        name,
        "the object has been modified; please apply your changes to the latest version and try"
            + " again");
  }

  /** 422 Invalid: {@code Pod "x" is invalid: spec.containers: Required value}. */
  public static KubeStatus invalid(ResourceKind kind, String name, List<Cause> causes) {
    String listed =
        causes.stream().map(c -> c.field() + ": " + c.message()).collect(Collectors.joining(", "));
    String message =
        kind.kind()
            + " \""
            + name
            + "\" is invalid: "
            + (causes.size() == 1 ? listed : "[" + listed + "]");
    return failure(
        422, "Invalid", message, Optional.of(new Details(name, kind.group(), kind.kind(), causes)));
  }

  /** 422 with no object named, as a failing JSON patch operation gets. */
  public static KubeStatus unprocessable(String message) {
    return failure(422, "Invalid", message, Optional.empty());
  }

  public static KubeStatus badRequest(String message) {
    return failure(400, "BadRequest", message, Optional.empty());
  }

  public static KubeStatus forbidden(ResourceKind kind, String name, String why) {
    return failure(
        403,
        "Forbidden",
        kind.qualifiedResource() + " \"" + name + "\" is forbidden: " + why,
        details(kind, name));
  }

  public static KubeStatus methodNotAllowed(String method) {
    return failure(
        405,
        "MethodNotAllowed",
        "the server does not allow this method on the requested resource (" + method + ")",
        Optional.empty());
  }

  public static KubeStatus unsupportedMediaType(String contentType, List<String> accepted) {
    return failure(
        415,
        "UnsupportedMediaType",
        "the body of the request was in an unknown format ("
            + contentType
            + ") - accepted media types include: "
            + String.join(", ", accepted),
        Optional.empty());
  }

  /** 410 Expired, sent as a watch ERROR event for a resourceVersion older than the history. */
  public static KubeStatus expired(long requested, long oldest) {
    return failure(
        410,
        "Expired",
        "too old resource version: " + requested + " (" + oldest + ")",
        Optional.empty());
  }

  public static KubeStatus internalError(String message) {
    return failure(500, "InternalError", message, Optional.empty());
  }

  public ObjectNode toJson() {
    ObjectNode json = Json.object();
    json.put("kind", "Status");
    json.put("apiVersion", "v1");
    json.putObject("metadata");
    json.put("status", status);
    if (!message.isEmpty()) {
      json.put("message", message);
    }
    if (!reason.isEmpty()) {
      json.put("reason", reason);
    }
    details.ifPresent(d -> writeDetails(json.putObject("details"), d));
    json.put("code", code);
    return json;
  }

  private static void writeDetails(ObjectNode json, Details d) {
    if (!d.name().isEmpty()) {
      json.put("name", d.name());
    }
    if (!d.group().isEmpty()) {
      json.put("group", d.group());
    }
    if (!d.kind().isEmpty()) {
      json.put("kind", d.kind());
    }
    if (!d.causes().isEmpty()) {
      ArrayNode causes = json.putArray("causes");
      for (Cause c : d.causes()) {
        causes
            .addObject()
            .put("reason", c.reason())
            .put("message", c.message())
            .put("field", c.field());
      }
    }
  }

  /** A failure with no object named, for {@link Refusals}. */
  static KubeStatus failure(int code, String reason, String message) {
    return failure(code, reason, message, Optional.empty());
  }

  private static KubeStatus failure(
      int code, String reason, String message, Optional<Details> details) {
    return new KubeStatus(code, "Failure", reason, message, details);
  }

  private static Optional<Details> details(ResourceKind kind, String name) {
    return Optional.of(new Details(name, kind.group(), kind.plural(), List.of()));
  }

  private static String resourceOf(String qualifiedResource, String group) {
    return group.isEmpty()
        ? qualifiedResource
        : qualifiedResource.substring(0, qualifiedResource.length() - group.length() - 1);
  }
}
