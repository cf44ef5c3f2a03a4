package io.gantry.nodecommon.nvml;

import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuLink;
import io.gantry.gpusharing.inventory.LinkType;
import io.gantry.nodecommon.nvml.Nvml.DeviceHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The GPU-pair part of {@code nvidia-smi topo -m} from NVML. Two GPUs are NV# when # active NVLinks
 * of the first end at the second (nvmlDeviceGetNvLinkRemotePciInfo_v2 gives the peer's bus id), or,
 * on NVSwitch systems where links end at switches, when both have active switch links (# is the
 * smaller count: NV18 on HGX H100). Otherwise the PCIe level is
 * nvmlDeviceGetTopologyCommonAncestor's: INTERNAL and SINGLE are PIX, MULTIPLE PXB, HOSTBRIDGE PHB,
 * NODE NODE, SYSTEM SYS. Empty (no matrix, as when topo -m fails) when the driver does not answer
 * the topology query.
 */
final class NvmlLinks {
  private static final Logger log = LoggerFactory.getLogger(NvmlLinks.class);

  private static final int REMOTE_TYPE_SWITCH = 2;
  private static final int INVALID_ARGUMENT = 2;

  private NvmlLinks() {}

  static Optional<List<GpuLink>> matrix(
      Nvml nvml, List<DeviceHandle> handles, List<GpuDevice> devices) throws NvmlException {
    List<NvlinkEnds> ends = new ArrayList<>();
    List<GpuLink> links = new ArrayList<>();
    for (int a = 0; a < handles.size(); a++) {
      ends.add(nvlinkEnds(nvml, handles.get(a)));
    }
    for (int a = 0; a < handles.size(); a++) {
      for (int b = a + 1; b < handles.size(); b++) {
        int nvlinks = nvlinkCount(ends.get(a), ends.get(b), devices.get(b).pciBusId());
        if (nvlinks > 0) {
          links.add(new GpuLink(a, b, LinkType.NVLINK, nvlinks));
          continue;
        }
        int first = a;
        int second = b;
        Optional<Integer> level =
            NvmlCalls.optional(
                () ->
                    nvml.deviceGetTopologyCommonAncestor(handles.get(first), handles.get(second)));
        if (level.isEmpty()) {
          log.warn("no link matrix: NVML does not report the PCIe topology between GPUs");
          return Optional.empty();
        }
        links.add(new GpuLink(a, b, pcieLevel(level.get()), 0));
      }
    }
    return Optional.of(links);
  }

  static LinkType pcieLevel(int level) throws NvmlException {
    return switch (level) {
      case 0, 10 -> LinkType.PIX;
      case 20 -> LinkType.PXB;
      case 30 -> LinkType.PHB;
      case 40 -> LinkType.NODE;
      case 50 -> LinkType.SYS;
      default ->
          throw NvmlException.unusable(
              "nvmlDeviceGetTopologyCommonAncestor",
              "expected topology level 0, 10, 20, 30, 40 or 50, got " + level);
    };
  }

  private static int nvlinkCount(NvlinkEnds a, NvlinkEnds b, String busIdOfB) {
    int direct = a.toPeers().getOrDefault(busIdOfB.toLowerCase(Locale.ROOT), 0);
    if (direct > 0) {
      return direct;
    }
    return Math.min(a.toSwitches(), b.toSwitches());
  }

  /** A GPU's active NVLinks: how many end at each peer bus id, and how many at NVSwitches. */
  private record NvlinkEnds(TreeMap<String, Integer> toPeers, int toSwitches) {}

  private static NvlinkEnds nvlinkEnds(Nvml nvml, DeviceHandle gpu) throws NvmlException {
    TreeMap<String, Integer> toPeers = new TreeMap<>();
    int toSwitches = 0;
    for (int link = 0; link < Nvml.NVLINK_MAX_LINKS; link++) {
      boolean active;
      try {
        active = nvml.deviceGetNvLinkState(gpu, link);
      } catch (NvmlException e) {
        // past the GPU's last link, or a GPU without NVLink
        if (NvmlCalls.absent(e) || e.is(INVALID_ARGUMENT)) {
          break;
        }
        throw e;
      }
      if (!active) {
        continue;
      }
      int l = link;
      Optional<Integer> type =
          NvmlCalls.optional(() -> nvml.deviceGetNvLinkRemoteDeviceType(gpu, l));
      if (type.isPresent() && type.get() == REMOTE_TYPE_SWITCH) {
        toSwitches++;
      } else {
        String peer = nvml.deviceGetNvLinkRemotePciInfo(gpu, link).busId();
        toPeers.merge(peer.toLowerCase(Locale.ROOT), 1, Integer::sum);
      }
    }
    return new NvlinkEnds(toPeers, toSwitches);
  }
}
