package io.gantry.gpusharing;

/**
 * How tasks sharing one device divide its compute. Two modes never share a device: an MPS client
 * and a time-sliced process on one GPU would each assume the other's isolation rules.
 */
public enum ComputeMode {
  /** The driver's default time slicing; the portion is accounting only unless HAMi-core caps it. */
  TIME_SLICING("time-slicing"),
  /** CUDA MPS: the node's MPS daemon enforces the memory and thread limits of the contract. */
  MPS("mps");

  private final String wireName;

  ComputeMode(String wireName) {
    this.wireName = wireName;
  }

  /** The name in annotations, scenario files and the allocation annotation. */
  public String wireName() {
    return wireName;
  }

  /**
   * The mode a wire name names.
   *
   * @throws IllegalArgumentException naming the accepted values
   */
  public static ComputeMode parse(String wireName) {
    for (ComputeMode m : values()) {
      if (m.wireName.equals(wireName)) {
        return m;
      }
    }
    throw new IllegalArgumentException(
        "unknown compute mode '" + wireName + "', expected time-slicing or mps");
  }
}
