package io.gantry.scheduler.sim;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.dra.DraSpec;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.model.dra.DeviceClass;
import io.gantry.scheduler.model.dra.DynamicResources;
import io.gantry.scheduler.model.dra.PodClaim;
import io.gantry.scheduler.model.dra.ResourceClaim;
import io.gantry.scheduler.sim.spec.PodClaimSpec;
import io.gantry.scheduler.sim.spec.TaskSpec;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Resolves the pods' {@code resourceClaims} against the scenario's claims and templates. A template
 * stamps out one claim per pod, named {@code <pod>-<claim name in the pod>} (Kubernetes'
 * resourceclaim controller adds a random suffix; the simulator keeps names reproducible).
 */
final class ClaimCompiler {
  private final String file;
  private final DraSpec dra;
  private final TreeMap<String, ResourceClaim> claims = new TreeMap<>();

  ClaimCompiler(String file, DraSpec dra) {
    this.file = file;
    this.dra = dra;
    for (ResourceClaim c : dra.claims()) {
      claims.put(c.key(), c);
    }
  }

  /** The task with its claims resolved; generated claims join {@link #resources}. */
  TaskInfo resolve(TaskInfo task, TaskSpec spec) throws ScenarioException {
    if (spec.resourceClaims().isEmpty()) {
      return task;
    }
    if (task.status() != TaskStatus.PENDING) {
      PodClaimSpec first = spec.resourceClaims().get(0);
      throw new ScenarioException(
          file,
          first.line(),
          first.field(),
          "a task with resourceClaims must start Pending: scenarios do not give claims a status");
    }
    ImmutableList.Builder<PodClaim> resolved = ImmutableList.builder();
    for (PodClaimSpec pc : spec.resourceClaims()) {
      String namespace = task.namespace();
      if (pc.resourceClaimName().isPresent()) {
        String name = pc.resourceClaimName().get();
        if (dra.claim(namespace, name).isEmpty()) {
          throw new ScenarioException(
              file,
              pc.line(),
              pc.field() + ".resourceClaimName",
              "unknown ResourceClaim " + ResourceClaim.key(namespace, name));
        }
        resolved.add(new PodClaim(pc.name(), name, false));
        continue;
      }
      String templateName = pc.resourceClaimTemplateName().orElseThrow();
      Optional<ResourceClaim> template = dra.template(namespace, templateName);
      if (template.isEmpty()) {
        throw new ScenarioException(
            file,
            pc.line(),
            pc.field() + ".resourceClaimTemplateName",
            "unknown ResourceClaimTemplate " + ResourceClaim.key(namespace, templateName));
      }
      String generated = task.podName() + "-" + pc.name();
      ResourceClaim claim =
          new ResourceClaim(
              namespace,
              generated,
              template.get().labels(),
              template.get().requests(),
              template.get().constraints(),
              template.get().config(),
              Optional.empty(),
              ImmutableList.of());
      if (claims.putIfAbsent(claim.key(), claim) != null) {
        throw new ScenarioException(
            file,
            pc.line(),
            pc.field() + ".resourceClaimTemplateName",
            "the claim generated for this pod, "
                + claim.key()
                + ", has the name of another ResourceClaim");
      }
      resolved.add(new PodClaim(pc.name(), generated, true));
    }
    return task.withResourceClaims(resolved.build());
  }

  /** The scenario's DRA objects, generated claims included, none of them allocated yet. */
  DynamicResources resources() {
    ImmutableSortedMap.Builder<String, DeviceClass> classes = ImmutableSortedMap.naturalOrder();
    for (DeviceClass c : dra.deviceClasses()) {
      classes.put(c.name(), c);
    }
    return new DynamicResources(
        classes.build(), ImmutableList.copyOf(dra.slices()), ImmutableSortedMap.copyOf(claims));
  }
}
