package io.gantry.nodecommon.nvidiasmi;

import io.gantry.gpusharing.inventory.GpuLink;
import io.gantry.gpusharing.inventory.LinkType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the matrix of {@code nvidia-smi topo -m}. Cells are split on runs of whitespace, so tab-
 * and space-separated captures read alike and an empty cell (the blank between NUMA Affinity and
 * GPU NUMA ID on some drivers) is skipped. ANSI colour codes around the header are dropped. The
 * header names the device columns (GPUn, then NICs as NICn or mlx5_n) followed by the two- and
 * three-word columns CPU Affinity, NUMA Affinity and GPU NUMA ID, whichever the driver prints. Only
 * GPU rows and GPU columns are read; the NIC rows and the legend are ignored.
 */
public final class TopologyMatrixParser {
  static final String SOURCE = "nvidia-smi topo -m";

  private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;]*m");
  private static final Pattern GPU = Pattern.compile("GPU(\\d+)");
  private static final Pattern NVLINK = Pattern.compile("NV(\\d+)");
  private static final List<List<String>> ATTRIBUTE_HEADERS =
      List.of(
          List.of("CPU", "Affinity"), List.of("NUMA", "Affinity"), List.of("GPU", "NUMA", "ID"));

  private TopologyMatrixParser() {}

  public static TopologyMatrix parse(String output) throws NvidiaSmiException {
    List<String> lines = ANSI.matcher(output).replaceAll("").lines().toList();
    int headerAt = 0;
    while (headerAt < lines.size() && lines.get(headerAt).isBlank()) {
      headerAt++;
    }
    if (headerAt == lines.size()) {
      throw NvidiaSmiException.unparseable(SOURCE, "header", "the output is empty");
    }
    Header header = header(lines.get(headerAt));
    List<String[]> gpuRows = new ArrayList<>();
    for (String line : lines.subList(headerAt + 1, lines.size())) {
      if (line.isBlank() || line.strip().startsWith("Legend")) {
        break;
      }
      String[] cells = line.strip().split("\\s+");
      if (GPU.matcher(cells[0]).matches()) {
        gpuRows.add(cells);
      }
    }
    if (gpuRows.size() != header.gpuCount()) {
      throw NvidiaSmiException.unparseable(
          SOURCE,
          "GPU rows",
          "the header has "
              + header.gpuCount()
              + " GPU columns but there are "
              + gpuRows.size()
              + " GPU rows");
    }
    List<GpuLink> links = new ArrayList<>();
    SortedMap<Integer, Integer> numaNodes = new TreeMap<>();
    for (int row = 0; row < gpuRows.size(); row++) {
      String[] cells = gpuRows.get(row);
      String rowName = cells[0];
      if (!rowName.equals("GPU" + row)) {
        throw NvidiaSmiException.unparseable(
            SOURCE, "row " + (row + 1), "expected GPU" + row + ", got " + rowName);
      }
      if (cells.length - 1 < header.devices().size()) {
        throw NvidiaSmiException.unparseable(
            SOURCE,
            "row " + rowName,
            "has "
                + (cells.length - 1)
                + " cells, the header names "
                + header.devices().size()
                + " devices");
      }
      for (int col = row + 1; col < header.gpuCount(); col++) {
        links.add(link(row, col, cells[1 + col], rowName, header.devices().get(col)));
      }
      if (!cells[1 + row].equals("X")) {
        throw NvidiaSmiException.unparseable(
            SOURCE,
            "row " + rowName + ", column " + rowName,
            "expected X, got '" + cells[1 + row] + "'");
      }
      int numaColumn = header.attributes().indexOf("NUMA Affinity");
      int numaCell = 1 + header.devices().size() + numaColumn;
      if (numaColumn >= 0 && numaCell < cells.length) {
        String value = cells[numaCell];
        if (!value.equalsIgnoreCase("N/A")) {
          numaNodes.put(row, numaNode(value, rowName));
        }
      }
    }
    return new TopologyMatrix(header.gpuCount(), links, numaNodes);
  }

  private static GpuLink link(int a, int b, String cell, String row, String column)
      throws NvidiaSmiException {
    Matcher nv = NVLINK.matcher(cell);
    if (nv.matches()) {
      int count = Integer.parseInt(nv.group(1));
      if (count == 0) {
        throw NvidiaSmiException.unparseable(
            SOURCE, "row " + row + ", column " + column, "NV0 is not a link");
      }
      return new GpuLink(a, b, LinkType.NVLINK, count);
    }
    LinkType type =
        switch (cell.toUpperCase(Locale.ROOT)) {
          case "PIX" -> LinkType.PIX;
          case "PXB" -> LinkType.PXB;
          case "PHB" -> LinkType.PHB;
          case "NODE" -> LinkType.NODE;
          case "SYS", "SOC" -> LinkType.SYS;
          default ->
              throw NvidiaSmiException.unparseable(
                  SOURCE,
                  "row " + row + ", column " + column,
                  "expected NV#, PIX, PXB, PHB, NODE, SYS or SOC, got '" + cell + "'");
        };
    return new GpuLink(a, b, type, 0);
  }

  private static int numaNode(String value, String row) throws NvidiaSmiException {
    try {
      int n = Integer.parseInt(value);
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw NvidiaSmiException.unparseable(
        SOURCE,
        "row " + row + ", NUMA Affinity",
        "expected a NUMA node number or N/A, got '" + value + "'");
  }

  private record Header(List<String> devices, List<String> attributes, int gpuCount) {}

  private static Header header(String line) throws NvidiaSmiException {
    String[] words = line.strip().split("\\s+");
    List<String> devices = new ArrayList<>();
    List<String> attributes = new ArrayList<>();
    int i = 0;
    while (i < words.length) {
      List<String> attribute = attributeAt(words, i);
      if (attribute != null) {
        attributes.add(String.join(" ", attribute));
        i += attribute.size();
      } else if (attributes.isEmpty()) {
        devices.add(words[i++]);
      } else {
        throw NvidiaSmiException.unparseable(
            SOURCE, "header", "unexpected column '" + words[i] + "' after " + attributes);
      }
    }
    int gpuCount = 0;
    while (gpuCount < devices.size() && devices.get(gpuCount).equals("GPU" + gpuCount)) {
      gpuCount++;
    }
    if (gpuCount == 0) {
      throw NvidiaSmiException.unparseable(
          SOURCE, "header", "expected GPU0, GPU1, ... columns, got '" + line.strip() + "'");
    }
    for (String d : devices.subList(gpuCount, devices.size())) {
      if (GPU.matcher(d).matches()) {
        throw NvidiaSmiException.unparseable(
            SOURCE,
            "header",
            "GPU columns are not GPU0..GPU" + (gpuCount - 1) + " in order: " + devices);
      }
    }
    return new Header(devices, attributes, gpuCount);
  }

  private static List<String> attributeAt(String[] words, int i) {
    for (List<String> attribute : ATTRIBUTE_HEADERS) {
      if (i + attribute.size() <= words.length
          && List.of(words).subList(i, i + attribute.size()).equals(attribute)) {
        return attribute;
      }
    }
    return null;
  }
}
