package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.exceptions.ColumnNotFoundException;
import dev.javelin.table.Fragment;
import dev.javelin.table.exceptions.DatasetExistsException;
import dev.javelin.table.exceptions.SchemaMismatchException;
import dev.javelin.testing.MixedBatches;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class DatasetApiTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private Dataset create(Path path, LanceFileVersion v, long start, int rows, long rowsPerFile) {
    List<VectorSchemaRoot> batches = MixedBatches.batches(allocator, start, rows, 700);
    try {
      return Dataset.create(path, batches,
          WriteParams.builder().fileVersion(v).maxRowsPerFile(rowsPerFile).maxRowsPerGroup(300).build(), allocator);
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  private Dataset append(Dataset ds, long start, int rows) {
    List<VectorSchemaRoot> batches = MixedBatches.batches(allocator, start, rows, 500);
    try {
      return ds.append(batches, WriteParams.builder().maxRowsPerFile(1000).build());
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  private List<List<Object>> expected(long start, int rows) {
    try (VectorSchemaRoot r = MixedBatches.batch(allocator, start, rows)) {
      return MixedBatches.rows(r);
    }
  }

  static List<List<Object>> scanAll(Dataset ds, int batchSize, String... columns) throws Exception {
    List<List<Object>> out = new ArrayList<>();
    ScanBuilder scan = ds.newScan().batchSize(batchSize);
    if (columns.length > 0) {
      scan.columns(columns);
    }
    try (ArrowReader r = scan.build()) {
      while (r.loadNextBatch()) {
        assertThat(r.getVectorSchemaRoot().getRowCount()).isBetween(1, batchSize);
        out.addAll(MixedBatches.rows(r.getVectorSchemaRoot()));
      }
    }
    return out;
  }

  private long dataFiles(Path path) throws Exception {
    if (!Files.isDirectory(path.resolve("data"))) {
      return 0;
    }
    try (Stream<Path> s = Files.list(path.resolve("data"))) {
      return s.count();
    }
  }

  @ParameterizedTest
  @EnumSource(value = LanceFileVersion.class, names = {"V2_0", "V2_1"})
  void createAppendScanTake(LanceFileVersion v) throws Exception {
    Path path = dir.resolve("ds");
    Dataset ds = create(path, v, 0, 2500, 1000);
    assertThat(ds.version()).isEqualTo(1);
    assertThat(ds.fileVersion()).isEqualTo(v);
    assertThat(ds.manifest().fragments()).extracting(Fragment::physicalRows).containsExactly(1000L, 1000L, 500L);
    assertThat(ds.countRows()).isEqualTo(2500);
    MixedBatches.assertSameRows(scanAll(ds, 333), expected(0, 2500));

    Dataset v2 = append(ds, 2500, 1200);
    assertThat(v2.version()).isEqualTo(2);
    assertThat(v2.manifest().fragments()).extracting(Fragment::id).containsExactly(0L, 1L, 2L, 3L, 4L);
    List<List<Object>> all = expected(0, 3700);
    MixedBatches.assertSameRows(scanAll(v2, 4096), all);
    assertThat(dataFiles(path)).isEqualTo(5);

    // Reopen from disk, old and new.
    assertThat(Dataset.open(path, allocator).countRows()).isEqualTo(3700);
    MixedBatches.assertSameRows(scanAll(Dataset.open(path, 1, allocator), 1000), expected(0, 2500));

    long[] offsets = {3699, 0, 1000, 999, 2500, 1000, 17, 3001};
    try (VectorSchemaRoot got = v2.take(offsets)) {
      List<List<Object>> rows = MixedBatches.rows(got);
      for (int i = 0; i < offsets.length; i++) {
        assertThat(rows.get(i)).as("offset %d", offsets[i]).isEqualTo(all.get((int) offsets[i]));
      }
    }
    try (VectorSchemaRoot got = v2.take(new long[] {5, 2600}, List.of("s", "id"))) {
      assertThat(MixedBatches.rows(got)).containsExactly(
          List.of(all.get(5).get(2), all.get(5).get(0)).stream().toList(),
          java.util.Arrays.asList(all.get(2600).get(2), all.get(2600).get(0)));
    }
    assertThatThrownBy(() -> v2.take(new long[] {3700})).isInstanceOf(IndexOutOfBoundsException.class)
        .hasMessage("Row offset 3700 is out of range for a dataset of 3700 rows (version 2): " + v2.location());
  }

  @Test
  void projectionInAnyOrder() throws Exception {
    Dataset ds = create(dir.resolve("ds"), LanceFileVersion.V2_1, 0, 1500, 1000);
    List<List<Object>> all = expected(0, 1500);
    List<List<Object>> got = scanAll(ds, 400, "st", "id");
    for (int i = 0; i < all.size(); i++) {
      assertThat(got.get(i)).isEqualTo(java.util.Arrays.asList(all.get(i).get(4), all.get(i).get(0)));
    }
    assertThatThrownBy(() -> ds.newScan().columns("nope").build()).isInstanceOf(ColumnNotFoundException.class);
  }

  @Test
  void versionsAndOverwrite() throws Exception {
    Path path = dir.resolve("ds");
    Dataset ds = create(path, LanceFileVersion.V2_0, 0, 100, 1000);
    ds = append(ds, 100, 50);
    Schema other = new Schema(List.of(Field.nullable("k", new ArrowType.Int(32, true))));
    try (VectorSchemaRoot root = VectorSchemaRoot.create(other, allocator)) {
      IntVector k = (IntVector) root.getVector("k");
      k.allocateNew(3);
      for (int i = 0; i < 3; i++) {
        k.set(i, i * 10);
      }
      root.setRowCount(3);
      ds = ds.overwrite(List.of(root), WriteParams.defaults());
    }
    assertThat(ds.version()).isEqualTo(3);
    assertThat(ds.fileVersion()).isEqualTo(LanceFileVersion.V2_0);
    assertThat(ds.schema().fields()).extracting(f -> f.name() + ":" + f.id()).containsExactly("k:0");
    assertThat(scanAll(ds, 10)).containsExactly(List.of("0"), List.of("10"), List.of("20"));
    assertThat(ds.versions()).extracting(VersionInfo::toString)
        .containsExactly("v1 Overwrite (100 rows)", "v2 Append (150 rows)", "v3 Overwrite (3 rows)");
    assertThat(ds.versions()).allSatisfy(vi -> assertThat(vi.timestamp()).isPresent());
    // The old version is still there, with its own schema.
    assertThat(ds.checkout(2).schema().fields()).hasSize(5);
    assertThat(ds.checkout(2).schema().flatten()).extracting(f -> f.id()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
  }

  @Test
  void appendWithAnotherSchemaChangesNothing() throws Exception {
    Path path = dir.resolve("ds");
    Dataset ds = create(path, LanceFileVersion.V2_1, 0, 100, 1000);
    Schema wrong = new Schema(List.of(
        Field.notNullable("id", new ArrowType.Int(32, true))));
    try (VectorSchemaRoot root = VectorSchemaRoot.create(wrong, allocator)) {
      root.setRowCount(0);
      assertThatThrownBy(() -> ds.append(List.of(root), WriteParams.defaults()))
          .isInstanceOf(SchemaMismatchException.class)
          .hasMessage("Field 'id' does not match the dataset's schema (id is Int(32, true) in the data but "
              + "Int(64, true) in the dataset): " + ds.location())
          .satisfies(e -> assertThat(((SchemaMismatchException) e).field()).isEqualTo("id"));
    }
    // A later batch with a missing column fails after earlier batches were written: they are removed.
    List<VectorSchemaRoot> batches = new ArrayList<>(MixedBatches.batches(allocator, 100, 100, 50));
    Schema partial = new Schema(MixedBatches.SCHEMA.getFields().subList(0, 2));
    VectorSchemaRoot bad = VectorSchemaRoot.create(partial, allocator);
    batches.add(bad);
    try {
      assertThatThrownBy(() -> ds.append(batches, WriteParams.builder().maxRowsPerFile(60).build()))
          .isInstanceOf(SchemaMismatchException.class).hasMessageContaining("Field 's'")
          .hasMessageContaining("missing from the data");
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
    Dataset latest = Dataset.open(path, allocator);
    assertThat(latest.version()).isEqualTo(1);
    assertThat(dataFiles(path)).isEqualTo(1);
    assertThat(Files.list(path.resolve("_transactions")).count()).isEqualTo(1);
    assertThatThrownBy(() -> ds.append(List.of(), WriteParams.builder().fileVersion(LanceFileVersion.V2_0).build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot append 2.0 files to a dataset of 2.1 files: " + ds.location());
  }

  @Test
  void createRefusesAnExistingDataset() {
    Path path = dir.resolve("ds");
    create(path, LanceFileVersion.V2_1, 0, 10, 1000);
    assertThatThrownBy(() -> create(path, LanceFileVersion.V2_1, 0, 10, 1000))
        .isInstanceOf(DatasetExistsException.class);
  }

  @Test
  void appendsFromAnOldSnapshotRebase() throws Exception {
    Path path = dir.resolve("ds");
    Dataset v1 = create(path, LanceFileVersion.V2_1, 0, 100, 1000);
    append(v1, 100, 10);
    Dataset v3 = append(v1, 110, 20); // read version 1, commits as 3 on top of 2
    assertThat(v3.version()).isEqualTo(3);
    MixedBatches.assertSameRows(scanAll(v3, 1000), expected(0, 130));
  }

  @Test
  void concurrentAppendsAllLand() throws Exception {
    Path path = dir.resolve("ds");
    Dataset v1 = create(path, LanceFileVersion.V2_1, 0, 10, 1000);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<Future<Dataset>> fs = new ArrayList<>();
    try {
      for (int i = 0; i < 4; i++) {
        long start = 10 + i * 10L;
        fs.add(pool.submit(() -> append(v1, start, 10)));
      }
      for (Future<Dataset> f : fs) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    Dataset latest = Dataset.open(path, allocator);
    assertThat(latest.version()).isEqualTo(5);
    List<List<Object>> rows = scanAll(latest, 100);
    rows.sort(java.util.Comparator.comparing(r -> Long.parseLong((String) r.get(0))));
    MixedBatches.assertSameRows(rows, expected(0, 50));
  }

  @Test
  void emptyCreateFromAReaderKeepsTheSchema() throws Exception {
    Path path = dir.resolve("ds");
    try (VectorSchemaRoot root = VectorSchemaRoot.create(MixedBatches.SCHEMA, allocator)) {
      root.setRowCount(0);
      Dataset ds = Dataset.create(path, List.of(root), WriteParams.defaults(), allocator);
      assertThat(ds.countRows()).isZero();
      assertThat(ds.manifest().fragments()).isEmpty();
      assertThat(ds.manifest().maxFragmentId()).isEmpty();
      assertThat(scanAll(ds, 10)).isEmpty();
      Dataset v2 = append(ds, 0, 5);
      assertThat(v2.manifest().fragments()).extracting(Fragment::id).containsExactly(0L);
      MixedBatches.assertSameRows(scanAll(v2, 10), expected(0, 5));
    }
  }
}
