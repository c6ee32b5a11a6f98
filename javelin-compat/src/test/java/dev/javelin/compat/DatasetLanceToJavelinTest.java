package dev.javelin.compat;

import static dev.javelin.compat.DatasetCompatSupport.assertSameRows;
import static dev.javelin.compat.DatasetCompatSupport.batches;
import static dev.javelin.compat.DatasetCompatSupport.expected;
import static dev.javelin.compat.DatasetCompatSupport.javelinScan;
import static dev.javelin.compat.DatasetCompatSupport.readAll;
import static dev.javelin.compat.DatasetCompatSupport.readerOf;
import static dev.javelin.compat.DatasetCompatSupport.rows;
import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.exceptions.UnsupportedFormatException;
import dev.javelin.table.Fragment;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.ipc.ScanOptions;

/** Datasets lance-core 7.0.0 writes, read (and appended to) by Javelin. */
class DatasetLanceToJavelinTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private void lanceWrite(Path path, org.lance.WriteParams.WriteMode mode, String storageVersion, long start, int rows) {
    List<VectorSchemaRoot> data = batches(allocator, start, rows, 400);
    try (ArrowReader reader = readerOf(allocator, data)) {
      var builder = org.lance.Dataset.write().allocator(allocator).reader(reader).uri(path.toString()).mode(mode)
          .maxRowsPerFile(900);
      if (storageVersion != null) {
        builder.dataStorageVersion(storageVersion);
      }
      builder.execute().close();
    } catch (Exception e) {
      throw new RuntimeException(e);
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
  }

  @Test
  void javelinReadsALanceDataset20AndAppendsToIt() throws Exception {
    Path path = dir.resolve("ds");
    lanceWrite(path, org.lance.WriteParams.WriteMode.CREATE, "2.0", 0, 2000);
    lanceWrite(path, org.lance.WriteParams.WriteMode.APPEND, null, 2000, 1000);

    Dataset ds = Dataset.open(path, allocator);
    assertThat(ds.version()).isEqualTo(2);
    assertThat(ds.fileVersion()).isEqualTo(LanceFileVersion.V2_0);
    assertThat(ds.countRows()).isEqualTo(3000);
    assertThat(ds.manifest().fragments()).extracting(Fragment::physicalRows)
        .containsExactly(900L, 900L, 200L, 900L, 100L);
    assertThat(ds.versions()).extracting(v -> v.operation() + ":" + v.rowCount())
        .containsExactly("Overwrite:2000", "Append:3000");
    assertThat(ds.schema().flatten()).extracting(f -> f.name() + ":" + f.id())
        .containsExactly("id:0", "x:1", "s:2", "l:3", "item:4", "st:5", "a:6", "b:7");
    List<List<String>> all = expected(allocator, 0, 3000);
    assertSameRows(javelinScan(ds), all);
    long[] offsets = {2999, 0, 900, 899, 1999, 2000, 17, 900};
    try (VectorSchemaRoot got = ds.take(offsets)) {
      List<List<String>> want = new ArrayList<>();
      for (long o : offsets) {
        want.add(all.get((int) o));
      }
      assertSameRows(rows(got), want);
    }
    assertThat(Dataset.open(path, 1, allocator).countRows()).isEqualTo(2000);

    // Javelin appends (2.0 files, as the dataset stores), lance-core reads everything back.
    List<VectorSchemaRoot> more = batches(allocator, 3000, 500, 500);
    try {
      ds = ds.append(more, WriteParams.defaults());
    } finally {
      more.forEach(VectorSchemaRoot::close);
    }
    assertThat(ds.version()).isEqualTo(3);
    assertThat(ds.manifest().fragments().get(5).id()).isEqualTo(5);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.version()).isEqualTo(3);
      assertThat(lance.countRows()).isEqualTo(3500);
      try (var scanner = lance.newScan(new ScanOptions.Builder().build())) {
        assertSameRows(readAll(scanner.scanBatches()), expected(allocator, 0, 3500));
      }
    }
  }

  @Test
  void javelinReadsALanceDatasetWithV1ManifestNames() throws Exception {
    Path path = dir.resolve("ds");
    List<VectorSchemaRoot> data = batches(allocator, 0, 500, 500);
    try (ArrowReader reader = readerOf(allocator, data);
        org.apache.arrow.c.ArrowArrayStream stream = toStream(reader)) {
      org.lance.WriteParams params = new org.lance.WriteParams.Builder().withEnableV2ManifestPaths(false)
          .withDataStorageVersion("2.0").build();
      org.lance.Dataset.create(allocator, stream, path.toString(), params).close();
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
    assertThat(path.resolve("_versions/1.manifest")).exists();
    Dataset ds = Dataset.open(path, allocator);
    List<VectorSchemaRoot> more = batches(allocator, 500, 10, 10);
    try {
      ds = ds.append(more, WriteParams.defaults());
    } finally {
      more.forEach(VectorSchemaRoot::close);
    }
    assertThat(path.resolve("_versions/2.manifest")).exists();
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.countRows()).isEqualTo(510);
    }
    assertSameRows(javelinScan(ds), expected(allocator, 0, 510));
  }

  private org.apache.arrow.c.ArrowArrayStream toStream(ArrowReader reader) {
    org.apache.arrow.c.ArrowArrayStream stream = org.apache.arrow.c.ArrowArrayStream.allocateNew(allocator);
    org.apache.arrow.c.Data.exportArrayStream(allocator, reader, stream);
    return stream;
  }

  @Test
  void lanceDefault21DatasetIsReadOrNamedUnsupported() throws Exception {
    Path path = dir.resolve("ds");
    lanceWrite(path, org.lance.WriteParams.WriteMode.CREATE, null, 0, 1500);
    Dataset ds = Dataset.open(path, allocator);
    assertThat(ds.fileVersion()).isEqualTo(LanceFileVersion.V2_1);
    List<List<String>> got = javelinScan(ds);
    assertSameRows(got, expected(allocator, 0, 1500));
  }
}
