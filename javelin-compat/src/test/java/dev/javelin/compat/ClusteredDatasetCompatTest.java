package dev.javelin.compat;

import static dev.javelin.compat.DatasetCompatSupport.batches;
import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.compat.LanceToleranceChecks.EntryState;
import dev.javelin.compat.LanceToleranceChecks.Kind;
import dev.javelin.compat.LanceToleranceChecks.Op;
import dev.javelin.compat.LanceToleranceChecks.Outcome;
import dev.javelin.core.Dataset;
import dev.javelin.core.IndexSettleResult;
import dev.javelin.core.ScanPlan;
import dev.javelin.core.WriteParams;
import dev.javelin.core.cluster.ClusterResult;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.index.IndexType;
import dev.javelin.table.stablepartition.StablePartitionEntry;
import dev.javelin.table.stablepartition.StablePartitionTransition;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.ipc.ScanOptions;

/**
 * lance-core 7.0.0 on Javelin's real clustering output ({@code Dataset.cluster()}: a reordered
 * Rewrite, a row map, the {@code __lance_stable_partition} entry, a BTree answering through the row
 * map), every operation in a child JVM, before and after {@code settleIndices()}; then lance-core
 * reads and writes the clustered dataset in process and both sides' answers are compared row by row.
 */
class ClusteredDatasetCompatTest {
  static final List<String> FILTERS = List.of("id >= 500 AND id < 650", "id = 1000", "id < 40", "id IN (3, 333, 777)",
      "id > 1100 AND x IS NULL", "id BETWEEN 200 AND 260 AND s IS NOT NULL");

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  /**
   * 1,200 rows in 6 fragments of 200 (file version 2.1), a BTree {@code id_idx} on id, rows with
   * id % 13 = 0 deleted, then fragments 0-3 clustered by s into 300-row destinations (ids scrambled;
   * fragments 4 and 5 stay, answered directly).
   */
  ClusterResult clustered(Path path) {
    List<VectorSchemaRoot> data = batches(allocator, 0, 1200, 200);
    Dataset ds;
    try {
      ds = Dataset.create(path, data, WriteParams.builder().fileVersion(LanceFileVersion.V2_1).maxRowsPerFile(200)
          .build(), allocator);
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
    ds = ds.createIndex("id", IndexType.BTREE).delete("id % 13 = 0");
    // No zone map on the key: the table below is about the stable partition entry alone.
    ClusterResult r = ds.cluster().by("s").noZoneMaps().fragments(List.of(0L, 1L, 2L, 3L)).targetRowsPerFragment(300)
        .commit();
    ScanPlan plan = r.dataset().explain("id < 40");
    assertThat(plan.indices()).singleElement().satisfies(u ->
        assertThat(u.throughRowMaps()).containsExactlyElementsOf(r.destinationIds()));
    assertThat(plan.scannedFragments()).isEmpty();
    return r;
  }

  LanceToleranceChecks.Target target(Dataset ds, long oldVersion, List<String> watched) {
    return new LanceToleranceChecks.Target(Path.of(ds.location()), StablePartitionEntry.NAME, "id_idx",
        "id >= 500 AND id < 650", oldVersion, ds.version(), watched);
  }

  static String rowMap(Dataset ds) throws IOException {
    List<StablePartitionTransition> ts = StablePartitionEntry.transitions(ds.manifest(), ds.store());
    assertThat(ts).hasSize(1);
    return ts.get(0).rowMapPath();
  }

  @Test
  void everyLanceOperationOnClusteredOutputBeforeAndAfterSettling() throws Exception {
    Path path = dir.resolve("ds");
    ClusterResult r = clustered(path);
    Dataset ds = r.dataset();
    String rowMap = rowMap(ds);

    Map<Op, Outcome> before = LanceToleranceChecks.run(target(ds, ds.version() - 1, List.of(rowMap)),
        Arrays.asList(Op.values()), dir.resolve("before"));
    assertThat(before.values()).allSatisfy(o -> assertThat(o.kind()).as(o.toString()).isNotEqualTo(Kind.ABORTED));
    for (Op op : List.of(Op.DESCRIBE, Op.STATS_ENTRY)) {
      assertThat(before.get(op).kind()).as(op.name()).isEqualTo(Kind.ERROR);
      assertThat(before.get(op).message()).as(op.name())
          .contains("No scalar index plugin found for name 'stablepartitiondetails'");
    }
    for (Op op : Op.values()) {
      if (op != Op.DESCRIBE && op != Op.STATS_ENTRY) {
        assertThat(before.get(op).kind()).as(before.get(op).toString()).isEqualTo(Kind.OK);
      }
    }
    long live = ds.countRows();
    assertThat(before.get(Op.SCAN).message()).startsWith("rows=" + live + ";");
    assertThat(before.get(Op.INDEXED_COUNT).message()).startsWith("rows=139 count=139;");
    assertThat(before.get(Op.LIST_INDEXES).message()).startsWith("indexes=[__lance_stable_partition, id_idx];");
    // Dropping the entry's anchor column (id, field 0) drops it: readers fall back to scans.
    assertThat(before.get(Op.DROP_ID_COLUMN).entry()).isEqualTo(EntryState.DROPPED);
    // The row map lives under the entry's uuid, which lance-core's cleanup keeps.
    assertThat(before.get(Op.CLEANUP).missingFiles()).isEmpty();
    for (Op op : Op.values()) {
      if (op != Op.DROP_ID_COLUMN) {
        assertThat(before.get(op).entry()).as(op.name()).isIn(EntryState.CARRIED, EntryState.CHANGED);
      }
    }

    IndexSettleResult settled = ds.settleIndices();
    assertThat(settled.remapped()).containsExactly("id_idx");
    assertThat(settled.transitionsKept()).isZero();
    Dataset after = settled.dataset();
    List<Op> ops = new ArrayList<>(Arrays.asList(Op.values()));
    ops.remove(Op.STATS_ENTRY); // there is no entry left
    Map<Op, Outcome> out = LanceToleranceChecks.run(target(after, ds.version(), List.of()), ops,
        dir.resolve("after"), true);
    assertThat(out.values()).allSatisfy(o -> {
      assertThat(o.kind()).as(o.toString()).isEqualTo(Kind.OK);
      assertThat(o.entry()).as(o.toString()).isEqualTo(EntryState.ABSENT);
    });
    assertThat(out.get(Op.DESCRIBE).message()).startsWith("described=[id_idx:BTree];");
    assertThat(out.get(Op.LIST_INDEXES).message()).startsWith("indexes=[id_idx];");
    assertThat(out.get(Op.INDEXED_COUNT).message()).startsWith("rows=139 count=139;");
    assertThat(out.get(Op.STATS_REAL).message()).startsWith("num_indexed_rows=" + live + ";");
    assertThat(out.get(Op.CHECKOUT_OLD).message()).startsWith("old rows=" + live
        + " indexes=[__lance_stable_partition, id_idx];");

    // The table in docs/stable-partition-lance-compat.md comes from this file.
    StringBuilder md = new StringBuilder("| operation | before settle | after settle |\n|---|---|---|\n");
    for (Op op : Op.values()) {
      md.append("| ").append(op).append(" | ").append(before.get(op).cell()).append(" | ")
          .append(out.containsKey(op) ? out.get(op).cell() : "n/a (no entry)").append(" |\n");
    }
    java.nio.file.Files.writeString(Path.of("target", "clustered-compat.md"), md.toString());

    // In process: lance-core's scans and BTree-filtered scans equal Javelin's, row by row.
    assertSameAnswers(after, true);
  }

  @Test
  void lanceAppendsAndDeletesOnAClusteredDatasetThenJavelinsTranslatedAnswersEqualScans() throws Exception {
    Path path = dir.resolve("ds");
    ClusterResult r = clustered(path);
    assertSameAnswers(r.dataset(), false);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.delete("id % 7 = 2 OR id = 1000");
    }
    List<VectorSchemaRoot> more = batches(allocator, 5000, 150, 150);
    try (ArrowReader reader = DatasetCompatSupport.readerOf(allocator, more)) {
      org.lance.Dataset.write().allocator(allocator).reader(reader).uri(path.toString())
          .mode(org.lance.WriteParams.WriteMode.APPEND).execute().close();
    } finally {
      more.forEach(VectorSchemaRoot::close);
    }
    Dataset ds = Dataset.open(path, allocator);
    assertThat(StablePartitionEntry.find(ds.manifest())).isPresent();
    ScanPlan plan = ds.explain("id < 40");
    assertThat(plan.indices().get(0).throughRowMaps()).containsExactlyElementsOf(r.destinationIds());
    assertThat(plan.scannedFragments()).hasSize(1); // lance-core's appended fragment
    assertSameAnswers(ds, false);
    for (String f : FILTERS) {
      assertThat(ds.countRows(f)).as(f).isEqualTo(javelinIds(ds, f, false).size());
      assertThat(javelinIds(ds, f, true)).as(f).isEqualTo(javelinIds(ds, f, false));
    }
    // Settling over lance-core's commits (its entry carries lance-core's field 10).
    Dataset settled = ds.settleIndices().dataset();
    assertThat(StablePartitionEntry.find(settled.manifest())).isEmpty();
    assertSameAnswers(settled, false);
  }

  @Test
  void afterLanceCompactsAClusteredDatasetJavelinsAnswersStillEqualScans() throws Exception {
    Path path = dir.resolve("ds");
    ClusterResult r = clustered(path);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.compact(org.lance.compaction.CompactionOptions.builder().withTargetRowsPerFragment(1_000_000).build());
    }
    Dataset ds = Dataset.open(path, allocator);
    // lance-core compacts by index coverage as it sees it: fragments 4 and 5 (in id_idx's bitmap,
    // which it remaps) into one, the destinations (not in it) into another.
    assertThat(ds.manifest().fragments()).hasSize(2);
    // The merged destinations are no index's now: Javelin scans them (correct, as lance-core does).
    ScanPlan plan = ds.explain("id < 40");
    assertThat(plan.indexedFragments()).hasSize(1);
    assertThat(plan.scannedFragments()).hasSize(1);
    for (String f : FILTERS) {
      assertThat(javelinIds(ds, f, true)).as(f).isEqualTo(javelinIds(ds, f, false));
      assertThat(ds.countRows(f)).as(f).isEqualTo(javelinIds(ds, f, false).size());
    }
    assertSameAnswers(ds, false);
    // The transition's destinations are retired now; settling still drops the entry.
    IndexSettleResult s = ds.settleIndices();
    assertThat(StablePartitionEntry.find(s.dataset().manifest())).isEmpty();
    assertSameAnswers(s.dataset(), false);
    assertThat(r.destinationIds()).isNotEmpty();
  }

  // lance-core's full scan equals Javelin's row by row; lance-core's index-using filtered scans equal
  // Javelin's index-using ones (sorted by id); with allIndexed, lance-core sees no unindexed row.
  void assertSameAnswers(Dataset ds, boolean allIndexed) throws Exception {
    try (org.lance.Dataset lance = org.lance.Dataset.open(ds.location(), allocator)) {
      assertThat(lance.version()).isEqualTo(ds.version());
      try (var scanner = lance.newScan(new ScanOptions.Builder().batchSize(1000).build())) {
        DatasetCompatSupport.assertSameRows(DatasetCompatSupport.javelinScan(ds),
            DatasetCompatSupport.readAll(scanner.scanBatches()));
      }
      for (String f : FILTERS) {
        List<List<String>> want;
        try (var scanner = lance.newScan(new ScanOptions.Builder().columns(List.of("id", "x", "s")).filter(f)
            .useScalarIndex(true).build())) {
          want = new ArrayList<>(DatasetCompatSupport.readAll(scanner.scanBatches()));
        }
        want.sort(Comparator.comparingLong(row -> Long.parseLong(row.get(0))));
        List<List<String>> got = new ArrayList<>(DatasetCompatSupport.readAll(
            ds.newScan().columns("id", "x", "s").filter(f).batchSize(300).build()));
        got.sort(Comparator.comparingLong(row -> Long.parseLong(row.get(0))));
        DatasetCompatSupport.assertSameRows(got, want);
        assertThat(lance.countRows(f)).as(f).isEqualTo(ds.countRows(f));
      }
      if (allIndexed) {
        assertThat(((Number) lance.getIndexStatistics("id_idx").get("num_unindexed_rows")).longValue()).isZero();
        assertThat(ds.explain("id < 40").indices().get(0).throughRowMaps()).isEmpty();
      }
    }
  }

  static List<Long> javelinIds(Dataset ds, String filter, boolean useIndex) throws IOException {
    List<Long> out = new ArrayList<>();
    for (List<String> row : DatasetCompatSupport.readAll(ds.newScan().columns("id").filter(filter).useIndex(useIndex)
        .build())) {
      out.add(Long.parseLong(row.get(0)));
    }
    out.sort(null);
    return out;
  }
}
