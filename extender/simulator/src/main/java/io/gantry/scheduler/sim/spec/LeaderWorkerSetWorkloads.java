package io.gantry.scheduler.sim.spec;

import com.google.common.collect.ImmutableSet;
import io.gantry.kubemodel.kai.grouping.LeaderWorkerSetGrouper;
import io.gantry.kubemodel.kai.grouping.WorkloadSpec;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.MapReader;
import io.gantry.kubemodel.read.ScenarioException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The pods of a LeaderWorkerSet, {@code leaderworkerset.x-k8s.io/v1}: {@code replicas} (default 1)
 * groups of {@code size} pods (default 1) — the leader {@code <lws>-<group>} from the leader
 * template (else the worker template) and the workers {@code <lws>-<group>-<index>} — labelled with
 * their group and worker index as the LeaderWorkerSet controller labels them. Startup policy {@code
 * LeaderReady} is an error: the workers start once the leader is ready, which the simulator does
 * not model.
 */
final class LeaderWorkerSetWorkloads {
  static final String NAME_LABEL = "leaderworkerset.sigs.k8s.io/name";

  private static final ImmutableSet<String> KEYS =
      ImmutableSet.of(
          "replicas", "leaderWorkerTemplate", "startupPolicy", "rolloutStrategy", "networkConfig");
  private static final ImmutableSet<String> TEMPLATE_KEYS =
      ImmutableSet.of(
          "size", "workerTemplate", "leaderTemplate", "restartPolicy", "subGroupPolicy");
  private static final ImmutableSet<String> SUBGROUP_POLICY_KEYS =
      ImmutableSet.of("subGroupSize", "subGroupPolicyType");

  private LeaderWorkerSetWorkloads() {}

  static List<ManifestPod> pods(ManifestObject object, PodBudget budget) throws ScenarioException {
    MapReader spec = ManifestKeys.read(object.requiredSpec(), KEYS);
    Optional<String> startup =
        spec.optChoice(
            "startupPolicy",
            List.of(LeaderWorkerSetGrouper.LEADER_CREATED, LeaderWorkerSetGrouper.LEADER_READY));
    if (startup.filter(LeaderWorkerSetGrouper.LEADER_READY::equals).isPresent()) {
      throw spec.required("startupPolicy")
          .error(
              "the workers start once the leader is ready, which the simulator does not model;"
                  + " use LeaderCreated");
    }
    int groups = spec.intOr("replicas", 1, 0);
    MapReader template = ManifestKeys.read(spec.required("leaderWorkerTemplate"), TEMPLATE_KEYS);
    int size = template.intOr("size", 1, 1);
    OptionalInt subGroupSize = OptionalInt.empty();
    Optional<String> policyType = Optional.empty();
    Optional<Field> policy = template.optional("subGroupPolicy");
    if (policy.isPresent()) {
      MapReader p = ManifestKeys.read(policy.get(), SUBGROUP_POLICY_KEYS);
      subGroupSize = p.optInt("subGroupSize", 0);
      policyType =
          p.optChoice(
              "subGroupPolicyType",
              List.of(
                  LeaderWorkerSetGrouper.LEADER_WORKER, LeaderWorkerSetGrouper.LEADER_EXCLUDED));
    }
    ManifestPodTemplate worker = PodTemplateBinder.bind(template.required("workerTemplate"));
    Optional<Field> leaderField = template.optional("leaderTemplate");
    ManifestPodTemplate leader =
        leaderField.isPresent() ? PodTemplateBinder.bind(leaderField.get()) : worker;
    budget.take((long) groups * size, spec.optional("replicas").orElse(object.requiredSpec()));
    WorkloadSpec.LeaderWorkerSetSpec lws =
        new WorkloadSpec.LeaderWorkerSetSpec(
            OptionalInt.of(size), startup, subGroupSize, policyType, Optional.of(worker.meta()));

    WorkloadPods pods = new WorkloadPods(object);
    for (int g = 0; g < groups; g++) {
      String leaderName = object.name() + "-" + g;
      for (int w = 0; w < size; w++) {
        Map<String, String> labels =
            Map.of(
                NAME_LABEL,
                object.name(),
                LeaderWorkerSetGrouper.GROUP_INDEX_LABEL,
                Integer.toString(g),
                LeaderWorkerSetGrouper.WORKER_INDEX_LABEL,
                Integer.toString(w));
        pods.add(
            w == 0 ? leaderName : leaderName + "-" + w,
            w == 0 ? leader : worker,
            labels,
            Map.of(LeaderWorkerSetGrouper.SIZE_ANNOTATION, Integer.toString(size)),
            List.of(object.owner()),
            lws);
      }
    }
    return pods.build();
  }
}
