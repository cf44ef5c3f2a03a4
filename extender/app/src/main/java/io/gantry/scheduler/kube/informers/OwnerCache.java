package io.gantry.scheduler.kube.informers;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gantry.nodecommon.kube.ApiErrors;
import io.kubernetes.client.Discovery;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The owners of pods (Jobs, Deployments, PyTorchJobs, JobSets, …) as the pod grouper reads them:
 * the first time an owner's kind is asked for, the API's discovery says whether the cluster serves
 * it (so a cluster without Ray needs no Ray CRDs) and a watching cache of that kind is started, one
 * informer factory per kind (client-java keeps one informer per model class in a factory). Until a
 * kind's cache has listed once its owners are {@link Lookup.Waiting}. Thread-safe.
 */
public final class OwnerCache implements AutoCloseable {
  /** How often discovery is asked again about a kind it did not know. */
  static final Duration REDISCOVER_AFTER = Duration.ofSeconds(30);

  private static final Logger LOG = LoggerFactory.getLogger(OwnerCache.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ApiClient client;
  private final ExecutorService threads;
  private final ListWatchFailures failures;
  private final Clock clock;
  private final Map<String, Kind> kinds = new ConcurrentHashMap<>();
  private volatile Map<String, Discovery.APIResource> served = Map.of();
  private volatile Instant discoveredAt = Instant.MIN;
  private volatile boolean discovered;

  /** The answer for one owner. */
  public sealed interface Lookup {
    /** The owner as the API server stores it. */
    record Found(JsonNode object) implements Lookup {}

    /** Its kind's cache has not listed yet, or discovery has not answered. */
    record Waiting() implements Lookup {}

    /** The owner cannot be read: {@code reason} says why, naming it. */
    record Unreadable(String reason) implements Lookup {}
  }

  /** One watched kind; {@code failure} is the last error listing or watching it, if any. */
  private record Kind(
      SharedInformerFactory factory,
      SharedIndexInformer<DynamicKubernetesObject> informer,
      boolean namespaced,
      AtomicReference<String> failure) {}

  OwnerCache(ApiClient client, ExecutorService threads, ListWatchFailures failures, Clock clock) {
    this.client = requireNonNull(client, "client is null");
    this.threads = requireNonNull(threads, "threads is null");
    this.failures = requireNonNull(failures, "failures is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  /**
   * The owner {@code apiVersion}/{@code kind} named {@code name} in {@code namespace} (ignored for
   * cluster-scoped kinds).
   */
  public Lookup get(String apiVersion, String kind, String namespace, String name) {
    String type = apiVersion + "/" + kind;
    Kind cached = kinds.get(type);
    if (cached == null) {
      Optional<Discovery.APIResource> resource = resource(apiVersion, kind);
      if (resource.isEmpty() && !discovered) {
        return new Lookup.Waiting();
      }
      if (resource.isEmpty()) {
        return new Lookup.Unreadable(
            "owner " + kind + " " + namespace + "/" + name + ": the API server serves no " + type);
      }
      cached = kinds.computeIfAbsent(type, t -> start(apiVersion, resource.get()));
    }
    if (!cached.informer().hasSynced()) {
      String failure = cached.failure().get();
      return failure == null
          ? new Lookup.Waiting()
          : new Lookup.Unreadable(
              "owner "
                  + kind
                  + " "
                  + namespace
                  + "/"
                  + name
                  + ": listing "
                  + type
                  + " failed: "
                  + failure);
    }
    Lister<DynamicKubernetesObject> lister = new Lister<>(cached.informer().getIndexer());
    DynamicKubernetesObject object =
        cached.namespaced() ? lister.namespace(namespace).get(name) : lister.get(name);
    if (object == null) {
      return new Lookup.Unreadable("owner " + kind + " " + namespace + "/" + name + " not found");
    }
    try {
      return new Lookup.Found(JSON.readTree(object.getRaw().toString()));
    } catch (JsonProcessingException e) {
      return new Lookup.Unreadable(
          "owner "
              + kind
              + " "
              + namespace
              + "/"
              + name
              + " is not JSON: "
              + e.getOriginalMessage());
    }
  }

  private Kind start(String apiVersion, Discovery.APIResource resource) {
    int slash = apiVersion.indexOf('/');
    String group = slash < 0 ? "" : apiVersion.substring(0, slash);
    String version = slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
    SharedInformerFactory factory = new SharedInformerFactory(client, threads, false);
    AtomicReference<String> failure = new AtomicReference<>();
    BiConsumer<Class<DynamicKubernetesObject>, Throwable> report =
        failures.handler(resource.getResourcePlural() + (group.isEmpty() ? "" : "." + group));
    SharedIndexInformer<DynamicKubernetesObject> informer =
        factory.sharedIndexInformerFor(
            new DynamicKubernetesApi(group, version, resource.getResourcePlural(), client),
            DynamicKubernetesObject.class,
            0,
            "",
            (type, error) -> {
              failure.set(ApiErrors.describe(error));
              report.accept(type, error);
            });
    factory.startAllRegisteredInformers();
    LOG.info("watching {} {} for pod owners", apiVersion, resource.getResourcePlural());
    return new Kind(factory, informer, Boolean.TRUE.equals(resource.getNamespaced()), failure);
  }

  /** What discovery says about the type; asked again at most every {@link #REDISCOVER_AFTER}. */
  private Optional<Discovery.APIResource> resource(String apiVersion, String kind) {
    Discovery.APIResource known = served.get(apiVersion + "/" + kind);
    if (known == null && clock.instant().isAfter(discoveredAt.plus(REDISCOVER_AFTER))) {
      discover();
      known = served.get(apiVersion + "/" + kind);
    }
    return Optional.ofNullable(known);
  }

  private synchronized void discover() {
    discoveredAt = clock.instant();
    Map<String, Discovery.APIResource> byType = new HashMap<>();
    try {
      for (Discovery.APIResource r : new Discovery(client).findAll()) {
        for (String version : r.getVersions()) {
          String apiVersion = r.getGroup().isEmpty() ? version : r.getGroup() + "/" + version;
          byType.put(apiVersion + "/" + r.getKind(), r);
        }
      }
      served = Map.copyOf(byType);
      discovered = true;
    } catch (ApiException e) {
      LOG.warn("API discovery failed: HTTP {} {}", e.getCode(), e.getResponseBody());
    }
  }

  @Override
  public void close() {
    kinds.values().forEach(k -> k.factory().stopAllRegisteredInformers(true));
  }
}
