package io.gantry.scheduler.framework;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.List;
import java.util.Optional;

/**
 * The one result type of predicates and capacity checks. {@link Code#SUCCESS}: the engine goes on;
 * {@link Code#UNSCHEDULABLE}: this node (or job) is ruled out and the reasons are reported to the
 * user; {@link Code#ERROR}: the check itself could not run, the job is not placed this cycle.
 */
public record FitStatus(Code code, ImmutableList<String> reasons, Optional<String> plugin) {

  public enum Code {
    SUCCESS,
    UNSCHEDULABLE,
    ERROR
  }

  public static final FitStatus SUCCESS =
      new FitStatus(Code.SUCCESS, ImmutableList.of(), Optional.empty());

  public FitStatus {
    requireNonNull(code, "code is null");
    requireNonNull(reasons, "reasons is null");
    requireNonNull(plugin, "plugin is null");
  }

  public static FitStatus unschedulable(String plugin, String reason) {
    return new FitStatus(Code.UNSCHEDULABLE, ImmutableList.of(reason), Optional.of(plugin));
  }

  public static FitStatus unschedulable(String plugin, List<String> reasons) {
    return new FitStatus(Code.UNSCHEDULABLE, ImmutableList.copyOf(reasons), Optional.of(plugin));
  }

  public static FitStatus error(String plugin, String reason) {
    return new FitStatus(Code.ERROR, ImmutableList.of(reason), Optional.of(plugin));
  }

  public boolean isSuccess() {
    return code == Code.SUCCESS;
  }

  public String message() {
    return String.join(", ", reasons);
  }
}
