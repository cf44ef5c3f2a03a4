package io.gantry.nodecommon.nvidiasmi;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses {@code nvidia-smi --query-compute-apps=gpu_uuid,pid,used_gpu_memory --format=csv}: a
 * header, then one line per process, fields separated by {@code ", "}, memory as {@code "2296
 * MiB"}. Columns are found by their header names, so any query that includes these three fields
 * parses. A process whose memory nvidia-smi cannot tell ({@code [N/A]}, as under some
 * virtualisation) is listed with 0 MiB.
 */
public final class ComputeAppsParser {
  /** The arguments this parser's input comes from. */
  public static final List<String> ARGS =
      List.of("--query-compute-apps=gpu_uuid,pid,used_gpu_memory", "--format=csv");

  static final String SOURCE = "nvidia-smi --query-compute-apps";
  private static final String SEPARATOR = ",";
  private static final String UNAVAILABLE = "[N/A]";

  private ComputeAppsParser() {}

  public static List<GpuProcess> parse(String output) throws NvidiaSmiException {
    List<String> lines = output.lines().filter(l -> !l.isBlank()).toList();
    if (lines.isEmpty()) {
      throw NvidiaSmiException.unparseable(SOURCE, "header", "no output");
    }
    List<String> header = split(lines.get(0));
    int uuidColumn = column(header, "gpu_uuid");
    int pidColumn = column(header, "pid");
    int memoryColumn = column(header, "used_gpu_memory [MiB]");
    List<GpuProcess> processes = new ArrayList<>();
    for (int i = 1; i < lines.size(); i++) {
      List<String> fields = split(lines.get(i));
      String where = "line " + (i + 1);
      if (fields.size() != header.size()) {
        throw NvidiaSmiException.unparseable(
            SOURCE,
            where,
            "expected " + header.size() + " fields, got " + fields.size() + ": " + lines.get(i));
      }
      processes.add(
          new GpuProcess(
              fields.get(uuidColumn),
              number(fields.get(pidColumn), where + " pid"),
              memory(fields.get(memoryColumn), where + " used_gpu_memory")));
    }
    return processes;
  }

  private static List<String> split(String line) {
    List<String> fields = new ArrayList<>();
    for (String f : line.split(SEPARATOR, -1)) {
      fields.add(f.strip());
    }
    return fields;
  }

  private static int column(List<String> header, String name) throws NvidiaSmiException {
    int at = header.indexOf(name);
    if (at < 0) {
      throw NvidiaSmiException.unparseable(
          SOURCE, "header", "no column '" + name + "' in " + String.join(", ", header));
    }
    return at;
  }

  private static long memory(String text, String field) throws NvidiaSmiException {
    if (text.equals(UNAVAILABLE)) {
      return 0;
    }
    if (!text.endsWith(" MiB")) {
      throw NvidiaSmiException.unparseable(
          SOURCE, field, "expected '<number> MiB', got '" + text + "'");
    }
    return number(text.substring(0, text.length() - " MiB".length()).strip(), field);
  }

  private static long number(String text, String field) throws NvidiaSmiException {
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw NvidiaSmiException.unparseable(SOURCE, field, "expected a number, got '" + text + "'");
    }
  }
}
