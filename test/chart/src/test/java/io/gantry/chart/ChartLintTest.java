package io.gantry.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import org.junit.jupiter.api.Test;

class ChartLintTest {
  @Test
  void helmLintIsCleanEvenWhenStrict() {
    LintResult result = new Helm(RenderedChart.chart()).lint().strict().call();

    assertThat(result.getMessages())
        .filteredOn(m -> m.contains("[ERROR]") || m.contains("[WARNING]"))
        .isEmpty();
    assertThat(result.isFailed()).as(String.join("\n", result.getMessages())).isFalse();
  }
}
