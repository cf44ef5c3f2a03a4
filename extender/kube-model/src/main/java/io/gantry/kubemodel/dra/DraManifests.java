package io.gantry.kubemodel.dra;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.MapReader;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.kubemodel.read.YamlTreeReader;
import io.gantry.scheduler.model.dra.DeviceClass;
import io.gantry.scheduler.model.dra.ResourceClaim;
import io.gantry.scheduler.model.dra.ResourceSlice;
import io.gantry.scheduler.model.placement.NodeSelectorTerm;
import java.util.Optional;

/**
 * Translates one {@code resource.k8s.io/v1} object, as the API server sends it (JSON), into the
 * engine's value, with the rules a scenario's DRA sections follow ({@link DraBinder}): the live
 * scheduler and the simulator read DeviceClasses, ResourceSlices, claims and claim templates the
 * same way. Only {@code spec} is read, and a claim's {@code metadata.labels}; a claim's status is
 * the caller's. A bad object throws {@link IllegalArgumentException} whose message names the field
 * ({@code spec.devices.requests[0] .exactly.deviceClassName: ...}).
 */
public final class DraManifests {
  private DraManifests() {}

  public static DeviceClass deviceClass(String name, String objectJson) {
    return read(
        "DeviceClass " + name, objectJson, o -> DraBinder.deviceClass(name, o.required("spec")));
  }

  public static ResourceSlice resourceSlice(String name, String objectJson) {
    return read(
        "ResourceSlice " + name, objectJson, o -> DraBinder.slice(name, o.required("spec")));
  }

  /** The claim with its {@code metadata.labels}. */
  public static ResourceClaim resourceClaim(String namespace, String name, String objectJson) {
    return read(
        "ResourceClaim " + namespace + "/" + name,
        objectJson,
        o -> DraClaimBinder.claim(namespace, name, labels(o), o.required("spec"), false));
  }

  private static ImmutableSortedMap<String, String> labels(MapReader object)
      throws ScenarioException {
    Optional<Field> metadata = object.optional("metadata");
    return metadata.isPresent()
        ? metadata.get().asOpenMap().stringMap("labels")
        : ImmutableSortedMap.of();
  }

  /** The claim a template stamps out, named like the template. */
  public static ResourceClaim resourceClaimTemplate(
      String namespace, String name, String objectJson) {
    return read(
        "ResourceClaimTemplate " + namespace + "/" + name,
        objectJson,
        o ->
            DraClaimBinder.claim(
                namespace, name, ImmutableSortedMap.of(), o.required("spec"), true));
  }

  /**
   * The terms of a claim's {@code status.allocation.nodeSelector}, given as its JSON; a bad one
   * throws naming the field.
   */
  public static ImmutableList<NodeSelectorTerm> allocationNodeSelector(String selectorJson) {
    String field = "status.allocation.nodeSelector";
    try {
      return DraBinder.nodeSelectorTerms(
          Field.root(field, YamlTreeReader.readJson(field, selectorJson)));
    } catch (ScenarioException e) {
      throw new IllegalArgumentException(
          field + (e.field().isEmpty() ? "" : "." + e.field()) + ": " + e.problem(), e);
    }
  }

  private interface ObjectReader<T> {
    T read(MapReader object) throws ScenarioException;
  }

  private static <T> T read(String object, String json, ObjectReader<T> reader) {
    try {
      return reader.read(Field.root(object, YamlTreeReader.readJson(object, json)).asOpenMap());
    } catch (ScenarioException e) {
      // the line is of the JSON text, which the user never saw: the field path locates the problem
      throw new IllegalArgumentException(
          e.field().isEmpty() ? e.problem() : e.field() + ": " + e.problem(), e);
    }
  }
}
