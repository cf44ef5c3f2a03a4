package io.gantry.deviceagent.publish;

import com.google.common.collect.ImmutableSortedMap;
import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuInventory;

/**
 * The node labels NVIDIA's GPU feature discovery sets that schedulers and users select on, so node
 * selectors written for GFD work on Gantry nodes: {@value #COUNT} (number of GPUs), {@value
 * #MEMORY} (MiB of one GPU) and {@value #PRODUCT} (product name with spaces as dashes, e.g. {@code
 * NVIDIA-H100-80GB-HBM3}). As GFD, memory and product describe the first GPU.
 */
public final class GfdLabels {
  public static final String COUNT = "nvidia.com/gpu.count";
  public static final String MEMORY = "nvidia.com/gpu.memory";
  public static final String PRODUCT = "nvidia.com/gpu.product";

  /** A label value is at most 63 characters (Kubernetes validation). */
  private static final int MAX_VALUE_LENGTH = 63;

  private GfdLabels() {}

  /** The labels for {@code inventory}; an inventory has at least one GPU. */
  public static ImmutableSortedMap<String, String> of(GpuInventory inventory) {
    if (inventory.devices().isEmpty()) {
      throw new IllegalArgumentException("an inventory without GPUs has no GPU labels");
    }
    GpuDevice first = inventory.devices().get(0);
    return ImmutableSortedMap.of(
        COUNT,
        Integer.toString(inventory.devices().size()),
        MEMORY,
        Long.toString(first.memoryMib()),
        PRODUCT,
        labelValue(first.productName()));
  }

  /**
   * {@code text} as a valid label value: spaces and other characters a label may not hold become
   * dashes, at most 63 characters, starting and ending with a letter or digit.
   */
  static String labelValue(String text) {
    String value = text.strip().replaceAll("[^A-Za-z0-9._-]", "-");
    if (value.length() > MAX_VALUE_LENGTH) {
      value = value.substring(0, MAX_VALUE_LENGTH);
    }
    return value.replaceAll("^[^A-Za-z0-9]+", "").replaceAll("[^A-Za-z0-9]+$", "");
  }
}
