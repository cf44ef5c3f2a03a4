package io.gantry.scheduler.framework;

import java.util.Map;

/**
 * A bound a reclaim scenario validator's rules put on any scenario it accepts (kai-reference
 * §5.6.3): the most GPUs, counted as queues count them, that its victims may give up. The reclaim
 * action skips a victim search that could not free enough even so. Several plugins: the smallest
 * bound holds, since every validator must accept a scenario.
 */
public interface ReclaimCeiling extends Plugin {
  /**
   * The most of the given GPUs that any scenario this plugin accepts takes from the victims of
   * {@code reclaimer}.
   *
   * @param victimsByQueue victim leaf queue to the GPUs of its candidate victims
   */
  double reclaimableGpus(JobState reclaimer, Map<String, VictimGpus> victimsByQueue);

  /**
   * The candidate victims of one leaf queue: {@code gpus}, the GPUs of theirs the caller asks
   * about; {@code largestJobGpus}, the most GPUs one victim job holds in all (no chunk a validator
   * takes away at once is larger).
   */
  record VictimGpus(double gpus, double largestJobGpus) {
    public VictimGpus {
      if (!(gpus >= 0) || !(largestJobGpus >= 0)) {
        throw new IllegalArgumentException(
            "gpus and largestJobGpus must be >= 0, were " + gpus + " and " + largestJobGpus);
      }
    }
  }
}
