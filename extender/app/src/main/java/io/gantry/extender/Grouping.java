package io.gantry.extender;

import static java.util.Objects.requireNonNull;

/** What became of a request's pod that is in no PodGroup yet ({@link ExtenderCluster#group}). */
public sealed interface Grouping permits Grouping.Grouped, Grouping.LeftAlone, Grouping.Waits {

  /** The pod is now a task of PodGroup {@code podGroup} (in its namespace). */
  record Grouped(String podGroup) implements Grouping {
    public Grouped {
      requireNonNull(podGroup, "podGroup is null");
    }
  }

  /**
   * KAI's podgrouper leaves the pod alone ({@code kai.scheduler/skip-podgrouper}, or a pod without
   * owners that names its PodGroup): it is not Gantry's to group, for {@code why}.
   */
  record LeftAlone(String why) implements Grouping {
    public LeftAlone {
      requireNonNull(why, "why is null");
    }
  }

  /**
   * The pod cannot be grouped, for {@code message} ({@code Pod NS/NAME cannot be grouped: …}, the
   * podgrouper's words): as with the podgrouper, it waits rather than being grouped as something it
   * is not.
   */
  record Waits(String message) implements Grouping {
    public Waits {
      requireNonNull(message, "message is null");
    }

    public static Waits of(String podKey, String reason) {
      return new Waits("Pod " + podKey + " cannot be grouped: " + reason);
    }
  }
}
