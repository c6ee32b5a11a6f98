package dev.javelin.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * What both sides of a benchmark returned, compared before anything is timed: the row count and an
 * order-independent checksum over every column's values (the sum of a mix of each row's column
 * hashes, Arrow's value hashes, columns in name order, so the column order a reader returns and the
 * batch boundaries do not matter).
 */
record Digest(long rows, long checksum) {
  /** The reader's rows (closing it). */
  static Digest of(ArrowReader r, boolean check) throws IOException {
    long rows = 0;
    long sum = 0;
    try (r) {
      while (r.loadNextBatch()) {
        VectorSchemaRoot root = r.getVectorSchemaRoot();
        rows += root.getRowCount();
        if (check) {
          sum += checksum(root, null);
        }
      }
    }
    return new Digest(rows, sum);
  }

  static Digest of(VectorSchemaRoot root, boolean check) {
    return new Digest(root.getRowCount(), check ? checksum(root, null) : 0);
  }

  static Digest of(List<VectorSchemaRoot> batches) {
    return of(batches, null);
  }

  /** The digest of the rows of {@code batches}, only those with score > 100 when filter is {@link S3Benchmark#FILTER}. */
  static Digest of(List<VectorSchemaRoot> batches, String filter) {
    long rows = 0;
    long sum = 0;
    for (VectorSchemaRoot b : batches) {
      boolean[] keep = null;
      if (filter != null) {
        if (!filter.equals(S3Benchmark.FILTER)) {
          throw new IllegalArgumentException("No reference evaluation of " + filter);
        }
        var score = (org.apache.arrow.vector.Float8Vector) b.getVector("score");
        keep = new boolean[b.getRowCount()];
        for (int i = 0; i < keep.length; i++) {
          keep[i] = !score.isNull(i) && score.get(i) > 100;
        }
      }
      for (int i = 0; i < b.getRowCount(); i++) {
        rows += keep == null || keep[i] ? 1 : 0;
      }
      sum += checksum(b, keep);
    }
    return new Digest(rows, sum);
  }

  private static long checksum(VectorSchemaRoot root, boolean[] keep) {
    List<FieldVector> vectors = new ArrayList<>(root.getFieldVectors());
    vectors.sort((a, b) -> a.getName().compareTo(b.getName()));
    long sum = 0;
    for (int i = 0; i < root.getRowCount(); i++) {
      if (keep != null && !keep[i]) {
        continue;
      }
      long h = 17;
      for (FieldVector v : vectors) {
        h = h * 31 + v.hashCode(i);
      }
      sum += mix(h);
    }
    return sum;
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
    z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return z ^ (z >>> 33);
  }
}
