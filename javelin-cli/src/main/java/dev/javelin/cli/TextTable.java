package dev.javelin.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * A small table of text for listings ({@code versions}, {@code index list}, {@code layout}, ...):
 * a header and rows, columns two spaces apart, each as wide as its widest cell in terminal columns
 * ({@link DisplayWidth}), numbers aligned right, the last column unpadded, no trailing spaces.
 */
final class TextTable {
  private final String[] header;
  private final boolean[] right;
  private final List<String[]> rows = new ArrayList<>();

  /** Columns named by {@code header}; a name starting with '>' is aligned right (the '>' is dropped). */
  TextTable(String... header) {
    this.header = new String[header.length];
    this.right = new boolean[header.length];
    for (int i = 0; i < header.length; i++) {
      right[i] = header[i].startsWith(">");
      this.header[i] = right[i] ? header[i].substring(1) : header[i];
    }
  }

  TextTable row(String... cells) {
    if (cells.length != header.length) {
      throw new IllegalArgumentException("A row of " + cells.length + " cells in a table of " + header.length
          + " columns");
    }
    rows.add(cells.clone());
    return this;
  }

  boolean isEmpty() {
    return rows.isEmpty();
  }

  void print(PrintWriter out) {
    int[] width = new int[header.length];
    for (int c = 0; c < header.length; c++) {
      width[c] = DisplayWidth.of(header[c]);
      for (String[] r : rows) {
        width[c] = Math.max(width[c], DisplayWidth.of(r[c]));
      }
    }
    out.println(line(header, width));
    for (String[] r : rows) {
      out.println(line(r, width));
    }
  }

  private String line(String[] cells, int[] width) {
    StringBuilder b = new StringBuilder();
    for (int c = 0; c < cells.length; c++) {
      b.append(c == 0 ? "" : "  ").append(DisplayWidth.pad(cells[c], width[c], right[c]));
    }
    int end = b.length();
    while (end > 0 && b.charAt(end - 1) == ' ') {
      end--;
    }
    b.setLength(end);
    return b.toString();
  }
}
