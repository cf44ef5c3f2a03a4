package io.gantry.fakekube;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.base.Splitter;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * API discovery documents built from the registry: {@code /version}, {@code /api} (APIVersions),
 * {@code /apis} (APIGroupList), {@code /apis/<group>} (APIGroup) and {@code /api/v1}, {@code
 * /apis/<group>/<version>} (APIResourceList, with the status, binding and eviction subresources).
 * Only the unaggregated (v1) discovery format is served.
 */
final class Discovery {
  private static final List<String> VERBS =
      List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");

  private final ResourceRegistry registry;
  private final String serverAddress;

  Discovery(ResourceRegistry registry, String serverAddress) {
    this.registry = requireNonNull(registry, "registry is null");
    this.serverAddress = requireNonNull(serverAddress, "serverAddress is null");
  }

  ObjectNode version() {
    ObjectNode json = Json.object();
    json.put("major", "1");
    json.put("minor", "36");
    json.put("gitVersion", "v1.36.0-gantry-fake");
    json.put("gitCommit", "0000000000000000000000000000000000000000");
    json.put("gitTreeState", "clean");
    json.put("buildDate", "1970-01-01T00:00:00Z");
    json.put("goVersion", "go1.25.0");
    json.put("compiler", "gc");
    json.put("platform", "linux/amd64");
    return json;
  }

  ObjectNode coreVersions() {
    ObjectNode json = Json.object();
    json.put("kind", "APIVersions");
    json.putArray("versions").add("v1");
    addressByCidr(json);
    return json;
  }

  ObjectNode groupList() {
    ObjectNode json = Json.object();
    json.put("kind", "APIGroupList");
    json.put("apiVersion", "v1");
    ArrayNode groups = json.putArray("groups");
    versionsByGroup().forEach((group, versions) -> groups.add(group(group, versions)));
    return json;
  }

  Optional<ObjectNode> group(String name) {
    SortedSet<String> versions = versionsByGroup().get(name);
    if (versions == null) {
      return Optional.empty();
    }
    ObjectNode json = group(name, versions);
    json.put("kind", "APIGroup");
    json.put("apiVersion", "v1");
    return Optional.of(json);
  }

  Optional<ObjectNode> resources(String group, String version) {
    List<ResourceKind> kinds =
        registry.all().stream()
            .filter(k -> k.group().equals(group) && k.version().equals(version))
            .toList();
    if (kinds.isEmpty()) {
      return Optional.empty();
    }
    ObjectNode json = Json.object();
    json.put("kind", "APIResourceList");
    json.put("apiVersion", "v1");
    json.put("groupVersion", kinds.get(0).apiVersion());
    ArrayNode resources = json.putArray("resources");
    for (ResourceKind kind : kinds) {
      boolean bindingOnly = kind.equals(ResourceKinds.BINDINGS);
      resource(
          resources, kind.plural(), kind.singular(), kind, bindingOnly ? List.of("create") : VERBS);
      if (kind.hasStatusSubresource()) {
        resource(resources, kind.plural() + "/status", "", kind, List.of("get", "patch", "update"));
      }
      if (kind.equals(ResourceKinds.PODS)) {
        ResourceKind binding = ResourceKinds.BINDINGS;
        resource(resources, "pods/binding", "", binding, List.of("create"));
        resource(
            resources,
            "pods/eviction",
            "",
            new ResourceKind(
                "policy",
                "v1",
                "evictions",
                "Eviction",
                true,
                ResourceKind.StatusPolicy.NONE,
                false),
            List.of("create"));
      }
    }
    return Optional.of(json);
  }

  private static void resource(
      ArrayNode resources, String name, String singular, ResourceKind kind, List<String> verbs) {
    ObjectNode json = resources.addObject();
    json.put("name", name);
    json.put("singularName", singular);
    json.put("namespaced", kind.namespaced());
    if (!kind.group().isEmpty()
        && !kind.plural().equals(Splitter.on('/').split(name).iterator().next())) {
      json.put("group", kind.group());
      json.put("version", kind.version());
    }
    json.put("kind", kind.kind());
    ArrayNode verbList = json.putArray("verbs");
    verbs.forEach(verbList::add);
  }

  private ObjectNode group(String name, SortedSet<String> versions) {
    ObjectNode json = Json.object();
    json.put("name", name);
    ArrayNode list = json.putArray("versions");
    for (String version : versions) {
      list.addObject().put("groupVersion", name + "/" + version).put("version", version);
    }
    String preferred =
        versions.stream()
            .filter(v -> !v.contains("alpha") && !v.contains("beta"))
            .findFirst()
            .orElse(versions.first());
    json.putObject("preferredVersion")
        .put("groupVersion", name + "/" + preferred)
        .put("version", preferred);
    return json;
  }

  private SortedMap<String, SortedSet<String>> versionsByGroup() {
    SortedMap<String, SortedSet<String>> byGroup = new TreeMap<>();
    for (ResourceKind kind : registry.all()) {
      if (!kind.group().isEmpty()) {
        byGroup.computeIfAbsent(kind.group(), g -> new TreeSet<>()).add(kind.version());
      }
    }
    return byGroup;
  }

  private void addressByCidr(ObjectNode json) {
    json.putArray("serverAddressByClientCIDRs")
        .addObject()
        .put("clientCIDR", "0.0.0.0/0")
        .put("serverAddress", serverAddress);
  }
}
