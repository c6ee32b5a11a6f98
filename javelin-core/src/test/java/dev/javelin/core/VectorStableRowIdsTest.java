package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.index.DistanceType;
import dev.javelin.index.IvfPqParams;
import dev.javelin.index.internal.ivf.Neighbors;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Vector search on a dataset with stable row ids: the index holds stable row ids, results carry
 * them as {@code _rowid}, and rows updated (moved to a new fragment) or deleted since the index was
 * built are found, or left out, correctly.
 */
class VectorStableRowIdsTest {
  static final int ROWS = 6000;
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  @AfterEach
  void close() {
    VectorQuery.clearCache();
  }

  // The stable _rowid of every live row, by id.
  private Map<Long, Long> rowIdsById(Dataset ds) throws Exception {
    Map<Long, Long> out = new HashMap<>();
    try (ArrowReader r = ds.newScan().columns(List.of("id")).withRowId().build()) {
      while (r.loadNextBatch()) {
        VectorSchemaRoot b = r.getVectorSchemaRoot();
        for (int i = 0; i < b.getRowCount(); i++) {
          out.put(((BigIntVector) b.getVector("id")).get(i), ((UInt8Vector) b.getVector("_rowid")).get(i));
        }
      }
    }
    return out;
  }

  private static long[][] idsAndRowIds(VectorQuery q) {
    try (VectorSchemaRoot rows = q.columns(List.of("id")).withRowId(true).execute()) {
      long[][] out = new long[2][rows.getRowCount()];
      for (int i = 0; i < rows.getRowCount(); i++) {
        out[0][i] = ((BigIntVector) rows.getVector("id")).get(i);
        out[1][i] = ((UInt8Vector) rows.getVector("_rowid")).get(i);
      }
      return out;
    }
  }

  @Test
  void searchReturnsStableRowIdsAcrossUpdatesAndDeletes() throws Exception {
    List<VectorSchemaRoot> data = VectorPrefilterTest.batches(allocator, 0, ROWS);
    Dataset ds;
    try {
      ds = Dataset.create(dir.resolve("ds"), data,
          WriteParams.builder().maxRowsPerFile(2000).enableStableRowIds(true).build(), allocator)
          .createIndex("v", IvfPqParams.of(8, 4, DistanceType.L2));
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
    // Rows moved to a new fragment (same stable ids, not in the index's fragments) and deleted rows.
    ds = ds.update("id % 10 = 3", Map.of("rank", "rank + 100000")).dataset().delete("id % 10 = 7");
    Map<Long, Long> rowIds = rowIdsById(ds);
    assertThat(rowIds).hasSize(ROWS - ROWS / 10);
    for (int s = 0; s < 5; s++) {
      float[] q = VectorPrefilterTest.query(s);
      // Every partition and re-ranked: the exact answer, through the index and the new fragment.
      long[][] indexed = idsAndRowIds(ds.nearest("v", q).k(20).nprobes(8).refineFactor(300));
      long[][] exact = idsAndRowIds(ds.nearest("v", q).k(20).useIndex(false));
      assertThat(indexed[0]).as("query " + s).containsExactly(exact[0]);
      for (int i = 0; i < indexed[0].length; i++) {
        assertThat(indexed[0][i] % 10).isNotEqualTo(7);
        assertThat(indexed[1][i]).as("_rowid of id " + indexed[0][i]).isEqualTo(rowIds.get(indexed[0][i]));
        assertThat(exact[1][i]).isEqualTo(rowIds.get(exact[0][i]));
      }
      // neighbors() gives the same stable row ids, which takeRows takes.
      Neighbors n = ds.nearest("v", q).k(20).nprobes(8).refineFactor(300).neighbors();
      assertThat(n.rowIds()).containsExactly(indexed[1]);
      try (VectorSchemaRoot taken = ds.takeRows(n.rowIds(), List.of("id"))) {
        for (int i = 0; i < n.size(); i++) {
          assertThat(((BigIntVector) taken.getVector("id")).get(i)).isEqualTo(indexed[0][i]);
        }
      }
      // A prefilter on the moved rows only: all of them come from the new fragment.
      long[] moved = VectorPrefilterTest.ids(ds.nearest("v", q).k(10).nprobes(1).filter("rank >= 100000")
          .prefilter(true));
      assertThat(moved).hasSize(10);
      assertThat(java.util.Arrays.stream(moved).allMatch(id -> id % 10 == 3)).isTrue();
    }
  }
}
