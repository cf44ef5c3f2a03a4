package io.gantry.scheduler.kube.informers;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedSet;
import io.gantry.nodecommon.kube.ApiErrors;
import io.gantry.scheduler.kube.crd.KaiTopology;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1APIResource;
import io.kubernetes.client.openapi.models.V1APIResourceList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which optional APIs the server serves, asked once at start through discovery: DRA ({@code
 * resource.k8s.io/v1}, Kubernetes 1.34 and later, all four kinds) and KAI's Topology CRD. A feature
 * whose API is missing is off, and that is logged once, instead of an informer failing every second
 * forever. When discovery itself fails (not a 404), the API is assumed served and its informer
 * reports its own failures ({@link ListWatchFailures}).
 */
public record OptionalApis(boolean dra, boolean topologies) {
  private static final Logger LOG = LoggerFactory.getLogger(OptionalApis.class);

  /** Every optional API served. */
  public static final OptionalApis ALL = new OptionalApis(true, true);

  static final List<String> DRA_KINDS =
      List.of("deviceclasses", "resourceclaims", "resourceclaimtemplates", "resourceslices");

  /** Asks {@code client}'s server; logs each missing API once. */
  public static OptionalApis discover(ApiClient client) {
    requireNonNull(client, "client is null");
    CustomObjectsApi api = new CustomObjectsApi(client);
    ImmutableSortedSet<String> dra = served(api, DraInformers.GROUP, DraInformers.VERSION);
    List<String> missingDra = DRA_KINDS.stream().filter(k -> !dra.contains(k)).toList();
    if (!missingDra.isEmpty()) {
      LOG.warn(
          "the API server does not serve {}/{} {}: DRA is off, and pods with resource claims stay"
              + " pending (Kubernetes 1.34 or later serves it)",
          DraInformers.GROUP,
          DraInformers.VERSION,
          String.join(", ", missingDra));
    }
    boolean topologies =
        served(api, KaiTopology.GROUP, KaiTopology.VERSION).contains(KaiTopology.PLURAL);
    if (!topologies) {
      LOG.warn(
          "the API server does not serve {}/{} {} (KAI's Topology CRD is not installed):"
              + " topology-aware placement is off",
          KaiTopology.GROUP,
          KaiTopology.VERSION,
          KaiTopology.PLURAL);
    }
    return new OptionalApis(missingDra.isEmpty(), topologies);
  }

  /** The plurals {@code group/version} serves: none on a 404, every optional one on a failure. */
  private static ImmutableSortedSet<String> served(
      CustomObjectsApi api, String group, String version) {
    try {
      V1APIResourceList list = api.getAPIResources(group, version).execute();
      return list.getResources().stream()
          .map(V1APIResource::getName)
          .collect(ImmutableSortedSet.toImmutableSortedSet(String::compareTo));
    } catch (ApiException e) {
      if (e.getCode() == 404) {
        return ImmutableSortedSet.of();
      }
      LOG.warn(
          "cannot discover {}/{}: {}; assuming it is served",
          group,
          version,
          ApiErrors.describe(e));
      return ImmutableSortedSet.<String>naturalOrder()
          .addAll(DRA_KINDS)
          .add(KaiTopology.PLURAL)
          .build();
    }
  }
}
