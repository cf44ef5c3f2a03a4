package io.gantry.scheduler.api.dra;

import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.dra.PodClaim;
import io.gantry.scheduler.model.dra.ResourceClaim;
import java.util.Optional;

/**
 * KAI's rule for a shared GPU claim (kai-reference §8): a claim the pod names directly ({@code
 * resourceClaimName}, not generated from a template) that asks for a GPU class may be used by pods
 * of several jobs, so it must say which queue its GPUs are charged to, with the queue label equal
 * to the job's queue. A label with an empty value is no label, as in KAI. The default label key is
 * read (KAI reads its configured {@code queueLabelKey}, which the engine's plugins are not given)
 * and named in the message, as KAI names it.
 */
public final class SharedGpuClaimQueue {
  private SharedGpuClaimQueue() {}

  /** Why the job in {@code queue} may not use the claim, in KAI's words; empty when it may. */
  public static Optional<String> violation(PodClaim podClaim, ResourceClaim claim, String queue) {
    if (podClaim.fromTemplate() || !DraGpuClaims.usesGpuClass(claim)) {
      return Optional.empty();
    }
    String label = claim.labels().getOrDefault(QueueInfo.DEFAULT_QUEUE_LABEL_KEY, "");
    if (label.isEmpty()) {
      return Optional.of(
          "DRA claim "
              + claim.name()
              + " is a shared GPU claim but does not have a queue label ("
              + QueueInfo.DEFAULT_QUEUE_LABEL_KEY
              + ")");
    }
    if (!label.equals(queue)) {
      return Optional.of(
          "DRA claim "
              + claim.name()
              + " is a shared GPU claim with wrong queue label (expected queue: "
              + queue
              + ", claim queue label: "
              + label
              + ")");
    }
    return Optional.empty();
  }
}
