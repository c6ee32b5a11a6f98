package dev.javelin.compat;

import static dev.javelin.compat.DatasetCompatSupport.assertSameRows;
import static dev.javelin.compat.DatasetCompatSupport.batches;
import static dev.javelin.compat.DatasetCompatSupport.expected;
import static dev.javelin.compat.DatasetCompatSupport.javelinScan;
import static dev.javelin.compat.DatasetCompatSupport.readAll;
import static dev.javelin.compat.DatasetCompatSupport.readerOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.core.VersionInfo;
import dev.javelin.core.WriteParams;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.table.CleanupPolicy;
import dev.javelin.table.CleanupResult;
import dev.javelin.table.TagInfo;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lance.Tag;
import org.lance.ipc.ScanOptions;

/** Tags, restore and cleanup between Javelin and lance-core 7.0.0, rows compared value by value. */
class DatasetVersionsCompatTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private static WriteParams params() {
    return WriteParams.builder().fileVersion(LanceFileVersion.V2_0).maxRowsPerFile(250).build();
  }

  private Dataset write(Dataset ds, long start, int rows, boolean overwrite) {
    List<VectorSchemaRoot> data = batches(allocator, start, rows, 200);
    try {
      return overwrite ? ds.overwrite(data, params()) : ds.append(data, params());
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
  }

  /** Version 1 (rows 0..600), by Javelin, or by lance-core with {version}.manifest names. */
  private Dataset createV1(Path path, boolean v1Names) throws Exception {
    List<VectorSchemaRoot> data = batches(allocator, 0, 600, 200);
    try {
      if (!v1Names) {
        return Dataset.create(path, data, params(), allocator);
      }
      try (ArrowReader reader = readerOf(allocator, data);
          ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
        Data.exportArrayStream(allocator, reader, stream);
        org.lance.WriteParams p = new org.lance.WriteParams.Builder().withEnableV2ManifestPaths(false)
            .withDataStorageVersion("2.0").withMaxRowsPerFile(250).build();
        org.lance.Dataset.create(allocator, stream, path.toString(), p).close();
      }
      assertThat(path.resolve("_versions/1.manifest")).exists();
      return Dataset.open(path, allocator);
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
  }

  /** The rows of every version the history below makes. */
  private Map<Long, List<List<String>>> expectedByVersion() {
    Map<Long, List<List<String>>> m = new LinkedHashMap<>();
    m.put(1L, expected(allocator, 0, 600));
    m.put(2L, expected(allocator, 0, 800));
    m.put(3L, expected(allocator, 5000, 100));
    m.put(4L, expected(allocator, 5000, 150));
    m.put(5L, expected(allocator, 0, 800));
    m.put(6L, expected(allocator, 0, 850));
    return m;
  }

  /**
   * v1 create, v2 append, v3 overwrite, v4 append, v5 restore of v2 (by Javelin or lance-core),
   * v6 append: versions share files (appends, the restore) and drop them (the overwrite).
   */
  private Dataset history(Path path, boolean v1Names, boolean lanceRestores) throws Exception {
    Dataset ds = createV1(path, v1Names);
    ds = write(ds, 600, 200, false);
    ds = write(ds, 5000, 100, true);
    Thread.sleep(20); // file times come from a coarse clock; keep v4's files clearly after v3
    ds = write(ds, 5100, 50, false);
    if (lanceRestores) {
      try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator);
          org.lance.Dataset v2 = lance.checkoutVersion(2)) {
        v2.restore();
      }
      ds = Dataset.open(path, allocator);
    } else {
      ds = ds.checkout(2).restore();
    }
    assertThat(ds.version()).isEqualTo(5);
    return write(ds, 800, 50, false);
  }

  private List<List<String>> lanceRows(Path path, long version) throws Exception {
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator);
        org.lance.Dataset at = lance.checkoutVersion(version);
        var scanner = at.newScan(new ScanOptions.Builder().batchSize(170).build())) {
      return readAll(scanner.scanBatches());
    }
  }

  private static long dataFiles(Path path) throws Exception {
    try (Stream<Path> s = Files.list(path.resolve("data"))) {
      return s.count();
    }
  }

  @Test
  void tagsGoBothWays() throws Exception {
    Path path = dir.resolve("ds");
    Dataset ds = history(path, false, false);
    ds.tags().create("j1", 1);
    TagInfo j2 = ds.tags().create("j.2", 3);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      Map<String, Long> seen = new TreeMap<>();
      for (Tag t : lance.tags().list()) {
        seen.put(t.getName(), t.getVersion());
      }
      assertThat(seen).isEqualTo(Map.of("j1", 1L, "j.2", 3L));
      Tag lj2 = lance.tags().list().stream().filter(t -> t.getName().equals("j.2")).findFirst().orElseThrow();
      assertThat((long) lj2.getManifestSize()).isEqualTo(j2.manifestSize());
      assertThat(lj2.getCreatedAt()).isEqualTo(j2.createdAt());
      assertThat(lance.tags().getVersion("j.2")).isEqualTo(3);
      try (org.lance.Dataset at = lance.checkoutTag("j1");
          var scanner = at.newScan(new ScanOptions.Builder().build())) {
        assertThat(at.version()).isEqualTo(1);
        assertSameRows(readAll(scanner.scanBatches()), expected(allocator, 0, 600));
      }
      // lance-core moves one, adds one, deletes one of Javelin's.
      lance.tags().update("j.2", 4);
      lance.tags().create("l-1", 5);
      lance.tags().delete("j1");
    }
    assertThat(ds.tags().list()).extractingFromEntries(e -> e.getKey() + "=" + e.getValue().version())
        .containsExactly("j.2=4", "l-1=5");
    assertThat(ds.tags().get("j.2").createdAt()).isEqualTo(j2.createdAt());
    assertSameRows(javelinScan(ds.checkout("j.2")), expected(allocator, 5000, 150));
    assertSameRows(javelinScan(Dataset.open(path, "l-1", allocator)), expected(allocator, 0, 800));
    ds.tags().delete("l-1");
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.tags().list()).extracting(Tag::getName).containsExactly("j.2");
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void restoresReadTheSameInBoth(boolean lanceRestores) throws Exception {
    Path path = dir.resolve("ds");
    Dataset ds = history(path, false, lanceRestores);
    assertThat(ds.versions()).extracting(VersionInfo::operation)
        .containsExactly("Overwrite", "Append", "Overwrite", "Append", "Restore", "Append");
    for (Map.Entry<Long, List<List<String>>> e : expectedByVersion().entrySet()) {
      assertSameRows(javelinScan(ds.checkout(e.getKey())), e.getValue());
      assertSameRows(lanceRows(path, e.getKey()), e.getValue());
    }
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.version()).isEqualTo(6);
      assertThat(lance.countRows()).isEqualTo(850);
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void lanceReadsEveryVersionJavelinsCleanupKeeps(boolean v1Names) throws Exception {
    Path path = dir.resolve("ds");
    Dataset ds = history(path, v1Names, false);
    ds.tags().create("old", 3);
    Map<Long, List<List<String>>> want = expectedByVersion();
    CleanupResult r = ds.cleanup(CleanupPolicy.builder().beforeVersion(5).build());
    assertThat(r.removedVersions()).containsExactly(1L, 2L, 4L);
    ds.tags().delete("old");
    long before = dataFiles(path);
    r = ds.cleanup(CleanupPolicy.builder().beforeVersion(5).build());
    assertThat(r.removedVersions()).containsExactly(3L);
    assertThat(r.dataFilesRemoved()).isPositive();
    assertThat(dataFiles(path)).isEqualTo(before - r.dataFilesRemoved());
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.listVersions()).extracting(v -> v.getId()).containsExactly(5L, 6L);
    }
    for (long v : List.of(5L, 6L)) {
      assertSameRows(lanceRows(path, v), want.get(v));
      assertSameRows(javelinScan(ds.checkout(v)), want.get(v));
    }
  }

  private static Map<String, Long> fileCounts(Path path) throws Exception {
    Map<String, Long> out = new TreeMap<>();
    for (String d : List.of("data", "_transactions", "_versions", "_refs/tags")) {
      try (Stream<Path> s = Files.list(path.resolve(d))) {
        out.put(d, s.filter(p -> !p.getFileName().toString().startsWith(".")).count());
      }
    }
    return out;
  }

  @Test
  void javelinsCleanupRemovesWhatLancesRemoves() throws Exception {
    Path a = dir.resolve("a");
    Path b = dir.resolve("b");
    Dataset ja = history(a, false, false);
    Dataset jb = history(b, false, false);
    ja.tags().create("old", 3);
    jb.tags().create("old", 3);
    CleanupResult r = ja.cleanup(CleanupPolicy.builder().beforeVersion(5).build());
    try (org.lance.Dataset lance = org.lance.Dataset.open(b.toString(), allocator)) {
      var stats = lance.cleanupWithPolicy(org.lance.cleanup.CleanupPolicy.builder().withBeforeVersion(5)
          .withErrorIfTaggedOldVersions(false).build());
      assertThat(stats.getOldVersions()).isEqualTo(r.manifestsRemoved());
      assertThat(stats.getDataFilesRemoved()).isEqualTo(r.dataFilesRemoved());
    }
    assertThat(fileCounts(a)).isEqualTo(fileCounts(b));
    ja.tags().delete("old");
    jb.tags().delete("old");
    r = ja.cleanup(CleanupPolicy.builder().beforeVersion(6).build());
    try (org.lance.Dataset lance = org.lance.Dataset.open(b.toString(), allocator)) {
      var stats = lance.cleanupWithPolicy(org.lance.cleanup.CleanupPolicy.builder().withBeforeVersion(6).build());
      assertThat(stats.getOldVersions()).isEqualTo(r.manifestsRemoved());
      assertThat(stats.getDataFilesRemoved()).isEqualTo(r.dataFilesRemoved());
      assertThat(stats.getTransactionFilesRemoved()).isEqualTo(r.transactionFilesRemoved());
    }
    assertThat(fileCounts(a)).isEqualTo(fileCounts(b));
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void javelinReadsEveryVersionLancesCleanupKeeps(boolean v1Names) throws Exception {
    Path path = dir.resolve("ds");
    Dataset ds = history(path, v1Names, true);
    ds.tags().create("old", 3);
    Map<Long, List<List<String>>> want = expectedByVersion();
    long before = dataFiles(path);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.cleanupWithPolicy(org.lance.cleanup.CleanupPolicy.builder().withBeforeVersion(5)
          .withErrorIfTaggedOldVersions(false).build());
      lance.tags().delete("old");
      var stats = lance.cleanupWithPolicy(org.lance.cleanup.CleanupPolicy.builder().withBeforeVersion(5).build());
      assertThat(stats.getOldVersions()).isEqualTo(1);
    }
    assertThat(dataFiles(path)).isLessThan(before);
    List<Long> kept = new ArrayList<>();
    ds.versions().forEach(v -> kept.add(v.version()));
    assertThat(kept).containsExactly(5L, 6L);
    for (long v : kept) {
      assertSameRows(javelinScan(Dataset.open(path, v, allocator)), want.get(v));
    }
  }
}
