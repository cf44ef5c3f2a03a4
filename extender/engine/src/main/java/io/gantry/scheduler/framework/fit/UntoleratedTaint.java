package io.gantry.scheduler.framework.fit;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.model.placement.Taint;

/** The node's first NoSchedule or NoExecute taint that none of the pod's tolerations tolerates. */
public record UntoleratedTaint(Taint taint) implements NodeFitReason {
  public UntoleratedTaint {
    requireNonNull(taint, "taint is null");
  }

  @Override
  public Kind kind() {
    return Kind.UNTOLERATED_TAINT;
  }
}
