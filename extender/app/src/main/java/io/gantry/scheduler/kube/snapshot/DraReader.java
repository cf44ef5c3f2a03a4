package io.gantry.scheduler.kube.snapshot;

import static com.google.common.base.Strings.nullToEmpty;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import com.google.common.collect.ImmutableSortedSet;
import io.gantry.kubemodel.dra.DraManifests;
import io.gantry.scheduler.kube.informers.DraObjects;
import io.gantry.scheduler.kube.write.ClaimStatus;
import io.gantry.scheduler.model.dra.AllocationResult;
import io.gantry.scheduler.model.dra.DeviceClass;
import io.gantry.scheduler.model.dra.DynamicResources;
import io.gantry.scheduler.model.dra.ResourceClaim;
import io.gantry.scheduler.model.dra.ResourceSlice;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the DRA caches into the engine's values, each object once per resourceVersion, by the
 * simulator's rules ({@link DraManifests}). A DeviceClass or ResourceSlice that cannot be read is
 * left out and logged once; a claim that cannot be read is left out with why, so that the pods
 * using it wait with that message. Of templates only the names are kept, for the message of a pod
 * whose claim has not been generated yet (the generated claim is read like any other).
 */
final class DraReader {
  private static final Logger LOG = LoggerFactory.getLogger(DraReader.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final DraObjects cache;
  private final Map<String, Memo<Optional<DeviceClass>>> classes = new HashMap<>();
  private final Map<String, Memo<Optional<ResourceSlice>>> slices = new HashMap<>();
  private final Map<String, Memo<ClaimOrProblem>> claims = new HashMap<>();

  private record Memo<T>(String resourceVersion, T value) {}

  private record ClaimOrProblem(Optional<ResourceClaim> claim, Optional<String> problem) {}

  private interface Reader<T> {
    T read(V1ObjectMeta meta, String json);
  }

  DraReader(DraObjects cache) {
    this.cache = requireNonNull(cache, "cache is null");
  }

  synchronized LiveDra read() {
    if (!cache.hasSynced()) {
      return LiveDra.NOT_SYNCED;
    }
    ImmutableSortedMap.Builder<String, DeviceClass> classOut = ImmutableSortedMap.naturalOrder();
    for (Optional<DeviceClass> c :
        memoized(sorted(cache.deviceClasses()), classes, DraReader::deviceClass)) {
      c.ifPresent(v -> classOut.put(v.name(), v));
    }
    ImmutableList.Builder<ResourceSlice> sliceOut = ImmutableList.builder();
    for (Optional<ResourceSlice> s : memoized(sorted(cache.slices()), slices, DraReader::slice)) {
      s.ifPresent(sliceOut::add);
    }
    TreeMap<String, ResourceClaim> claimOut = new TreeMap<>();
    TreeMap<String, String> invalid = new TreeMap<>();
    List<DynamicKubernetesObject> cached = sorted(cache.claims());
    List<ClaimOrProblem> read = memoized(cached, claims, DraReader::claim);
    for (int i = 0; i < cached.size(); i++) {
      V1ObjectMeta meta = cached.get(i).getMetadata();
      String key = ResourceClaim.key(meta.getNamespace(), meta.getName());
      read.get(i).claim().ifPresent(c -> claimOut.put(key, c));
      read.get(i).problem().ifPresent(p -> invalid.put(key, p));
    }
    ImmutableSortedSet.Builder<String> templates = ImmutableSortedSet.naturalOrder();
    for (DynamicKubernetesObject t : cache.templates()) {
      templates.add(ResourceClaim.key(t.getMetadata().getNamespace(), t.getMetadata().getName()));
    }
    return new LiveDra(
        true,
        new DynamicResources(
            classOut.build(), sliceOut.build(), ImmutableSortedMap.copyOfSorted(claimOut)),
        ImmutableSortedMap.copyOfSorted(invalid),
        templates.build());
  }

  /** The objects ordered by namespace and name, so the snapshot does not follow the cache's. */
  private static List<DynamicKubernetesObject> sorted(List<DynamicKubernetesObject> objects) {
    List<DynamicKubernetesObject> out = new ArrayList<>(objects);
    out.sort(
        Comparator.comparing(
                (DynamicKubernetesObject o) -> nullToEmpty(o.getMetadata().getNamespace()))
            .thenComparing(o -> o.getMetadata().getName()));
    return out;
  }

  /** The objects read, in their order, reusing what was read for an unchanged resourceVersion. */
  private static <T> List<T> memoized(
      List<DynamicKubernetesObject> objects, Map<String, Memo<T>> memo, Reader<T> reader) {
    List<T> out = new ArrayList<>(objects.size());
    Set<String> seen = new HashSet<>();
    for (DynamicKubernetesObject o : objects) {
      V1ObjectMeta meta = o.getMetadata();
      String uid = nullToEmpty(meta.getUid());
      String rv = nullToEmpty(meta.getResourceVersion());
      Memo<T> m = memo.get(uid);
      if (m == null || !m.resourceVersion().equals(rv)) {
        m = new Memo<>(rv, reader.read(meta, o.getRaw().toString()));
        memo.put(uid, m);
      }
      seen.add(uid);
      out.add(m.value());
    }
    memo.keySet().retainAll(seen);
    return out;
  }

  private static Optional<DeviceClass> deviceClass(V1ObjectMeta meta, String json) {
    return readOrLeaveOut(
        "DeviceClass", meta.getName(), () -> DraManifests.deviceClass(meta.getName(), json));
  }

  private static Optional<ResourceSlice> slice(V1ObjectMeta meta, String json) {
    return readOrLeaveOut(
        "ResourceSlice", meta.getName(), () -> DraManifests.resourceSlice(meta.getName(), json));
  }

  /** The object read, or empty (logged) when it cannot be. */
  private static <T> Optional<T> readOrLeaveOut(String kind, String name, Supplier<T> read) {
    try {
      return Optional.of(read.get());
    } catch (IllegalArgumentException e) {
      LOG.warn("{} {} is left out: {}", kind, name, e.getMessage());
      return Optional.empty();
    }
  }

  private static ClaimOrProblem claim(V1ObjectMeta meta, String json) {
    JsonNode tree;
    try {
      tree = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("client-java sent JSON Jackson cannot read", e);
    }
    try {
      ResourceClaim spec = DraManifests.resourceClaim(meta.getNamespace(), meta.getName(), json);
      Optional<AllocationResult> allocation = ClaimStatus.allocation(tree);
      return new ClaimOrProblem(
          Optional.of(spec.withStatus(allocation, ClaimStatus.reservedPods(tree))),
          Optional.empty());
    } catch (IllegalArgumentException e) {
      return new ClaimOrProblem(Optional.empty(), Optional.of(e.getMessage()));
    }
  }
}
