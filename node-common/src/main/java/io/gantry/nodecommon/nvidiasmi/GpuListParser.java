package io.gantry.nodecommon.nvidiasmi;

import io.gantry.nodecommon.nvidiasmi.MigListing.MigIdentity;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses {@code nvidia-smi -L}: a {@code GPU <n>: <name> (UUID: GPU-...)} line per GPU, each
 * followed by a {@code MIG <profile> Device <n>: (UUID: MIG-...)} line per MIG device. Other lines
 * are ignored.
 */
public final class GpuListParser {
  static final String SOURCE = "nvidia-smi -L";

  private static final Pattern GPU_LINE = Pattern.compile("GPU (\\d+): .* \\(UUID: (\\S+)\\)");
  private static final Pattern MIG_LINE =
      Pattern.compile("MIG (\\S+)\\s+Device\\s+(\\d+): \\(UUID: (\\S+)\\)");

  private GpuListParser() {}

  public static MigListing parse(String output) throws NvidiaSmiException {
    SortedMap<String, List<MigIdentity>> byGpu = new TreeMap<>();
    String gpuUuid = null;
    int lineNumber = 0;
    for (String line : output.lines().toList()) {
      lineNumber++;
      String text = line.strip();
      Matcher gpu = GPU_LINE.matcher(text);
      Matcher mig = MIG_LINE.matcher(text);
      if (gpu.matches()) {
        gpuUuid = gpu.group(2);
        byGpu.putIfAbsent(gpuUuid, new ArrayList<>());
      } else if (mig.matches()) {
        if (gpuUuid == null) {
          throw NvidiaSmiException.unparseable(
              SOURCE, "line " + lineNumber, "a MIG device before any GPU line: '" + text + "'");
        }
        byGpu
            .get(gpuUuid)
            .add(new MigIdentity(Integer.parseInt(mig.group(2)), mig.group(1), mig.group(3)));
      }
    }
    return new MigListing(byGpu);
  }
}
