package io.gantry.scheduler.kube.informers;

import com.google.common.collect.ImmutableMap;
import com.google.common.collect.Interner;
import com.google.common.collect.Interners;
import io.gantry.scheduler.kube.crd.KaiPodGroup;
import io.gantry.scheduler.kube.crd.KaiPodGroupSpec;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Shrinks the pods and PodGroups the informer caches hold, without changing a value any reader sees
 * (an informer transform): at 150,000 pods the caches are most of the scheduler's heap, and most of
 * that is copies. Each client-java model object is walked field by field and keeps:
 *
 * <ul>
 *   <li>strings, quantities and timestamps that repeat across objects (namespaces, label and
 *       annotation keys and values, container names, images, resource names, node names, phases,
 *       owners, creation times) as one shared instance each, through a weak interner, so an
 *       instance goes when no cached object uses it; the strings unique to an object (its name, uid
 *       and resourceVersion) are left as they are;
 *   <li>empty lists and maps (client-java's models start every one as a new {@code ArrayList} or
 *       {@code HashMap}, some thirty an object) as the shared empty immutable ones;
 *   <li>other maps as immutable maps in the same order, other lists trimmed to their size.
 * </ul>
 *
 * One value is dropped: {@code metadata.managedFields}, the API server's record of which client set
 * which field. No reader of the caches uses it, and on a real API server it is often the largest
 * part of an object's metadata (the server keeps it when an update leaves it out).
 *
 * <p>The cached objects were already never to be changed (the informer hands out the same instance
 * to every reader); an empty collection that someone tried to fill now fails loudly instead of
 * corrupting the cache.
 */
final class CompactModels {
  private static final String MODELS_PACKAGE = "io.kubernetes.client.openapi.models";

  private static final String MANAGED_FIELDS = "managedFields";

  /** Fields whose strings are unique to their object: interning them would only add entries. */
  private static final Set<String> UNIQUE_META_FIELDS =
      Set.of("name", "uid", "resourceVersion", "selfLink");

  private final Interner<Object> shared = Interners.newWeakInterner();
  private final Map<Class<?>, List<Field>> fields = new ConcurrentHashMap<>();

  /** The pod, compacted in place. */
  V1Pod pod(V1Pod pod) {
    compact(pod);
    return pod;
  }

  /** The PodGroup, its metadata compacted in place and its strings shared. */
  KaiPodGroup podGroup(KaiPodGroup pg) {
    if (pg.metadata() != null) {
      compact(pg.metadata());
    }
    KaiPodGroupSpec s = pg.spec();
    KaiPodGroupSpec spec =
        s == null
            ? null
            : new KaiPodGroupSpec(
                s.minMember(),
                s.minSubGroup(),
                share(s.queue()),
                share(s.priorityClassName()),
                share(s.preemptibility()),
                s.topologyConstraint(),
                s.subGroups(),
                s.markUnschedulable(),
                s.schedulingBackoff(),
                share(s.preemptionDelay()),
                share(s.stalenessGracePeriod()));
    return new KaiPodGroup(
        share(pg.apiVersion()), share(pg.kind()), pg.metadata(), spec, pg.status());
  }

  private String share(String s) {
    return s == null ? null : (String) shared.intern(s);
  }

  private void compact(Object model) {
    for (Field f : fieldsOf(model.getClass())) {
      try {
        Object value = f.get(model);
        if (value == null) {
          continue;
        }
        if (f.getName().equals(MANAGED_FIELDS) && model instanceof V1ObjectMeta) {
          f.set(model, null);
          continue;
        }
        Object compacted = value(value);
        if (compacted != value) {
          f.set(model, compacted);
        }
      } catch (IllegalAccessException e) {
        throw new IllegalStateException("cannot compact " + f, e);
      }
    }
  }

  /** The value to keep instead of {@code value}: itself, or an equal smaller or shared one. */
  private Object value(Object value) {
    if (value instanceof String || value instanceof Quantity || value instanceof OffsetDateTime) {
      return shared.intern(value);
    }
    if (value instanceof List<?> list) {
      return list(list);
    }
    if (value instanceof Map<?, ?> map) {
      return map(map);
    }
    if (value.getClass().getPackageName().equals(MODELS_PACKAGE)) {
      compact(value);
    }
    return value;
  }

  private Object list(List<?> list) {
    if (list.isEmpty()) {
      return List.of();
    }
    List<Object> out = new ArrayList<>(list.size());
    for (Object element : list) {
      out.add(element == null ? null : value(element));
    }
    return out;
  }

  private Object map(Map<?, ?> map) {
    if (map.isEmpty()) {
      return Map.of();
    }
    ImmutableMap.Builder<Object, Object> out = ImmutableMap.builderWithExpectedSize(map.size());
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (e.getKey() == null || e.getValue() == null) {
        return map; // immutable maps hold no nulls; such a map stays as it came
      }
      out.put(value(e.getKey()), value(e.getValue()));
    }
    return out.buildOrThrow();
  }

  /** The fields to walk: every instance field but the metadata strings unique to an object. */
  private List<Field> fieldsOf(Class<?> type) {
    return fields.computeIfAbsent(
        type,
        t -> {
          boolean meta = t == V1ObjectMeta.class;
          List<Field> out = new ArrayList<>();
          for (Field f : t.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers())
                && !Modifier.isFinal(f.getModifiers())
                && !(meta && UNIQUE_META_FIELDS.contains(f.getName()))) {
              f.setAccessible(true);
              out.add(f);
            }
          }
          return List.copyOf(out);
        });
  }
}
