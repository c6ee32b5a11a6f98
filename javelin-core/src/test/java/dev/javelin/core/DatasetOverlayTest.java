package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.compaction.CompactionOptions;
import dev.javelin.core.compaction.CompactionScope;
import dev.javelin.core.exceptions.InvalidUpdateException;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.index.IndexType;
import dev.javelin.table.CleanupPolicy;
import dev.javelin.table.FeatureFlags;
import dev.javelin.table.Fragment;
import dev.javelin.table.OperationKind;
import dev.javelin.table.Overlay;
import dev.javelin.table.Transaction;
import dev.javelin.table.exceptions.StableRowIdsUnsupportedException;
import dev.javelin.table.proto.TransactionProtos;
import dev.javelin.testing.MixedBatches;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class DatasetOverlayTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  // Rows 0..rows-1 of MixedBatches (id, x, s, l, st) in fragments of 1000 rows.
  private Dataset create(String name, LanceFileVersion v, int rows) {
    List<VectorSchemaRoot> batches = MixedBatches.batches(allocator, 0, rows, 700);
    try {
      return Dataset.create(dir.resolve(name), batches, WriteParams.builder().fileVersion(v).maxRowsPerFile(1000)
          .maxRowsPerGroup(300).build(), allocator);
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  private static List<List<Object>> sortedById(List<List<Object>> rows) {
    List<List<Object>> out = new ArrayList<>(rows);
    out.sort(Comparator.comparingLong(r -> Long.parseLong((String) r.get(0))));
    return out;
  }

  private static List<List<Object>> scan(Dataset ds, String filter, String... columns) throws Exception {
    List<List<Object>> out = new ArrayList<>();
    ScanBuilder scan = ds.newScan().batchSize(256).filter(filter);
    if (columns.length > 0) {
      scan.columns(columns);
    }
    try (ArrowReader r = scan.build()) {
      while (r.loadNextBatch()) {
        out.addAll(MixedBatches.rows(r.getVectorSchemaRoot()));
      }
    }
    return out;
  }

  private static Map<String, String> set(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  private static Transaction txn(Dataset ds) {
    return ds.table().transaction(ds.manifest()).orElseThrow();
  }

  private static boolean flagged(Dataset ds) {
    return (ds.manifest().readerFeatureFlags() & FeatureFlags.OVERLAYS) != 0;
  }

  @ParameterizedTest
  @EnumSource(value = LanceFileVersion.class, names = {"V2_0", "V2_1"})
  void overlayUpdateReadsLikeAPlainUpdate(LanceFileVersion v) throws Exception {
    Map<String, String> assign = set("x", "x * 2", "s", "'u'");
    String where = "id >= 200 AND id < 500 OR id > 2400";
    Dataset plain = create("plain", v, 2500).update(where, assign).dataset();
    Dataset base = create("ds", v, 2500);
    UpdateResult r = base.updateOverlay(where, assign);
    Dataset ds = r.dataset();

    assertThat(r.rowsUpdated()).isEqualTo(399);
    assertThat(ds.version()).isEqualTo(base.version() + 1);
    assertThat(flagged(ds)).isTrue();
    assertThat(flagged(base)).isFalse();
    // Rows stay where they were: same fragments, same files, one overlay on the touched ones.
    List<Fragment> frags = ds.manifest().fragments();
    assertThat(frags).extracting(Fragment::id).containsExactly(0L, 1L, 2L);
    assertThat(frags).extracting(f -> f.overlays().size()).containsExactly(1, 0, 1);
    assertThat(frags.get(0).files()).isEqualTo(base.manifest().fragments().get(0).files());
    Overlay o = frags.get(0).overlays().get(0);
    assertThat(o.numRows()).isEqualTo(300);
    assertThat(o.committedVersion()).isEqualTo(ds.version());
    assertThat(o.fieldIds()).contains(ds.schema().field("x").orElseThrow().id(), ds.schema().field("s").orElseThrow().id());
    TransactionProtos.Transaction.Update op = txn(ds).proto().getUpdate();
    assertThat(txn(ds).kind()).isEqualTo(OperationKind.UPDATE);
    assertThat(op.getUpdateMode()).isEqualTo(TransactionProtos.Transaction.UpdateMode.JAVELIN_OVERLAY);
    assertThat(op.getNewFragmentsList()).isEmpty();

    MixedBatches.assertSameRows(DatasetApiTest.scanAll(ds, 333), sortedById(DatasetApiTest.scanAll(plain, 333)));
    MixedBatches.assertSameRows(DatasetApiTest.scanAll(ds, 100, "s", "id"),
        sortedById(DatasetApiTest.scanAll(plain, 100, "id", "s")).stream().map(x -> java.util.Arrays.asList(x.get(1), x.get(0)))
            .toList());
    // Filters see the overlaid values.
    assertThat(sortedById(scan(ds, "s = 'u'"))).isEqualTo(sortedById(scan(plain, "s = 'u'")));
    assertThat(ds.countRows("s = 'u'")).isEqualTo(399);
    assertThat(ds.countRows("x > 1000")).isEqualTo(plain.countRows("x > 1000"));
    // Takes too, by offset and by address, in any order.
    long[] offsets = {2499, 0, 250, 199, 200, 1500, 499, 500, 2401, 300};
    List<List<Object>> all = DatasetApiTest.scanAll(ds, 512);
    try (VectorSchemaRoot t = ds.take(offsets, List.of("id", "x", "s", "l", "st"))) {
      List<List<Object>> want = new ArrayList<>();
      for (long off : offsets) {
        want.add(all.get((int) off));
      }
      MixedBatches.assertSameRows(MixedBatches.rows(t), want);
    }
    // The old version still reads the old values.
    MixedBatches.assertSameRows(DatasetApiTest.scanAll(ds.checkout(base.version()), 512), DatasetApiTest.scanAll(base, 512));
  }

  @Test
  void newerOverlaysShadowOlderOnes() throws Exception {
    Dataset ds = create("ds", LanceFileVersion.V2_1, 2000);
    Dataset plain = create("plain", LanceFileVersion.V2_1, 2000);
    String[][] steps = {
        {"id < 600", "x", "1.0"},
        {"id >= 300 AND id < 900", "x", "x + 1"},
        {"id % 2 = 0", "s", "'even'"},
        {"id >= 500 AND id < 550", "x", "-5.0"},
    };
    for (String[] st : steps) {
      ds = ds.updateOverlay(st[0], set(st[1], st[2])).dataset();
      plain = plain.updateColumns(st[0], set(st[1], st[2])).dataset();
    }
    assertThat(ds.manifest().fragments().get(0).overlays()).hasSize(4);
    assertThat(ds.manifest().fragments().get(0).overlays()).extracting(Overlay::committedVersion).isSorted();
    MixedBatches.assertSameRows(DatasetApiTest.scanAll(ds, 128), DatasetApiTest.scanAll(plain, 128));
    assertThat(scan(ds, "x = -5.0")).hasSize(50);
    assertThat(scan(ds, "x = 2.0", "id")).hasSize(300 - 50);
    assertThat(scan(ds, "s = 'even'", "id")).hasSize(1000);
    try (VectorSchemaRoot t = ds.take(new long[] {520, 320, 20, 899, 1999}, List.of("id", "x", "s"));
        VectorSchemaRoot p = plain.take(new long[] {520, 320, 20, 899, 1999}, List.of("id", "x", "s"))) {
      MixedBatches.assertSameRows(MixedBatches.rows(t), MixedBatches.rows(p));
    }
  }

  @Test
  void deletesApplyOverOverlays() throws Exception {
    Dataset ds = create("ds", LanceFileVersion.V2_1, 1500);
    ds = ds.updateOverlay("id < 100", set("s", "'u'")).dataset();
    ds = ds.delete("s = 'u' AND id % 2 = 0");
    assertThat(ds.countRows("s = 'u'")).isEqualTo(50);
    assertThat(ds.countRows()).isEqualTo(1450);
    assertThat(ds.manifest().fragments().get(0).overlays()).hasSize(1);
    ds = ds.updateOverlay("id < 10", set("x", "-1.0")).dataset();
    assertThat(scan(ds, "x = -1.0", "id")).extracting(r -> r.get(0)).containsExactly("1", "3", "5", "7", "9");
    // Deleting every row of an overlaid fragment drops it, overlays and all: the flag goes.
    ds = ds.delete("id < 1000");
    assertThat(flagged(ds)).isFalse();
    assertThat(ds.countRows()).isEqualTo(500);
  }

  @Test
  void anIndexOnAnOverlaidFieldStopsCoveringTheFragment() throws Exception {
    Dataset ds = create("ds", LanceFileVersion.V2_1, 3000);
    ds = ds.createIndex("id", IndexType.BTREE).createIndex("s", IndexType.BTREE);
    ds = ds.updateOverlay("id >= 1000 AND id < 1010", set("id", "id + 100000", "x", "7.0")).dataset();
    // The id index no longer answers for fragment 1; the s index still covers everything.
    assertThat(ds.explain("id = 101005").scannedFragments()).containsExactly(1L);
    assertThat(ds.explain("s = 's5'").scannedFragments()).isEmpty();
    assertThat(scan(ds, "id = 101005", "id", "x")).containsExactly(List.of("101005", "7.0"));
    assertThat(scan(ds, "id = 1005", "id")).isEmpty();
    // An index-answered filter re-reads its rows through the overlays.
    assertThat(scan(ds, "s = 's1005xxxx'", "id", "x")).containsExactly(List.of("101005", "7.0"));
  }

  @Test
  void indicesBuiltAfterAnOverlayIndexItsValues() throws Exception {
    Dataset ds = create("ds", LanceFileVersion.V2_1, 2500);
    ds = ds.addNullColumns(List.of(org.apache.arrow.vector.types.pojo.Field.nullable("n",
        new org.apache.arrow.vector.types.pojo.ArrowType.Int(64, true))));
    ds = ds.updateOverlay("id >= 1200 AND id < 1210", set("x", "-3.0", "n", "id")).dataset();
    ds = ds.createIndex("x", IndexType.BTREE).createIndex("n", IndexType.BTREE);
    assertThat(ds.explain("x = -3.0").scannedFragments()).isEmpty();
    assertThat(scan(ds, "x = -3.0", "id")).hasSize(10);
    assertThat(scan(ds, "x = 600.0", "id")).isEmpty(); // row 1200's base value
    assertThat(ds.explain("n = 1205").scannedFragments()).isEmpty();
    assertThat(scan(ds, "n = 1205", "id", "n")).containsExactly(List.of("1205", "1205"));
    assertThat(ds.countRows("n IS NULL")).isEqualTo(2490);
  }

  @Test
  void renamedAndDroppedColumnsKeepOverlaysMatchedById() throws Exception {
    Dataset ds = create("ds", LanceFileVersion.V2_0, 1200);
    ds = ds.updateOverlay("id < 3", set("s", "'o'", "x", "9.0")).dataset();
    ds = ds.alterColumns(ColumnAlteration.of("s").rename("t"));
    assertThat(scan(ds, "id < 4", "t")).extracting(r -> r.get(0)).containsExactly("o", "o", "o", "s3xxx");
    ds = ds.dropColumns("t");
    assertThat(scan(ds, "id < 4", "x")).extracting(r -> r.get(0)).containsExactly("9.0", "9.0", "9.0", null);
    try (VectorSchemaRoot t = ds.take(new long[] {2, 0}, List.of("x", "id"))) {
      assertThat(MixedBatches.rows(t)).containsExactly(List.of("9.0", "2"), List.of("9.0", "0"));
    }
  }

  @Test
  void concurrentChangesOfTheSameFragmentRedoOrConflict() throws Exception {
    Dataset stale = create("ds", LanceFileVersion.V2_1, 2500);
    Dataset first = stale.updateOverlay("id < 100", set("x", "1.0")).dataset();
    // A second overlay update read the version before the first: it is redone on the newest one.
    Dataset second = stale.updateOverlay("id >= 50 AND id < 150", set("x", "x + 1")).dataset();
    assertThat(second.version()).isEqualTo(first.version() + 1);
    assertThat(second.manifest().fragments().get(0).overlays()).hasSize(2);
    assertThat(second.countRows("x = 1.0")).isEqualTo(50);
    assertThat(second.countRows("x = 2.0")).isEqualTo(50);
    // An overlay update of another fragment commits over it unchanged.
    Dataset other = stale.updateOverlay("id >= 2000", set("s", "'o'")).dataset();
    assertThat(other.countRows("s = 'o'")).isEqualTo(500);
    assertThat(other.countRows("x = 2.0")).isEqualTo(50);
    // A delete that read the values before an overlay of its fragment is not merged over it.
    assertThatThrownBy(() -> stale.delete("id < 10")).isInstanceOf(dev.javelin.table.exceptions.CommitConflictException.class);
    assertThat(Dataset.open(dir.resolve("ds"), allocator).countRows()).isEqualTo(2500);
    assertThat(stale.delete("id >= 1000 AND id < 1010").countRows()).isEqualTo(2490);
  }

  @Test
  void aColumnRewriteEndsOverlaysOfItsColumns() throws Exception {
    Dataset ds = create("ds", LanceFileVersion.V2_1, 1200);
    ds = ds.updateOverlay("id < 10", set("s", "'o'", "x", "1.5")).dataset();
    ds = ds.updateColumns("id < 5", set("s", "'o!'")).dataset();
    Fragment f = ds.manifest().fragments().get(0);
    assertThat(f.overlays()).hasSize(1);
    assertThat(f.overlays().get(0).fieldIds()).containsExactly(ds.schema().field("x").orElseThrow().id());
    assertThat(scan(ds, "id < 10", "s")).extracting(r -> r.get(0))
        .containsExactly("o!", "o!", "o!", "o!", "o!", "o", "o", "o", "o", "o");
    assertThat(ds.countRows("x = 1.5")).isEqualTo(10);
    ds = ds.updateColumns("id < 5", set("x", "2.5")).dataset();
    assertThat(ds.manifest().fragments().get(0).overlays()).isEmpty();
    assertThat(flagged(ds)).isFalse();
    assertThat(ds.countRows("x = 1.5")).isEqualTo(5);
  }

  @Test
  void compactionFoldsOverlaysAndClearsTheFlag() throws Exception {
    Dataset ds = create("ds", LanceFileVersion.V2_1, 2500);
    ds = ds.updateOverlay("id % 10 = 0", set("s", "'ten'")).dataset();
    ds = ds.updateOverlay("id % 20 = 0", set("s", "'twenty'", "x", "0.0")).dataset();
    ds = ds.delete("id % 40 = 0");
    List<List<Object>> before = DatasetApiTest.scanAll(ds, 512);
    Dataset after = ds.compact(CompactionOptions.builder().targetRowsPerFragment(5000).build());
    assertThat(after.version()).isGreaterThan(ds.version());
    assertThat(after.manifest().fragments()).allMatch(f -> f.overlays().isEmpty());
    assertThat(flagged(after)).isFalse();
    assertThat(after.columnLayoutStats().fragments()).allMatch(f -> f.overlays() == 0);
    MixedBatches.assertSameRows(DatasetApiTest.scanAll(after, 512), before);
    assertThat(after.countRows("s = 'twenty'")).isEqualTo(62);
  }

  @Test
  void repackColumnsPreservesDataOverlay() throws Exception {
    Dataset ds = create("ds", LanceFileVersion.V2_1, 300);
    ds = ds.addColumns(Map.of("a", "id * 2")).addColumns(Map.of("b", "id * 3"));
    ds = ds.updateOverlay("id < 50", set("a", "-a", "s", "'o'")).dataset();
    List<List<Object>> before = DatasetApiTest.scanAll(ds, 100);
    List<Overlay> overlays = ds.manifest().fragments().get(0).overlays();
    assertThat(ds.columnLayoutStats().fragment(0).overlays()).isEqualTo(1);
    Dataset after = ds.compact(CompactionOptions.builder().targetRowsPerFragment(100).maxDataFilesPerFragment(1)
        .scope(CompactionScope.REPACK_COLUMNS).build());
    assertThat(txn(after).kind()).isEqualTo(OperationKind.DATA_REPLACEMENT);
    assertThat(after.manifest().fragments().get(0).files()).hasSize(1);
    assertThat(after.manifest().fragments().get(0).overlays()).isEqualTo(overlays);
    assertThat(flagged(after)).isTrue();
    MixedBatches.assertSameRows(DatasetApiTest.scanAll(after, 100), before);
    assertThat(after.countRows("a < 0")).isEqualTo(49);
  }

  @Test
  void cleanupKeepsOverlayFilesOfKeptVersions() throws Exception {
    Dataset ds = create("ds", LanceFileVersion.V2_1, 1200);
    ds = ds.updateOverlay("id < 10", set("s", "'o'")).dataset();
    ds = ds.updateOverlay("id >= 1100", set("s", "'p'")).dataset();
    String first = ds.manifest().fragments().get(0).overlays().get(0).path();
    ds.cleanup(CleanupPolicy.builder().retainVersions(1).deleteUnverified(true).build());
    assertThat(Files.exists(dir.resolve("ds/data/" + first))).isTrue();
    assertThat(ds.countRows("s = 'o'")).isEqualTo(10);
    Dataset compacted = ds.compact(CompactionOptions.builder().targetRowsPerFragment(5000).build());
    compacted.cleanup(CleanupPolicy.builder().retainVersions(1).deleteUnverified(true).build());
    assertThat(Files.exists(dir.resolve("ds/data/" + first))).isFalse();
    try (Stream<Path> s = Files.list(dir.resolve("ds/data"))) {
      assertThat(s.count()).isEqualTo(compacted.manifest().fragments().size());
    }
    assertThat(compacted.countRows("s = 'o' OR s = 'p'")).isEqualTo(110);
  }

  @Test
  void anOverlayUpdateMatchingNothingCommitsNothing() {
    Dataset ds = create("ds", LanceFileVersion.V2_1, 100);
    UpdateResult r = ds.updateOverlay("id < 0", set("s", "'u'"));
    assertThat(r.rowsUpdated()).isZero();
    assertThat(r.dataset().version()).isEqualTo(ds.version());
    assertThat(dir.resolve("ds/data").toFile().list()).hasSize(1);
    assertThatThrownBy(() -> ds.updateOverlay("id < 5", set("nope", "1")))
        .isInstanceOf(InvalidUpdateException.class)
        .hasMessage("Column 'nope' does not exist in the dataset: " + ds.location());
  }

  @Test
  void aFailingOverlayUpdateLeavesNoFiles() throws Exception {
    Dataset ds = create("ds", LanceFileVersion.V2_1, 2500);
    String[] before = dir.resolve("ds/data").toFile().list();
    // Fragment 0's overlay file is written before the division by zero at id 1300 in fragment 1.
    assertThatThrownBy(() -> ds.updateOverlay("id > 900", Map.of("id", "id / (id - 1300)")))
        .isInstanceOf(dev.javelin.core.exceptions.ExpressionException.class);
    assertThat(dir.resolve("ds/data").toFile().list()).containsExactlyInAnyOrder(before);
    assertThat(ds.checkoutLatest().version()).isEqualTo(ds.version());
  }

  @Test
  void overlayUpdatesRefuseStableRowIds() {
    List<VectorSchemaRoot> batches = MixedBatches.batches(allocator, 0, 10, 10);
    Dataset ds;
    try {
      ds = Dataset.create(dir.resolve("s"), batches, WriteParams.builder().enableStableRowIds(true).build(), allocator);
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
    assertThatThrownBy(() -> ds.updateOverlay("id < 5", set("s", "'u'")))
        .isInstanceOf(StableRowIdsUnsupportedException.class)
        .hasMessage("Javelin cannot commit a " + OperationKind.UPDATE.displayName()
            + " on a dataset with stable row ids yet (version 1): " + ds.location());
  }
}
