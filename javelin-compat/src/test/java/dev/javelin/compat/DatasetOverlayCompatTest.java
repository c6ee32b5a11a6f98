package dev.javelin.compat;

import static dev.javelin.compat.DatasetCompatSupport.assertSameRows;
import static dev.javelin.compat.DatasetCompatSupport.batches;
import static dev.javelin.compat.DatasetCompatSupport.expected;
import static dev.javelin.compat.DatasetCompatSupport.javelinScan;
import static dev.javelin.compat.DatasetCompatSupport.readAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.core.compaction.CompactionOptions;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.table.FeatureFlags;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lance.ipc.ScanOptions;

/**
 * Javelin's data overlays against lance-core 7.0.0: while a version has overlays, its reader
 * feature flag makes lance-core refuse to open it (rather than read the base values the overlays
 * shadow); once a compaction folded them all into new data files, lance-core opens it and reads
 * the overlaid values.
 */
class DatasetOverlayCompatTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  @ParameterizedTest
  @ValueSource(strings = {"V2_0", "V2_1"})
  void lanceRefusesOverlaysAndReadsThemOnceCompactionFoldedThem(String version) throws Exception {
    Path path = dir.resolve("ds");
    List<VectorSchemaRoot> data = batches(allocator, 0, 3000, 1000);
    Dataset ds;
    try {
      ds = Dataset.create(path, data, WriteParams.builder().fileVersion(LanceFileVersion.valueOf(version))
          .maxRowsPerFile(1000).build(), allocator);
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
    long plainVersion = ds.version();
    Map<String, String> set = new LinkedHashMap<>();
    set.put("x", "x * 2");
    set.put("s", "'u'");
    ds = ds.updateOverlay("id >= 500 AND id < 1500", set).dataset();
    ds = ds.updateOverlay("id >= 1400 AND id < 1600", Map.of("s", "'v'")).dataset();
    ds = ds.delete("id >= 2990");
    assertThat(ds.manifest().readerFeatureFlags() & FeatureFlags.OVERLAYS).isNotZero();

    List<List<String>> want = new ArrayList<>();
    for (List<String> r : expected(allocator, 0, 3000)) {
      long id = Long.parseLong(r.get(0));
      if (id >= 2990) {
        continue;
      }
      List<String> row = new ArrayList<>(r);
      if (id >= 500 && id < 1500) {
        row.set(1, r.get(1) == null ? null : String.valueOf(Double.parseDouble(r.get(1)) * 2));
        row.set(2, "u");
      }
      if (id >= 1400 && id < 1600) {
        row.set(2, "v");
      }
      want.add(row);
    }
    assertSameRows(javelinScan(ds), want);

    Throwable refused = catchThrowable(() -> org.lance.Dataset.open(path.toString(), allocator).close());
    assertThat(refused).isInstanceOf(UnsupportedOperationException.class);
    // The flags lance-core names are the manifest's reader flags: overlays and deletion files.
    assertThat(refused.getMessage()).startsWith("Not supported: This dataset cannot be read by this version of Lance")
        .contains("Flags: " + (FeatureFlags.OVERLAYS | FeatureFlags.DELETION_FILES) + ",");

    Dataset compacted = ds.compact(CompactionOptions.builder().targetRowsPerFragment(5000).build());
    assertThat(compacted.manifest().fragments()).allMatch(f -> f.overlays().isEmpty());
    assertThat(compacted.manifest().readerFeatureFlags() & FeatureFlags.OVERLAYS).isZero();
    List<List<String>> ours = javelinScan(compacted);
    assertSameRows(ours, want);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.version()).isEqualTo(compacted.version());
      assertThat(lance.countRows()).isEqualTo(2990);
      assertThat(lance.countRows("s = 'u'")).isEqualTo(900);
      assertThat(lance.countRows("s = 'v'")).isEqualTo(200);
      try (var scanner = lance.newScan(new ScanOptions.Builder().batchSize(700).build())) {
        assertSameRows(readAll(scanner.scanBatches()), want);
      }
      // Time travel: the version before the first overlay opens, the versions with overlays do not.
      try (org.lance.Dataset old = lance.checkoutVersion(plainVersion)) {
        assertThat(old.countRows()).isEqualTo(3000);
      }
      long overlaid = ds.version();
      assertThat(catchThrowable(() -> lance.checkoutVersion(overlaid).close()))
          .isInstanceOf(UnsupportedOperationException.class)
          .hasMessageContaining("This dataset cannot be read by this version of Lance");
    }
  }
}
