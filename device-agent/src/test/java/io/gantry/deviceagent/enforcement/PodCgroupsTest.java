package io.gantry.deviceagent.enforcement;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Pod UIDs from a fake /proc tree with the cgroup lines real kubelets produce. */
class PodCgroupsTest {
  @TempDir Path proc;

  private void process(long pid, String cgroup) throws Exception {
    Files.writeString(
        Files.createDirectories(proc.resolve(Long.toString(pid))).resolve("cgroup"), cgroup);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "cgroup v2, systemd driver|0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod6f1e2b1c_2d3e_4f50_8a9b_0c1d2e3f4a5b.slice/cri-containerd-0123abcd.scope",
        "cgroup v2, cgroupfs driver|0::/kubepods/besteffort/pod6f1e2b1c-2d3e-4f50-8a9b-0c1d2e3f4a5b/0123abcd",
        "cgroup v1, cgroupfs driver|12:memory:/kubepods/burstable/pod6f1e2b1c-2d3e-4f50-8a9b-0c1d2e3f4a5b/0123abcd",
        "guaranteed pod, systemd|0::/kubepods.slice/kubepods-pod6F1E2B1C_2D3E_4F50_8A9B_0C1D2E3F4A5B.slice/cri-containerd-1.scope"
      })
  void theKubeletsCgroupNamesGiveThePodUid(String name, String cgroup) throws Exception {
    process(42, "1:name=systemd:/\n" + cgroup + "\n");

    assertThat(new PodCgroups(proc).podUid(42)).hasValue("6f1e2b1c-2d3e-4f50-8a9b-0c1d2e3f4a5b");
  }

  @Test
  void aProcessOutsideAnyPodHasNone() throws Exception {
    process(7, "0::/system.slice/sshd.service\n");

    assertThat(new PodCgroups(proc).podUid(7)).isEmpty();
  }

  @Test
  void aProcessThatExitedHasNone() throws Exception {
    assertThat(new PodCgroups(proc).podUid(99)).isEmpty();
  }
}
