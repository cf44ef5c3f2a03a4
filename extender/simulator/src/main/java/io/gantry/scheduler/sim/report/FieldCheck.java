package io.gantry.scheduler.sim.report;

import static java.util.Objects.requireNonNull;

import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One expected field of one result object: its name under the object's path, the wanted value as
 * printed, the test, and how to print what the result holds instead.
 */
record FieldCheck<T>(String field, String want, Predicate<T> holds, Function<T, String> got) {
  FieldCheck {
    requireNonNull(field, "field is null");
    requireNonNull(want, "want is null");
    requireNonNull(holds, "holds is null");
    requireNonNull(got, "got is null");
  }
}
