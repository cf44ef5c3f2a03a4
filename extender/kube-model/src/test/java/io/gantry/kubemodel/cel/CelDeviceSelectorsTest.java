package io.gantry.kubemodel.cel;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.api.dra.SelectorOutcome;
import io.gantry.scheduler.model.dra.DeviceAttribute;
import io.gantry.scheduler.model.dra.DraDevice;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** DRA selectors in CEL: the device variable, Kubernetes' libraries, errors and the cost limit. */
class CelDeviceSelectorsTest {
  private static final String DRIVER = "gpu.gantry.io";
  private static final DraDevice H100 =
      new DraDevice(
          "gpu-0",
          ImmutableSortedMap.of(
              "productName", DeviceAttribute.ofString("NVIDIA H100 80GB HBM3"),
              "index", DeviceAttribute.ofInt(0),
              "mig", DeviceAttribute.ofBool(false),
              "driverVersion", DeviceAttribute.ofVersion("550.54.15"),
              "resource.kubernetes.io/pciBusID", DeviceAttribute.ofString("0000:18:00.0")),
          ImmutableSortedMap.of("memory", "80Gi"),
          Optional.empty(),
          ImmutableList.of(),
          ImmutableList.of());

  private static final CelDeviceSelectors SELECTORS = new CelDeviceSelectors();

  record Case(String name, String expression, SelectorOutcome expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("driver", "device.driver == 'gpu.gantry.io'", SelectorOutcome.MATCH),
        new Case(
            "attribute of the driver's domain",
            "device.attributes['gpu.gantry.io'].productName.startsWith('NVIDIA H100')",
            SelectorOutcome.MATCH),
        new Case(
            "int and bool attributes",
            "device.attributes['gpu.gantry.io'].index == 0"
                + " && !device.attributes['gpu.gantry.io'].mig",
            SelectorOutcome.MATCH),
        new Case(
            "attribute of another domain",
            "device.attributes['resource.kubernetes.io'].pciBusID == '0000:18:00.0'",
            SelectorOutcome.MATCH),
        new Case(
            "unknown domain is an empty map",
            "!('model' in device.attributes['other.example.com'])",
            SelectorOutcome.MATCH),
        new Case(
            "has() on a present key",
            "has(device.attributes['gpu.gantry.io'].productName)",
            SelectorOutcome.MATCH),
        new Case(
            "semver",
            "device.attributes['gpu.gantry.io'].driverVersion.isGreaterThan(semver('535.0.0'))"
                + " && device.attributes['gpu.gantry.io'].driverVersion.major() == 550",
            SelectorOutcome.MATCH),
        new Case("semver normalised", "semver('v1.2', true).minor() == 2", SelectorOutcome.MATCH),
        new Case(
            "quantity",
            "device.capacity['gpu.gantry.io'].memory.compareTo(quantity('40Gi')) > 0"
                + " && device.capacity['gpu.gantry.io'].memory.isLessThan(quantity('81Gi'))",
            SelectorOutcome.MATCH),
        new Case("cel.bind", "cel.bind(d, device.driver, d == 'x')", SelectorOutcome.NO_MATCH),
        new Case(
            "unknown attribute of a known domain is an error",
            "device.attributes['gpu.gantry.io'].model == 'H100'",
            SelectorOutcome.error(
                "evaluation error at <input>:34: key 'model' is not present in map.")),
        new Case(
            "an invalid semver is an error",
            "semver('not-a-version').major() == 1",
            SelectorOutcome.error(
                "evaluation error at <input>:6: Function 'semver_string' failed with arg(s)"
                    + " 'not-a-version': invalid semver: \"not-a-version\"")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void evaluates(Case c) {
    assertThat(SELECTORS.evaluate(c.expression(), DRIVER, H100)).isEqualTo(c.expected());
  }

  @Test
  void anExpressionThatIsNotABoolDoesNotCompile() {
    SelectorOutcome outcome = SELECTORS.evaluate("device.driver", DRIVER, H100);

    assertThat(outcome.matches()).isFalse();
    assertThat(outcome.error().orElseThrow()).startsWith("does not compile: ");
  }

  @Test
  void anEvaluationPastTheCostLimitFails() {
    String tenByTen =
        "cel.bind(l, [1,2,3,4,5,6,7,8,9,10],"
            + " l.all(a, l.all(b, l.all(c, l.all(d, l.all(e, l.all(f, a > 0)))))))";

    assertThat(SELECTORS.evaluate(tenByTen, DRIVER, H100))
        .isEqualTo(
            SelectorOutcome.error(
                "evaluation error at <input>:41: evaluation cost exceeds the limit of "
                    + CelDeviceSelectors.MAX_COST));
  }
}
