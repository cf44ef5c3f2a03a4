package io.gantry.scheduler.actions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.api.config.ConfigException;
import io.gantry.scheduler.api.config.SearchBudgets;
import io.gantry.scheduler.testing.FakeTicker;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Search budgets (kai-reference §4.11): KAI's defaults, job deadlines, generator limits. */
class SearchBudgetTest {
  private final FakeTicker ticker = new FakeTicker();

  private static SearchBudgets budgets(
      Duration action, Duration maxJob, Duration minJob, Duration generator) {
    return new SearchBudgets(
        ImmutableSortedMap.of(SearchBudgets.DEFAULT, action),
        maxJob,
        minJob,
        ImmutableSortedMap.of(SearchBudgets.DEFAULT, generator));
  }

  @Test
  void kaisDefaults() {
    SearchBudgets d = SearchBudgets.DEFAULTS;

    assertThat(d.action("reclaim")).isEqualTo(Duration.ofMinutes(5));
    assertThat(d.maxJobSearchDuration()).isEqualTo(Duration.ofMinutes(4));
    assertThat(d.minJobSearchDuration()).isZero();
    assertThat(d.generator(SearchBudgets.NODE_LOCAL_GREEDY)).isEqualTo(Duration.ofSeconds(30));
    assertThat(d.generator(SearchBudgets.MULTI_NODE_GANG)).isEqualTo(Duration.ofMinutes(2));
  }

  @Test
  void anActionKeyWinsOverDefaultAndAConfiguredDefaultOverGeneratorDefaults() {
    SearchBudgets b =
        new SearchBudgets(
            ImmutableSortedMap.of(
                SearchBudgets.DEFAULT, Duration.ofMinutes(1), "reclaim", Duration.ofSeconds(10)),
            Duration.ofMinutes(4),
            Duration.ZERO,
            ImmutableSortedMap.of(SearchBudgets.DEFAULT, Duration.ofSeconds(7)));

    assertThat(b.action("reclaim")).isEqualTo(Duration.ofSeconds(10));
    assertThat(b.action("preempt")).isEqualTo(Duration.ofMinutes(1));
    assertThat(b.generator(SearchBudgets.NODE_LOCAL_GREEDY)).isEqualTo(Duration.ofSeconds(7));
  }

  @Test
  void theMinimumMustStayBelowTheJobMaximumUnlessThatIsUnlimited() {
    assertThatThrownBy(
            () ->
                budgets(Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ZERO))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "scenarioSearchBudgets.minJobSearchDuration: must be less than maxJobSearchDuration");
    budgets(Duration.ZERO, Duration.ZERO, Duration.ofSeconds(1), Duration.ZERO);
  }

  @Test
  void theActionRunsOutAfterItsLimit() {
    SearchBudget b =
        SearchBudget.forAction(
            ticker,
            budgets(Duration.ofSeconds(10), Duration.ZERO, Duration.ZERO, Duration.ZERO),
            "reclaim");

    ticker.advance(Duration.ofSeconds(9));
    assertThat(b.exhausted()).isFalse();
    ticker.advance(Duration.ofSeconds(1));
    assertThat(b.exhausted()).isTrue();
  }

  @Test
  void zeroIsUnlimited() {
    SearchBudget b =
        SearchBudget.forAction(
            ticker, budgets(Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO), "reclaim");
    ticker.advance(Duration.ofDays(365));

    assertThat(b.exhausted()).isFalse();
    assertThat(b.beginJob().exhausted()).isFalse();
    assertThat(b.beginJob().beginGenerator(SearchBudgets.MULTI_NODE_GANG).exhausted()).isFalse();
  }

  @Test
  void aJobGetsTheSmallerOfTheActionsRemainderAndItsLimitButAtLeastTheMinimum() {
    SearchBudget b =
        SearchBudget.forAction(
            ticker,
            budgets(
                Duration.ofSeconds(60),
                Duration.ofSeconds(20),
                Duration.ofSeconds(5),
                Duration.ZERO),
            "reclaim");
    SearchBudget.Job first = b.beginJob();
    ticker.advance(Duration.ofSeconds(19));
    assertThat(first.exhausted()).isFalse();
    assertThat(first.reduced()).isFalse();
    ticker.advance(Duration.ofSeconds(1));
    assertThat(first.exhausted()).isTrue();

    ticker.advance(Duration.ofSeconds(38));
    // 2s left of the action, less than the 20s limit: reduced, and the 5s minimum applies
    SearchBudget.Job late = b.beginJob();
    assertThat(late.reduced()).isTrue();
    ticker.advance(Duration.ofSeconds(4));
    assertThat(b.exhausted()).isTrue();
    assertThat(late.exhausted()).isFalse();
  }

  @Test
  void aGeneratorGetsItsLimitWithinTheJobs() {
    SearchBudget b =
        SearchBudget.forAction(
            ticker,
            new SearchBudgets(
                ImmutableSortedMap.of(),
                Duration.ofSeconds(60),
                Duration.ZERO,
                ImmutableSortedMap.of()),
            "reclaim");
    SearchBudget.Job job = b.beginJob();
    SearchBudget.Generator greedy = job.beginGenerator(SearchBudgets.NODE_LOCAL_GREEDY);
    ticker.advance(Duration.ofSeconds(30));

    assertThat(greedy.exhausted()).isTrue();
    assertThat(job.beginGenerator(SearchBudgets.MULTI_NODE_GANG).exhausted()).isFalse();
  }
}
