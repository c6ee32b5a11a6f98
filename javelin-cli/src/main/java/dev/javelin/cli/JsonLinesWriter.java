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
    for (int r = 0; r < batch.getRowCount(); r++) {
      int i = r;
      out.println(Cells.json(g -> {
        g.writeStartObject();
        for (FieldVector v : vectors) {
          g.writeFieldName(v.getName());
          Cells.json(v, i, g);
        }
        g.writeEndObject();
      }));
    }
    rows += batch.getRowCount();
  }

  @Override
  public long finish() {
    out.flush();
    return rows;
  }
}
