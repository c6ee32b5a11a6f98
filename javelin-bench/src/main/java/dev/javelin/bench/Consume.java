package dev.javelin.bench;

import java.io.IOException;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Hands every buffer of every column (children included) a benchmark gets back to JMH's blackhole,
 * on both sides alike, so no side's work can be skipped because its result went unused.
 */
final class Consume {
  private Consume() {}

  /** Drains the reader (without closing it); returns its rows. */
  static long reader(ArrowReader reader, Blackhole bh) throws IOException {
    long rows = 0;
    while (reader.loadNextBatch()) {
      rows += root(reader.getVectorSchemaRoot(), bh);
    }
    return rows;
  }

  /** Returns the batch's rows. */
  static long root(VectorSchemaRoot root, Blackhole bh) {
    for (FieldVector v : root.getFieldVectors()) {
      vector(v, bh);
    }
    bh.consume(root.getRowCount());
    return root.getRowCount();
  }

  private static void vector(FieldVector v, Blackhole bh) {
    for (ArrowBuf buf : v.getFieldBuffers()) {
      bh.consume(buf.memoryAddress());
      bh.consume(buf.writerIndex());
    }
    for (FieldVector child : v.getChildrenFromFields()) {
      vector(child, bh);
    }
  }
}
