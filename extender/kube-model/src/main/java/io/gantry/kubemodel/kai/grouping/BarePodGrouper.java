package io.gantry.kubemodel.kai.grouping;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A pod without owners (KAI's pod-job grouper): its own PodGroup {@code pg-<pod>-<uid>}, minMember
 * 1, {@value DefaultGrouper#TRAIN} by default. A Spark pod (labels {@value #SPARK_APP_NAME} and
 * {@value #SPARK_APP_SELECTOR}) joins the PodGroup named by its {@value #SPARK_APP_SELECTOR}, so
 * the driver and its executors share one.
 */
public final class BarePodGrouper implements Grouper {
  public static final String SPARK_APP_NAME = "spark-app-name";
  public static final String SPARK_APP_SELECTOR = "spark-app-selector";

  private final DefaultGrouper defaults;

  public BarePodGrouper(DefaultGrouper defaults) {
    this.defaults = requireNonNull(defaults, "defaults is null");
  }

  @Override
  public PodGroupPlan plan(GroupingInput input) {
    OwnerMeta top = input.topOwner();
    PodGroupPlan plan = defaults.plan(top, List.of(top), input.pod(), DefaultGrouper.TRAIN);
    var labels = input.pod().labels();
    if (labels.containsKey(SPARK_APP_NAME) && labels.containsKey(SPARK_APP_SELECTOR)) {
      return plan.withName(labels.get(SPARK_APP_SELECTOR));
    }
    return plan;
  }
}
