package io.gantry.scheduler.api.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class GoDurationTest {
  record Case(String text, Duration expected) {
    @Override
    public String toString() {
      return text;
    }
  }

  static List<Case> valid() {
    return List.of(
        new Case("0", Duration.ZERO),
        new Case("0s", Duration.ZERO),
        new Case("-0", Duration.ZERO),
        new Case("90s", Duration.ofSeconds(90)),
        new Case("10m", Duration.ofMinutes(10)),
        new Case("2h", Duration.ofHours(2)),
        new Case("1h30m", Duration.ofMinutes(90)),
        new Case("1.5h", Duration.ofMinutes(90)),
        new Case(".5s", Duration.ofMillis(500)),
        new Case("1.s", Duration.ofSeconds(1)),
        new Case("500ms", Duration.ofMillis(500)),
        new Case("250us", Duration.ofNanos(250_000)),
        new Case("250\u00b5s", Duration.ofNanos(250_000)),
        new Case("7ns", Duration.ofNanos(7)),
        new Case("1h2m3s4ms", Duration.ofMillis(3_723_004)),
        new Case("-10m", Duration.ofMinutes(-10)),
        new Case("-1h30m", Duration.ofMinutes(-90)),
        new Case("+5s", Duration.ofSeconds(5)),
        new Case("1.0000000009s", Duration.ofSeconds(1)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valid")
  void parses(Case c) {
    assertThat(GoDuration.parse(c.text())).isEqualTo(c.expected());
  }

  record Invalid(String text, String reason) {
    @Override
    public String toString() {
      return "\"" + text + "\"";
    }
  }

  static List<Invalid> invalid() {
    return List.of(
        new Invalid("", ""),
        new Invalid("-", ""),
        new Invalid("30", " (missing unit)"),
        new Invalid("1h30", " (missing unit)"),
        new Invalid("10 minutes", " (unknown unit \" minutes\")"),
        new Invalid("1d", " (unknown unit \"d\")"),
        new Invalid("h", ""),
        new Invalid(".s", ""),
        new Invalid("1..5s", ""),
        new Invalid("--1s", ""),
        new Invalid("1H", " (unknown unit \"H\")"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  void rejects(Invalid c) {
    assertThatThrownBy(() -> GoDuration.parse(c.text()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "expected a duration such as 90s, 10m or 1h30m, got \"" + c.text() + "\"" + c.reason());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("outOfRange")
  void rejectsOutOfRange(String text) {
    assertThatThrownBy(() -> GoDuration.parse(text))
        .hasMessage("duration out of range: \"" + text + "\"");
  }

  static List<String> outOfRange() {
    return List.of("3000000h", "-3000000h");
  }

  record Formatted(Duration duration, String expected) {
    @Override
    public String toString() {
      return expected;
    }
  }

  static List<Formatted> formatted() {
    return List.of(
        new Formatted(Duration.ZERO, "0s"),
        new Formatted(Duration.ofSeconds(30), "30s"),
        new Formatted(Duration.ofMinutes(5), "5m0s"),
        new Formatted(Duration.ofMinutes(90), "1h30m0s"),
        new Formatted(Duration.ofHours(2), "2h0m0s"),
        new Formatted(Duration.ofMillis(1500), "1.5s"),
        new Formatted(Duration.ofMillis(500), "500ms"),
        new Formatted(Duration.ofNanos(250_000), "250\u00b5s"),
        new Formatted(Duration.ofNanos(7), "7ns"),
        new Formatted(Duration.ofMinutes(-10), "-10m0s"),
        new Formatted(Duration.ofMillis(3_723_004), "1h2m3.004s"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("formatted")
  void formatsTheWayGoPrintsADuration(Formatted c) {
    assertThat(GoDuration.format(c.duration())).isEqualTo(c.expected());
    assertThat(GoDuration.parse(c.expected())).isEqualTo(c.duration());
  }
}
