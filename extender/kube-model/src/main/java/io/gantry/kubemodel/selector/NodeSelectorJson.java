package io.gantry.kubemodel.selector;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.scheduler.model.placement.NodeSelectorRequirement;
import io.gantry.scheduler.model.placement.NodeSelectorTerm;
import java.util.List;

/**
 * Node selector terms as Kubernetes spells them in JSON and YAML ({@code nodeSelectorTerms} of a
 * node affinity or of a claim's allocation), leaving out empty lists as the API server does.
 */
public final class NodeSelectorJson {
  private NodeSelectorJson() {}

  /** Appends one object per term to {@code out}. */
  public static void writeTerms(ArrayNode out, List<NodeSelectorTerm> terms) {
    for (NodeSelectorTerm term : terms) {
      ObjectNode t = out.addObject();
      if (!term.matchExpressions().isEmpty()) {
        requirements(t.putArray("matchExpressions"), term.matchExpressions());
      }
      if (!term.matchFields().isEmpty()) {
        requirements(t.putArray("matchFields"), term.matchFields());
      }
    }
  }

  private static void requirements(ArrayNode out, List<NodeSelectorRequirement> requirements) {
    for (NodeSelectorRequirement r : requirements) {
      ObjectNode o = out.addObject().put("key", r.key()).put("operator", r.operator().k8sName());
      if (!r.values().isEmpty()) {
        ArrayNode values = o.putArray("values");
        r.values().forEach(values::add);
      }
    }
  }
}
