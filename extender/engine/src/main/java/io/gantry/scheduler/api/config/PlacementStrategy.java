package io.gantry.scheduler.api.config;

import java.util.Locale;

/** Node placement strategy per resource type (KAI's {@code placementStrategy}). */
public enum PlacementStrategy {
  BINPACK,
  SPREAD;

  /** Throws {@link IllegalArgumentException} saying what was expected. */
  public static PlacementStrategy parse(String value) {
    return switch (value) {
      case "binpack" -> BINPACK;
      case "spread" -> SPREAD;
      default ->
          throw new IllegalArgumentException("expected binpack or spread, got \"" + value + "\"");
    };
  }

  public String k8sName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
