package io.gantry.scheduler.actions;

import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.TaskState;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Scenarios that already failed for one preemptor, by fingerprint (kai-reference §4.11): SHA-256 of
 * the preemptor, its pending tasks, and the recorded and potential victim tasks, each set in a
 * canonical order. A failed scenario is not simulated again for the same job.
 */
final class ScenarioFingerprints {
  private final Set<String> failed = new HashSet<>();

  boolean failedBefore(String fingerprint) {
    return failed.contains(fingerprint);
  }

  void recordFailure(String fingerprint) {
    failed.add(fingerprint);
  }

  static String of(
      JobState preemptor,
      Collection<TaskState> pending,
      Collection<TaskState> recorded,
      Collection<TaskState> potential) {
    StringBuilder text = new StringBuilder(preemptor.id());
    for (Collection<TaskState> part : List.of(pending, recorded, potential)) {
      List<String> ids = new ArrayList<>();
      part.forEach(t -> ids.add(t.id()));
      ids.sort(null);
      text.append('\u0000');
      ids.forEach(id -> text.append(id).append('\u0001'));
    }
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest(text.toString().getBytes(StandardCharsets.UTF_8));
      StringBuilder hex = new StringBuilder(digest.length * 2);
      for (byte b : digest) {
        hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
      }
      return hex.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK always provides SHA-256", e);
    }
  }
}
