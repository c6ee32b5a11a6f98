package dev.javelin.compat;

import static dev.javelin.compat.DatasetCompatSupport.assertSameRows;
import static dev.javelin.compat.DatasetCompatSupport.batches;
import static dev.javelin.compat.DatasetCompatSupport.expected;
import static dev.javelin.compat.DatasetCompatSupport.javelinScan;
import static dev.javelin.compat.DatasetCompatSupport.readAll;
import static dev.javelin.compat.DatasetCompatSupport.readerOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.io.LocalObjectStore;
import dev.javelin.table.FeatureFlags;
import dev.javelin.table.Fragment;
import dev.javelin.table.proto.TableProtos;
import dev.javelin.table.rowids.RowIdSequence;
import dev.javelin.table.rowids.RowVersionSequence;
import dev.javelin.table.rowids.U64Segment;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.ipc.ScanOptions;

/** Stable row ids (feature flag 2) both ways between Javelin and lance-core 7.0.0. */
class DatasetStableRowIdsCompatTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private void lanceWrite(Path path, org.lance.WriteParams.WriteMode mode, long start, int rows) {
    List<VectorSchemaRoot> data = batches(allocator, start, rows, 400);
    try (ArrowReader reader = readerOf(allocator, data)) {
      org.lance.Dataset.write().allocator(allocator).reader(reader).uri(path.toString()).mode(mode)
          .maxRowsPerFile(900).enableStableRowIds(true).execute().close();
    } catch (Exception e) {
      throw new RuntimeException(e);
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
  }

  /**
   * The newest manifest's fragments, parsed from the file directly (Javelin's Table refuses
   * datasets with deletion files until it applies them; the sequences do not depend on them).
   */
  private static TableProtos.Manifest newestManifest(Path path) throws IOException {
    Path newest;
    try (Stream<Path> s = Files.list(path.resolve("_versions"))) {
      // V2 names count down: the smallest name is the newest version.
      newest = s.filter(p -> p.toString().endsWith(".manifest")).min(Path::compareTo).orElseThrow();
    }
    byte[] b = Files.readAllBytes(newest);
    ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    int pos = (int) bb.getLong(b.length - 16);
    int len = bb.getInt(pos);
    return TableProtos.Manifest.parseFrom(ByteBuffer.wrap(b, pos + 4, len));
  }

  /** lance-core's scan: for each live row, {_rowaddr, _rowid, created-at, last-updated-at} (versions -1 if absent). */
  private List<long[]> lanceRowIds(Path path, boolean withVersions) throws Exception {
    List<long[]> out = new ArrayList<>();
    List<String> cols = new ArrayList<>(List.of("id"));
    if (withVersions) {
      cols.add("_row_created_at_version");
      cols.add("_row_last_updated_at_version");
    }
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator);
        var scanner = lance.newScan(new ScanOptions.Builder().columns(cols).withRowId(true).withRowAddress(true)
            .build());
        ArrowReader r = scanner.scanBatches()) {
      while (r.loadNextBatch()) {
        VectorSchemaRoot root = r.getVectorSchemaRoot();
        for (int i = 0; i < root.getRowCount(); i++) {
          out.add(new long[] {u64(root.getVector("_rowaddr"), i), u64(root.getVector("_rowid"), i),
              withVersions ? u64(root.getVector("_row_created_at_version"), i) : -1,
              withVersions ? u64(root.getVector("_row_last_updated_at_version"), i) : -1});
        }
      }
    }
    return out;
  }

  private static long u64(FieldVector v, int i) {
    if (v instanceof UInt8Vector) {
      return ((UInt8Vector) v).get(i);
    }
    return ((BigIntVector) v).get(i);
  }

  /** Every live row's _rowid (and versions) as lance-core scans them equals Javelin's decoded sequences. */
  private void assertSequencesMatchLance(Path path, boolean withVersions) throws Exception {
    TableProtos.Manifest m = newestManifest(path);
    LocalObjectStore store = new LocalObjectStore(path);
    Map<Long, Fragment> byId = new HashMap<>();
    for (TableProtos.DataFragment p : m.getFragmentsList()) {
      Fragment f = Fragment.fromProto(p);
      byId.put(f.id(), f);
      assertThat(f.rowIdSequence(store)).as("fragment %d", f.id()).isPresent();
    }
    List<long[]> rows = lanceRowIds(path, withVersions);
    long live = 0;
    for (Fragment f : byId.values()) {
      live += f.physicalRows() - f.deletionFile().map(d -> d.numDeletedRows()).orElse(0L);
    }
    assertThat(rows).hasSize((int) live);
    for (long[] row : rows) {
      Fragment f = byId.get(row[0] >>> 32);
      long offset = row[0] & 0xFFFF_FFFFL;
      assertThat(f.rowIdSequence(store).orElseThrow().get(offset)).as("_rowid at %x", row[0]).isEqualTo(row[1]);
      if (withVersions) {
        assertThat(f.createdAtVersions(store).orElseThrow().get(offset)).as("created at %x", row[0])
            .isEqualTo(row[2]);
        assertThat(f.lastUpdatedAtVersions(store).orElseThrow().get(offset)).as("updated at %x", row[0])
            .isEqualTo(row[3]);
      }
    }
  }

  @Test
  void javelinDecodesLanceSequencesThroughAppendDeleteAndCompaction() throws Exception {
    Path path = dir.resolve("ds");
    lanceWrite(path, org.lance.WriteParams.WriteMode.CREATE, 0, 2000);
    lanceWrite(path, org.lance.WriteParams.WriteMode.APPEND, 2000, 1000);
    TableProtos.Manifest m = newestManifest(path);
    assertThat(m.getReaderFeatureFlags() & FeatureFlags.STABLE_ROW_IDS).isNotZero();
    assertThat(m.getNextRowId()).isEqualTo(3000);
    LocalObjectStore store = new LocalObjectStore(path);
    List<RowIdSequence> seqs = new ArrayList<>();
    for (TableProtos.DataFragment p : m.getFragmentsList()) {
      Fragment f = Fragment.fromProto(p);
      seqs.add(f.rowIdSequence(store).orElseThrow());
      // Javelin encodes what it decoded to the very bytes lance-core wrote.
      assertThat(seqs.get(seqs.size() - 1).toBytes()).isEqualTo(p.getInlineRowIds().toByteArray());
      long version = f.id() < 3 ? 1 : 2;
      assertThat(f.createdAtVersions(store)).contains(RowVersionSequence.uniform(f.physicalRows(), version));
      assertThat(f.lastUpdatedAtVersions(store)).contains(RowVersionSequence.uniform(f.physicalRows(), version));
      assertThat(RowVersionSequence.uniform(f.physicalRows(), version).toBytes())
          .isEqualTo(p.getInlineCreatedAtVersions().toByteArray());
    }
    assertThat(seqs).containsExactly(RowIdSequence.range(0, 900), RowIdSequence.range(900, 1800),
        RowIdSequence.range(1800, 2000), RowIdSequence.range(2000, 2900), RowIdSequence.range(2900, 3000));
    assertSequencesMatchLance(path, true);

    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.delete("(id < 1800 AND id % 10 = 3) OR (id >= 100 AND id < 900) OR id = 2500 OR id = 2601");
    }
    assertSequencesMatchLance(path, true);

    // Compaction rewrites fragments, keeping the ids: the sequences get holes.
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.compact(org.lance.compaction.CompactionOptions.builder().withTargetRowsPerFragment(1_000)
          .withMaterializeDeletions(true).build());
    }
    TableProtos.Manifest compacted = newestManifest(path);
    Set<U64Segment.Kind> kinds = EnumSet.noneOf(U64Segment.Kind.class);
    for (TableProtos.DataFragment p : compacted.getFragmentsList()) {
      RowIdSequence s = Fragment.fromProto(p).rowIdSequence(store).orElseThrow();
      s.segments().forEach(g -> kinds.add(g.kind()));
      // Javelin picks the same form lance-core picked for the same values.
      for (U64Segment g : s.segments()) {
        assertThat(U64Segment.of(g.toArray())).isEqualTo(g);
      }
      assertThat(s.toBytes()).isEqualTo(p.getInlineRowIds().toByteArray());
    }
    assertThat(kinds).as("segment kinds after compaction")
        .contains(U64Segment.Kind.RANGE_WITH_HOLES, U64Segment.Kind.RANGE_WITH_BITMAP);
    assertSequencesMatchLance(path, true);
  }

  @Test
  void lanceReadsAndAppendsToJavelinStableRowIds() throws Exception {
    Path path = dir.resolve("ds");
    WriteParams params = WriteParams.builder().maxRowsPerFile(700).enableStableRowIds(true).build();
    List<VectorSchemaRoot> first = batches(allocator, 0, 1500, 500);
    List<VectorSchemaRoot> second = batches(allocator, 1500, 500, 500);
    Dataset ds;
    try {
      ds = Dataset.create(path, first, params, allocator);
      ds = ds.append(second, WriteParams.defaults());
    } finally {
      first.forEach(VectorSchemaRoot::close);
      second.forEach(VectorSchemaRoot::close);
    }
    assertThat(ds.manifest().nextRowId()).isEqualTo(2000);

    // lance-core sees our ids: the id column holds the row number, which is the id we assigned.
    List<long[]> rows = lanceRowIds(path, true);
    assertThat(rows).hasSize(2000);
    for (long[] row : rows) {
      long frag = row[0] >>> 32;
      assertThat(row[1]).isEqualTo(frag < 3 ? frag * 700 + (row[0] & 0xFFFF_FFFFL)
          : 1500 + (frag - 3) * 700 + (row[0] & 0xFFFF_FFFFL));
      assertThat(row[2]).isEqualTo(frag < 3 ? 1 : 2);
      assertThat(row[3]).isEqualTo(row[2]);
    }
    assertSequencesMatchLance(path, true);

    // lance-core appends after our next_row_id, and deletes; Javelin decodes what it wrote.
    lanceWrite(path, org.lance.WriteParams.WriteMode.APPEND, 2000, 300);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.countRows()).isEqualTo(2300);
      try (var scanner = lance.newScan(new ScanOptions.Builder().build())) {
        assertSameRows(readAll(scanner.scanBatches()), expected(allocator, 0, 2300));
      }
    }
    TableProtos.Manifest m = newestManifest(path);
    assertThat(m.getNextRowId()).isEqualTo(2300);
    TableProtos.DataFragment last = m.getFragments(m.getFragmentsCount() - 1);
    assertThat(Fragment.fromProto(last).rowIdSequence(new LocalObjectStore(path)))
        .contains(RowIdSequence.range(2000, 2300));
    assertSequencesMatchLance(path, true);

    // And Javelin appends on top of lance-core's commit.
    ds = Dataset.open(path, allocator);
    List<VectorSchemaRoot> third = batches(allocator, 2300, 100, 100);
    try {
      ds = ds.append(third, WriteParams.defaults());
    } finally {
      third.forEach(VectorSchemaRoot::close);
    }
    assertThat(ds.manifest().fragments().get(ds.manifest().fragments().size() - 1)
        .rowIdSequence(new LocalObjectStore(path))).contains(RowIdSequence.range(2300, 2400));
    assertSameRows(javelinScan(ds), expected(allocator, 0, 2400));
    assertSequencesMatchLance(path, true);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.delete("id % 3 = 0");
      assertThat(lance.countRows()).isEqualTo(1600);
    }
    assertSequencesMatchLance(path, true);
  }

  /** Javelin's scan: for each live row, {_rowaddr, _rowid, created-at, last-updated-at}, as {@link #lanceRowIds}. */
  private static List<long[]> javelinRowIds(Dataset ds) throws Exception {
    List<long[]> out = new ArrayList<>();
    try (ArrowReader r = ds.newScan().columns("id").withRowId().withRowAddress().withRowLastUpdatedAtVersion()
        .withRowCreatedAtVersion().batchSize(333).build()) {
      VectorSchemaRoot root = r.getVectorSchemaRoot();
      while (r.loadNextBatch()) {
        for (int i = 0; i < root.getRowCount(); i++) {
          out.add(new long[] {u64(root.getVector("_rowaddr"), i), u64(root.getVector("_rowid"), i),
              u64(root.getVector("_row_created_at_version"), i), u64(root.getVector("_row_last_updated_at_version"), i)});
        }
      }
    }
    return out;
  }

  private static void assertSameIds(List<long[]> javelin, List<long[]> lance) {
    assertThat(javelin).hasSameSizeAs(lance);
    for (int i = 0; i < lance.size(); i++) {
      assertThat(javelin.get(i)).as("row %d", i).containsExactly(lance.get(i));
    }
  }

  /** Both sides' scans of meta columns agree, and both take the same rows by stable id. */
  private void assertSameAsLance(Path path, List<String> cols) throws Exception {
    Dataset ds = Dataset.open(path, allocator);
    List<long[]> lanceRows = lanceRowIds(path, true);
    assertSameIds(javelinRowIds(ds), lanceRows);
    assertSequencesMatchLance(path, true);
    // Every 7th live id, backwards, with a repeat.
    List<Long> ids = new ArrayList<>();
    for (int i = lanceRows.size() - 1; i >= 0; i -= 7) {
      ids.add(lanceRows.get(i)[1]);
    }
    ids.add(lanceRows.get(0)[1]);
    ids.add(lanceRows.get(0)[1]);
    List<List<String>> lanceTaken;
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator);
        ArrowReader r = lance.takeRows(ids, cols)) {
      lanceTaken = readAll(r);
    }
    List<List<String>> javelinTaken;
    try (VectorSchemaRoot got = ds.takeRows(ids.stream().mapToLong(Long::longValue).toArray(), cols)) {
      javelinTaken = DatasetCompatSupport.rows(got);
    }
    assertThat(javelinTaken).hasSize(ids.size());
    assertSameRows(javelinTaken, lanceTaken);
  }

  private static long version(long id, long[] boundaries) {
    long v = 1;
    for (long b : boundaries) {
      if (id >= b) {
        v++;
      }
    }
    return v;
  }

  @Test
  void idsVersionsAndTakesAgreeThroughAddColumnsDeletesAndDropsOnAJavelinDataset() throws Exception {
    Path path = dir.resolve("ds");
    List<VectorSchemaRoot> first = batches(allocator, 0, 1500, 500);
    List<VectorSchemaRoot> second = batches(allocator, 1500, 500, 500);
    Dataset ds;
    try {
      ds = Dataset.create(path, first, WriteParams.builder().maxRowsPerFile(700).enableStableRowIds(true).build(),
          allocator); // v1
      ds = ds.append(second, WriteParams.defaults()); // v2
    } finally {
      first.forEach(VectorSchemaRoot::close);
      second.forEach(VectorSchemaRoot::close);
    }
    lanceWrite(path, org.lance.WriteParams.WriteMode.APPEND, 2000, 300); // v3
    ds = Dataset.open(path, allocator);
    org.apache.arrow.vector.types.pojo.Schema y = new org.apache.arrow.vector.types.pojo.Schema(List.of(
        org.apache.arrow.vector.types.pojo.Field.nullable("y",
            new org.apache.arrow.vector.types.pojo.ArrowType.Int(64, true))));
    ds = ds.addColumns(y, List.of("id"), in -> { // v4
      VectorSchemaRoot out = VectorSchemaRoot.create(y, allocator);
      for (int i = 0; i < in.getRowCount(); i++) {
        ((BigIntVector) out.getVector(0)).setSafe(i, ((BigIntVector) in.getVector(0)).get(i) * 2);
      }
      out.setRowCount(in.getRowCount());
      return out;
    });
    // lance-core sees Javelin's add columns as it would its own: every row last updated at v4.
    assertThat(lanceRowIds(path, true)).hasSize(2300).allSatisfy(r -> assertThat(r[3]).isEqualTo(4));
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.addColumns(new org.lance.schema.SqlExpressions.Builder().withExpression("w", "id + 1").build(),
          java.util.Optional.empty()); // v5
    }
    assertSameAsLance(path, List.of("id", "y", "w"));
    // Adding columns with data moves every row's last-updated-at (lance-core's v5, after Javelin's v4),
    // not its created-at.
    for (long[] row : lanceRowIds(path, true)) {
      assertThat(row[2]).isEqualTo(version(row[1], new long[] {1500, 2000}));
      assertThat(row[3]).isEqualTo(5);
    }
    ds = Dataset.open(path, allocator).delete("id % 4 = 0 OR (id >= 700 AND id < 1400)"); // v6: fragment 1 goes
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.delete("id >= 100 AND id < 200"); // v7
    }
    ds = Dataset.open(path, allocator).dropColumns("x"); // v8
    assertThat(ds.version()).isEqualTo(8);
    assertSameAsLance(path, List.of("id", "s", "w", "y"));
    for (long[] row : lanceRowIds(path, true)) {
      assertThat(row[3]).as("a delete or a drop changes no version").isEqualTo(5);
    }
    // Meta columns named in the column list come where named, the others after, on both sides.
    List<String> cols = List.of("id", "_row_created_at_version", "_row_last_updated_at_version");
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator);
        var scanner = lance.newScan(new ScanOptions.Builder().columns(cols).withRowId(true).withRowAddress(true)
            .build())) {
      // readAll closes the readers.
      ArrowReader lr = scanner.scanBatches();
      ArrowReader jr = ds.newScan().columns(cols).withRowId().withRowAddress().build();
      List<String> lanceNames = new ArrayList<>();
      lr.getVectorSchemaRoot().getSchema().getFields().forEach(f -> lanceNames.add(f.getName()));
      List<String> javelinNames = new ArrayList<>();
      jr.getVectorSchemaRoot().getSchema().getFields().forEach(f -> javelinNames.add(f.getName()));
      List<List<String>> lanceRows = readAll(lr);
      assertSameRows(readAll(jr), lanceRows);
      assertThat(javelinNames).isEqualTo(lanceNames)
          .containsExactly("id", "_row_created_at_version", "_row_last_updated_at_version", "_rowid", "_rowaddr");
    }
    // A deleted id: Javelin names it; lance-core leaves it out.
    Dataset last = ds;
    assertThatThrownBy(() -> last.takeRows(new long[] {1, 4}, List.of("id")))
        .isInstanceOf(dev.javelin.table.exceptions.RowIdNotFoundException.class)
        .hasMessage("Row id 4 is deleted in version 8: " + ds.location());
  }

  @Test
  void idsVersionsAndTakesAgreeOnALanceDatasetWithAddedColumnsAndDeletes() throws Exception {
    Path path = dir.resolve("ds");
    lanceWrite(path, org.lance.WriteParams.WriteMode.CREATE, 0, 2000); // v1
    lanceWrite(path, org.lance.WriteParams.WriteMode.APPEND, 2000, 1000); // v2
    List<VectorSchemaRoot> more = batches(allocator, 3000, 100, 100);
    try {
      Dataset.open(path, allocator).append(more, WriteParams.defaults()); // v3
    } finally {
      more.forEach(VectorSchemaRoot::close);
    }
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.addColumns(new org.lance.schema.SqlExpressions.Builder().withExpression("w", "id * 3").build(),
          java.util.Optional.empty()); // v4
      lance.delete("id % 5 = 2 OR (id >= 900 AND id < 1800)"); // v5
    }
    assertSameAsLance(path, List.of("w", "id"));
    assertThat(lanceRowIds(path, true)).allSatisfy(r -> assertThat(r[3]).isEqualTo(4));
    Dataset ds = Dataset.open(path, allocator).delete("id = 2999 OR id = 3050"); // v6
    ds = ds.alterColumns(dev.javelin.core.ColumnAlteration.of("w").rename("w3")); // v7
    assertThat(ds.version()).isEqualTo(7);
    assertSameAsLance(path, List.of("w3", "id", "st"));
    assertThat(lanceRowIds(path, true)).filteredOn(r -> r[1] >= 3000).hasSize(79)
        .allSatisfy(r -> assertThat(r[2]).isEqualTo(3));
    // lance-core compacts (sequences with holes and bitmaps, mixed versions); Javelin reads and deletes on it.
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.compact(org.lance.compaction.CompactionOptions.builder().withTargetRowsPerFragment(1_500)
          .withMaterializeDeletions(true).build());
    }
    Set<U64Segment.Kind> kinds = EnumSet.noneOf(U64Segment.Kind.class);
    for (TableProtos.DataFragment p : newestManifest(path).getFragmentsList()) {
      Fragment.fromProto(p).rowIdSequence(new LocalObjectStore(path)).orElseThrow().segments()
          .forEach(g -> kinds.add(g.kind()));
    }
    assertThat(kinds).containsAnyOf(U64Segment.Kind.RANGE_WITH_HOLES, U64Segment.Kind.RANGE_WITH_BITMAP);
    assertSameAsLance(path, List.of("id", "w3"));
    Dataset.open(path, allocator).delete("id % 7 = 0");
    assertSameAsLance(path, List.of("id", "w3"));
  }

  @Test
  void withoutStableRowIdsLanceAnswersVersionOneWhereJavelinRefuses() throws Exception {
    Path path = dir.resolve("plain");
    List<VectorSchemaRoot> data = batches(allocator, 0, 300, 300);
    Dataset ds;
    try {
      ds = Dataset.create(path, data, WriteParams.defaults(), allocator);
      ds = ds.append(data, WriteParams.defaults());
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
    // lance-core makes up version 1 for every row, even those version 2 wrote.
    List<long[]> lance = lanceRowIds(path, true);
    assertThat(lance).hasSize(600).allSatisfy(r -> {
      assertThat(r[2]).isEqualTo(1);
      assertThat(r[3]).isEqualTo(1);
      assertThat(r[1]).isEqualTo(r[0]);
    });
    Dataset plain = ds;
    assertThatThrownBy(() -> plain.newScan().withRowCreatedAtVersion().build())
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
