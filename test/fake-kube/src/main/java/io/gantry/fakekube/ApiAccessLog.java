package io.gantry.fakekube;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedSet;
import java.util.Comparator;
import java.util.TreeSet;

/**
 * Which API access each client made, in RBAC's terms: the client's {@code User-Agent}, the API
 * group ({@code ""} for the core group), the resource with its subresource ({@code pods/binding})
 * and the verb. Tests compare it with the rules a component declares, so a chart's RBAC can be
 * checked against what the code really calls. Thread-safe.
 */
public final class ApiAccessLog {
  /** One distinct access. */
  public record Access(String userAgent, String group, String resource, String verb) {
    public Access {
      requireNonNull(userAgent, "userAgent is null");
      requireNonNull(group, "group is null");
      requireNonNull(resource, "resource is null");
      requireNonNull(verb, "verb is null");
    }
  }

  private static final Comparator<Access> ORDER =
      Comparator.comparing(Access::userAgent)
          .thenComparing(Access::group)
          .thenComparing(Access::resource)
          .thenComparing(Access::verb);

  private final TreeSet<Access> accesses = new TreeSet<>(ORDER);

  synchronized void record(String userAgent, ResourcePath path, String verb) {
    String resource = path.kind().plural() + path.subresource().map(sub -> "/" + sub).orElse("");
    accesses.add(new Access(userAgent, path.kind().group(), resource, verb));
  }

  /** Every distinct access by clients whose {@code User-Agent} starts with {@code prefix}. */
  public synchronized ImmutableSortedSet<Access> byUserAgentPrefix(String prefix) {
    return accesses.stream()
        .filter(a -> a.userAgent().startsWith(prefix))
        .collect(ImmutableSortedSet.toImmutableSortedSet(ORDER));
  }

  public synchronized void reset() {
    accesses.clear();
  }
}
