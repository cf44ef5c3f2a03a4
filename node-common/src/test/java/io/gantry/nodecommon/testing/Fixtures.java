package io.gantry.nodecommon.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The real nvidia-smi outputs under src/test/resources/fixtures/nvidia (see SOURCES.md there). They
 * are read unchanged; tests that need a variant edit a copy in memory and say so.
 */
public final class Fixtures {
  public static final String HGX_H100 = "smi-q-x-hgx-h100-8gpu-driver-580.xml";
  public static final String GB200 = "smi-q-x-gb200-4gpu-arm64-fabric-driver-580.xml";
  public static final String A100_40GB = "smi-q-x-a100-sxm4-40gb-1gpu-driver-570.xml";
  public static final String A100_80GB_MIG = "smi-q-x-a100-sxm4-80gb-mig-driver-535.xml";
  public static final String A10G = "smi-q-x-a10g-1gpu-driver-515.xml";
  public static final String RTX_3060 = "smi-q-x-rtx-3060-1gpu-driver-570.xml";
  public static final String TESLA_T4 = "smi-q-x-tesla-t4-1gpu-driver-595.xml";
  public static final String TOPO_DGX1 = "topo-m-dgx1-8gpu-v100-4nic.txt";
  public static final String TOPO_RTX6000_PCIE = "topo-m-4gpu-pcie-rtx6000ada-4nic-driver-575.txt";
  public static final String H100_MIG_CAPTURE = "capture-h100-mig-1gpu-driver-590.txt";
  public static final String COMPUTE_APPS_H100 = "query-compute-apps-h100-mig-load-driver-590.csv";

  private Fixtures() {}

  /** The fixture file {@code name}, as UTF-8 text. */
  public static String read(String name) {
    try (InputStream in = Fixtures.class.getResourceAsStream("/fixtures/nvidia/" + name)) {
      if (in == null) {
        throw new IllegalArgumentException("no fixture " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * One command's output inside the H100 MIG capture: the lines between the {@code # <title>}
   * banner (closed by a line of #) and the next banner, for example {@code capabilities :: list
   * (-L)}.
   */
  public static String captureSection(String title) {
    List<String> lines = read(H100_MIG_CAPTURE).lines().toList();
    int at = lines.indexOf("# " + title);
    if (at < 0) {
      throw new IllegalArgumentException("no section " + title + " in the capture");
    }
    int start = at + 1;
    while (!lines.get(start).startsWith("####")) {
      start++;
    }
    List<String> body = new ArrayList<>();
    for (int i = start + 1; i < lines.size() && !lines.get(i).startsWith("####"); i++) {
      body.add(lines.get(i));
    }
    return String.join("\n", body) + "\n";
  }
}
