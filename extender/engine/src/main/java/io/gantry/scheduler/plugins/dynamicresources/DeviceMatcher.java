package io.gantry.scheduler.plugins.dynamicresources;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.api.dra.DeviceSelectorEvaluator;
import io.gantry.scheduler.api.dra.SelectorOutcome;
import io.gantry.scheduler.model.dra.DeviceClass;
import io.gantry.scheduler.model.dra.DeviceSubRequest;
import io.gantry.scheduler.model.dra.DraDevice;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Whether a device matches a request (protocols.md §4.5 item 4): every selector of the request's
 * DeviceClass and every selector of the request evaluate to true. Outcomes are remembered for the
 * session per expression and device, since a gang asks the same question on every node.
 */
final class DeviceMatcher {
  /** An expression failed on a device; the allocation that asked fails with this message. */
  static final class SelectorFailure extends Exception {
    private static final long serialVersionUID = 1L;

    SelectorFailure(String message) {
      super(message);
    }
  }

  private record Key(String expression, String deviceId) {}

  private final DeviceSelectorEvaluator evaluator;
  private final Map<String, DeviceClass> classes;
  // looked up, never iterated
  private final Map<Key, SelectorOutcome> outcomes = new HashMap<>();

  DeviceMatcher(DeviceSelectorEvaluator evaluator, Map<String, DeviceClass> classes) {
    this.evaluator = evaluator;
    this.classes = classes;
  }

  Optional<DeviceClass> deviceClass(String name) {
    return Optional.ofNullable(classes.get(name));
  }

  /** Whether the device matches; the class must exist ({@link #deviceClass}). */
  boolean matches(DeviceSubRequest request, CandidateDevice device) throws SelectorFailure {
    DeviceClass deviceClass = classes.get(request.deviceClassName());
    return allMatch(deviceClass.selectors(), "device class " + deviceClass.name(), device)
        && allMatch(request.selectors(), "request " + request.name(), device);
  }

  /**
   * Whether every selector of the class is true for the device ({@code <driver>/<pool>/<device>} is
   * {@code deviceId}); a selector that fails counts as false, as no allocation could take the
   * device through the class.
   */
  boolean classSelects(DeviceClass deviceClass, String driver, String deviceId, DraDevice device) {
    for (String expression : deviceClass.selectors()) {
      SelectorOutcome outcome = outcome(expression, driver, deviceId, device);
      if (outcome.error().isPresent() || !outcome.matches()) {
        return false;
      }
    }
    return true;
  }

  private boolean allMatch(ImmutableList<String> selectors, String owner, CandidateDevice device)
      throws SelectorFailure {
    for (String expression : selectors) {
      SelectorOutcome outcome = outcome(expression, device.driver(), device.id(), device.device());
      if (outcome.error().isPresent()) {
        throw new SelectorFailure(
            "selector \""
                + expression
                + "\" of "
                + owner
                + " failed on device "
                + device.id()
                + ": "
                + outcome.error().get());
      }
      if (!outcome.matches()) {
        return false;
      }
    }
    return true;
  }

  private SelectorOutcome outcome(
      String expression, String driver, String deviceId, DraDevice device) {
    return outcomes.computeIfAbsent(
        new Key(expression, deviceId), k -> evaluator.evaluate(expression, driver, device));
  }
}
