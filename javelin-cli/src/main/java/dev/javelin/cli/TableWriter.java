package dev.javelin.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * An aligned table for people:
 *
 * <pre>
 *  id | name  | score
 * ----+-------+------
 *   0 | alice |   1.5
 * </pre>
 *
 * Numbers are aligned right, nulls read {@code null}, control characters are escaped, and cells
 * wider than {@value #MAX_WIDTH} terminal columns are cut with "...". Widths are terminal columns
 * ({@link DisplayWidth}: CJK and emoji take two, combining marks none). They come from the header
 * and the first {@value #ALIGNED_ROWS} rows (held back until then, however many batches bring
 * them), so rows still stream; a column keeps its width from then on and grows only for a later,
 * wider cell, never shrinking from one batch to the next.
 */
final class TableWriter implements RowWriter {
  static final int MAX_WIDTH = 40;
  static final int ALIGNED_ROWS = 1_000;

  private final PrintWriter out;
  private List<Field> fields;
  private int[] widths;
  private boolean[] right;
  private boolean headed;
  private final List<String[]> pending = new ArrayList<>();
  private long rows;

  TableWriter(PrintWriter out) {
    this.out = out;
  }

  @Override
  public void start(Schema schema) {
    this.fields = schema.getFields();
    this.widths = new int[fields.size()];
    this.right = new boolean[fields.size()];
    for (int j = 0; j < fields.size(); j++) {
      widths[j] = Math.min(MAX_WIDTH, width(escape(fields.get(j).getName())));
      right[j] = Cells.numeric(fields.get(j));
    }
  }

  @Override
  public void write(VectorSchemaRoot batch) {
    int n = batch.getRowCount();
    for (int i = 0; i < n; i++) {
      String[] cells = new String[fields.size()];
      for (int j = 0; j < cells.length; j++) {
        FieldVector v = batch.getVector(j);
        String t = Cells.text(v, i);
        cells[j] = t == null ? "null" : escape(t);
        widths[j] = Math.max(widths[j], Math.min(MAX_WIDTH, width(cells[j])));
      }
      pending.add(cells);
    }
    rows += n;
    if (headed || pending.size() >= ALIGNED_ROWS) {
      flushPending();
    }
  }

  private void flushPending() {
    header();
    for (String[] cells : pending) {
      line(cells);
    }
    pending.clear();
  }

  @Override
  public long finish() {
    flushPending();
    out.flush();
    return rows;
  }

  private void header() {
    if (headed) {
      return;
    }
    headed = true;
    String[] names = new String[fields.size()];
    StringBuilder rule = new StringBuilder();
    for (int j = 0; j < names.length; j++) {
      names[j] = escape(fields.get(j).getName());
      rule.append(j == 0 ? "" : "+").append("-".repeat(widths[j] + 2));
    }
    line(names);
    out.println(rule);
  }

  private void line(String[] cells) {
    StringBuilder b = new StringBuilder();
    for (int j = 0; j < cells.length; j++) {
      b.append(j == 0 ? " " : " | ");
      b.append(DisplayWidth.pad(DisplayWidth.cut(cells[j], widths[j]), widths[j], right[j]));
    }
    int end = b.length();
    while (end > 0 && b.charAt(end - 1) == ' ') {
      end--;
    }
    b.setLength(end);
    out.println(b);
  }

  private static int width(String s) {
    return DisplayWidth.of(s);
  }

  private static String escape(String s) {
    StringBuilder b = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        if (b == null) {
          b = new StringBuilder(s.substring(0, i));
        }
        b.append(c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\r' ? "\\r" : String.format("\\x%02x", (int) c));
      } else if (b != null) {
        b.append(c);
      }
    }
    return b == null ? s : b.toString();
  }
}
