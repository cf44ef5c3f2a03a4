package io.gantry.scheduler.sim;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.kubemodel.selector.AffinitySpec;
import io.gantry.kubemodel.selector.LabelSelectorSpec;
import io.gantry.kubemodel.selector.NodeSelectorTermSpec;
import io.gantry.kubemodel.selector.PodAffinitySpec;
import io.gantry.kubemodel.selector.PodAffinityTermSpec;
import io.gantry.kubemodel.selector.TolerationSpec;
import io.gantry.scheduler.model.placement.Affinity;
import io.gantry.scheduler.model.placement.LabelSelector;
import io.gantry.scheduler.model.placement.LabelSelectorRequirement;
import io.gantry.scheduler.model.placement.NodeSelectorTerm;
import io.gantry.scheduler.model.placement.PodAffinityTerm;
import io.gantry.scheduler.model.placement.PodPlacementRequirements;
import io.gantry.scheduler.model.placement.Toleration;
import io.gantry.scheduler.sim.spec.TaskSpec;
import java.util.Optional;

/** Converts a task's nodeSelector, tolerations and affinity stanza into engine values. */
final class PlacementRequirementsFromSpec {
  private final String file;

  PlacementRequirementsFromSpec(String file) {
    this.file = file;
  }

  PodPlacementRequirements requirements(TaskSpec task, String field) throws ScenarioException {
    try {
      ImmutableList.Builder<Toleration> tolerations = ImmutableList.builder();
      for (TolerationSpec t : task.tolerations()) {
        tolerations.add(t.toToleration());
      }
      Affinity affinity =
          task.affinity().isPresent() ? affinity(task.affinity().get(), field) : Affinity.none();
      return new PodPlacementRequirements(task.nodeSelector(), tolerations.build(), affinity);
    } catch (IllegalArgumentException e) {
      throw new ScenarioException(file, task.line(), field, e.getMessage());
    }
  }

  private Affinity affinity(AffinitySpec a, String field) throws ScenarioException {
    String base = field + ".affinity";
    ImmutableList<NodeSelectorTerm> nodeTerms = ImmutableList.of();
    if (a.nodeAffinity().isPresent()) {
      var na = a.nodeAffinity().get();
      if (!na.preferred().isEmpty()) {
        throw preferredUnsupported(
            na.line(), base + ".nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution");
      }
      ImmutableList.Builder<NodeSelectorTerm> terms = ImmutableList.builder();
      for (NodeSelectorTermSpec t : na.required()) {
        terms.add(t.toTerm());
      }
      nodeTerms = terms.build();
    }
    return new Affinity(
        nodeTerms,
        podTerms(a.podAffinity(), base + ".podAffinity"),
        podTerms(a.podAntiAffinity(), base + ".podAntiAffinity"));
  }

  private ImmutableList<PodAffinityTerm> podTerms(Optional<PodAffinitySpec> spec, String field)
      throws ScenarioException {
    if (spec.isEmpty()) {
      return ImmutableList.of();
    }
    if (!spec.get().preferred().isEmpty()) {
      throw preferredUnsupported(
          spec.get().line(), field + ".preferredDuringSchedulingIgnoredDuringExecution");
    }
    ImmutableList.Builder<PodAffinityTerm> out = ImmutableList.builder();
    for (PodAffinityTermSpec t : spec.get().required()) {
      if (t.labelSelector().isEmpty()) {
        // Kubernetes: a term without a label selector selects no pod; say so rather than guess
        throw new ScenarioException(
            file,
            t.line(),
            field + ".requiredDuringSchedulingIgnoredDuringExecution.labelSelector",
            "required: a term without a labelSelector matches no pod");
      }
      out.add(
          new PodAffinityTerm(
              labelSelector(t.labelSelector().get()), t.namespaces(), t.topologyKey()));
    }
    return out.build();
  }

  private static LabelSelector labelSelector(LabelSelectorSpec s) {
    ImmutableList.Builder<LabelSelectorRequirement> reqs = ImmutableList.builder();
    s.matchExpressions()
        .forEach(r -> reqs.add(new LabelSelectorRequirement(r.key(), r.operator(), r.values())));
    return new LabelSelector(ImmutableSortedMap.copyOf(s.matchLabels()), reqs.build());
  }

  private ScenarioException preferredUnsupported(int line, String field) {
    return new ScenarioException(
        file, line, field, "preferred affinity (scoring) is not supported yet");
  }
}
