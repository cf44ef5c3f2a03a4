package io.gantry.fakekube;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Requests the server answers with a failure instead of serving them, for tests of a client's
 * failure paths: each refusal names a Kubernetes verb and an exact URL path (without the query) and
 * the {@code Status} to answer with. The request is still counted and its access logged, as the
 * real server's authorizer or admission would have seen it. Thread-safe.
 */
public final class Refusals {
  private record Refusal(String verb, String path, KubeStatus status) {}

  private final List<Refusal> refusals = new ArrayList<>();

  /** From now on, answers {@code verb} on {@code path} with this code, reason and message. */
  public synchronized void refuse(
      String verb, String path, int code, String reason, String message) {
    requireNonNull(verb, "verb is null");
    requireNonNull(path, "path is null");
    refusals.add(new Refusal(verb, path, KubeStatus.failure(code, reason, message)));
  }

  /** Serves every request again. */
  public synchronized void clear() {
    refusals.clear();
  }

  synchronized Optional<KubeStatus> refusal(String verb, String path) {
    return refusals.stream()
        .filter(r -> r.verb().equals(verb) && r.path().equals(path))
        .map(Refusal::status)
        .findFirst();
  }
}
