package io.gantry.scheduler.kube.snapshot;

import com.google.common.collect.ImmutableMap;
import io.gantry.kubemodel.kai.PriorityClassTable;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * The cluster's PriorityClasses as KAI's {@link PriorityClassTable}: each class's value by name,
 * and the global default's value if one is marked so.
 */
public final class PriorityClassReader {
  private PriorityClassReader() {}

  public static PriorityClassTable read(List<V1PriorityClass> classes) {
    Map<String, Integer> values = new TreeMap<>();
    OptionalInt globalDefault = OptionalInt.empty();
    for (V1PriorityClass pc : classes) {
      values.put(pc.getMetadata().getName(), pc.getValue());
      if (Boolean.TRUE.equals(pc.getGlobalDefault())) {
        globalDefault = OptionalInt.of(pc.getValue());
      }
    }
    return new PriorityClassTable(ImmutableMap.copyOf(values), globalDefault);
  }
}
