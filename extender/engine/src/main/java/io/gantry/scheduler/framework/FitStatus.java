package io.gantry.scheduler.framework;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.framework.fit.NodeFitReason;
import java.util.List;
import java.util.Optional;

/**
 * The one result type of node predicates. {@link Code#SUCCESS}: the engine goes on; {@link
 * Code#UNSCHEDULABLE}: this node is ruled out for the task, and its reasons are reported to the
 * user (formatted by {@link io.gantry.scheduler.framework.fit.FitMessages}).
 */
public record FitStatus(Code code, ImmutableList<NodeFitReason> reasons, Optional<String> plugin) {

  public enum Code {
    SUCCESS,
    UNSCHEDULABLE
  }

  public static final FitStatus SUCCESS =
      new FitStatus(Code.SUCCESS, ImmutableList.of(), Optional.empty());

  public FitStatus {
    requireNonNull(code, "code is null");
    requireNonNull(reasons, "reasons is null");
    requireNonNull(plugin, "plugin is null");
    checkArgument((code == Code.SUCCESS) == reasons.isEmpty(), "%s with reasons %s", code, reasons);
  }

  public static FitStatus unschedulable(String plugin, NodeFitReason reason) {
    return new FitStatus(Code.UNSCHEDULABLE, ImmutableList.of(reason), Optional.of(plugin));
  }

  public static FitStatus unschedulable(String plugin, List<NodeFitReason> reasons) {
    return new FitStatus(Code.UNSCHEDULABLE, ImmutableList.copyOf(reasons), Optional.of(plugin));
  }

  public boolean isSuccess() {
    return code == Code.SUCCESS;
  }
}
