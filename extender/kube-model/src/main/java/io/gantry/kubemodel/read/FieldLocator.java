package io.gantry.kubemodel.read;

import java.util.List;
import java.util.Optional;

/**
 * Finds the field a dotted path names under a field, as far as the document has it: {@code
 * spec.replicatedJobs[0].template.metadata.annotations.kai.scheduler/batch-min-member}. Keys may
 * hold dots themselves (label and annotation keys), so at each mapping the longest key that matches
 * the rest of the path is taken.
 */
public final class FieldLocator {
  private FieldLocator() {}

  /** The deepest field of {@code path} that exists under {@code root}. */
  public static Field locate(Field root, String path) {
    Field at = root;
    String rest = path;
    try {
      while (!rest.isEmpty()) {
        if (rest.startsWith("[")) {
          int close = rest.indexOf(']');
          if (close < 0 || !at.isList()) {
            return at;
          }
          int index = Integer.parseInt(rest.substring(1, close));
          List<Field> items = at.asList();
          if (index < 0 || index >= items.size()) {
            return at;
          }
          at = items.get(index);
          rest = strip(rest.substring(close + 1));
          continue;
        }
        if (!at.isMap()) {
          return at;
        }
        Optional<Field> best = Optional.empty();
        for (Field child : at.asOpenMap().fields()) {
          String key = child.key();
          boolean matches =
              rest.equals(key) || rest.startsWith(key + ".") || rest.startsWith(key + "[");
          if (matches && (best.isEmpty() || key.length() > best.get().key().length())) {
            best = Optional.of(child);
          }
        }
        if (best.isEmpty()) {
          return at;
        }
        at = best.get();
        rest = strip(rest.substring(best.get().key().length()));
      }
    } catch (ScenarioException | NumberFormatException e) {
      return at;
    }
    return at;
  }

  private static String strip(String rest) {
    return rest.startsWith(".") ? rest.substring(1) : rest;
  }
}
