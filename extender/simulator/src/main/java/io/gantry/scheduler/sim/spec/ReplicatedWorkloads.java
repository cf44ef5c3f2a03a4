package io.gantry.scheduler.sim.spec;

import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import io.gantry.kubemodel.kai.grouping.WorkloadSpec;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.MapReader;
import io.gantry.kubemodel.read.ScenarioException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The pods of workloads made of identical pods from one template: bare Pods, Deployments,
 * ReplicaSets, StatefulSets, Jobs, Notebooks, and kinds the simulator does not know, which it
 * expands from {@code spec.replicas} (default 1) and {@code spec.template} alone. Pods are named
 * {@code <workload>-<index>}; a Notebook's one pod is {@code <notebook>-0}, as its StatefulSet
 * names it.
 */
final class ReplicatedWorkloads {
  private static final ImmutableSet<String> DEPLOYMENT_KEYS =
      ImmutableSet.of(
          "replicas",
          "selector",
          "template",
          "strategy",
          "minReadySeconds",
          "revisionHistoryLimit",
          "progressDeadlineSeconds",
          "paused");
  private static final ImmutableSet<String> REPLICA_SET_KEYS =
      ImmutableSet.of("replicas", "selector", "template", "minReadySeconds");
  private static final ImmutableSet<String> STATEFUL_SET_KEYS =
      ImmutableSet.of(
          "replicas",
          "selector",
          "template",
          "serviceName",
          "podManagementPolicy",
          "updateStrategy",
          "revisionHistoryLimit",
          "minReadySeconds",
          "persistentVolumeClaimRetentionPolicy");
  private static final ImmutableMap<String, String> STATEFUL_SET_REFUSED =
      ImmutableMap.of(
          "volumeClaimTemplates", "volume binding is not supported yet",
          "ordinals", "StatefulSet ordinals are not supported yet");
  private static final ImmutableSet<String> NOTEBOOK_KEYS = ImmutableSet.of("template");
  private static final ImmutableSet<String> UNKNOWN_KIND_KEYS =
      ImmutableSet.of("replicas", "selector", "template");

  private ReplicatedWorkloads() {}

  static List<ManifestPod> pod(ManifestObject object, PodBudget budget) throws ScenarioException {
    budget.take(1, object.entry());
    WorkloadPods pods = new WorkloadPods(object);
    pods.addBarePod(PodTemplateBinder.bindPod(object));
    return pods.build();
  }

  static List<ManifestPod> deployment(ManifestObject object, PodBudget budget)
      throws ScenarioException {
    MapReader spec = ManifestKeys.read(object.requiredSpec(), DEPLOYMENT_KEYS);
    ManifestKeys.requireNotTrue(
        spec, "paused", "a paused Deployment is not rolled out; the simulator cannot honour it");
    return replicas(object, spec, budget);
  }

  static List<ManifestPod> replicaSet(ManifestObject object, PodBudget budget)
      throws ScenarioException {
    return replicas(object, ManifestKeys.read(object.requiredSpec(), REPLICA_SET_KEYS), budget);
  }

  static List<ManifestPod> statefulSet(ManifestObject object, PodBudget budget)
      throws ScenarioException {
    MapReader spec =
        ManifestKeys.read(object.requiredSpec(), STATEFUL_SET_KEYS, STATEFUL_SET_REFUSED);
    String policy = spec.optString("podManagementPolicy").orElse("OrderedReady");
    if (!policy.equals("Parallel")) {
      String problem =
          "the simulator creates every replica at once; with podManagementPolicy "
              + policy
              + " the StatefulSet controller creates them one at a time as each becomes ready"
              + " (set podManagementPolicy: Parallel)";
      throw spec.optional("podManagementPolicy").orElse(object.requiredSpec()).error(problem);
    }
    return replicas(object, spec, budget);
  }

  static List<ManifestPod> unknownKind(ManifestObject object, PodBudget budget)
      throws ScenarioException {
    MapReader spec = ManifestKeys.read(object.requiredSpec(), UNKNOWN_KIND_KEYS);
    return replicas(object, spec, budget);
  }

  static List<ManifestPod> notebook(ManifestObject object, PodBudget budget)
      throws ScenarioException {
    MapReader spec = ManifestKeys.read(object.requiredSpec(), NOTEBOOK_KEYS);
    budget.take(1, object.requiredSpec());
    WorkloadPods pods = new WorkloadPods(object);
    pods.add(
        object.name() + "-0",
        PodTemplateBinder.bind(spec.required("template")),
        Map.of(),
        WorkloadSpec.PLAIN);
    return pods.build();
  }

  static List<ManifestPod> batchJob(ManifestObject object, PodBudget budget)
      throws ScenarioException {
    BatchJobTemplate job = BatchJobTemplate.bind(object.requiredSpec());
    budget.take(job.pods(), object.requiredSpec());
    WorkloadPods pods = new WorkloadPods(object);
    for (int i = 0; i < job.pods(); i++) {
      Map<String, String> labels =
          job.indexed() ? Map.of(BatchJobTemplate.INDEX_LABEL, Integer.toString(i)) : Map.of();
      pods.add(object.name() + "-" + i, job.template(), labels, WorkloadSpec.PLAIN);
    }
    return pods.build();
  }

  private static List<ManifestPod> replicas(ManifestObject object, MapReader spec, PodBudget budget)
      throws ScenarioException {
    int replicas = spec.intOr("replicas", 1, 0);
    Optional<Field> replicasField = spec.optional("replicas");
    budget.take(replicas, replicasField.orElse(object.requiredSpec()));
    ManifestPodTemplate template = PodTemplateBinder.bind(spec.required("template"));
    WorkloadPods pods = new WorkloadPods(object);
    for (int i = 0; i < replicas; i++) {
      pods.add(object.name() + "-" + i, template, Map.of(), WorkloadSpec.PLAIN);
    }
    return pods.build();
  }
}
