package io.gantry.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The references between a rendered chart's objects, each checked to name something the chart
 * renders: pods' ServiceAccounts and ConfigMaps, bindings' roles and subjects, Services' pods and
 * ports, ServiceMonitors' Services, PodMonitors' and PodDisruptionBudgets' pods.
 */
final class CrossReferences {
  private static final List<String> WORKLOADS = List.of("Deployment", "DaemonSet", "Job");

  /**
   * Roles every cluster has (kube-apiserver's bootstrap policy), which a second kube-scheduler
   * uses.
   */
  private static final Set<String> BUILT_IN_ROLES =
      Set.of(
          "system:kube-scheduler",
          "system:volume-scheduler",
          "extension-apiserver-authentication-reader");

  private CrossReferences() {}

  static void check(RenderedChart chart) {
    List<String> broken = new ArrayList<>();
    List<ObjectNode> podTemplates = new ArrayList<>();
    for (String kind : WORKLOADS) {
      for (ObjectNode w : chart.ofKind(kind)) {
        String where = kind + " " + name(w);
        JsonNode template = w.path("spec").path("template");
        podTemplates.add((ObjectNode) template);
        JsonNode pod = template.path("spec");
        String sa = pod.path("serviceAccountName").asText();
        if (sa.isEmpty() || chart.find("ServiceAccount", sa).isEmpty()) {
          broken.add(where + ": ServiceAccount '" + sa + "' is not rendered");
        }
        for (JsonNode volume : pod.path("volumes")) {
          String cm = volume.path("configMap").path("name").asText();
          if (!cm.isEmpty() && chart.find("ConfigMap", cm).isEmpty()) {
            broken.add(where + ": ConfigMap '" + cm + "' is not rendered");
          }
          String secret = volume.path("secret").path("secretName").asText();
          if (!secret.isEmpty()
              && chart.find("Secret", secret).isEmpty()
              && !certManagerIssues(chart, secret)) {
            broken.add(where + ": Secret '" + secret + "' is not rendered");
          }
        }
        for (JsonNode c : pod.path("containers")) {
          Set<String> ports = new HashSet<>();
          c.path("ports").forEach(p -> ports.add(p.path("name").asText()));
          for (String probe : List.of("readinessProbe", "livenessProbe", "startupProbe")) {
            JsonNode port = c.path(probe).path("httpGet").path("port");
            if (port.isTextual() && !ports.contains(port.asText())) {
              broken.add(where + ": " + probe + " names port '" + port.asText() + "'");
            }
          }
          Set<String> mounts = new HashSet<>();
          pod.path("volumes").forEach(v -> mounts.add(v.path("name").asText()));
          for (JsonNode m : c.path("volumeMounts")) {
            if (!mounts.contains(m.path("name").asText())) {
              broken.add(where + ": volumeMount '" + m.path("name").asText() + "' has no volume");
            }
          }
        }
      }
    }
    for (String kind : List.of("ClusterRoleBinding", "RoleBinding")) {
      for (ObjectNode b : chart.ofKind(kind)) {
        String role = b.path("roleRef").path("name").asText();
        if (!BUILT_IN_ROLES.contains(role)
            && chart.find(b.path("roleRef").path("kind").asText(), role).isEmpty()) {
          broken.add(kind + " " + name(b) + ": role '" + role + "' is not rendered");
        }
        for (JsonNode s : b.path("subjects")) {
          if (s.path("kind").asText().equals("ServiceAccount")
              && chart.find("ServiceAccount", s.path("name").asText()).isEmpty()) {
            broken.add(kind + " " + name(b) + ": ServiceAccount '" + s.path("name").asText() + "'");
          }
        }
      }
    }
    for (ObjectNode svc : chart.ofKind("Service")) {
      JsonNode selector = svc.path("spec").path("selector");
      List<ObjectNode> selected =
          podTemplates.stream()
              .filter(t -> matches(selector, t.path("metadata").path("labels")))
              .toList();
      if (selected.isEmpty()) {
        broken.add("Service " + name(svc) + " selects no pod the chart renders");
      }
      for (JsonNode port : svc.path("spec").path("ports")) {
        JsonNode target = port.path("targetPort");
        if (target.isTextual() && selected.stream().noneMatch(t -> hasPort(t, target.asText()))) {
          broken.add("Service " + name(svc) + ": targetPort '" + target.asText() + "'");
        }
      }
    }
    for (ObjectNode sm : chart.ofKind("ServiceMonitor")) {
      JsonNode selector = sm.path("spec").path("selector").path("matchLabels");
      boolean found =
          chart.ofKind("Service").stream()
              .anyMatch(
                  s ->
                      matches(selector, s.path("metadata").path("labels"))
                          && sm.path("spec").path("endpoints").findValuesAsText("port").stream()
                              .allMatch(
                                  p ->
                                      s.path("spec")
                                          .path("ports")
                                          .findValuesAsText("name")
                                          .contains(p)));
      if (!found) {
        broken.add("ServiceMonitor " + name(sm) + " selects no Service with its port");
      }
    }
    for (ObjectNode pm : chart.ofKind("PodMonitor")) {
      JsonNode selector = pm.path("spec").path("selector").path("matchLabels");
      boolean found =
          podTemplates.stream()
              .anyMatch(
                  t ->
                      matches(selector, t.path("metadata").path("labels"))
                          && pm
                              .path("spec")
                              .path("podMetricsEndpoints")
                              .findValuesAsText("port")
                              .stream()
                              .allMatch(p -> hasPort(t, p)));
      if (!found) {
        broken.add("PodMonitor " + name(pm) + " selects no pod with its port");
      }
    }
    for (ObjectNode pdb : chart.ofKind("PodDisruptionBudget")) {
      JsonNode selector = pdb.path("spec").path("selector").path("matchLabels");
      if (podTemplates.stream()
          .noneMatch(t -> matches(selector, t.path("metadata").path("labels")))) {
        broken.add("PodDisruptionBudget " + name(pdb) + " selects no pod the chart renders");
      }
    }
    for (String kind : List.of("MutatingWebhookConfiguration", "ValidatingWebhookConfiguration")) {
      for (ObjectNode config : chart.ofKind(kind)) {
        for (JsonNode hook : config.path("webhooks")) {
          JsonNode service = hook.path("clientConfig").path("service");
          int port = service.path("port").asInt(443);
          boolean found =
              chart.ofKind("Service").stream()
                  .anyMatch(
                      s ->
                          name(s).equals(service.path("name").asText())
                              && s.path("metadata")
                                  .path("namespace")
                                  .asText()
                                  .equals(service.path("namespace").asText())
                              && s.path("spec").path("ports").findValues("port").stream()
                                  .anyMatch(p -> p.asInt() == port));
          if (!found) {
            broken.add(kind + " " + name(config) + ": no Service " + service + " on port " + port);
          }
        }
      }
    }
    assertThat(broken).as("broken references").isEmpty();
  }

  private static boolean certManagerIssues(RenderedChart chart, String secret) {
    return chart.ofKind("Certificate").stream()
        .anyMatch(c -> c.path("spec").path("secretName").asText().equals(secret));
  }

  private static boolean hasPort(JsonNode template, String name) {
    for (JsonNode c : template.path("spec").path("containers")) {
      for (JsonNode p : c.path("ports")) {
        if (p.path("name").asText().equals(name)) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean matches(JsonNode selector, JsonNode labels) {
    if (!selector.isObject() || selector.isEmpty()) {
      return false;
    }
    for (Map.Entry<String, JsonNode> f : selector.properties()) {
      if (!labels.path(f.getKey()).asText().equals(f.getValue().asText())) {
        return false;
      }
    }
    return true;
  }

  private static String name(JsonNode o) {
    return o.path("metadata").path("name").asText();
  }
}
