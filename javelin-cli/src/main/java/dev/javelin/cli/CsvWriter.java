package dev.javelin.cli;

import java.io.PrintWriter;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * CSV with a header line, as {@code file write} reads it back: a null is an empty cell, an empty
 * string is {@code ""}, nested values are JSON text, and a cell is quoted when it holds a comma,
 * a quote, a line break or surrounding spaces.
 */
final class CsvWriter implements RowWriter {
  private final PrintWriter out;
  private long rows;

  CsvWriter(PrintWriter out) {
    this.out = out;
  }

  @Override
  public void start(Schema schema) {
    StringBuilder b = new StringBuilder();
    List<Field> fields = schema.getFields();
    for (int j = 0; j < fields.size(); j++) {
      b.append(j == 0 ? "" : ",");
      cell(b, fields.get(j).getName());
    }
    out.println(b);
  }

  @Override
  public void write(VectorSchemaRoot batch) {
    List<FieldVector> vectors = batch.getFieldVectors();
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < batch.getRowCount(); i++) {
      b.setLength(0);
      for (int j = 0; j < vectors.size(); j++) {
        b.append(j == 0 ? "" : ",");
        String t = Cells.text(vectors.get(j), i);
        if (t != null) {
          cell(b, t);
        }
      }
      out.println(b);
    }
    rows += batch.getRowCount();
  }

  static void cell(StringBuilder b, String s) {
    boolean quote = s.isEmpty() || s.charAt(0) == ' ' || s.charAt(s.length() - 1) == ' ';
    for (int i = 0; i < s.length() && !quote; i++) {
      char c = s.charAt(i);
      quote = c == ',' || c == '"' || c == '\n' || c == '\r';
    }
    if (!quote) {
      b.append(s);
      return;
    }
    b.append('"').append(s.replace("\"", "\"\"")).append('"');
  }

  @Override
  public long finish() {
    out.flush();
    return rows;
  }
}
