package io.gantry.nodecommon.nvml;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CriticalXidsTest {
  @ParameterizedTest(name = "XID {0}: critical {1}")
  @CsvSource({
    "13, false", // graphics engine exception: the application's fault
    "31, false", // GPU memory page fault
    "43, false", // GPU stopped processing
    "45, false", // preemptive cleanup
    "68, false", // video processor exception
    "109, false", // context switch timeout
    "48, true", // double-bit ECC error
    "62, true",
    "64, true",
    "74, true", // NVLink error
    "79, true", // fallen off the bus
    "95, true", // uncontained ECC error
    "999, true" // an XID the driver does not name
  })
  void applicationXidsLeaveTheGpuHealthy(long xid, boolean critical) {
    assertThat(CriticalXids.isCritical(xid)).isEqualTo(critical);
  }
}
