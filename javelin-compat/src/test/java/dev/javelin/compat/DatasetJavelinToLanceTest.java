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
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.exceptions.UnsupportedFormatException;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.lance.ipc.ScanOptions;

/** Datasets Javelin writes, read (and appended to) by lance-core 7.0.0. */
class DatasetJavelinToLanceTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private Dataset javelinDataset(Path path, LanceFileVersion v) {
    List<VectorSchemaRoot> first = batches(allocator, 0, 2500, 600);
    List<VectorSchemaRoot> second = batches(allocator, 2500, 1300, 600);
    try {
      Dataset ds = Dataset.create(path, first,
          WriteParams.builder().fileVersion(v).maxRowsPerFile(1000).build(), allocator);
      return ds.append(second, WriteParams.builder().maxRowsPerFile(1000).build());
    } finally {
      first.forEach(VectorSchemaRoot::close);
      second.forEach(VectorSchemaRoot::close);
    }
  }

  @ParameterizedTest
  @EnumSource(value = LanceFileVersion.class, names = {"V2_0", "V2_1", "V2_2"})
  void lanceReadsWhatJavelinWrote(LanceFileVersion v) throws Exception {
    Path path = dir.resolve("ds");
    Dataset ds = javelinDataset(path, v);
    assertThat(ds.manifest().fragments()).hasSize(5);
    List<List<String>> all = expected(allocator, 0, 3800);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.version()).isEqualTo(2);
      assertThat(lance.listVersions()).hasSize(2);
      assertThat(lance.countRows()).isEqualTo(3800);
      assertThat(lance.getFragments()).hasSize(5);
      assertThat(lance.getFragments().get(4).metadata().getFiles().get(0).getFileMinorVersion())
          .isEqualTo(v.minor());
      try (var scanner = lance.newScan(new ScanOptions.Builder().batchSize(700).build())) {
        assertSameRows(readAll(scanner.scanBatches()), all);
      }
      List<Long> offsets = List.of(3799L, 0L, 1000L, 999L, 2500L, 1000L, 17L, 3001L, 2999L);
      List<List<String>> want = new ArrayList<>();
      offsets.forEach(o -> want.add(all.get(o.intValue())));
      assertSameRows(readAll(lance.take(offsets, List.of("id", "x", "s", "l", "st"))), want);
      // Projection in another order.
      try (var scanner = lance.newScan(new ScanOptions.Builder().columns(List.of("st", "id")).build())) {
        List<List<String>> got = readAll(scanner.scanBatches());
        assertThat(got.get(123)).containsExactly(all.get(123).get(4), all.get(123).get(0));
      }
    }
  }

  @ParameterizedTest
  @EnumSource(value = LanceFileVersion.class, names = {"V2_0", "V2_1", "V2_2"})
  void javelinReadsWhatLanceAppendedToAJavelinDataset(LanceFileVersion v) throws Exception {
    Path path = dir.resolve("ds");
    javelinDataset(path, v);
    List<VectorSchemaRoot> more = batches(allocator, 3800, 700, 350);
    try (ArrowReader reader = readerOf(allocator, more);
        org.lance.Dataset lance = org.lance.Dataset.write().allocator(allocator).reader(reader)
            .uri(path.toString()).mode(org.lance.WriteParams.WriteMode.APPEND).execute()) {
      assertThat(lance.version()).isEqualTo(3);
    } finally {
      more.forEach(VectorSchemaRoot::close);
    }
    Dataset ds = Dataset.open(path, allocator);
    assertThat(ds.version()).isEqualTo(3);
    assertThat(ds.countRows()).isEqualTo(4500);
    assertThat(ds.manifest().writerLibrary()).isEqualTo("lance");
    assertThat(ds.versions()).extracting(x -> x.operation()).containsExactly("Overwrite", "Append", "Append");
    List<List<String>> got = javelinScan(ds);
    assertSameRows(got, expected(allocator, 0, 4500));
    // And Javelin appends again on top of lance-core's commit.
    List<VectorSchemaRoot> last = batches(allocator, 4500, 100, 100);
    try {
      ds = ds.append(last, WriteParams.defaults());
    } finally {
      last.forEach(VectorSchemaRoot::close);
    }
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.countRows()).isEqualTo(4600);
      try (var scanner = lance.newScan(new ScanOptions.Builder().build())) {
        assertSameRows(readAll(scanner.scanBatches()), expected(allocator, 0, 4600));
      }
    }
  }
}
