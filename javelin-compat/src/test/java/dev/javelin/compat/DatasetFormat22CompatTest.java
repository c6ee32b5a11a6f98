package dev.javelin.compat;

import static dev.javelin.compat.DatasetCompatSupport.assertSameRows;
import static dev.javelin.compat.DatasetCompatSupport.batches;
import static dev.javelin.compat.DatasetCompatSupport.expected;
import static dev.javelin.compat.DatasetCompatSupport.javelinScan;
import static dev.javelin.compat.DatasetCompatSupport.readAll;
import static dev.javelin.compat.DatasetCompatSupport.readerOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.core.compaction.CompactionOptions;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.table.DataFile;
import dev.javelin.table.Fragment;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.ipc.ScanOptions;

/**
 * A dataset lance-core 7.0.0 writes with {@code dataStorageVersion("2.2")}: Javelin appends,
 * updates, adds columns and compacts it, every new data file in format 2.2 (lance-core refuses a
 * manifest whose files mix versions), and lance-core reads every version back row by row and
 * keeps writing to it.
 */
class DatasetFormat22CompatTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private void lanceWrite(Path path, org.lance.WriteParams.WriteMode mode, long start, int rows) throws Exception {
    List<VectorSchemaRoot> data = batches(allocator, start, rows, 400);
    try (ArrowReader reader = readerOf(allocator, data)) {
      org.lance.Dataset.write().allocator(allocator).reader(reader).uri(path.toString()).mode(mode)
          .maxRowsPerFile(900).dataStorageVersion("2.2").execute().close();
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
  }

  private List<List<String>> lanceScan(Path path) throws Exception {
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator);
        var scanner = lance.newScan(new ScanOptions.Builder().build())) {
      return readAll(scanner.scanBatches());
    }
  }

  private static void assertAll22(Dataset ds) {
    assertThat(ds.fileVersion()).isEqualTo(LanceFileVersion.V2_2);
    for (Fragment f : ds.manifest().fragments()) {
      for (DataFile d : f.files()) {
        assertThat(d.fileMajorVersion() + "." + d.fileMinorVersion()).as("fragment %s file %s", f.id(), d.path())
            .isEqualTo("2.2");
      }
    }
  }

  @Test
  void javelinAppendsUpdatesAddsColumnsAndCompactsALance22Dataset() throws Exception {
    Path path = dir.resolve("ds");
    lanceWrite(path, org.lance.WriteParams.WriteMode.CREATE, 0, 2000);
    Dataset ds = Dataset.open(path, allocator);
    assertAll22(ds);
    List<List<String>> want = new ArrayList<>(expected(allocator, 0, 2000));
    assertSameRows(javelinScan(ds), want);

    List<VectorSchemaRoot> more = batches(allocator, 2000, 700, 350);
    try {
      ds = ds.append(more, WriteParams.defaults());
    } finally {
      more.forEach(VectorSchemaRoot::close);
    }
    want.addAll(expected(allocator, 2000, 700));
    assertAll22(ds);
    assertSameRows(lanceScan(path), want);

    ds = ds.update("id >= 1900 AND id < 2100", Map.of("s", "'updated'")).dataset();
    for (List<String> r : want) {
      long id = Long.parseLong(r.get(0));
      if (id >= 1900 && id < 2100) {
        r.set(2, "updated");
      }
    }
    assertAll22(ds);
    List<List<String>> lance = lanceScan(path);
    lance.sort(java.util.Comparator.comparingLong(r -> Long.parseLong(r.get(0))));
    assertSameRows(lance, want);

    ds = ds.addColumns(Map.of("d", "id * 2"));
    for (List<String> r : want) {
      r.add(String.valueOf(Long.parseLong(r.get(0)) * 2));
    }
    assertAll22(ds);
    lance = lanceScan(path);
    lance.sort(java.util.Comparator.comparingLong(r -> Long.parseLong(r.get(0))));
    assertSameRows(lance, want);

    ds = ds.compact(CompactionOptions.builder().targetRowsPerFragment(100_000).build());
    assertAll22(ds);
    lance = lanceScan(path);
    lance.sort(java.util.Comparator.comparingLong(r -> Long.parseLong(r.get(0))));
    assertSameRows(lance, want);

    // lance-core keeps writing to it: its manifest check accepts the files Javelin added.
    try (org.lance.Dataset l = org.lance.Dataset.open(path.toString(), allocator)) {
      l.delete("id < 10");
    }
    ds = Dataset.open(path, allocator);
    assertAll22(ds);
    assertThat(ds.countRows()).isEqualTo(2690);
  }

  /** A dataset Javelin creates as 2.2 keeps 2.2 through its own writes; lance-core appends to it. */
  @Test
  void javelinCreates22AndLanceAppends() throws Exception {
    Path path = dir.resolve("ds");
    List<VectorSchemaRoot> data = batches(allocator, 0, 1500, 500);
    Dataset ds;
    try {
      ds = Dataset.create(path, data, WriteParams.builder().fileVersion(LanceFileVersion.V2_2).build(), allocator);
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
    assertAll22(ds);
    lanceWrite(path, org.lance.WriteParams.WriteMode.APPEND, 1500, 500);
    ds = Dataset.open(path, allocator);
    assertAll22(ds);
    assertSameRows(javelinScan(ds), expected(allocator, 0, 2000));
    assertSameRows(lanceScan(path), expected(allocator, 0, 2000));
  }
}
