package io.gantry.scheduler.sim.spec;

import com.google.common.collect.ImmutableList;
import io.gantry.kubemodel.kai.grouping.GroupingInput;
import io.gantry.kubemodel.kai.grouping.OwnerMeta;
import io.gantry.kubemodel.kai.grouping.PodMeta;
import io.gantry.kubemodel.kai.grouping.WorkloadSpec;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Makes the pods of one workload: names, UIDs, labels, and their grouping inputs. */
final class WorkloadPods {
  private final ManifestObject object;
  private final ImmutableList.Builder<ManifestPod> pods = ImmutableList.builder();

  WorkloadPods(ManifestObject object) {
    this.object = object;
  }

  ManifestObject object() {
    return object;
  }

  /**
   * Adds pod {@code name} made from {@code template}, owned through {@code owners} (the pod's owner
   * first, the workload last), with the labels and annotations its controller adds.
   */
  void add(
      String name,
      ManifestPodTemplate template,
      Map<String, String> controllerLabels,
      Map<String, String> controllerAnnotations,
      List<OwnerMeta> owners,
      WorkloadSpec spec) {
    PodMeta pod = pod(name, template, controllerLabels, controllerAnnotations);
    pods.add(new ManifestPod(GroupingInput.of(owners, spec, pod), template));
  }

  /** Adds a pod owned by the workload alone. */
  void add(
      String name,
      ManifestPodTemplate template,
      Map<String, String> controllerLabels,
      WorkloadSpec spec) {
    add(name, template, controllerLabels, Map.of(), List.of(object.owner()), spec);
  }

  /** Adds the workload itself, a pod without owners. */
  void addBarePod(ManifestPodTemplate template) {
    PodMeta pod =
        PodMeta.of(
            object.namespace(),
            object.name(),
            object.uid(),
            object.labels(),
            object.annotations(),
            template.priorityClassName(),
            false);
    pods.add(new ManifestPod(GroupingInput.barePod(pod), template));
  }

  ImmutableList<ManifestPod> build() {
    return pods.build();
  }

  private PodMeta pod(
      String name,
      ManifestPodTemplate template,
      Map<String, String> controllerLabels,
      Map<String, String> controllerAnnotations) {
    TreeMap<String, String> labels = new TreeMap<>(template.meta().labels());
    labels.putAll(controllerLabels);
    TreeMap<String, String> annotations = new TreeMap<>(template.meta().annotations());
    annotations.putAll(controllerAnnotations);
    return PodMeta.of(
        object.namespace(),
        name,
        ManifestObject.derivedUid(object.namespace() + "/Pod/" + name),
        labels,
        annotations,
        template.priorityClassName(),
        false);
  }

  /** An owner between the workload and its pods (a Job of a JobSet). */
  OwnerMeta child(String apiVersion, String kind, String name, Map<String, String> labels) {
    return OwnerMeta.of(
        apiVersion,
        kind,
        name,
        ManifestObject.derivedUid(object.namespace() + "/" + kind + "/" + name),
        labels,
        Map.of());
  }
}
