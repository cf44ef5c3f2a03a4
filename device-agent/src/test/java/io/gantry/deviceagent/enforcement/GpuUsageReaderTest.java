package io.gantry.deviceagent.enforcement;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.nodecommon.nvidiasmi.NvidiaSmi;
import io.gantry.nodecommon.testing.FakeNvidiaSmi;
import io.gantry.nodecommon.testing.Fixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The H100 capture's processes, placed in pods by a fake /proc tree. */
class GpuUsageReaderTest {
  private static final String H100 = "GPU-00000000-0000-0000-0000-000000000000";
  private static final String POD_A = "aaaaaaaa-0000-0000-0000-000000000001";
  private static final String POD_B = "bbbbbbbb-0000-0000-0000-000000000002";

  @TempDir Path tmp;

  @Test
  void processesAreSummedPerPodAndThoseOutsidePodsLeftOut() throws Exception {
    Path proc = Files.createDirectories(tmp.resolve("proc"));
    cgroup(proc, 21180, "0::/kubepods/burstable/pod" + POD_A + "/c1");
    cgroup(proc, 21181, "0::/kubepods/burstable/pod" + POD_A + "/c2");
    cgroup(proc, 21198, "0::/kubepods/burstable/pod" + POD_B + "/c1");
    Path smi =
        FakeNvidiaSmi.in(Files.createDirectories(tmp.resolve("bin")))
            .answer(
                "--query-compute-apps=gpu_uuid,pid,used_gpu_memory --format=csv",
                Fixtures.read(Fixtures.COMPUTE_APPS_H100))
            .install();

    GpuUsageReader reader =
        new GpuUsageReader(
            NvidiaSmi.locate(smi.toString(), "", Duration.ofSeconds(10)), new PodCgroups(proc));

    assertThat(reader.read())
        .containsExactly(
            new PodGpuUsage(POD_A, H100, 2296 + 1272), new PodGpuUsage(POD_B, H100, 7484));
  }

  @Test
  void aNodeProcessIsNotAPod() throws Exception {
    Path proc = Files.createDirectories(tmp.resolve("proc"));
    cgroup(proc, 21180, "0::/system.slice/memhog.service");
    cgroup(proc, 21198, "0::/kubepods/burstable/pod" + POD_B + "/c1");
    Path smi =
        FakeNvidiaSmi.in(Files.createDirectories(tmp.resolve("bin")))
            .answer(
                "--query-compute-apps=gpu_uuid,pid,used_gpu_memory --format=csv",
                Fixtures.read(Fixtures.COMPUTE_APPS_H100))
            .install();

    assertThat(
            new GpuUsageReader(
                    NvidiaSmi.locate(smi.toString(), "", Duration.ofSeconds(10)),
                    new PodCgroups(proc))
                .read())
        .containsExactly(new PodGpuUsage(POD_B, H100, 7484));
  }

  private static void cgroup(Path proc, long pid, String line) throws Exception {
    Files.writeString(
        Files.createDirectories(proc.resolve(Long.toString(pid))).resolve("cgroup"), line + "\n");
  }
}
