package io.gantry.scheduler.sim.report;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableListMultimap;
import com.google.common.collect.Multimaps;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Result objects of one kind by the key an {@code expect:} block names them with, and the rule for
 * checking an expectation against the one object a key names.
 *
 * <p>A key can name no object (mismatch {@code got <absent>}) or, when two namespaces hold jobs of
 * the same name, several; then no field is checked, since any choice would be a guess.
 */
final class ResultLookup<T> {
  static final String ABSENT = "<absent>";
  static final String AMBIGUOUS = "<ambiguous>";

  private final String noun;
  private final ImmutableListMultimap<String, T> byKey;
  private final Function<T, String> describe;

  /**
   * @param noun what the objects are, for the ambiguity message ({@code job})
   * @param key the expect key of an object
   * @param describe how to name one object unambiguously ({@code default/train-a})
   */
  ResultLookup(
      String noun, List<T> objects, Function<T, String> key, Function<T, String> describe) {
    this.noun = noun;
    this.byKey = Multimaps.index(objects, key::apply);
    this.describe = describe;
  }

  /** The one object {@code key} names, if exactly one. */
  Optional<T> unique(String key) {
    ImmutableList<T> found = byKey.get(key);
    return found.size() == 1 ? Optional.of(found.get(0)) : Optional.empty();
  }

  /**
   * {@code show} of the one object {@code key} names, else {@code <absent>} or {@code <ambiguous>}.
   */
  String show(String key, Function<T, String> show) {
    ImmutableList<T> found = byKey.get(key);
    return switch (found.size()) {
      case 0 -> ABSENT;
      case 1 -> show.apply(found.get(0));
      default -> AMBIGUOUS;
    };
  }

  /**
   * The mismatches of {@code checks} against the object {@code key} names, in the order of {@code
   * checks}. When no object has that key, every check fails with {@code got <absent>}, or, with no
   * checks, the bare path does: an empty expectation still says the object exists.
   */
  List<Mismatch> check(String path, String key, List<FieldCheck<T>> checks) {
    ImmutableList<T> found = byKey.get(key);
    if (found.isEmpty()) {
      if (checks.isEmpty()) {
        return List.of(new Mismatch(path, "<present>", ABSENT));
      }
      return checks.stream()
          .map(c -> new Mismatch(path + "." + c.field(), c.want(), ABSENT))
          .toList();
    }
    if (found.size() > 1) {
      String all = String.join(", ", found.stream().map(describe).toList());
      return List.of(new Mismatch(path, "one " + noun, found.size() + " " + noun + "s: " + all));
    }
    T object = found.get(0);
    return checks.stream()
        .filter(c -> !c.holds().test(object))
        .map(c -> new Mismatch(path + "." + c.field(), c.want(), c.got().apply(object)))
        .toList();
  }
}
