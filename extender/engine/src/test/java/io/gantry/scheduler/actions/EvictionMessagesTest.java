package io.gantry.scheduler.actions;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.model.ResourceVector;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** KAI's resource wording in reclaim messages: up to three decimals, -1 as Unlimited. */
class EvictionMessagesTest {
  record Case(ResourceVector amounts, String expected) {
    @Override
    public String toString() {
      return expected;
    }
  }

  static List<Case> cases() {
    return List.of(
        new Case(
            new ResourceVector(8, 8_000, 8_589_934_592.0),
            "GPU: 8, CPU: 8 (cores), memory: 8.59 (GB)"),
        new Case(
            new ResourceVector(5.5, 14_000, 5_368_709_120.0),
            "GPU: 5.5, CPU: 14 (cores), memory: 5.369 (GB)"),
        new Case(new ResourceVector(0, 0, 0), "GPU: 0, CPU: 0 (cores), memory: 0 (GB)"),
        new Case(
            new ResourceVector(4, -1, -1),
            "GPU: 4, CPU: Unlimited (cores), memory: Unlimited (GB)"),
        new Case(
            new ResourceVector(0.333333, 1_500, 1e9),
            "GPU: 0.333, CPU: 1.5 (cores), memory: 1 (GB)"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void resourcesAreWrittenAsKaiWritesThem(Case c) {
    assertThat(EvictionMessages.resources(c.amounts())).isEqualTo(c.expected());
  }
}
