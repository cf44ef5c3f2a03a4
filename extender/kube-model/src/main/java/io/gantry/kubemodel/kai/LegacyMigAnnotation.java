package io.gantry.kubemodel.kai;

import io.gantry.gpusharing.MigProfile;
import io.gantry.scheduler.model.TaskInfo;
import java.util.Map;
import java.util.TreeMap;

/**
 * KAI's legacy MIG pods (its pod_info {@code updateLegacyMigResourceRequestFromAnnotations}): a pod
 * that carries an annotation named after a MIG instance resource, such as {@code
 * nvidia.com/mig-1g.10gb: "1"}, asks for that many instances of the profile through the annotation
 * instead of its containers. KAI reads the annotation as the pod's whole GPU request and never
 * schedules the pod; one that already runs keeps new MIG pods off its node.
 */
public final class LegacyMigAnnotation {
  private LegacyMigAnnotation() {}

  /**
   * {@code task} as a legacy MIG pod when one of {@code annotations} names a MIG resource with a
   * whole-number value, the last such annotation in name order winning; {@code task} itself
   * otherwise. KAI passes over a value that is not a whole number.
   */
  public static TaskInfo apply(TaskInfo task, Map<String, String> annotations) {
    if (!namesMigResource(annotations)) {
      return task; // almost every pod: nothing to sort (the snapshot asks for each task each cycle)
    }
    TaskInfo out = task;
    for (Map.Entry<String, String> e : new TreeMap<>(annotations).entrySet()) {
      if (!MigProfile.isMigResource(e.getKey())) {
        continue;
      }
      try {
        out = task.asLegacyMig(e.getKey(), Long.parseLong(e.getValue()));
      } catch (NumberFormatException notWhole) {
        // KAI logs the annotation and reads the pod without it
      }
    }
    return out;
  }

  private static boolean namesMigResource(Map<String, String> annotations) {
    for (String name : annotations.keySet()) {
      if (MigProfile.isMigResource(name)) {
        return true;
      }
    }
    return false;
  }
}
