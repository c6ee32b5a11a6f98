package dev.javelin.core.compaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.Dataset;
import dev.javelin.core.exceptions.CompactionException;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.index.IndexType;
import dev.javelin.table.Fragment;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Fragment rewrites in the binary-copy modes. */
class BinaryCopyTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private static long dataFiles(Path ds) throws IOException {
    try (Stream<Path> s = Files.list(ds.resolve("data"))) {
      return s.count();
    }
  }

  @ParameterizedTest
  @EnumSource(value = LanceFileVersion.class, names = {"V2_0", "V2_1"})
  void binaryCopyConcatenatesBackfilledFragments(LanceFileVersion v) {
    Dataset ds = Data.backfill(Data.create(dir.resolve("ds"), allocator, 1000, 100, v), "a", 3);
    CompactionOptions o = CompactionOptions.builder().targetRowsPerFragment(400)
        .mode(CompactionMode.FORCE_BINARY_COPY).build();
    Dataset after = ds.compact(o);
    // Cut at source fragment boundaries: 4 + 4 + 2 fragments of 100 rows, two files each.
    assertThat(after.manifest().fragments()).extracting(Fragment::physicalRows).containsExactly(400L, 400L, 200L);
    assertThat(after.manifest().fragments()).allSatisfy(f -> assertThat(f.files()).hasSize(2));
    assertThat(Data.values(after)).isEqualTo(Data.values(ds));
    assertThat(after.countRows("a >= 1500 AND id < 900")).isEqualTo(400);
  }

  @Test
  void binaryCopyRemapsAnIndex() {
    Dataset ds = Data.create(dir.resolve("ds"), allocator, 500, 100, LanceFileVersion.V2_1)
        .createIndex("id", IndexType.BTREE);
    Dataset after = ds.compact(CompactionOptions.builder().mode(CompactionMode.FORCE_BINARY_COPY).build());
    assertThat(after.manifest().fragments()).hasSize(1);
    assertThat(after.indices().get(0).fragments()).containsExactly(after.manifest().fragments().get(0).id());
    assertThat(after.countRows("id >= 250 AND id < 260")).isEqualTo(10);
    assertThat(Data.values(after)).isEqualTo(Data.values(ds));
  }

  @Test
  void overlaysAreFoldedNotCopied() {
    Dataset ds = Data.create(dir.resolve("ds"), allocator, 300, 100, LanceFileVersion.V2_1)
        .updateOverlay("id = 150", java.util.Map.of("id", "id + 1000")).dataset();
    assertThatThrownBy(() -> ds.compact(CompactionOptions.builder().mode(CompactionMode.FORCE_BINARY_COPY).build()))
        .isInstanceOf(CompactionException.class)
        .hasMessage("Fragments [0, 1, 2] cannot be binary copied (fragment 1 has data overlays) and the mode is "
            + "FORCE_BINARY_COPY: " + ds.location());
    Dataset after = ds.compact(CompactionOptions.builder().mode(CompactionMode.TRY_BINARY_COPY).build());
    assertThat(after.manifest().fragments()).allSatisfy(f -> assertThat(f.overlays()).isEmpty());
    assertThat(after.countRows("id = 1150")).isEqualTo(1);
    assertThat(after.countRows("id = 150")).isZero();
  }

  @Test
  void deletionsFallBackToReencodeOrFailUnderForce() throws IOException {
    Dataset ds = Data.create(dir.resolve("ds"), allocator, 300, 100, LanceFileVersion.V2_1).delete("id = 150");
    long files = dataFiles(dir.resolve("ds"));
    assertThatThrownBy(() -> ds.compact(CompactionOptions.builder().mode(CompactionMode.FORCE_BINARY_COPY).build()))
        .isInstanceOf(CompactionException.class)
        .hasMessage("Fragments [0, 1, 2] cannot be binary copied (fragment 1 has deleted rows) and the mode is "
            + "FORCE_BINARY_COPY: " + ds.location());
    assertThat(dataFiles(dir.resolve("ds"))).isEqualTo(files);
    Dataset after = ds.compact(CompactionOptions.builder().mode(CompactionMode.TRY_BINARY_COPY).build());
    assertThat(after.manifest().fragments()).extracting(Fragment::physicalRows).containsExactly(299L);
    assertThat(Data.values(after)).isEqualTo(Data.values(ds));
  }

  @Test
  void differentLayoutsFallBackToReencode() {
    Dataset ds = Data.backfill(Data.create(dir.resolve("ds"), allocator, 200, 100, LanceFileVersion.V2_1), "a", 2);
    // An appended fragment holds id, s and a in one file; the backfilled ones in two.
    org.apache.arrow.vector.types.pojo.Schema withA = new org.apache.arrow.vector.types.pojo.Schema(List.of(
        Data.BASE.getFields().get(0), Data.BASE.getFields().get(1),
        org.apache.arrow.vector.types.pojo.Field.nullable("a", new org.apache.arrow.vector.types.pojo.ArrowType.Int(
            64, true))));
    try (org.apache.arrow.vector.VectorSchemaRoot base = Data.batch(allocator, 200, 100);
        org.apache.arrow.vector.VectorSchemaRoot root = org.apache.arrow.vector.VectorSchemaRoot.create(withA,
            allocator)) {
      root.allocateNew();
      for (int i = 0; i < 100; i++) {
        ((org.apache.arrow.vector.BigIntVector) root.getVector("id")).setSafe(i, 200 + i);
        ((org.apache.arrow.vector.VarCharVector) root.getVector("s")).setSafe(i,
            ((org.apache.arrow.vector.VarCharVector) base.getVector("s")).get(i));
        ((org.apache.arrow.vector.BigIntVector) root.getVector("a")).setSafe(i, (200 + i) * 2L);
      }
      root.setRowCount(100);
      ds = ds.append(List.of(root), dev.javelin.core.WriteParams.builder().build());
    }
    assertThatThrownBy(() -> Compaction.plan(Dataset.open(dir.resolve("ds"), allocator),
        CompactionOptions.builder().mode(CompactionMode.FORCE_BINARY_COPY).build()).tasks().forEach(t ->
            new DefaultCompactionExecutor().execute(Dataset.open(dir.resolve("ds"), allocator), t)))
        .isInstanceOf(CompactionException.class)
        .hasMessageContaining("(fragments 0 and 2 have different numbers of data files)");
    Dataset after = ds.compact(CompactionOptions.builder().mode(CompactionMode.TRY_BINARY_COPY).build());
    assertThat(after.manifest().fragments()).hasSize(1);
    assertThat(Data.values(after)).isEqualTo(Data.values(ds));
  }

  @Test
  void repacksArePlannedUnderForceBinaryCopy() {
    // Unlike Lance's, Javelin's repacks can binary copy (BinaryRepackTest), so FORCE plans them too.
    Dataset ds = Data.backfill(Data.create(dir.resolve("ds"), allocator, 200, 100, LanceFileVersion.V2_1), "a", 2);
    CompactionOptions.Builder o = CompactionOptions.builder().maxDataFilesPerFragment(1)
        .scope(CompactionScope.REPACK_COLUMNS);
    assertThat(Compaction.plan(ds, o.build()).tasks()).hasSize(2);
    assertThat(Compaction.plan(ds, o.mode(CompactionMode.FORCE_BINARY_COPY).build()).tasks()).hasSize(2);
  }

  @Test
  void taskJsonCarriesTheMode() {
    Dataset ds = Data.create(dir.resolve("ds"), allocator, 200, 100, LanceFileVersion.V2_1);
    CompactionTask t = Compaction.plan(ds, CompactionOptions.builder().mode(CompactionMode.FORCE_BINARY_COPY)
        .build()).tasks().get(0);
    assertThat(CompactionTask.fromJson(t.toJson()).options().mode()).isEqualTo(CompactionMode.FORCE_BINARY_COPY);
  }
}
