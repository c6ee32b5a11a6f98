package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.io.LocalObjectStore;
import dev.javelin.table.Fragment;
import dev.javelin.table.exceptions.RowIdNotFoundException;
import dev.javelin.table.exceptions.RowNotFoundException;
import dev.javelin.table.exceptions.UnsupportedFeatureException;
import dev.javelin.table.rowids.RowIdSequence;
import dev.javelin.testing.MixedBatches;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatasetStableRowIdsTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private Dataset write(Dataset ds, Path path, long start, int rows, WriteParams params) {
    List<VectorSchemaRoot> batches = MixedBatches.batches(allocator, start, rows, 500);
    try {
      return ds == null ? Dataset.create(path, batches, params, allocator) : ds.overwrite(batches, params);
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  @Test
  void createWithStableRowIdsAssignsIdsPerFragment() {
    Path path = dir.resolve("ds");
    WriteParams params = WriteParams.builder().maxRowsPerFile(400).enableStableRowIds(true).build();
    assertThat(params.enableStableRowIds()).isTrue();
    assertThat(WriteParams.defaults().enableStableRowIds()).isFalse();
    Dataset ds = write(null, path, 0, 1000, params);
    LocalObjectStore store = new LocalObjectStore(path);
    assertThat(ds.manifest().fragments()).extracting(f -> f.rowIdSequence(store).orElseThrow())
        .containsExactly(RowIdSequence.range(0, 400), RowIdSequence.range(400, 800), RowIdSequence.range(800, 1000));
    assertThat(ds.manifest().nextRowId()).isEqualTo(1000);
    // An overwrite keeps the feature and does not reuse ids.
    ds = write(ds, path, 0, 10, WriteParams.defaults());
    assertThat(ds.manifest().fragments().get(0).rowIdSequence(store)).contains(RowIdSequence.range(1000, 1010));
    assertThat(ds.countRows()).isEqualTo(10);
  }

  @Test
  void cannotTurnStableRowIdsOnForAnExistingDataset() {
    Path path = dir.resolve("ds");
    Dataset ds = write(null, path, 0, 100, WriteParams.defaults());
    assertThat(ds.manifest().fragments()).allSatisfy(
        (Fragment f) -> assertThat(f.rowIdSequence(new LocalObjectStore(path))).isEmpty());
    Dataset before = ds;
    assertThatThrownBy(() -> write(before, path, 0, 10, WriteParams.builder().enableStableRowIds(true).build()))
        .isInstanceOf(UnsupportedFeatureException.class)
        .hasMessage("Cannot enable stable row ids on an existing dataset (version 1 has none): " + ds.location());
    assertThat(Dataset.open(path, allocator).version()).isEqualTo(1);
    assertThat(path.resolve("data").toFile().list()).hasSize(1);
  }

  private Dataset stable(Path path) {
    // Versions: 1 create (ids 0..999 in fragments of 400), 2 append (ids 1000..1499).
    Dataset ds = write(null, path, 0, 1000, WriteParams.builder().maxRowsPerFile(400).enableStableRowIds(true).build());
    List<VectorSchemaRoot> more = MixedBatches.batches(allocator, 1000, 500, 500);
    try {
      return ds.append(more, WriteParams.defaults());
    } finally {
      more.forEach(VectorSchemaRoot::close);
    }
  }

  /** Rows of a scan with every meta column: {id, _rowid, _rowaddr, last updated, created}. */
  private List<long[]> scanMeta(ScanBuilder scan) throws Exception {
    List<long[]> out = new ArrayList<>();
    try (ArrowReader r = scan.withRowId().withRowAddress().withRowLastUpdatedAtVersion().withRowCreatedAtVersion()
        .build()) {
      VectorSchemaRoot root = r.getVectorSchemaRoot();
      assertThat(root.getSchema().getFields()).extracting(Field::getName).containsExactly("id", "_rowid", "_rowaddr",
          "_row_last_updated_at_version", "_row_created_at_version");
      assertThat(root.getSchema().getFields().subList(1, 5)).allSatisfy(f -> {
        assertThat(f.getType()).isEqualTo(new ArrowType.Int(64, false));
        assertThat(f.isNullable()).isFalse();
      });
      while (r.loadNextBatch()) {
        for (int i = 0; i < root.getRowCount(); i++) {
          long[] row = new long[5];
          row[0] = ((BigIntVector) root.getVector(0)).get(i);
          for (int c = 1; c < 5; c++) {
            row[c] = ((UInt8Vector) root.getVector(c)).get(i);
          }
          out.add(row);
        }
      }
    }
    return out;
  }

  @Test
  void scansReturnStableIdsAndVersionsThroughAddColumnsDeletesAndDrops() throws Exception {
    Path path = dir.resolve("ds");
    Dataset ds = stable(path);
    // v3: add a column (every fragment gains a file: ids stay, rows are last updated at v3).
    Schema extra = new Schema(List.of(Field.nullable("y", new ArrowType.Int(64, true))));
    ds = ds.addColumns(extra, List.of("id"), in -> {
      VectorSchemaRoot out = VectorSchemaRoot.create(extra, allocator);
      BigIntVector y = (BigIntVector) out.getVector(0);
      for (int i = 0; i < in.getRowCount(); i++) {
        y.setSafe(i, ((BigIntVector) in.getVector(0)).get(i) * 2);
      }
      out.setRowCount(in.getRowCount());
      return out;
    });
    // v4: delete; v5: drop a column.
    ds = ds.delete("id % 3 = 0 OR (id >= 400 AND id < 800)");
    ds = ds.dropColumns("s");
    assertThat(ds.version()).isEqualTo(5);
    assertThat(ds.manifest().nextRowId()).isEqualTo(1500);
    List<long[]> rows = scanMeta(ds.newScan().columns("id").batchSize(128));
    assertThat(rows).hasSize((int) ds.countRows());
    assertThat(rows).extracting(r -> r[0]).doesNotContain(0L, 3L, 400L, 401L, 799L, 1002L);
    for (long[] r : rows) {
      // Ids were assigned in row order, so each row's id is its id column; fragment 1 lost every row.
      assertThat(r[1]).as("_rowid of %d", r[0]).isEqualTo(r[0]);
      long frag = r[2] >>> 32;
      assertThat(r[2] & 0xFFFF_FFFFL).isEqualTo(frag < 3 ? r[0] - 400 * frag : r[0] - 1000 - 400 * (frag - 3));
      long version = r[0] < 1000 ? 1 : 2;
      assertThat(r[3]).as("last updated of %d", r[0]).isEqualTo(3);
      assertThat(r[4]).as("created of %d", r[0]).isEqualTo(version);
    }
    assertThat(ds.manifest().fragments()).extracting(Fragment::id).doesNotContain(1L);
    // The filtered path (filter, offset, limit) carries the meta columns too.
    List<long[]> filtered = scanMeta(ds.newScan().columns("id").filter("y > 2400").offset(2).limit(5));
    assertThat(filtered).extracting(r -> r[0]).containsExactly(1204L, 1205L, 1207L, 1208L, 1210L);
    assertThat(filtered).allSatisfy(r -> assertThat(r[1]).isEqualTo(r[0]));
    assertThat(filtered).allSatisfy(r -> assertThat(r[4]).isEqualTo(2));
    assertThat(filtered).allSatisfy(r -> assertThat(r[3]).isEqualTo(3));
    // Meta columns alone, no data column.
    try (ArrowReader r = ds.newScan().columns(List.of()).withRowCreatedAtVersion().build()) {
      long n = 0;
      while (r.loadNextBatch()) {
        n += r.getVectorSchemaRoot().getRowCount();
      }
      assertThat(n).isEqualTo(ds.countRows());
    }
  }

  @Test
  void takeRowsFindsRowsByStableIdAfterDeletes() throws Exception {
    Path path = dir.resolve("ds");
    Dataset ds = stable(path).delete("id % 3 = 0");
    assertThat(ds.hasStableRowIds()).isTrue();
    try (VectorSchemaRoot got = ds.takeRows(new long[] {1202, 5, 1499, 5, 401}, List.of("id", "s"))) {
      assertThat(got.getRowCount()).isEqualTo(5);
      BigIntVector id = (BigIntVector) got.getVector("id");
      assertThat(List.of(id.get(0), id.get(1), id.get(2), id.get(3), id.get(4)))
          .containsExactly(1202L, 5L, 1499L, 5L, 401L);
      assertThat(got.getVector("s").getObject(0).toString()).isEqualTo("s1202" + "x".repeat((int) (1202 % 13)));
    }
    Dataset at = ds;
    assertThatThrownBy(() -> at.takeRows(new long[] {4, 3}, null))
        .isInstanceOfSatisfying(RowIdNotFoundException.class, e -> {
          assertThat(e.rowId()).isEqualTo(3);
          assertThat(e.deleted()).isTrue();
        })
        .isInstanceOf(RowNotFoundException.class)
        .hasMessage("Row id 3 is deleted in version 3: " + ds.location());
    assertThatThrownBy(() -> at.takeRows(new long[] {1500}, null))
        .isInstanceOfSatisfying(RowIdNotFoundException.class, e -> assertThat(e.deleted()).isFalse())
        .hasMessage("Row id 1500 is unknown in version 3: " + ds.location());
    // A row address is not a stable id: fragment 1's first row has address 1 << 32.
    assertThatThrownBy(() -> at.takeRows(new long[] {1L << 32}, null))
        .hasMessage("Row id 4294967296 is unknown in version 3: " + ds.location());
    // An overwrite takes new ids: old ones are unknown, new ones start at next_row_id.
    Dataset over = write(ds, path, 0, 10, WriteParams.defaults());
    assertThatThrownBy(() -> over.takeRows(new long[] {1}, null)).isInstanceOf(RowIdNotFoundException.class);
    try (VectorSchemaRoot got = over.takeRows(new long[] {1509, 1500}, List.of("id"))) {
      assertThat(((BigIntVector) got.getVector(0)).get(0)).isEqualTo(9);
      assertThat(((BigIntVector) got.getVector(0)).get(1)).isEqualTo(0);
    }
    // The older version still takes its own ids.
    try (VectorSchemaRoot got = ds.checkout(2).takeRows(new long[] {3}, List.of("id"))) {
      assertThat(((BigIntVector) got.getVector(0)).get(0)).isEqualTo(3);
    }
  }

  @Test
  void withoutStableRowIdsTakeRowsIsByAddressAndVersionsAreRefused() throws Exception {
    Path path = dir.resolve("plain");
    Dataset ds = write(null, path, 0, 1000, WriteParams.builder().maxRowsPerFile(400).build());
    assertThat(ds.hasStableRowIds()).isFalse();
    try (VectorSchemaRoot got = ds.takeRows(new long[] {1L << 32 | 5}, List.of("id"))) {
      assertThat(((BigIntVector) got.getVector(0)).get(0)).isEqualTo(405);
    }
    assertThatThrownBy(() -> ds.newScan().withRowCreatedAtVersion().build())
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessage("Row versions (_row_created_at_version) are only recorded in datasets with stable row ids; "
            + "version 1 has none: " + ds.location());
    assertThatThrownBy(() -> ds.newScan().withRowLastUpdatedAtVersion().build())
        .hasMessage("Row versions (_row_last_updated_at_version) are only recorded in datasets with stable row ids; "
            + "version 1 has none: " + ds.location());
    // _rowid is the address there.
    try (ArrowReader r = ds.newScan().columns(List.of()).withRowId().batchSize(1000).build()) {
      assertThat(r.loadNextBatch()).isTrue();
      r.loadNextBatch();
      assertThat(((UInt8Vector) r.getVectorSchemaRoot().getVector(0)).get(3)).isEqualTo(1L << 32 | 3);
    }
  }

  @Test
  void metaColumnsNamedInColumnsComeWhereNamed() throws Exception {
    Dataset ds = stable(dir.resolve("ds")).delete("id < 10");
    for (boolean filtered : new boolean[] {false, true}) {
      ScanBuilder scan = ds.newScan().columns("_row_created_at_version", "id", "_rowid").withRowAddress().withRowId();
      if (filtered) {
        scan.filter("id >= 1000");
      }
      try (ArrowReader r = scan.build()) {
        VectorSchemaRoot root = r.getVectorSchemaRoot();
        assertThat(root.getSchema().getFields()).extracting(Field::getName)
            .containsExactly("_row_created_at_version", "id", "_rowid", "_rowaddr");
        assertThat(r.loadNextBatch()).isTrue();
        long id = ((BigIntVector) root.getVector(1)).get(0);
        assertThat(id).isEqualTo(filtered ? 1000 : 10);
        assertThat(((UInt8Vector) root.getVector(0)).get(0)).isEqualTo(filtered ? 2 : 1);
        assertThat(((UInt8Vector) root.getVector(2)).get(0)).isEqualTo(id);
        assertThat(((UInt8Vector) root.getVector(3)).get(0)).isEqualTo(filtered ? 3L << 32 : 10);
      }
    }
    assertThatThrownBy(() -> ds.newScan().columns("_rowid", "_rowid").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Column _rowid is asked for twice: " + ds.location());
    Dataset plain = write(null, dir.resolve("plain"), 0, 10, WriteParams.defaults());
    assertThatThrownBy(() -> plain.newScan().columns("id", "_row_last_updated_at_version").build())
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessage("Row versions (_row_last_updated_at_version) are only recorded in datasets with stable row ids;"
            + " version 1 has none: " + plain.location());
  }

  @Test
  void restoreBringsBackTheOldIds() throws Exception {
    Path path = dir.resolve("ds");
    Dataset ds = stable(path);
    ds = write(ds, path, 0, 10, WriteParams.defaults()); // v3: ids 1500..1509
    Dataset restored = ds.checkout(2).restore();
    assertThat(restored.version()).isEqualTo(4);
    assertThat(restored.manifest().nextRowId()).isEqualTo(1500);
    List<long[]> rows = scanMeta(restored.newScan().columns("id"));
    assertThat(rows).hasSize(1500).allSatisfy(r -> assertThat(r[1]).isEqualTo(r[0]));
    assertThat(rows.get(1499)[4]).isEqualTo(2);
    try (VectorSchemaRoot got = restored.takeRows(new long[] {1499}, List.of("id"))) {
      assertThat(((BigIntVector) got.getVector(0)).get(0)).isEqualTo(1499);
    }
  }
}
