package dev.javelin.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.javelin.core.Dataset;
import dev.javelin.core.VectorQuery;
import dev.javelin.index.IvfPqParams;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.compaction.CompactionOptions;
import org.lance.index.DistanceType;
import org.lance.index.IndexParams;
import org.lance.index.vector.VectorIndexParams;
import org.lance.ipc.Query;

/**
 * Vector search on datasets with stable row ids (lance-core's, with deletions, an appended
 * fragment and a compaction that moved rows): the index holds stable row ids. An index lance-core
 * builds, searched by Javelin, and one Javelin builds, searched by lance-core; the results of both
 * ({@code id}, stable {@code _rowid}, {@code _distance}) compared row by row.
 */
class VectorStableRowIdsCompatTest {
  static final int ROWS = 5000;
  static final int K = 10;
  static final int PARTITIONS = 8;
  static final VectorCompatData DATA = new VectorCompatData(ROWS, 51);

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  /** id, _rowid, _distance of each result row. */
  record Row(long id, long rowId, float distance) {}

  private static List<Row> javelin(Dataset ds, float[] q, Integer refine) {
    VectorQuery query = ds.nearest("v", q).k(K).nprobes(PARTITIONS).columns(List.of("id")).withRowId(true);
    if (refine != null) {
      query.refineFactor(refine);
    }
    List<Row> out = new ArrayList<>();
    try (VectorSchemaRoot rows = query.execute()) {
      for (int i = 0; i < rows.getRowCount(); i++) {
        out.add(new Row(((BigIntVector) rows.getVector("id")).get(i), ((UInt8Vector) rows.getVector("_rowid")).get(i),
            ((Float4Vector) rows.getVector("_distance")).get(i)));
      }
    }
    return out;
  }

  private static List<Row> lance(org.lance.Dataset lance, float[] q, Integer refine) throws Exception {
    Query.Builder b = new Query.Builder().setColumn("v").setKey(q).setK(K).setNprobes(PARTITIONS);
    if (refine != null) {
      b.setRefineFactor(refine);
    }
    List<Long> rowIds = new ArrayList<>();
    var n = VectorCompatData.lanceNearest(lance, b.build(), null, false, rowIds);
    List<Row> out = new ArrayList<>();
    for (int i = 0; i < n.size(); i++) {
      out.add(new Row(n.rowIds()[i], rowIds.get(i), n.distances()[i]));
    }
    return out;
  }

  /**
   * Row by row: exact searches (re-ranked) give the same rows with the same stable row ids and
   * distances; searches without re-ranking give the same rows but where PQ distances nearly tie
   * (a few swaps), the same distances for the same rows, and never a deleted row.
   */
  private void compare(Dataset ds, org.lance.Dataset lance) throws Exception {
    int different = 0;
    for (int s = 0; s < 8; s++) {
      float[] q = DATA.query(s);
      List<Row> j = javelin(ds, q, 500);
      List<Row> l = lance(lance, q, 500);
      assertThat(j).as("query " + s).hasSize(K);
      for (int i = 0; i < K; i++) {
        assertThat(j.get(i).id()).as("query " + s + " row " + i).isEqualTo(l.get(i).id());
        assertThat(j.get(i).rowId()).as("query " + s + " _rowid of id " + j.get(i).id()).isEqualTo(l.get(i).rowId());
        assertThat(j.get(i).distance()).isCloseTo(l.get(i).distance(), within(1e-4f * Math.max(1, l.get(i).distance())));
      }
      List<Row> ja = javelin(ds, q, null);
      List<Row> la = lance(lance, q, null);
      assertThat(ja).hasSize(la.size());
      for (int i = 0; i < la.size(); i++) {
        // A near-tie of PQ distances can put another row among the candidates; the two sides then
        // re-rank different rows (the index does not cover the appended fragment, so distances are
        // exact), so distances are compared where the rows agree and the swaps are counted.
        if (ja.get(i).rowId() == la.get(i).rowId()) {
          assertThat(ja.get(i).distance()).as("query " + s + " distance " + i)
              .isCloseTo(la.get(i).distance(), within(1e-3f * Math.max(1, la.get(i).distance())));
        } else {
          different++;
        }
        long id = ja.get(i).id();
        assertThat(id % 10 != 7 || id >= ROWS - 1000).as("query " + s + ": id " + id + " was deleted").isTrue();
        // Whichever row each picks, its _rowid is that row's stable id on the other side too.
        final int at = i;
        assertThat(ja.stream().filter(r -> r.id() == ja.get(at).id()).findFirst().orElseThrow().rowId())
            .isEqualTo(ja.get(i).rowId());
      }
    }
    // Near-ties of PQ distances may swap a few rows, no more.
    assertThat(different).isLessThanOrEqualTo(8);
  }

  // A lance-core dataset with stable row ids, rows deleted, a fragment appended, then compacted
  // (rows move to new fragments, keeping their stable ids).
  private Path lanceDataset(boolean lanceIndex) throws Exception {
    Path path = dir.resolve("ds");
    DATA.lanceWrite(allocator, path, 0, ROWS - 1000, 1000, true);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      if (lanceIndex) {
        lance.createIndex(List.of("v"), org.lance.index.IndexType.IVF_PQ, Optional.of("v_idx"),
            IndexParams.builder().setVectorIndexParams(VectorIndexParams.ivfPq(PARTITIONS, 8, 4, DistanceType.L2, 20))
                .build(), false);
      }
      lance.delete("id % 10 = 7");
    }
    DATA.lanceWrite(allocator, path, ROWS - 1000, ROWS, 1000, true);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.compact(CompactionOptions.builder().withTargetRowsPerFragment(2000).withMaterializeDeletions(true).build());
    }
    return path;
  }

  @Test
  void javelinSearchesIndexLanceBuiltWithStableRowIds() throws Exception {
    Path path = lanceDataset(true);
    Dataset ds = Dataset.open(path, allocator);
    assertThat(ds.hasStableRowIds()).isTrue();
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      compare(ds, lance);
    }
  }

  @Test
  void lanceSearchesIndexJavelinBuiltWithStableRowIds() throws Exception {
    Path path = lanceDataset(false);
    Dataset ds = Dataset.open(path, allocator).createIndex("v",
        IvfPqParams.of(PARTITIONS, 4, dev.javelin.index.DistanceType.L2).withIterations(20, 20));
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.listIndexes()).containsExactly("v_idx");
      compare(ds, lance);
    }
  }
}
