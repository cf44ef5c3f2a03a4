package io.gantry.scheduler.sim.spec;

import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import io.gantry.kubemodel.kai.grouping.MpiJobGrouper;
import io.gantry.kubemodel.kai.grouping.PyTorchJobGrouper;
import io.gantry.kubemodel.kai.grouping.ReplicaSpec;
import io.gantry.kubemodel.kai.grouping.WorkloadSpec;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.MapReader;
import io.gantry.kubemodel.read.ScenarioException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The pods of Kubeflow training jobs (TFJob, PyTorchJob, XGBoostJob, JAXJob, MPIJob): for each
 * replica type in file order, {@code replicas} (default 1, as the operator sets it) pods named
 * {@code <job>-<type>-<index>}, labelled {@code training.kubeflow.org/replica-type} and {@code
 * replica-index} as the operator labels them (and {@code job-role} for a master, chief or
 * launcher).
 */
final class KubeflowWorkloads {
  static final String JOB_NAME_LABEL = "training.kubeflow.org/job-name";
  static final String JOB_ROLE_LABEL = "training.kubeflow.org/job-role";

  private static final ImmutableSet<String> REPLICA_KEYS =
      ImmutableSet.of("replicas", "template", "restartPolicy");
  private static final ImmutableSet<String> RUN_POLICY_KEYS =
      ImmutableSet.of(
          "cleanPodPolicy",
          "ttlSecondsAfterFinished",
          "activeDeadlineSeconds",
          "backoffLimit",
          "schedulingPolicy",
          "suspend",
          "managedBy");
  private static final ImmutableSet<String> SCHEDULING_POLICY_KEYS =
      ImmutableSet.of("minAvailable");
  private static final ImmutableMap<String, String> SCHEDULING_POLICY_REFUSED =
      ImmutableMap.of(
          "queue", "KAI does not read schedulingPolicy.queue; label the job kai.scheduler/queue",
          "priorityClass",
              "KAI does not read schedulingPolicy.priorityClass; label the job priorityClassName");
  private static final ImmutableSet<String> ELASTIC_POLICY_KEYS =
      ImmutableSet.of(
          "minReplicas",
          "maxReplicas",
          "rdzvBackend",
          "rdzvPort",
          "rdzvHost",
          "rdzvId",
          "rdzvConf",
          "standalone",
          "nProcPerNode",
          "maxRestarts",
          "metrics");

  private KubeflowWorkloads() {}

  /**
   * @param replicaSpecsKey the kind's replica specs field ({@code pytorchReplicaSpecs})
   * @param kindKeys the kind's other spec fields
   */
  static List<ManifestPod> pods(
      ManifestObject object, String replicaSpecsKey, List<String> kindKeys, PodBudget budget)
      throws ScenarioException {
    ImmutableSet.Builder<String> keys = ImmutableSet.builder();
    keys.add(replicaSpecsKey, "runPolicy");
    keys.addAll(kindKeys);
    MapReader spec = ManifestKeys.read(object.requiredSpec(), keys.build());

    OptionalInt minAvailable = OptionalInt.empty();
    Optional<Field> runPolicyField = spec.optional("runPolicy");
    if (runPolicyField.isPresent()) {
      MapReader runPolicy = ManifestKeys.read(runPolicyField.get(), RUN_POLICY_KEYS);
      ManifestKeys.requireNotTrue(runPolicy, "suspend", "a suspended job starts no pods");
      Optional<Field> scheduling = runPolicy.optional("schedulingPolicy");
      if (scheduling.isPresent()) {
        minAvailable =
            ManifestKeys.read(scheduling.get(), SCHEDULING_POLICY_KEYS, SCHEDULING_POLICY_REFUSED)
                .optInt("minAvailable", 0);
      }
    }
    OptionalInt elasticMin = OptionalInt.empty();
    Optional<Field> elastic = spec.optional("elasticPolicy");
    if (elastic.isPresent()) {
      elasticMin = ManifestKeys.read(elastic.get(), ELASTIC_POLICY_KEYS).optInt("minReplicas", 0);
    }
    Optional<String> launcherPolicy = spec.optString("launcherCreationPolicy");
    if (launcherPolicy.filter(MpiJobGrouper.WAIT_FOR_WORKERS_READY::equals).isPresent()) {
      throw spec.required("launcherCreationPolicy")
          .error(
              "the launcher starts once the workers are ready, which the simulator does not"
                  + " model");
    }

    Map<String, ManifestPodTemplate> templates = new LinkedHashMap<>();
    ImmutableMap.Builder<String, ReplicaSpec> replicaSpecs = ImmutableMap.builder();
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (Field type : spec.required(replicaSpecsKey).asOpenMap().fields()) {
      MapReader replica = ManifestKeys.read(type, REPLICA_KEYS);
      int replicas = replica.intOr("replicas", 1, 0);
      budget.take(replicas, replica.optional("replicas").orElse(type));
      ManifestPodTemplate template = PodTemplateBinder.bind(replica.required("template"));
      templates.put(type.key(), template);
      counts.put(type.key(), replicas);
      replicaSpecs.put(type.key(), new ReplicaSpec(OptionalInt.of(replicas), template.meta()));
    }
    WorkloadSpec.KubeflowSpec kubeflow =
        new WorkloadSpec.KubeflowSpec(
            replicaSpecs.buildOrThrow(), minAvailable, elasticMin, launcherPolicy, true);

    WorkloadPods pods = new WorkloadPods(object);
    for (Map.Entry<String, ManifestPodTemplate> e : templates.entrySet()) {
      String type = e.getKey().toLowerCase(Locale.ROOT);
      for (int i = 0; i < counts.get(e.getKey()); i++) {
        ImmutableMap.Builder<String, String> labels = ImmutableMap.builder();
        labels.put(JOB_NAME_LABEL, object.name());
        labels.put(PyTorchJobGrouper.REPLICA_TYPE_LABEL, type);
        labels.put(PyTorchJobGrouper.REPLICA_INDEX_LABEL, Integer.toString(i));
        role(type).ifPresent(r -> labels.put(JOB_ROLE_LABEL, r));
        pods.add(
            object.name() + "-" + type + "-" + i, e.getValue(), labels.buildOrThrow(), kubeflow);
      }
    }
    return pods.build();
  }

  private static Optional<String> role(String type) {
    return switch (type) {
      case "master", "chief" -> Optional.of("master");
      case "launcher" -> Optional.of("launcher");
      default -> Optional.empty();
    };
  }
}
