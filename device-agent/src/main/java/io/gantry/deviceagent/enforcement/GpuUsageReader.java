package io.gantry.deviceagent.enforcement;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.nodecommon.nvidiasmi.ComputeAppsParser;
import io.gantry.nodecommon.nvidiasmi.GpuProcess;
import io.gantry.nodecommon.nvidiasmi.NvidiaSmi;
import io.gantry.nodecommon.nvidiasmi.NvidiaSmiException;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The GPU memory each pod uses on each GPU now: the compute processes nvidia-smi lists, each mapped
 * to its pod through its cgroup, summed per pod and GPU. Processes outside any pod (the driver's
 * own, a user's shell on the node) are left out. Ordered by pod UID, then GPU UUID.
 */
public final class GpuUsageReader {
  private static final Logger log = LoggerFactory.getLogger(GpuUsageReader.class);

  private final NvidiaSmi smi;
  private final PodCgroups cgroups;

  public GpuUsageReader(NvidiaSmi smi, PodCgroups cgroups) {
    this.smi = requireNonNull(smi, "smi is null");
    this.cgroups = requireNonNull(cgroups, "cgroups is null");
  }

  /**
   * The usage now.
   *
   * @throws NvidiaSmiException when nvidia-smi fails or its output cannot be read
   */
  public ImmutableList<PodGpuUsage> read() throws NvidiaSmiException {
    Map<String, Map<String, Long>> byPod = new TreeMap<>();
    for (GpuProcess p :
        ComputeAppsParser.parse(smi.run(ComputeAppsParser.ARGS.toArray(String[]::new)))) {
      Optional<String> pod;
      try {
        pod = cgroups.podUid(p.pid());
      } catch (IOException e) {
        log.warn("cannot read the cgroup of GPU process {}: {}", p.pid(), e.getMessage());
        continue;
      }
      pod.ifPresent(
          uid ->
              byPod
                  .computeIfAbsent(uid, u -> new TreeMap<>())
                  .merge(p.gpuUuid(), p.usedMemoryMib(), Long::sum));
    }
    ImmutableList.Builder<PodGpuUsage> usage = ImmutableList.builder();
    byPod.forEach(
        (uid, gpus) -> gpus.forEach((gpu, mib) -> usage.add(new PodGpuUsage(uid, gpu, mib))));
    return usage.build();
  }
}
