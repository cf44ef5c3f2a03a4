package io.gantry.kubemodel.cel;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A semantic version (semver 2.0) as the Kubernetes CEL library's {@code Semver} type sees it:
 * compared by major, minor, patch, then pre-release identifiers (a version without a pre-release
 * ranks higher); build metadata is ignored.
 */
record Semver(long major, long minor, long patch, ImmutableList<String> preRelease)
    implements Comparable<Semver> {
  private static final Pattern STRICT =
      Pattern.compile(
          "(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)"
              + "(?:-([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?(?:\\+[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?");
  private static final Pattern NORMALIZED =
      Pattern.compile(
          "v?(\\d+)(?:\\.(\\d+))?(?:\\.(\\d+))?"
              + "(?:-([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?(?:\\+[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?");

  Semver {
    requireNonNull(preRelease, "preRelease is null");
  }

  /**
   * Parses {@code text}; with {@code normalize}, a leading {@code v}, missing minor or patch and
   * leading zeros are accepted, as {@code semver(s, true)} does.
   */
  static Semver parse(String text, boolean normalize) {
    Matcher m = (normalize ? NORMALIZED : STRICT).matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException("invalid semver: \"" + text + "\"");
    }
    return new Semver(
        Long.parseLong(m.group(1)),
        m.group(2) == null ? 0 : Long.parseLong(m.group(2)),
        m.group(3) == null ? 0 : Long.parseLong(m.group(3)),
        m.group(4) == null ? ImmutableList.of() : ImmutableList.copyOf(m.group(4).split("\\.")));
  }

  static boolean isValid(String text, boolean normalize) {
    return (normalize ? NORMALIZED : STRICT).matcher(text).matches();
  }

  @Override
  public int compareTo(Semver o) {
    int c = Long.compare(major, o.major);
    if (c == 0) {
      c = Long.compare(minor, o.minor);
    }
    if (c == 0) {
      c = Long.compare(patch, o.patch);
    }
    return c != 0 ? c : comparePreRelease(preRelease, o.preRelease);
  }

  private static int comparePreRelease(List<String> a, List<String> b) {
    if (a.isEmpty() || b.isEmpty()) {
      return Boolean.compare(a.isEmpty(), b.isEmpty());
    }
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      String x = a.get(i);
      String y = b.get(i);
      boolean xNumeric = x.chars().allMatch(Character::isDigit);
      boolean yNumeric = y.chars().allMatch(Character::isDigit);
      int c;
      if (xNumeric && yNumeric) {
        c = new java.math.BigInteger(x).compareTo(new java.math.BigInteger(y));
      } else if (xNumeric || yNumeric) {
        c = xNumeric ? -1 : 1;
      } else {
        c = x.compareTo(y);
      }
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }
}
