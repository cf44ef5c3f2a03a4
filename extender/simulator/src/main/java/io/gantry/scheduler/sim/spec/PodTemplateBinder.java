package io.gantry.scheduler.sim.spec;

import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.kai.GpuSharingAnnotations;
import io.gantry.kubemodel.kai.KaiObjectException;
import io.gantry.kubemodel.kai.grouping.PodTemplateMeta;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.MapReader;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.kubemodel.selector.AffinityBinder;
import io.gantry.kubemodel.selector.TolerationBinder;
import io.gantry.scheduler.model.ResourceNames;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Reads a pod template of a workload manifest ({@code metadata} and a pod {@code spec}). What
 * decides placement is read: the containers' resources, {@code nodeSelector}, {@code tolerations},
 * {@code affinity}, {@code priorityClassName}, {@code schedulingGates}, KAI's GPU-sharing
 * annotations and task-priority label. What cannot change placement (images, probes, security) is
 * passed over. Everything else is an error naming the field.
 */
final class PodTemplateBinder {
  static final String TASK_PRIORITY_LABEL = "kai.scheduler/task-priority";

  private static final ImmutableSet<String> TEMPLATE_KEYS = ImmutableSet.of("metadata", "spec");
  private static final ImmutableSet<String> TEMPLATE_METADATA_KEYS =
      ImmutableSet.of("labels", "annotations");
  private static final ImmutableSet<String> SPEC_KEYS =
      ImmutableSet.of(
          "containers",
          "initContainers",
          "nodeSelector",
          "tolerations",
          "affinity",
          "priorityClassName",
          "schedulerName",
          "schedulingGates",
          "terminationGracePeriodSeconds",
          "restartPolicy",
          "activeDeadlineSeconds",
          "dnsPolicy",
          "dnsConfig",
          "serviceAccountName",
          "serviceAccount",
          "automountServiceAccountToken",
          "securityContext",
          "imagePullSecrets",
          "hostname",
          "subdomain",
          "setHostnameAsFQDN",
          "enableServiceLinks",
          "shareProcessNamespace",
          "volumes",
          "readinessGates",
          "runtimeClassName",
          "preemptionPolicy",
          "hostAliases",
          "os",
          "hostUsers",
          "hostPID",
          "hostIPC");
  private static final ImmutableMap<String, String> SPEC_REFUSED =
      ImmutableMap.<String, String>builder()
          .put("nodeName", "a workload's pods wait for the scheduler; use nodeSelector instead")
          .put("topologySpreadConstraints", "topology spread constraints are not supported yet")
          .put("resourceClaims", "dynamic resource allocation is not supported yet")
          .put("overhead", "pod overhead is not supported yet")
          .put("priority", "set by admission from priorityClassName; write that instead")
          .put("ephemeralContainers", "ephemeral containers are not part of a submitted pod")
          .put("resources", "pod-level resources are not supported yet")
          .put("hostNetwork", "host networking (host ports) is not supported yet")
          .buildOrThrow();
  private static final ImmutableSet<String> CONTAINER_KEYS =
      ImmutableSet.of(
          "name",
          "image",
          "imagePullPolicy",
          "command",
          "args",
          "workingDir",
          "env",
          "envFrom",
          "ports",
          "volumeMounts",
          "volumeDevices",
          "resources",
          "resizePolicy",
          "restartPolicy",
          "livenessProbe",
          "readinessProbe",
          "startupProbe",
          "lifecycle",
          "terminationMessagePath",
          "terminationMessagePolicy",
          "securityContext",
          "stdin",
          "stdinOnce",
          "tty");
  private static final ImmutableSet<String> RESOURCES_KEYS = ImmutableSet.of("requests", "limits");
  private static final ImmutableMap<String, String> RESOURCES_REFUSED =
      ImmutableMap.of("claims", "dynamic resource allocation is not supported yet");
  private static final ImmutableSet<String> PORT_KEYS =
      ImmutableSet.of("name", "containerPort", "protocol", "hostIP");
  private static final ImmutableMap<String, String> PORT_REFUSED =
      ImmutableMap.of("hostPort", "host ports are not supported yet");
  private static final ImmutableMap<String, String> VOLUME_REFUSED =
      ImmutableMap.of(
          "persistentVolumeClaim", "volume binding is not supported yet",
          "ephemeral", "volume binding is not supported yet");

  private PodTemplateBinder() {}

  /** The template at {@code field}: a mapping of {@code metadata} and {@code spec}. */
  static ManifestPodTemplate bind(Field field) throws ScenarioException {
    MapReader template = ManifestKeys.read(field, TEMPLATE_KEYS);
    ImmutableSortedMap<String, String> labels = ImmutableSortedMap.of();
    ImmutableSortedMap<String, String> annotations = ImmutableSortedMap.of();
    Optional<Field> metadataField = template.optional("metadata");
    if (metadataField.isPresent()) {
      MapReader metadata = ManifestKeys.read(metadataField.get(), TEMPLATE_METADATA_KEYS);
      labels = metadata.stringMap("labels");
      annotations = metadata.stringMap("annotations");
      Optional<Field> annotationsField = metadata.optional("annotations");
      if (annotationsField.isPresent()) {
        KaiAnnotations.check(annotationsField.get());
      }
    }
    Field specField = template.required("spec");
    return bindSpec(field, specField, PodTemplateMeta.of(labels, annotations), metadataField);
  }

  /** A pod's own {@code metadata} and {@code spec} (a bare Pod manifest). */
  static ManifestPodTemplate bindPod(ManifestObject pod) throws ScenarioException {
    return bindSpec(
        pod.entry(),
        pod.requiredSpec(),
        PodTemplateMeta.of(pod.labels(), pod.annotations()),
        pod.entry().asOpenMap().optional("metadata"));
  }

  private static ManifestPodTemplate bindSpec(
      Field field, Field specField, PodTemplateMeta meta, Optional<Field> metadataField)
      throws ScenarioException {
    MapReader spec = ManifestKeys.read(specField, SPEC_KEYS, SPEC_REFUSED);
    for (Field volume : spec.list("volumes")) {
      MapReader v = volume.asOpenMap();
      for (Field entry : v.fields()) {
        String reason = VOLUME_REFUSED.get(entry.key());
        if (reason != null) {
          throw entry.error(reason);
        }
      }
    }
    List<Field> containers = spec.required("containers").asList();
    if (containers.isEmpty()) {
      throw spec.required("containers").error("a pod needs at least one container");
    }
    ImmutableSortedMap<String, Long> resources =
        ContainerResources.podRequests(containers, spec.list("initContainers"), CONTAINER_KEYS);
    long wholeGpus = resources.getOrDefault(ResourceNames.GPU, 0L);
    Optional<Field> annotationsField =
        metadataField.isPresent()
            ? metadataField.get().asOpenMap().optional("annotations")
            : Optional.empty();
    checkGpuSharing(field, meta, wholeGpus, annotationsField);
    Optional<Field> priorityClass = spec.optional("priorityClassName");
    return new ManifestPodTemplate(
        field,
        meta,
        resources,
        parseDouble(meta.annotations().get(GpuSharingAnnotations.GPU_FRACTION)),
        parseLong(meta.annotations().get(GpuSharingAnnotations.GPU_MEMORY)),
        parseInt(meta.annotations().get(GpuSharingAnnotations.NUM_DEVICES)),
        spec.stringMap("nodeSelector"),
        TolerationBinder.tolerations(
            spec.list("tolerations"), TolerationBinder.MANIFEST_TOLERATION_KEYS),
        AffinityBinder.bind(spec.optional("affinity")),
        priorityClass.isPresent()
            ? Optional.of(priorityClass.get().asString()).filter(n -> !n.isEmpty())
            : Optional.empty(),
        !spec.list("schedulingGates").isEmpty(),
        spec.optLong("terminationGracePeriodSeconds", 0).stream()
            .mapToObj(Duration::ofSeconds)
            .findFirst(),
        taskPriority(meta, metadataField),
        specField,
        spec.fieldLines());
  }

  /** KAI's admission rules over the GPU-sharing annotations, pointed at the annotation. */
  private static void checkGpuSharing(
      Field field, PodTemplateMeta meta, long wholeGpus, Optional<Field> annotationsField)
      throws ScenarioException {
    try {
      GpuSharingAnnotations.parse(meta.annotations(), wholeGpus);
    } catch (KaiObjectException e) {
      String key = e.field().substring("annotations.".length());
      Field at = field;
      if (annotationsField.isPresent()) {
        at = annotationsField.get().asOpenMap().optional(key).orElse(annotationsField.get());
      }
      throw at.error(e.problem());
    }
  }

  private static OptionalInt taskPriority(PodTemplateMeta meta, Optional<Field> metadataField)
      throws ScenarioException {
    String value = meta.labels().get(TASK_PRIORITY_LABEL);
    if (value == null) {
      return OptionalInt.empty();
    }
    try {
      return OptionalInt.of(Integer.parseInt(value.trim()));
    } catch (NumberFormatException e) {
      Field labels = metadataField.orElseThrow().asOpenMap().required("labels");
      throw labels.asOpenMap().required(TASK_PRIORITY_LABEL).error("must be an integer");
    }
  }

  private static OptionalDouble parseDouble(String value) {
    return value == null
        ? OptionalDouble.empty()
        : OptionalDouble.of(Double.parseDouble(value.trim()));
  }

  private static OptionalLong parseLong(String value) {
    return value == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(value));
  }

  private static OptionalInt parseInt(String value) {
    return value == null ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(value));
  }

  /** Host ports are refused; other port fields are passed over. */
  static void checkPorts(List<Field> ports) throws ScenarioException {
    for (Field port : ports) {
      ManifestKeys.read(port, PORT_KEYS, PORT_REFUSED);
    }
  }

  static ImmutableSet<String> resourcesKeys() {
    return RESOURCES_KEYS;
  }

  static ImmutableMap<String, String> resourcesRefused() {
    return RESOURCES_REFUSED;
  }
}
