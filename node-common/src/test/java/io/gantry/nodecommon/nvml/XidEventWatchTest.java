package io.gantry.nodecommon.nvml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gantry.nodecommon.testing.FakeNvml;
import io.gantry.nodecommon.testing.Fixtures;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The XID watch against a fake NVML whose driver raises XIDs on the HGX H100's GPUs. */
class XidEventWatchTest {
  private final FakeNvml nvml = FakeNvml.replaying(Fixtures.HGX_H100);
  private final List<XidError> seen = new CopyOnWriteArrayList<>();
  private final List<XidError> observed = new CopyOnWriteArrayList<>();

  @Test
  void everyGpuIsRegisteredAndACriticalXidReachesTheSink() throws Exception {
    XidEventWatch watch = XidEventWatch.start(nvml, observed::add, seen::add);
    try {
      assertThat(nvml.registeredForXid()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);

      nvml.raiseXid(3, 79);

      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(
              () ->
                  assertThat(seen)
                      .containsExactly(
                          new XidError("GPU-00000003-0000-0000-0000-000000000003", 3, 79)));
    } finally {
      watch.close();
    }
  }

  @Test
  void applicationXidsAreObservedButNotPassedOn() throws Exception {
    XidEventWatch watch = XidEventWatch.start(nvml, observed::add, seen::add);
    try {
      nvml.raiseXid(2, 13);
      nvml.raiseXid(2, 31);
      nvml.raiseXid(5, 48);

      // events are handled in order: once 48 is seen, 13 and 31 were passed over
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(seen).isNotEmpty());
      assertThat(seen).extracting(XidError::xid).containsExactly(48L);
      assertThat(seen.get(0).reason()).isEqualTo("XID 48 reported by the driver");
      assertThat(observed).extracting(XidError::xid).containsExactly(13L, 31L, 48L);
      assertThat(observed).extracting(XidError::gpuIndex).containsExactly(2, 2, 5);
    } finally {
      watch.close();
    }
  }

  @Test
  void closingFreesTheEventSet() throws Exception {
    XidEventWatch watch = XidEventWatch.start(nvml, observed::add, seen::add);

    watch.close();

    assertThat(nvml.eventSetsFreed()).isEqualTo(1);
  }
}
