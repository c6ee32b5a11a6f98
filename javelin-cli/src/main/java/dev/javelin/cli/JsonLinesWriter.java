package dev.javelin.cli;

import java.io.PrintWriter;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/** One JSON object per row, keys in column order, values as {@link Cells#json} writes them. */
final class JsonLinesWriter implements RowWriter {
  private final PrintWriter out;
  private long rows;

  JsonLinesWriter(PrintWriter out) {
    this.out = out;
  }

  @Override
  public void start(Schema schema) {}

  @Override
  public void write(VectorSchemaRoot batch) {
    List<FieldVector> vectors = batch.getFieldVectors();
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < batch.getRowCount(); i++) {
      b.setLength(0);
      b.append('{');
      for (int j = 0; j < vectors.size(); j++) {
        b.append(j == 0 ? "" : ",");
        Json.string(b, vectors.get(j).getName()).append(':');
        Cells.json(vectors.get(j), i, b);
      }
      out.println(b.append('}'));
    }
    rows += batch.getRowCount();
  }

  @Override
  public long finish() {
    out.flush();
    return rows;
  }
}
