package io.gantry.gpusharing;

import static io.gantry.gpusharing.GpuAmount.ofDevices;
import static io.gantry.gpusharing.GpuAmount.ofHundredths;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * GPU amounts are exact hundredths of a device: sums of portions never drift, conversions state
 * their rounding, and the double for reports is the one closest to the decimal.
 */
class GpuAmountTest {
  record Conversion(String name, GpuAmount actual, GpuAmount expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Conversion> conversions() {
    return Stream.of(
        new Conversion("whole devices", ofDevices(8), ofHundredths(800)),
        new Conversion(
            "a fraction rounds to the nearest hundredth",
            GpuAmount.ofDevicesRoundedHalfUp(0.333),
            ofHundredths(33)),
        new Conversion(
            "a half hundredth rounds up",
            GpuAmount.ofDevicesRoundedHalfUp(0.125),
            ofHundredths(13)),
        new Conversion(
            "a share rounds up to the next hundredth",
            GpuAmount.ofShareRoundedUp(40_960, 81_900),
            ofHundredths(51)),
        new Conversion(
            "an exact share is not rounded",
            GpuAmount.ofShareRoundedUp(20_000, 40_000),
            ofHundredths(50)),
        new Conversion("no share is zero", GpuAmount.ofShareRoundedUp(0, 100), GpuAmount.ZERO),
        new Conversion(
            "three portions of 0.3 are exactly 0.9",
            ofHundredths(30).plus(ofHundredths(30)).plus(ofHundredths(30)),
            ofHundredths(90)),
        new Conversion(
            "a portion on several devices", ofHundredths(51).times(2), ofHundredths(102)),
        new Conversion("minus", ofDevices(1).minus(ofHundredths(25)), ofHundredths(75)),
        new Conversion("min", ofHundredths(30).min(ofHundredths(25)), ofHundredths(25)),
        new Conversion("max", ofHundredths(-10).max(GpuAmount.ZERO), GpuAmount.ZERO));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("conversions")
  void convertsExactly(Conversion c) {
    assertThat(c.actual()).isEqualTo(c.expected());
  }

  @Test
  void wholeDevicesRoundDownAndUp() {
    assertThat(ofHundredths(250).wholeDevices()).isEqualTo(2);
    assertThat(ofHundredths(250).wholeDevicesRoundedUp()).isEqualTo(3);
    assertThat(ofDevices(2).wholeDevicesRoundedUp()).isEqualTo(2);
    assertThat(ofHundredths(-50).wholeDevices()).isEqualTo(-1);
    assertThat(ofHundredths(-50).wholeDevicesRoundedUp()).isZero();
  }

  @Test
  void wholeDevicesHaveNoPortionNegativeOnesToo() {
    assertThat(ofDevices(3).isWholeDevices()).isTrue();
    assertThat(GpuAmount.ZERO.isWholeDevices()).isTrue();
    assertThat(ofHundredths(-200).isWholeDevices()).isTrue();
    assertThat(ofHundredths(250).isWholeDevices()).isFalse();
    assertThat(ofHundredths(-150).isWholeDevices()).isFalse();
  }

  @Test
  void addingOrTakingNothingIsTheSameAmount() {
    assertThat(ofHundredths(150).plus(GpuAmount.ZERO)).isEqualTo(ofHundredths(150));
    assertThat(GpuAmount.ZERO.plus(ofHundredths(-25))).isEqualTo(ofHundredths(-25));
    assertThat(ofHundredths(150).minus(GpuAmount.ZERO)).isEqualTo(ofHundredths(150));
    assertThat(GpuAmount.ZERO.minus(ofHundredths(25))).isEqualTo(ofHundredths(-25));
    assertThat(ofDevices(0)).isEqualTo(GpuAmount.ZERO);
  }

  @Test
  void theDoubleIsTheClosestToTheDecimal() {
    assertThat(ofHundredths(51).toDouble()).isEqualTo(0.51);
    assertThat(ofHundredths(90).toDouble()).isEqualTo(0.9);
    assertThat(ofDevices(3).toDouble()).isEqualTo(3.0);
    assertThat(ofHundredths(51)).hasToString("0.51");
    assertThat(ofDevices(2)).hasToString("2");
  }

  @Test
  void comparesByAmount() {
    assertThat(ofHundredths(75)).isLessThan(ofDevices(1)).isGreaterThan(GpuAmount.ZERO);
    assertThat(GpuAmount.ZERO.isZero()).isTrue();
    assertThat(ofHundredths(1).isPositive()).isTrue();
    assertThat(ofHundredths(-1).isPositive()).isFalse();
  }

  @Test
  void rejectsWhatIsNotAnAmount() {
    assertThatThrownBy(() -> GpuAmount.ofDevicesRoundedHalfUp(Double.NaN))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("not a GPU amount: NaN devices");
    assertThatThrownBy(() -> GpuAmount.ofShareRoundedUp(1, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("share needs part >= 0 and whole > 0, got 1 / 0");
    assertThatThrownBy(() -> ofDevices(Long.MAX_VALUE)).isInstanceOf(ArithmeticException.class);
  }

  @Test
  void amountsOfOneDeviceAndLessAreMadeOnceAndLargerOnesStillAdd() {
    assertThat(GpuAmount.ofDevicesRoundedHalfUp(0.5)).isSameAs(ofHundredths(50));
    assertThat(ofDevices(1).minus(ofHundredths(30))).isSameAs(ofHundredths(70));
    assertThat(ofDevices(1).plus(ofHundredths(50))).isEqualTo(ofHundredths(150));
    assertThat(ofHundredths(-5).hundredths()).isEqualTo(-5);
    assertThat(GpuAmount.toDevices(150)).isEqualTo(ofHundredths(150).toDouble()).isEqualTo(1.5);
  }
}
