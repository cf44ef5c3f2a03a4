package io.gantry.scheduler.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class QuantityTest {
  record Case(String text, String expected) {
    @Override
    public String toString() {
      return text + " = " + expected;
    }
  }

  static List<Case> valid() {
    return List.of(
        new Case("64", "64"),
        new Case("0", "0"),
        new Case("500m", "0.5"),
        new Case("0.5", "0.5"),
        new Case(".5", "0.5"),
        new Case("2.", "2"),
        new Case("+3", "3"),
        new Case("-1", "-1"),
        new Case("1k", "1000"),
        new Case("1M", "1000000"),
        new Case("80G", "80000000000"),
        new Case("1T", "1000000000000"),
        new Case("1P", "1000000000000000"),
        new Case("1E", "1000000000000000000"),
        new Case("1Ki", "1024"),
        new Case("1Mi", "1048576"),
        new Case("512Gi", "549755813888"),
        new Case("1Ti", "1099511627776"),
        new Case("1.5Gi", "1610612736"),
        new Case("1Pi", "1125899906842624"),
        new Case("1Ei", "1152921504606846976"),
        new Case("1e3", "1000"),
        new Case("1E3", "1000"),
        new Case("1.5e3", "1500"),
        new Case("5e-1", "0.5"),
        new Case("100n", "0.0000001"),
        new Case("250u", "0.00025"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valid")
  void parses(Case c) {
    assertThat(Quantity.parse(c.text())).isEqualByComparingTo(new BigDecimal(c.expected()));
  }

  @ParameterizedTest(name = "\"{0}\"")
  @MethodSource("invalid")
  void rejects(String text) {
    assertThatThrownBy(() -> Quantity.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expected a quantity such as 500m, 8 or 64Gi, got \"" + text + "\"");
  }

  static List<String> invalid() {
    return List.of(
        "", "lots", "1 Gi", " 1", "1gi", "1KB", "Gi", "1e", "1.2.3", "--1", "1mi", ".", "1e1000");
  }

  @Test
  void millicores() {
    assertThat(Quantity.toMillis(Quantity.parse("500m"))).isEqualTo(500);
    assertThat(Quantity.toMillis(Quantity.parse("128"))).isEqualTo(128_000);
    assertThat(Quantity.toMillis(Quantity.parse("0.25"))).isEqualTo(250);
    assertThat(Quantity.toMillis(Quantity.parse("1e3"))).isEqualTo(1_000_000);
    assertThatThrownBy(() -> Quantity.toMillis(Quantity.parse("0.0001")))
        .hasMessage("must be a whole number of millicores, got 0.0001");
    assertThatThrownBy(() -> Quantity.toMillis(Quantity.parse("1500u")))
        .hasMessage("must be a whole number of millicores, got 0.0015");
  }

  @Test
  void wholeNumbers() {
    assertThat(Quantity.toWhole(Quantity.parse("1Ti"))).isEqualTo(1L << 40);
    assertThat(Quantity.toWhole(Quantity.parse("2000m"))).isEqualTo(2);
    assertThat(Quantity.toWhole(Quantity.parse("1.5Ki"))).isEqualTo(1536);
    assertThatThrownBy(() -> Quantity.toWhole(Quantity.parse("0.5")))
        .hasMessage("must be a whole number, got 0.5");
    assertThatThrownBy(() -> Quantity.toWhole(Quantity.parse("100Ei")))
        .hasMessage("is too large, got 115292150460684697600");
  }
}
