package io.gantry.scheduler.sim.spec;

import com.google.common.collect.ImmutableSet;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.gpusharing.MigProfile;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.Field.QuantityUnit;
import io.gantry.kubemodel.read.MapReader;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.model.ResourceNames;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A pod's requests from its containers, as Kubernetes adds them up: per resource, a container's
 * request, or its limit when it sets only a limit (the API server copies the limit); the app
 * containers and the sidecars (init containers with {@code restartPolicy: Always}) are summed; an
 * ordinary init container runs alone beside the sidecars started before it, so the pod needs the
 * most any of them needs when that is more.
 */
final class ContainerResources {
  private static final String SIDECAR = "Always";

  private ContainerResources() {}

  static ImmutableSortedMap<String, Long> podRequests(
      List<Field> containers, List<Field> initContainers, ImmutableSet<String> containerKeys)
      throws ScenarioException {
    TreeMap<String, Long> apps = new TreeMap<>();
    for (Field container : containers) {
      add(apps, requests(container, containerKeys, false));
    }
    TreeMap<String, Long> sidecars = new TreeMap<>();
    TreeMap<String, Long> initPeak = new TreeMap<>();
    for (Field container : initContainers) {
      boolean sidecar =
          container.asOpenMap().optString("restartPolicy").filter(SIDECAR::equals).isPresent();
      Map<String, Long> own = requests(container, containerKeys, true);
      TreeMap<String, Long> running = new TreeMap<>();
      if (sidecar) {
        add(sidecars, own);
        running.putAll(sidecars);
      } else {
        running.putAll(own);
        add(running, sidecars);
      }
      running.forEach((k, v) -> initPeak.merge(k, v, Math::max));
    }
    add(apps, sidecars);
    initPeak.forEach((k, v) -> apps.merge(k, v, Math::max));
    return ImmutableSortedMap.copyOf(apps);
  }

  /** One container's requests, limits standing in for requests it does not set. */
  private static Map<String, Long> requests(
      Field container, ImmutableSet<String> containerKeys, boolean init) throws ScenarioException {
    MapReader c = ManifestKeys.read(container, containerKeys);
    if (!init && c.optional("restartPolicy").isPresent()) {
      throw c.required("restartPolicy").error("only an init container may set restartPolicy");
    }
    PodTemplateBinder.checkPorts(c.list("ports"));
    TreeMap<String, Long> out = new TreeMap<>();
    Optional<Field> resources = c.optional("resources");
    if (resources.isEmpty()) {
      return out;
    }
    MapReader r =
        ManifestKeys.read(
            resources.get(),
            PodTemplateBinder.resourcesKeys(),
            PodTemplateBinder.resourcesRefused());
    Optional<Field> limits = r.optional("limits");
    if (limits.isPresent()) {
      for (Field limit : limits.get().asOpenMap().fields()) {
        out.put(limit.key(), quantity(limit));
      }
    }
    Optional<Field> requests = r.optional("requests");
    if (requests.isPresent()) {
      for (Field request : requests.get().asOpenMap().fields()) {
        out.put(request.key(), quantity(request));
      }
    }
    return out;
  }

  private static long quantity(Field resource) throws ScenarioException {
    try {
      MigProfile.ofResource(resource.key());
    } catch (IllegalArgumentException e) {
      throw resource.error(e.getMessage());
    }
    QuantityUnit unit =
        resource.key().equals(ResourceNames.CPU) ? QuantityUnit.MILLIS : QuantityUnit.WHOLE;
    return resource.asQuantity(unit);
  }

  private static long saturatedSum(long a, long b) {
    long sum = a + b;
    return sum < 0 ? Long.MAX_VALUE : sum;
  }

  private static void add(Map<String, Long> into, Map<String, Long> more) {
    more.forEach((k, v) -> into.merge(k, v, ContainerResources::saturatedSum));
  }
}
