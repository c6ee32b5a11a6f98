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
import dev.javelin.table.Fragment;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lance.ipc.ScanOptions;

/**
 * Deletion files both ways: lance-core deletes (few rows: Arrow file, many: bitmap) and Javelin
 * scans, takes and counts the same rows; Javelin deletes and lance-core reads, deletes more,
 * appends and compacts; stale deletes of the same fragment from either side merge.
 */
class DatasetDeleteCompatTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private void lanceCreate(Path path, String version, int rows, int perFile) throws Exception {
    List<VectorSchemaRoot> data = batches(allocator, 0, rows, 1000);
    try (ArrowReader reader = readerOf(allocator, data)) {
      org.lance.Dataset.write().allocator(allocator).reader(reader).uri(path.toString())
          .mode(org.lance.WriteParams.WriteMode.CREATE).maxRowsPerFile(perFile).dataStorageVersion(version)
          .execute().close();
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
  }

  private Dataset javelinCreate(Path path, LanceFileVersion v, int rows, int perFile) {
    List<VectorSchemaRoot> data = batches(allocator, 0, rows, 1000);
    try {
      return Dataset.create(path, data, WriteParams.builder().fileVersion(v).maxRowsPerFile(perFile).build(),
          allocator);
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
  }

  private List<List<String>> lanceScan(org.lance.Dataset lance, boolean withAddress) throws Exception {
    try (var scanner = lance.newScan(new ScanOptions.Builder().withRowAddress(withAddress).build())) {
      return readAll(scanner.scanBatches());
    }
  }

  private List<List<String>> javelinScanWithAddress(Dataset ds) throws Exception {
    return readAll(ds.newScan().withRowAddress().batchSize(777).build());
  }

  // Expected rows: 0..rows-1 without those the predicate removes.
  private List<List<String>> expectedWithout(int rows, java.util.function.LongPredicate deleted) {
    List<List<String>> all = expected(allocator, 0, rows);
    return LongStream.range(0, rows).filter(r -> !deleted.test(r)).mapToObj(r -> all.get((int) r))
        .collect(Collectors.toList());
  }

  private void assertSameTakes(Dataset ds, org.lance.Dataset lance) throws Exception {
    long n = ds.countRows();
    List<Long> offsets = List.of(0L, 1L, n / 3, n / 2, n - 1, 5L);
    try (VectorSchemaRoot ours = ds.take(offsets.stream().mapToLong(Long::longValue).toArray(), null);
        ArrowReader theirs = lance.take(offsets, List.of("id", "x", "s", "l", "st"))) {
      assertSameRows(rows(ours), readAll(theirs));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.0", "2.1"})
  void javelinReadsLanceDeletes(String version) throws Exception {
    Path path = dir.resolve("ds");
    lanceCreate(path, version, 12000, 6000);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.delete("id % 1000 = 7");
      lance.delete("id < 6000 AND id % 2 = 0"); // 3,006 rows: still an Arrow file, buffers compressed
      lance.delete("id >= 6000 AND id < 11900");
      Dataset ds = Dataset.open(path, allocator);
      List<Fragment> frags = ds.manifest().fragments();
      assertThat(frags.get(0).deletionFile().get().isBitmap()).isFalse();
      assertThat(frags.get(1).deletionFile().get().isBitmap()).isTrue();
      assertThat(ds.countRows()).isEqualTo(lance.countRows()).isEqualTo(12000 - 3006 - 5900);
      List<List<String>> want = expectedWithout(12000, r -> r % 1000 == 7 || (r < 6000 && r % 2 == 0)
          || (r >= 6000 && r < 11900));
      assertSameRows(javelinScan(ds), want);
      assertSameRows(javelinScanWithAddress(ds), lanceScan(lance, true));
      assertSameTakes(ds, lance);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"V2_0", "V2_1", "V2_2"})
  void lanceReadsJavelinDeletesThenDeletesAppendsAndCompacts(String version) throws Exception {
    Path path = dir.resolve("ds");
    Dataset ds = javelinCreate(path, LanceFileVersion.valueOf(version), 12000, 6000);
    // 3,006 rows of fragment 0 (an Arrow file whose buffers compress), 5,900 of fragment 1 (a bitmap).
    java.util.function.LongPredicate deleted = r -> r % 1000 == 7 || (r < 6000 && r % 2 == 0)
        || (r >= 6000 && r < 11900);
    long[] addrs = LongStream.range(0, 12000).filter(deleted).map(r -> (r / 6000) << 32 | (r % 6000)).toArray();
    ds = ds.deleteRows(addrs);
    assertThat(ds.manifest().fragments().get(0).deletionFile().get().isBitmap()).isFalse();
    assertThat(ds.manifest().fragments().get(1).deletionFile().get().isBitmap()).isTrue();
    List<List<String>> want = expectedWithout(12000, deleted);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.countRows()).isEqualTo(ds.countRows()).isEqualTo(want.size());
      assertSameRows(lanceScan(lance, false), want);
      assertSameRows(lanceScan(lance, true), javelinScanWithAddress(ds));
      assertSameTakes(ds, lance);
      assertThat(lance.getFragments().get(0).metadata().getNumDeletions()).isEqualTo(3006);
      try (ArrowReader r = lance.takeRows(List.of(5L, (1L << 32) | 5999), List.of("id"))) {
        assertThat(readAll(r)).containsExactly(List.of("5"), List.of("11999"));
      }
      lance.delete("id < 100");
      List<List<String>> after = expectedWithout(12000, r -> deleted.test(r) || r < 100);
      Dataset latest = Dataset.open(path, allocator);
      assertThat(latest.countRows()).isEqualTo(after.size());
      assertSameRows(javelinScan(latest), after);
      List<VectorSchemaRoot> more = batches(allocator, 12000, 500, 500);
      try (ArrowReader reader = readerOf(allocator, more)) {
        org.lance.Dataset.write().allocator(allocator).reader(reader).uri(path.toString())
            .mode(org.lance.WriteParams.WriteMode.APPEND).execute().close();
      } finally {
        more.forEach(VectorSchemaRoot::close);
      }
      lance.checkoutLatest();
      lance.compact();
      lance.checkoutLatest();
      latest = Dataset.open(path, allocator);
      List<List<String>> all = new ArrayList<>(after);
      all.addAll(expected(allocator, 12000, 500));
      assertThat(latest.countRows()).isEqualTo(lance.countRows()).isEqualTo(all.size());
      assertSameRows(javelinScan(latest), lanceScan(lance, false));
      assertSameRows(sortedById(javelinScan(latest)), all);
    }
  }

  private static List<List<String>> sortedById(List<List<String>> rows) {
    List<List<String>> out = new ArrayList<>(rows);
    out.sort(java.util.Comparator.comparing(r -> Long.parseLong(r.get(0))));
    return out;
  }

  @Test
  void staleLanceDeleteMergesOverJavelinDeleteOfTheSameFragment() throws Exception {
    Path path = dir.resolve("ds");
    Dataset v1 = javelinCreate(path, LanceFileVersion.V2_1, 1000, 1000);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      Dataset v2 = v1.deleteRows(LongStream.range(0, 10).toArray());
      assertThat(v2.version()).isEqualTo(2);
      lance.delete("id >= 500 AND id < 510"); // read version 1: rebases over Javelin's delete
      assertThat(lance.version()).isEqualTo(3);
      assertThat(lance.countRows()).isEqualTo(980);
    }
    Dataset latest = Dataset.open(path, allocator);
    assertThat(latest.version()).isEqualTo(3);
    assertThat(latest.countRows()).isEqualTo(980);
    assertSameRows(javelinScan(latest), expectedWithout(1000, r -> r < 10 || (r >= 500 && r < 510)));
  }

  @Test
  void staleJavelinDeleteMergesOverLanceDeleteOfTheSameFragment() throws Exception {
    Path path = dir.resolve("ds");
    Dataset v1 = javelinCreate(path, LanceFileVersion.V2_0, 1000, 1000);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.delete("id >= 500 AND id < 510");
    }
    Dataset v3 = v1.deleteRows(LongStream.concat(LongStream.range(0, 10), LongStream.of(505)).toArray());
    assertThat(v3.version()).isEqualTo(3);
    assertThat(v3.countRows()).isEqualTo(980);
    List<List<String>> want = expectedWithout(1000, r -> r < 10 || (r >= 500 && r < 510));
    assertSameRows(javelinScan(v3), want);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.version()).isEqualTo(3);
      assertThat(lance.countRows()).isEqualTo(980);
      assertSameRows(lanceScan(lance, false), want);
    }
    try (var files = java.nio.file.Files.list(path.resolve("_deletions"))) {
      assertThat(files.count()).as("Javelin's superseded deletion file is removed").isEqualTo(2);
    }
  }
}
