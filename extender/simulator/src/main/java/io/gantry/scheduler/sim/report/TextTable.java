package io.gantry.scheduler.sim.report;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.ArrayList;
import java.util.List;

/**
 * A plain-text table for people: column widths come from the widest cell, numbers align right, text
 * aligns left. A row may carry note lines printed under it, for text too long to fit a cell without
 * stretching the whole table.
 */
final class TextTable {
  enum Align {
    LEFT,
    RIGHT
  }

  /** A column heading and how its cells align. */
  record Column(String heading, Align align) {
    Column {
      requireNonNull(heading, "heading is null");
      requireNonNull(align, "align is null");
    }

    static Column left(String heading) {
      return new Column(heading, Align.LEFT);
    }

    static Column right(String heading) {
      return new Column(heading, Align.RIGHT);
    }
  }

  private record Row(ImmutableList<String> cells, ImmutableList<String> notes) {}

  private static final String INDENT = "  ";
  private static final String GAP = "  ";
  private static final String NOTE_INDENT = INDENT + "    ";

  private final ImmutableList<Column> columns;
  private final List<Row> rows = new ArrayList<>();

  TextTable(List<Column> columns) {
    this.columns = ImmutableList.copyOf(columns);
  }

  /** Adds a row; {@code notes} are printed one per line, indented, under it. */
  TextTable row(List<String> cells, List<String> notes) {
    if (cells.size() != columns.size()) {
      throw new IllegalArgumentException(
          "row has " + cells.size() + " cells, table has " + columns.size() + " columns");
    }
    rows.add(new Row(ImmutableList.copyOf(cells), ImmutableList.copyOf(notes)));
    return this;
  }

  TextTable row(List<String> cells) {
    return row(cells, List.of());
  }

  /** The heading line and one line per row and note, each ending in a newline. */
  String render() {
    int[] widths = new int[columns.size()];
    for (int c = 0; c < columns.size(); c++) {
      widths[c] = width(columns.get(c).heading());
      for (Row row : rows) {
        widths[c] = Math.max(widths[c], width(row.cells().get(c)));
      }
    }
    StringBuilder out = new StringBuilder();
    line(out, columns.stream().map(Column::heading).toList(), widths);
    for (Row row : rows) {
      line(out, row.cells(), widths);
      row.notes().forEach(note -> out.append(NOTE_INDENT).append(note).append('\n'));
    }
    return out.toString();
  }

  private void line(StringBuilder out, List<String> cells, int[] widths) {
    StringBuilder line = new StringBuilder(INDENT);
    for (int c = 0; c < cells.size(); c++) {
      String cell = cells.get(c);
      String pad = " ".repeat(widths[c] - width(cell));
      if (c > 0) {
        line.append(GAP);
      }
      line.append(columns.get(c).align() == Align.RIGHT ? pad + cell : cell + pad);
    }
    // A left-aligned last column would leave padding at the end of most lines.
    out.append(line.toString().stripTrailing()).append('\n');
  }

  // Code points, not chars: a character outside the BMP (two chars) takes one column, not two.
  private static int width(String cell) {
    return cell.codePointCount(0, cell.length());
  }
}
