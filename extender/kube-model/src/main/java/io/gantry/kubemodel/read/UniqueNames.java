package io.gantry.kubemodel.read;

import java.util.TreeMap;

/** Rejects a name that an earlier entry of the same kind already took. */
public final class UniqueNames {
  private final String kind;
  private final TreeMap<String, Integer> lines = new TreeMap<>();

  public UniqueNames(String kind) {
    this.kind = kind;
  }

  /** Takes the name {@code at} holds, which must be a non-empty string, and returns it. */
  public String take(Field at) throws ScenarioException {
    String name = at.asNonEmptyString();
    add(at, name);
    return name;
  }

  /** Takes {@code name} for the entry whose name field is {@code at}. */
  public void add(Field at, String name) throws ScenarioException {
    Integer earlier = lines.putIfAbsent(name, at.line());
    if (earlier != null) {
      throw at.error(
          "duplicate "
              + kind
              + " name "
              + Field.quote(name)
              + " (already defined on line "
              + earlier
              + ")");
    }
  }
}
