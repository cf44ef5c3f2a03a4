package io.gantry.scheduler.kube.informers;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** One WARN per failing resource, a count every five minutes, and a doubling backoff. */
class ListWatchFailuresTest {
  private final AtomicLong nanos = new AtomicLong();
  private final ListWatchFailures failures =
      new ListWatchFailures("https://10.0.0.1:6443", nanos::get);

  private static final ApiException REFUSED =
      new ApiException(new ConnectException("Failed to connect to /10.0.0.1:6443"));

  @Test
  void aResourceFailingForAnHourIsReportedOnceAndThenEveryFiveMinutesWithTheCount() {
    List<String> warnings = new ArrayList<>();
    List<Duration> backoffs = new ArrayList<>();
    // as client-java's reflector retries: one second after the handler's backoff
    while (nanos.get() < Duration.ofHours(1).toNanos()) {
      ListWatchFailures.Attempt a = failures.failed("pods", REFUSED);
      a.warning().ifPresent(warnings::add);
      backoffs.add(a.backoff());
      nanos.addAndGet(a.backoff().plusSeconds(1).toNanos());
    }

    assertThat(warnings.get(0))
        .isEqualTo(
            "cannot list and watch pods on https://10.0.0.1:6443: connection refused (Failed to"
                + " connect to /10.0.0.1:6443); retrying with backoff up to 30s, reporting the"
                + " count every 5 minutes");
    assertThat(warnings).hasSize(12);
    assertThat(warnings.get(1))
        .startsWith("cannot list and watch pods on https://10.0.0.1:6443: ")
        .contains(" failures in 3")
        .endsWith("s: connection refused (Failed to connect to /10.0.0.1:6443)");
    assertThat(backoffs.subList(0, 7))
        .containsExactly(
            Duration.ofSeconds(1),
            Duration.ofSeconds(2),
            Duration.ofSeconds(4),
            Duration.ofSeconds(8),
            Duration.ofSeconds(16),
            Duration.ofSeconds(30),
            Duration.ofSeconds(30));
    assertThat(failures.failures("pods")).isEqualTo(backoffs.size());
  }

  @Test
  void eachResourceHasItsOwnWarningAndARecoveredOneStartsAgain() {
    assertThat(failures.failed("pods", REFUSED).warning()).isPresent();
    assertThat(failures.failed("nodes", REFUSED).warning()).isPresent();
    nanos.addAndGet(Duration.ofSeconds(2).toNanos());
    assertThat(failures.failed("pods", REFUSED).warning()).isEmpty();

    // an hour without a failure: the resource worked, the next failure is news again
    nanos.addAndGet(Duration.ofHours(1).toNanos());
    ListWatchFailures.Attempt again = failures.failed("pods", REFUSED);
    assertThat(again.warning()).isPresent();
    assertThat(again.backoff()).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void anHttpRefusalNamesTheStatusAndTheServersMessage() {
    ApiException notFound =
        new ApiException(
            404,
            null,
            "{\"kind\":\"Status\",\"message\":\"the server could not find the requested"
                + " resource\",\"code\":404}");

    assertThat(failures.failed("queues.scheduling.run.ai", notFound).warning())
        .contains(
            "cannot list and watch queues.scheduling.run.ai on https://10.0.0.1:6443: HTTP 404:"
                + " the server could not find the requested resource; retrying with backoff up to"
                + " 30s, reporting the count every 5 minutes");
  }

  @Test
  void failuresWhileStoppingAreNotReported() {
    failures.close();

    assertThat(failures.failed("pods", REFUSED)).isEqualTo(ListWatchFailures.Attempt.QUIET);
    assertThat(failures.failures("pods")).isZero();
  }

  @Test
  void anInterruptedCallIsTheStopItself() {
    ListWatchFailures.Attempt a =
        failures.failed("pods", new RuntimeException(new InterruptedException()));

    assertThat(a.warning()).isEqualTo(Optional.empty());
    assertThat(a.backoff()).isZero();
  }
}
