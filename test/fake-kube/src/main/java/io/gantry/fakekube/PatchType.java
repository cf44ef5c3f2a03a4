package io.gantry.fakekube;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Locale;

/** The PATCH body formats the fake applies, by request {@code Content-Type}. */
public enum PatchType {
  JSON_PATCH("application/json-patch+json"),
  MERGE_PATCH("application/merge-patch+json"),
  /** Simplified; see {@link StrategicMergePatch}. Not accepted for custom resources (415). */
  STRATEGIC_MERGE_PATCH("application/strategic-merge-patch+json");

  /** Server-side apply: listed as accepted by the real server, answered 415 here. */
  static final String APPLY_PATCH = "application/apply-patch+yaml";

  private final String contentType;

  PatchType(String contentType) {
    this.contentType = contentType;
  }

  public String contentType() {
    return contentType;
  }

  JsonNode apply(JsonNode target, JsonNode patch) {
    return switch (this) {
      case JSON_PATCH -> JsonPatch.apply(target, patch);
      case MERGE_PATCH -> MergePatch.apply(target, patch);
      case STRATEGIC_MERGE_PATCH -> StrategicMergePatch.apply(target, patch);
    };
  }

  /** The patch type of a Content-Type header (parameters ignored); 415 Status when none fits. */
  static PatchType fromContentType(String header, boolean custom) {
    String type = header == null ? "" : header.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
    for (PatchType patchType : values()) {
      if (patchType.contentType.equals(type) && !(custom && patchType == STRATEGIC_MERGE_PATCH)) {
        return patchType;
      }
    }
    List<String> accepted =
        custom
            ? List.of(JSON_PATCH.contentType, MERGE_PATCH.contentType, APPLY_PATCH)
            : List.of(
                JSON_PATCH.contentType,
                MERGE_PATCH.contentType,
                APPLY_PATCH,
                STRATEGIC_MERGE_PATCH.contentType);
    throw new StatusException(KubeStatus.unsupportedMediaType(type, accepted));
  }
}
