package io.gantry.deviceagent.cli;

import java.util.ArrayList;
import java.util.List;

/** Left-aligned columns two spaces apart, no trailing spaces. */
final class TextTable {
  private final List<List<String>> rows = new ArrayList<>();

  TextTable(String... header) {
    rows.add(List.of(header));
  }

  TextTable row(Object... cells) {
    List<String> row = new ArrayList<>();
    for (Object c : cells) {
      row.add(String.valueOf(c));
    }
    rows.add(row);
    return this;
  }

  String render() {
    int columns = rows.stream().mapToInt(List::size).max().orElse(0);
    int[] widths = new int[columns];
    for (List<String> row : rows) {
      for (int i = 0; i < row.size(); i++) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    StringBuilder out = new StringBuilder();
    for (List<String> row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.size(); i++) {
        line.append(row.get(i));
        if (i < row.size() - 1) {
          line.append(" ".repeat(widths[i] - row.get(i).length() + 2));
        }
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
    return out.toString();
  }
}
