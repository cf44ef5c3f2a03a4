package io.gantry.chart;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.scheduler.kube.access.ApiRule;
import java.util.ArrayList;
import java.util.List;

/**
 * What a rendered chart grants one ServiceAccount, read from its Roles, ClusterRoles and their
 * bindings, and which needed rules it misses.
 */
final class RbacGrants {
  /** One granted (group, resource, verb), and whether it holds in every namespace. */
  record Grant(String group, String resource, String verb, boolean clusterWide) {}

  private final List<Grant> grants = new ArrayList<>();

  private RbacGrants() {}

  static RbacGrants of(RenderedChart chart, String serviceAccount, String namespace) {
    RbacGrants out = new RbacGrants();
    for (ObjectNode binding : chart.ofKind("ClusterRoleBinding")) {
      if (names(binding, serviceAccount, namespace)) {
        chart
            .find(binding.path("roleRef").path("kind").asText(), roleName(binding))
            .ifPresent(role -> out.add(role, true));
      }
    }
    for (ObjectNode binding : chart.ofKind("RoleBinding")) {
      if (names(binding, serviceAccount, namespace)
          && binding.path("metadata").path("namespace").asText().equals(namespace)) {
        chart
            .find(binding.path("roleRef").path("kind").asText(), roleName(binding))
            .ifPresent(role -> out.add(role, false));
      }
    }
    return out;
  }

  private static String roleName(ObjectNode binding) {
    return binding.path("roleRef").path("name").asText();
  }

  private static boolean names(ObjectNode binding, String serviceAccount, String namespace) {
    for (JsonNode subject : binding.path("subjects")) {
      if (subject.path("kind").asText().equals("ServiceAccount")
          && subject.path("name").asText().equals(serviceAccount)
          && subject.path("namespace").asText().equals(namespace)) {
        return true;
      }
    }
    return false;
  }

  private void add(ObjectNode role, boolean clusterWide) {
    for (JsonNode rule : role.path("rules")) {
      for (JsonNode group : rule.path("apiGroups")) {
        for (JsonNode resource : rule.path("resources")) {
          for (JsonNode verb : rule.path("verbs")) {
            grants.add(new Grant(group.asText(), resource.asText(), verb.asText(), clusterWide));
          }
        }
      }
    }
  }

  List<Grant> grants() {
    return grants;
  }

  /** The needed (rule, verb) pairs not granted, as {@code "group resource verb"} lines. */
  List<String> missing(List<ApiRule> needed) {
    List<String> out = new ArrayList<>();
    for (ApiRule rule : needed) {
      for (String verb : rule.verbs()) {
        boolean granted =
            grants.stream()
                .anyMatch(
                    g ->
                        g.group().equals(rule.group())
                            && g.resource().equals(rule.resource())
                            && g.verb().equals(verb)
                            && (g.clusterWide() || rule.scope() == ApiRule.Scope.OWN_NAMESPACE));
        if (!granted) {
          out.add(describe(rule.group(), rule.resource(), verb));
        }
      }
    }
    return out;
  }

  /** Granted pairs no needed rule asks for: least privilege. */
  List<String> unneeded(List<ApiRule> needed) {
    List<String> out = new ArrayList<>();
    for (Grant g : grants) {
      if (needed.stream().noneMatch(r -> r.allows(g.group(), g.resource(), g.verb()))) {
        out.add(describe(g.group(), g.resource(), g.verb()));
      }
    }
    return out;
  }

  private static String describe(String group, String resource, String verb) {
    return (group.isEmpty() ? "core" : group) + " " + resource + " " + verb;
  }
}
