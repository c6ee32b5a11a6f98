package dev.javelin.core.compaction;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.table.DataFile;
import dev.javelin.table.Fragment;
import dev.javelin.table.proto.TableProtos;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ColumnLayoutStatsTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  @Test
  void columnLayoutStatsCountsFilesPerFragment() {
    Dataset ds = Data.create(dir.resolve("ds"), allocator, 200, 100, LanceFileVersion.V2_1);
    ds = Data.backfill(Data.backfill(ds, "a", 2), "b", 3);
    ColumnLayoutStats stats = ds.columnLayoutStats();
    assertThat(stats.fragments()).hasSize(2);
    ColumnLayoutStats.FragmentStats f = stats.fragment(1);
    assertThat(f.dataFiles()).isEqualTo(3);
    assertThat(f.files()).extracting(ColumnLayoutStats.FileStats::schemaFields).containsExactly(2, 1, 1);
    Fragment frag = ds.manifest().fragments().get(1);
    assertThat(f.files()).extracting(ColumnLayoutStats.FileStats::sizeBytes)
        .containsExactlyElementsOf(frag.files().stream().map(DataFile::fileSizeBytes).toList());
    assertThat(f.files()).allMatch(x -> x.sizeBytes() > 0);
    assertThat(f.deadSlotShare()).isZero();
    assertThat(f.overlays()).isZero();
    assertThat(stats.fragment(9)).isNull();
  }

  @Test
  void columnLayoutStatsCountsDroppedColumnsAsDeadSlots() {
    Dataset ds = Data.create(dir.resolve("ds"), allocator, 100, 100, LanceFileVersion.V2_1);
    ds = Data.backfill(ds, "a", 2).dropColumns("s");
    ColumnLayoutStats.FragmentStats f = ds.columnLayoutStats().fragment(0);
    // Slots: id, (s tombstoned), a.
    assertThat(f.dataFiles()).isEqualTo(2);
    assertThat(f.files()).extracting(ColumnLayoutStats.FileStats::schemaFields).containsExactly(1, 1);
    assertThat(f.deadSlotShare()).isEqualTo(1.0 / 3);
  }

  @Test
  void columnLayoutStatsSkipsFilesWithoutSchemaColumns() {
    // A file listing only ids the schema no longer has (as another writer may leave one).
    TableProtos.DataFragment p = TableProtos.DataFragment.newBuilder().setId(4).setPhysicalRows(3)
        .addFiles(TableProtos.DataFile.newBuilder().setPath("live").addFields(0).addFields(1).addColumnIndices(0)
            .addColumnIndices(1).setFileSizeBytes(10))
        .addFiles(TableProtos.DataFile.newBuilder().setPath("dead").addFields(7).addFields(-2).addColumnIndices(0)
            .addColumnIndices(1).setFileSizeBytes(20))
        .build();
    ColumnLayoutStats.FragmentStats f = ColumnLayoutStats.fragment(Fragment.fromProto(p), Set.of(0, 1));
    assertThat(f.dataFiles()).isEqualTo(1);
    assertThat(f.files()).extracting(ColumnLayoutStats.FileStats::path).containsExactly("live");
    assertThat(f.deadSlotShare()).isEqualTo(0.5);
  }
}
