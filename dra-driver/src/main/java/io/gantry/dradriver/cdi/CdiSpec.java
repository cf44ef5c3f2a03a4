package io.gantry.dradriver.cdi;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.google.common.collect.ImmutableList;

/**
 * A CDI spec file (protocols.md §5): version, {@code vendor/class} kind and the devices, each with
 * the container edits a runtime applies when the device is requested by its fully qualified name
 * {@code <kind>=<name>}. Only the fields the driver writes are modelled.
 */
@JsonPropertyOrder({"cdiVersion", "kind", "devices"})
public record CdiSpec(String cdiVersion, String kind, ImmutableList<Device> devices) {
  /**
   * The spec version written: env and mounts need no more than 0.3.0, and 0.5.0 is known to every
   * CDI-enabled containerd and CRI-O release.
   */
  public static final String VERSION = "0.5.0";

  public CdiSpec {
    requireNonNull(cdiVersion, "cdiVersion is null");
    requireNonNull(kind, "kind is null");
    requireNonNull(devices, "devices is null");
    if (devices.isEmpty()) {
      throw new IllegalArgumentException("a CDI spec needs at least one device");
    }
  }

  /** The fully qualified name of {@code device} in this spec: {@code <kind>=<name>}. */
  public String qualifiedName(Device device) {
    return kind + "=" + device.name();
  }

  /** One CDI device and its container edits. */
  @JsonPropertyOrder({"name", "containerEdits"})
  public record Device(String name, ContainerEdits containerEdits) {
    public Device {
      requireNonNull(name, "name is null");
      requireNonNull(containerEdits, "containerEdits is null");
    }
  }

  /** Environment ({@code NAME=VALUE}) and bind mounts. */
  @JsonPropertyOrder({"env", "mounts"})
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public record ContainerEdits(ImmutableList<String> env, ImmutableList<Mount> mounts) {
    public ContainerEdits {
      requireNonNull(env, "env is null");
      requireNonNull(mounts, "mounts is null");
    }
  }

  /** A host path bind-mounted into the container. */
  @JsonPropertyOrder({"hostPath", "containerPath", "options"})
  public record Mount(String hostPath, String containerPath, ImmutableList<String> options) {
    public Mount {
      requireNonNull(hostPath, "hostPath is null");
      requireNonNull(containerPath, "containerPath is null");
      requireNonNull(options, "options is null");
    }
  }
}
