package io.gantry.scheduler.sim.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class PrecisionTest {

  record Case(String name, Precision precision, double value, String expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("integral GPU has no decimal point", Precision.GPU, 4.0, "4"),
        new Case("GPU half", Precision.GPU, 8.5, "8.5"),
        new Case("GPU rounds half up at two decimals", Precision.GPU, 0.505, "0.51"),
        new Case("GPU thirds", Precision.GPU, 1.0 / 3, "0.33"),
        new Case("GPU below a hundredth is zero", Precision.GPU, 0.004, "0"),
        new Case("negative zero prints as zero", Precision.GPU, -0.0, "0"),
        new Case("whole millicores", Precision.WHOLE, 32000.0, "32000"),
        new Case("whole rounds half up", Precision.WHOLE, 1500.5, "1501"),
        new Case("large bytes stay plain digits", Precision.WHOLE, 274877906944.0, "274877906944"),
        new Case("exact keeps every written decimal", Precision.EXACT, 0.334, "0.334"),
        new Case("exact never uses an exponent", Precision.EXACT, 1e-7, "0.0000001"),
        new Case("exact integral", Precision.EXACT, 32000.0, "32000"),
        new Case("NaN formats as Java spells it", Precision.GPU, Double.NaN, "NaN"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void formats(Case c) {
    assertThat(c.precision().format(c.value())).isEqualTo(c.expected());
  }

  @Test
  void decimalRejectsNonFiniteValues() {
    assertThatThrownBy(() -> Precision.WHOLE.decimal(Double.POSITIVE_INFINITY))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("not a finite number: Infinity");
  }
}
