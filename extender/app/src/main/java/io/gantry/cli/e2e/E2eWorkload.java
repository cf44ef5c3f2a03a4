package io.gantry.cli.e2e;

/**
 * What an end-to-end preset creates: {@code nodes} nodes of {@value #GPUS_PER_NODE} GPUs and ten
 * pending pods a node, in blocks of twenty: one gang of {@value #GANG_SIZE} 1-GPU pods, four 1-GPU
 * pods on their own and eight pods asking for a {@value #FRACTION} GPU fraction. So 40% of the pods
 * are in gangs, 40% are fractions, and all of them fill 87.5% of the GPUs. Blocks go to {@value
 * #QUEUES} queues in turn.
 *
 * @param nodes how many nodes; at least 2
 */
public record E2eWorkload(int nodes) {
  public static final int GPUS_PER_NODE = 8;
  public static final int GANG_SIZE = 8;
  public static final int SINGLES_PER_BLOCK = 4;
  public static final int FRACTIONS_PER_BLOCK = 8;
  public static final int PODS_PER_BLOCK = GANG_SIZE + SINGLES_PER_BLOCK + FRACTIONS_PER_BLOCK;
  public static final String FRACTION = "0.25";
  public static final int QUEUES = 4;
  public static final String NAMESPACE = "bench";

  public E2eWorkload {
    if (nodes < 2) {
      throw new IllegalArgumentException("nodes must be at least 2 for an end-to-end preset");
    }
  }

  public static E2eWorkload of(int nodes) {
    return new E2eWorkload(nodes);
  }

  /** Blocks of {@value #PODS_PER_BLOCK} pods: ten pods a node, in whole blocks. */
  public int blocks() {
    return nodes * 10 / PODS_PER_BLOCK;
  }

  public int pods() {
    return blocks() * PODS_PER_BLOCK;
  }
}
