package io.gantry.scheduler.api.dra;

import io.gantry.scheduler.model.dra.DraDevice;

/**
 * Evaluates a DRA CEL device selector (protocols.md §4.4) against one device. The engine depends
 * only on this interface; the front door that wires the engine supplies the CEL implementation, so
 * the engine keeps to the JDK and Guava.
 *
 * <p>Contract: the expression sees one variable, {@code device}, with {@code driver}, {@code
 * attributes} and {@code capacity} (maps from domain to maps from name to value; a name without a
 * domain belongs to {@code driver}; an unknown domain is an empty map). An expression that does not
 * compile, does not yield a bool, fails while evaluating or exceeds the cost limit yields {@link
 * SelectorOutcome#error}. Implementations cache compiled expressions and are safe to call from
 * several threads (front doors may run cycles concurrently); the answer depends only on the
 * arguments.
 */
public interface DeviceSelectorEvaluator {
  /**
   * For wirings without CEL (engine tests, benchmarks): every selector fails with a message saying
   * so, so a claim with selectors stays pending with that reason instead of matching blindly.
   */
  DeviceSelectorEvaluator NONE =
      (expression, driver, device) ->
          SelectorOutcome.error("this scheduler was built without a CEL evaluator");

  SelectorOutcome evaluate(String expression, String driver, DraDevice device);
}
