package io.gantry.scheduler.sim.spec;

import com.google.common.collect.ImmutableMap;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.MapReader;
import io.gantry.kubemodel.read.ScenarioException;
import java.util.Map;
import java.util.Set;

/**
 * The keys a mapping of a workload manifest may have. A key is either one {@code gantry simulate}
 * reads, one that cannot change where pods go (an image, a probe) and is passed over, or an error
 * naming it: nothing in a manifest that would change the outcome is silently ignored.
 */
final class ManifestKeys {
  static final String CANNOT_HONOUR = "gantry simulate cannot honour this field in a workload";

  private ManifestKeys() {}

  /** The mapping at {@code field}, every key of which is in {@code allowed}. */
  static MapReader read(Field field, Set<String> allowed) throws ScenarioException {
    return read(field, allowed, ImmutableMap.of());
  }

  /**
   * The mapping at {@code field}; a key in {@code refused} is an error with its reason, any other
   * key not in {@code allowed} an error saying it cannot be honoured.
   */
  static MapReader read(Field field, Set<String> allowed, Map<String, String> refused)
      throws ScenarioException {
    MapReader map = field.asOpenMap();
    for (Field entry : map.fields()) {
      String reason = refused.get(entry.key());
      if (reason != null) {
        throw entry.error(reason);
      }
      if (!allowed.contains(entry.key())) {
        throw entry.error(CANNOT_HONOUR);
      }
    }
    return map;
  }

  /** A boolean that must be false when written (a suspended object creates no pods). */
  static void requireNotTrue(MapReader map, String key, String reason) throws ScenarioException {
    if (map.booleanOr(key, false)) {
      throw map.required(key).error(reason);
    }
  }
}
