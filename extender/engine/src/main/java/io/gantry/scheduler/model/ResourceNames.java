package io.gantry.scheduler.model;

/** Kubernetes resource names the engine interprets itself. */
public final class ResourceNames {
  public static final String CPU = "cpu";
  public static final String MEMORY = "memory";
  public static final String GPU = "nvidia.com/gpu";

  private ResourceNames() {}
}
