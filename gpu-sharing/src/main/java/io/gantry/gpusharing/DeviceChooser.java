package io.gantry.gpusharing;

import com.google.common.collect.ImmutableList;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * Picks the devices of a shared task among its candidates (kai-reference §7): highest score first;
 * among equal scores, devices usable now before those still being released; then the candidates'
 * own order (existing groups by id, then whole devices). The first {@code needed} are taken.
 */
public final class DeviceChooser {
  private DeviceChooser() {}

  /** The chosen candidates, or empty when there are fewer than {@code needed}. */
  public static Optional<ImmutableList<GpuCandidate>> choose(
      List<GpuCandidate> candidates, int needed, ToDoubleFunction<GpuCandidate> score) {
    if (candidates.size() < needed) {
      return Optional.empty();
    }
    List<GpuCandidate> sorted = new ArrayList<>(candidates);
    sorted.sort(
        Comparator.comparingDouble((GpuCandidate c) -> -score.applyAsDouble(c))
            .thenComparing(c -> !c.idleNow()));
    return Optional.of(ImmutableList.copyOf(sorted.subList(0, needed)));
  }
}
