package io.gantry.chart;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.InstallCommand;
import com.marcnuri.helm.TemplateCommand;
import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1ClusterRoleBinding;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinition;
import io.kubernetes.client.openapi.models.V1DaemonSet;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeviceClass;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1MutatingWebhookConfiguration;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.V1ValidatingAdmissionPolicy;
import io.kubernetes.client.openapi.models.V1ValidatingAdmissionPolicyBinding;
import io.kubernetes.client.openapi.models.V1ValidatingWebhookConfiguration;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * {@code charts/gantry} rendered by helm-java's native Helm, as Kubernetes objects: each one read
 * by client-java's model of its kind (so a misspelt field or a wrong type fails here, as it would
 * on {@code kubectl apply}), and kept as a tree for the checks that cross objects.
 */
final class RenderedChart {
  static final String RELEASE = "gantry";
  static final String NAMESPACE = "gantry-system";

  /** The oldest Kubernetes the chart supports (Chart.yaml's kubeVersion). */
  static final String KUBERNETES_VERSION = "1.29.0";

  /** The client-java model of every built-in kind the chart may render. */
  static final ImmutableMap<String, Class<?>> MODELS =
      ImmutableMap.<String, Class<?>>builder()
          .put("ClusterRole", V1ClusterRole.class)
          .put("ClusterRoleBinding", V1ClusterRoleBinding.class)
          .put("ConfigMap", V1ConfigMap.class)
          .put("CustomResourceDefinition", V1CustomResourceDefinition.class)
          .put("DaemonSet", V1DaemonSet.class)
          .put("Deployment", V1Deployment.class)
          .put("DeviceClass", V1DeviceClass.class)
          .put("Job", V1Job.class)
          .put("MutatingWebhookConfiguration", V1MutatingWebhookConfiguration.class)
          .put("PodDisruptionBudget", V1PodDisruptionBudget.class)
          .put("Namespace", V1Namespace.class)
          .put("PriorityClass", V1PriorityClass.class)
          .put("Role", V1Role.class)
          .put("RoleBinding", V1RoleBinding.class)
          .put("Secret", V1Secret.class)
          .put("Service", V1Service.class)
          .put("ServiceAccount", V1ServiceAccount.class)
          .put("ValidatingAdmissionPolicy", V1ValidatingAdmissionPolicy.class)
          .put("ValidatingAdmissionPolicyBinding", V1ValidatingAdmissionPolicyBinding.class)
          .put("ValidatingWebhookConfiguration", V1ValidatingWebhookConfiguration.class)
          .buildOrThrow();

  private static final ObjectMapper YAML = new YAMLMapper();
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ImmutableList<ObjectNode> objects;
  private final ImmutableMap<ObjectNode, Object> models;

  private RenderedChart(
      ImmutableList<ObjectNode> objects, ImmutableMap<ObjectNode, Object> models) {
    this.objects = objects;
    this.models = models;
  }

  /** The repository's root: the first folder above the working directory holding the chart. */
  static Path repositoryRoot() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null) {
      if (Files.isRegularFile(dir.resolve("charts/gantry/Chart.yaml"))) {
        return dir;
      }
      dir = dir.getParent();
    }
    throw new IllegalStateException(
        "no charts/gantry/Chart.yaml above " + Path.of("").toAbsolutePath());
  }

  static Path chart() {
    return repositoryRoot().resolve("charts/gantry");
  }

  /** Renders the chart with the default values and then {@code valuesFiles}, in order. */
  static RenderedChart render(Path... valuesFiles) {
    return render(Map.of(), valuesFiles);
  }

  /** Renders with {@code --set} values over the values files. */
  static RenderedChart render(Map<String, Object> sets, Path... valuesFiles) {
    return parse(template(sets, valuesFiles));
  }

  /** Renders with {@code --set} values for a cluster of {@code kubernetesVersion}. */
  static RenderedChart renderOn(String kubernetesVersion, Map<String, Object> sets) {
    return parse(template(chartWithHooksAsObjects(), kubernetesVersion, sets));
  }

  /**
   * Helm's output, or Helm's error as an {@link IllegalStateException}. {@code helm template}
   * leaves hooks out, so the chart is rendered from a copy whose {@code helm.sh/hook*} annotations
   * are renamed {@code rendered-for-test/hook*}: the hooks come out as plain objects that still say
   * which hook they are.
   */
  static String template(Map<String, Object> sets, Path... valuesFiles) {
    return template(chartWithHooksAsObjects(), KUBERNETES_VERSION, sets, valuesFiles);
  }

  /**
   * Renders as {@code helm upgrade} does over an installed release whose webhook Secret is {@code
   * existingSecret} (YAML): {@code helm template} cannot run the chart's {@code lookup}, so the
   * copy reads the Secret from a file instead.
   */
  static RenderedChart upgradeOver(String existingSecret, Map<String, Object> sets) {
    try {
      Path copy = copyChart();
      Files.writeString(copy.resolve(EXISTING_SECRET), existingSecret, StandardCharsets.UTF_8);
      return parse(template(copy, KUBERNETES_VERSION, sets));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot copy the chart", e);
    }
  }

  /** The NOTES.txt Helm prints after an install, rendered without a cluster. */
  static String notes(Map<String, Object> sets) {
    InstallCommand install =
        new Helm(chartWithHooksAsObjects())
            .install()
            .withName(RELEASE)
            .withNamespace(NAMESPACE)
            .withKubeVersion(KUBERNETES_VERSION)
            .dryRun()
            .clientOnly();
    for (Map.Entry<String, Object> set : sets.entrySet()) {
      install = install.set(set.getKey(), set.getValue());
    }
    String output = install.call().getOutput();
    int notes = output.indexOf("NOTES:");
    if (notes < 0) {
      throw new IllegalStateException("no NOTES in helm's output");
    }
    return output.substring(notes);
  }

  private static String template(
      Path chart, String kubernetesVersion, Map<String, Object> sets, Path... valuesFiles) {
    TemplateCommand template =
        new Helm(chart)
            .template()
            .withName(RELEASE)
            .withNamespace(NAMESPACE)
            .withKubeVersion(kubernetesVersion);
    for (Path file : valuesFiles) {
      template = template.withValuesFile(file);
    }
    for (Map.Entry<String, Object> set : sets.entrySet()) {
      template = template.set(set.getKey(), set.getValue());
    }
    return template.call();
  }

  /** The prefix a hook's annotations carry in rendered output. */
  static final String HOOK = "rendered-for-test/hook";

  /** The webhook Secret's {@code lookup} in templates/webhook.yaml, which only an upgrade runs. */
  private static final String LOOKUP = "lookup \"v1\" \"Secret\" .Release.Namespace $secret";

  /** The file a copy reads the installed webhook Secret from, instead of {@link #LOOKUP}. */
  private static final String EXISTING_SECRET = "rendered-for-test-existing-secret.yaml";

  private static Path hooksCopy;

  private static synchronized Path chartWithHooksAsObjects() {
    if (hooksCopy != null) {
      return hooksCopy;
    }
    try {
      hooksCopy = copyChart();
      return hooksCopy;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot copy the chart", e);
    }
  }

  /**
   * A copy of the chart for {@code helm template}: hooks renamed (see {@link #template}), and the
   * webhook Secret's {@code lookup} run as on an upgrade but answered from {@link #EXISTING_SECRET}
   * (an empty file, so none, until a test writes one).
   */
  private static Path copyChart() throws IOException {
    Path copy = Files.createTempDirectory("gantry-chart-").resolve("gantry");
    Path source = chart();
    try (Stream<Path> files = Files.walk(source)) {
      for (Path file : files.toList()) {
        Path target = copy.resolve(source.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else if (file.getParent().getFileName().toString().equals("templates")) {
          Files.writeString(
              target,
              Files.readString(file, StandardCharsets.UTF_8)
                  .replace("helm.sh/hook", HOOK)
                  .replace(".Release.IsUpgrade", "true")
                  .replace(LOOKUP, "(.Files.Get \"" + EXISTING_SECRET + "\" | fromYaml)"),
              StandardCharsets.UTF_8);
        } else {
          Files.copy(file, target);
        }
      }
    }
    Files.writeString(copy.resolve(EXISTING_SECRET), "", StandardCharsets.UTF_8);
    return copy;
  }

  /** What {@code helm show crds} prints: the chart's crds/ folder. */
  static RenderedChart crds() {
    return parse(new Helm(chart()).show().crds().call());
  }

  static RenderedChart parse(String manifest) {
    ImmutableList.Builder<ObjectNode> objects = ImmutableList.builder();
    ImmutableMap.Builder<ObjectNode, Object> models = ImmutableMap.builder();
    try {
      for (JsonNode doc :
          YAML
              .readerFor(JsonNode.class)
              .readValues(new YAMLFactory().createParser(manifest))
              .readAll()
              .stream()
              .map(JsonNode.class::cast)
              .toList()) {
        if (doc == null || doc.isNull() || doc.isMissingNode()) {
          continue;
        }
        if (!(doc instanceof ObjectNode object)) {
          throw new IllegalStateException("a rendered document is not an object: " + doc);
        }
        objects.add(object);
        Class<?> model = MODELS.get(object.path("kind").asText());
        if (model != null) {
          models.put(object, strictModel(model, object));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("the rendered chart is not YAML", e);
    }
    return new RenderedChart(objects.build(), models.buildKeepingLast());
  }

  /**
   * The model's own {@code fromJson}, which rejects a field the kind does not have and a value of
   * the wrong type, as the API server's strict field validation does.
   */
  private static Object strictModel(Class<?> model, ObjectNode object) throws IOException {
    try {
      return model
          .getMethod("fromJson", String.class)
          .invoke(null, JSON.writeValueAsString(object));
    } catch (InvocationTargetException e) {
      throw new IllegalStateException(
          object.path("kind").asText()
              + " "
              + object.path("metadata").path("name").asText()
              + " is not a valid "
              + model.getSimpleName()
              + ": "
              + e.getCause().getMessage(),
          e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(model + " has no fromJson(String)", e);
    }
  }

  ImmutableList<ObjectNode> objects() {
    return objects;
  }

  List<ObjectNode> ofKind(String kind) {
    List<ObjectNode> out = new ArrayList<>();
    for (ObjectNode o : objects) {
      if (o.path("kind").asText().equals(kind)) {
        out.add(o);
      }
    }
    return out;
  }

  Optional<ObjectNode> find(String kind, String name) {
    return ofKind(kind).stream()
        .filter(o -> o.path("metadata").path("name").asText().equals(name))
        .findFirst();
  }

  /** Every object of {@code kind} as client-java's model. */
  <T> List<T> models(String kind, Class<T> type) {
    requireNonNull(type, "type is null");
    List<T> out = new ArrayList<>();
    for (ObjectNode o : ofKind(kind)) {
      out.add(type.cast(requireNonNull(models.get(o), kind + " was not read by a model")));
    }
    return out;
  }

  <T> T model(String kind, String name, Class<T> type) {
    ObjectNode node =
        find(kind, name).orElseThrow(() -> new AssertionError("no " + kind + " " + name));
    return type.cast(models.get(node));
  }
}
