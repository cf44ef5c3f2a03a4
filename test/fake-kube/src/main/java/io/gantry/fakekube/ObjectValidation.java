package io.gantry.fakekube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The few validation rules the fake enforces, with the real server's messages: a name (or
 * generateName) is required and must be an RFC 1123 subdomain; a pod needs containers. Anything
 * else a client sends is stored as sent.
 */
final class ObjectValidation {
  private static final String SUBDOMAIN_REGEX =
      "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
  private static final Pattern SUBDOMAIN = Pattern.compile(SUBDOMAIN_REGEX);

  private ObjectValidation() {}

  /** 422 Status when the object about to be created breaks a rule. */
  static void checkCreate(ResourceKind kind, ObjectNode object) {
    List<KubeStatus.Cause> causes = new ArrayList<>();
    String name = Json.name(object);
    if (name.isEmpty()) {
      causes.add(
          new KubeStatus.Cause(
              "FieldValueRequired",
              "Required value: name or generateName is required",
              "metadata.name"));
    } else if (name.length() > 253 || !SUBDOMAIN.matcher(name).matches()) {
      causes.add(
          new KubeStatus.Cause(
              "FieldValueInvalid",
              "Invalid value: \""
                  + name
                  + "\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric"
                  + " characters, '-' or '.', and must start and end with an alphanumeric"
                  + " character (e.g. 'example.com', regex used for validation is '"
                  + SUBDOMAIN_REGEX
                  + "')",
              "metadata.name"));
    }
    if (kind.equals(ResourceKinds.PODS)) {
      JsonNode containers = object.path("spec").path("containers");
      if (!containers.isArray() || containers.isEmpty()) {
        causes.add(new KubeStatus.Cause("FieldValueRequired", "Required value", "spec.containers"));
      }
    }
    if (!causes.isEmpty()) {
      throw new StatusException(KubeStatus.invalid(kind, name, causes));
    }
  }
}
