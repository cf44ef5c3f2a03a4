package io.gantry.scheduler.sim.spec;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.kai.grouping.OwnerMeta;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.MapReader;
import io.gantry.kubemodel.read.Namespaces;
import io.gantry.kubemodel.read.ScenarioException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.UUID;

/**
 * The header of one workload manifest: its type and metadata, and its {@code spec}. An object
 * without {@code metadata.uid} gets a UUID derived from its namespace, kind and name, so that the
 * PodGroup names KAI derives from UIDs stay the same from run to run and when other workloads are
 * added to the file.
 */
record ManifestObject(
    Field entry,
    String apiVersion,
    String kind,
    String name,
    String namespace,
    String uid,
    ImmutableSortedMap<String, String> labels,
    ImmutableSortedMap<String, String> annotations,
    Optional<Field> spec) {

  private static final ImmutableSet<String> KEYS =
      ImmutableSet.of("apiVersion", "kind", "metadata", "spec");
  private static final ImmutableMap<String, String> REFUSED =
      ImmutableMap.of(
          "status", "status is written by controllers; a workload is submitted without one");
  private static final ImmutableSet<String> METADATA_KEYS =
      ImmutableSet.of("name", "namespace", "uid", "labels", "annotations");
  private static final ImmutableMap<String, String> METADATA_REFUSED =
      ImmutableMap.of(
          "generateName",
          "set metadata.name: the simulator names the workload's pods after it",
          "ownerReferences",
          "a workload is a top owner; its owner references cannot be honoured");

  ManifestObject {
    requireNonNull(entry, "entry is null");
    requireNonNull(apiVersion, "apiVersion is null");
    requireNonNull(kind, "kind is null");
    requireNonNull(name, "name is null");
    requireNonNull(namespace, "namespace is null");
    requireNonNull(uid, "uid is null");
    requireNonNull(labels, "labels is null");
    requireNonNull(annotations, "annotations is null");
    requireNonNull(spec, "spec is null");
  }

  static ManifestObject read(Field entry) throws ScenarioException {
    MapReader object = ManifestKeys.read(entry, KEYS, REFUSED);
    String apiVersion = object.requiredString("apiVersion");
    String kind = object.requiredString("kind");
    Field metadataField = object.required("metadata");
    MapReader metadata = ManifestKeys.read(metadataField, METADATA_KEYS, METADATA_REFUSED);
    String name = metadata.requiredString("name");
    Optional<Field> namespaceField = metadata.optional("namespace");
    String namespace =
        namespaceField.isPresent() ? namespaceField.get().asNonEmptyString() : Namespaces.DEFAULT;
    Optional<Field> uidField = metadata.optional("uid");
    String uid =
        uidField.isPresent()
            ? uidField.get().asNonEmptyString()
            : derivedUid(namespace + "/" + kind + "/" + name);
    Optional<Field> annotations = metadata.optional("annotations");
    if (annotations.isPresent()) {
      KaiAnnotations.check(annotations.get());
    }
    return new ManifestObject(
        entry,
        apiVersion,
        kind,
        name,
        namespace,
        uid,
        metadata.stringMap("labels"),
        metadata.stringMap("annotations"),
        object.optional("spec"));
  }

  /** A UUID that depends on {@code identity} only. */
  static String derivedUid(String identity) {
    return UUID.nameUUIDFromBytes(identity.getBytes(StandardCharsets.UTF_8)).toString();
  }

  OwnerMeta owner() {
    return new OwnerMeta(apiVersion, kind, name, uid, labels, annotations);
  }

  Field requiredSpec() throws ScenarioException {
    if (spec.isEmpty()) {
      throw new ScenarioException(
          entry.sourceName(), entry.line(), entry.childPath("spec"), "is required");
    }
    return spec.get();
  }
}
