package io.gantry.scheduler.sim.trace;

import com.google.common.collect.ImmutableList;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Reads the CSV format of Alibaba's cluster-trace-gpu-v2023: a node list ({@code sn, cpu_milli,
 * memory_mib, gpu, model}) and a task list ({@code name, cpu_milli, memory_mib, num_gpu, gpu_milli,
 * gpu_spec, creation_time, deletion_time}; other columns are ignored). Columns are found by their
 * header names; fields hold no commas.
 */
public final class TraceReader {
  private static final List<String> NODE_COLUMNS =
      List.of("sn", "cpu_milli", "memory_mib", "gpu", "model");
  private static final List<String> TASK_COLUMNS =
      List.of(
          "name",
          "cpu_milli",
          "memory_mib",
          "num_gpu",
          "gpu_milli",
          "gpu_spec",
          "creation_time",
          "deletion_time");

  private TraceReader() {}

  /** One data line, by column name, with what says where it came from. */
  private record Row(String file, int line, TreeMap<String, String> fields) {
    String text(String column) {
      return fields.get(column);
    }

    long number(String column, long min, long max) throws TraceException {
      String value = fields.get(column);
      long n;
      try {
        n = Long.parseLong(value.trim());
      } catch (NumberFormatException e) {
        throw fail(column, "expected a whole number, got \"" + value + "\"");
      }
      if (n < min || n > max) {
        throw fail(column, "expected " + min + ".." + max + ", got " + n);
      }
      return n;
    }

    TraceException fail(String column, String problem) {
      return new TraceException(file + ":" + line + ": " + column + ": " + problem);
    }
  }

  public static ImmutableList<TraceNode> nodes(Path file) throws TraceException {
    List<TraceNode> out = new ArrayList<>();
    for (Row r : rows(file, NODE_COLUMNS)) {
      out.add(
          new TraceNode(
              r.text("sn"),
              r.number("cpu_milli", 0, Long.MAX_VALUE),
              r.number("memory_mib", 0, Long.MAX_VALUE),
              Math.toIntExact(r.number("gpu", 0, 64)),
              r.text("model")));
    }
    if (out.isEmpty()) {
      throw new TraceException(file + ": no nodes");
    }
    return ImmutableList.copyOf(out);
  }

  public static ImmutableList<TraceTask> tasks(Path file) throws TraceException {
    List<TraceTask> out = new ArrayList<>();
    for (Row r : rows(file, TASK_COLUMNS)) {
      int gpus = Math.toIntExact(r.number("num_gpu", 0, 64));
      int milli = Math.toIntExact(r.number("gpu_milli", 0, 1000));
      if (milli < 1000 && milli > 0 && gpus > 1) {
        throw r.fail("gpu_milli", "below 1000 only with num_gpu 1, got num_gpu " + gpus);
      }
      String deletion = r.text("deletion_time").trim();
      String spec = r.text("gpu_spec").trim();
      out.add(
          new TraceTask(
              r.text("name"),
              r.number("cpu_milli", 0, Long.MAX_VALUE),
              r.number("memory_mib", 0, Long.MAX_VALUE),
              gpus,
              gpus == 0 ? 0 : milli,
              spec.isEmpty()
                  ? ImmutableList.of()
                  : ImmutableList.copyOf(
                      Arrays.stream(spec.split("\\|", -1)).map(String::trim).toList()),
              r.number("creation_time", 0, Long.MAX_VALUE),
              deletion.isEmpty()
                  ? OptionalLong.empty()
                  : OptionalLong.of(r.number("deletion_time", 0, Long.MAX_VALUE))));
    }
    if (out.isEmpty()) {
      throw new TraceException(file + ": no tasks");
    }
    return ImmutableList.copyOf(out);
  }

  private static List<Row> rows(Path file, List<String> required) throws TraceException {
    List<String> lines;
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      lines = in.lines().toList();
    } catch (IOException | java.io.UncheckedIOException e) {
      throw new TraceException(file + ": cannot read: " + e.getMessage());
    }
    if (lines.isEmpty()) {
      throw new TraceException(file + ": empty, expected a header line");
    }
    List<String> header = Arrays.stream(lines.get(0).split(",", -1)).map(String::trim).toList();
    for (String column : required) {
      if (!header.contains(column)) {
        throw new TraceException(
            file + ":1: missing column " + column + "; expected " + String.join(",", required));
      }
    }
    Function<String[], TreeMap<String, String>> byName =
        values -> {
          TreeMap<String, String> m = new TreeMap<>();
          for (int i = 0; i < header.size(); i++) {
            m.put(header.get(i), i < values.length ? values[i] : "");
          }
          return m;
        };
    List<Row> out = new ArrayList<>();
    for (int i = 1; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isBlank()) {
        continue;
      }
      String[] values = line.split(",", -1);
      if (values.length != header.size()) {
        throw new TraceException(
            file + ":" + (i + 1) + ": expected " + header.size() + " fields, got " + values.length);
      }
      out.add(new Row(file.toString(), i + 1, byName.apply(values)));
    }
    return out;
  }
}
