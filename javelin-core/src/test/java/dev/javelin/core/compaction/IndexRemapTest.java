package dev.javelin.core.compaction;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.core.IndexInfo;
import dev.javelin.core.exceptions.IndexRemapUnsupportedException;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.index.IndexType;
import dev.javelin.index.internal.btree.BTreeIndex;
import dev.javelin.index.internal.btree.ScalarQuery;
import dev.javelin.table.Fragment;
import dev.javelin.table.IndexMetadata;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/** Indices across compaction: a rewrite remaps a BTree to the new fragments, a repack keeps it. */
class IndexRemapTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  /** The addresses the index returns for id in [lo, hi). */
  private Set<Long> indexed(Dataset ds, long lo, long hi) throws IOException {
    IndexInfo info = ds.indices().get(0);
    try (BTreeIndex i = BTreeIndex.open(ds.store(), info.uuid(), allocator)) {
      Roaring64NavigableMap m = i.search(ScalarQuery.between(lo, hi - 1));
      Set<Long> out = new TreeSet<>();
      m.forEach(out::add);
      return out;
    }
  }

  /** The addresses a full scan finds for id in [lo, hi). */
  private static Set<Long> scanned(Dataset ds, long lo, long hi) throws IOException {
    Set<Long> out = new TreeSet<>();
    try (ArrowReader r = ds.newScan().columns(List.of("id")).withRowAddress().build()) {
      VectorSchemaRoot root = r.getVectorSchemaRoot();
      while (r.loadNextBatch()) {
        BigIntVector id = (BigIntVector) root.getVector("id");
        UInt8Vector addr = (UInt8Vector) root.getVector("_rowaddr");
        for (int i = 0; i < root.getRowCount(); i++) {
          if (id.get(i) >= lo && id.get(i) < hi) {
            out.add(addr.get(i));
          }
        }
      }
    }
    return out;
  }

  @Test
  void rewriteRemapsABTreeToTheNewFragments() throws IOException {
    Dataset ds = Data.create(dir.resolve("ds"), allocator, 1000, 100, LanceFileVersion.V2_1)
        .createIndex("id", IndexType.BTREE)
        .delete("id >= 150 AND id < 170 OR id = 999");
    String oldUuid = ds.indices().get(0).uuid();
    Dataset after = ds.compact(CompactionOptions.builder().targetRowsPerFragment(400).build());
    List<Long> newIds = after.manifest().fragments().stream().map(Fragment::id).toList();
    assertThat(newIds).allSatisfy(id -> assertThat(id).isGreaterThanOrEqualTo(10L));
    IndexInfo info = after.indices().get(0);
    assertThat(info.uuid()).isNotEqualTo(oldUuid);
    assertThat(info.fragments()).containsExactlyInAnyOrderElementsOf(newIds);
    for (long[] range : new long[][] {{0, 1000}, {140, 180}, {990, 1000}, {399, 401}}) {
      Set<Long> expected = scanned(after, range[0], range[1]);
      assertThat(indexed(after, range[0], range[1])).as("ids in [%d, %d)", range[0], range[1])
          .isEqualTo(expected);
    }
    assertThat(indexed(after, 0, 1000)).hasSize(979);
    // Indexed filtered counts agree with the old version's.
    assertThat(after.countRows("id >= 100 AND id < 200")).isEqualTo(ds.countRows("id >= 100 AND id < 200"))
        .isEqualTo(80);
    // The old version still reads its own index (built before the delete, so it still lists the
    // deleted rows, which the reader drops; the remapped one left them out).
    assertThat(indexed(ds, 0, 1000)).hasSize(1000).containsAll(scanned(ds, 0, 1000));
  }

  @Test
  void repackKeepsScalarIndex() throws IOException {
    Dataset ds = Data.create(dir.resolve("ds"), allocator, 300, 100, LanceFileVersion.V2_1);
    ds = Data.backfill(Data.backfill(ds, "a", 2), "b", 3).createIndex("id", IndexType.BTREE);
    IndexInfo before = ds.indices().get(0);
    Set<Long> rowsBefore = indexed(ds, 50, 250);
    Dataset after = ds.compact(CompactionOptions.builder().maxDataFilesPerFragment(1)
        .scope(CompactionScope.REPACK_COLUMNS).build());
    assertThat(after.manifest().fragments()).allSatisfy(f -> assertThat(f.files()).hasSize(1));
    IndexInfo info = after.indices().get(0);
    assertThat(info.uuid()).isEqualTo(before.uuid());
    assertThat(info.fragments()).isEqualTo(before.fragments());
    assertThat(indexed(after, 50, 250)).isEqualTo(rowsBefore).isEqualTo(scanned(after, 50, 250));
    assertThat(after.countRows("id >= 50 AND id < 250")).isEqualTo(200);
  }

  @Test
  void aFailedRewriteCommitDeletesTheRemappedIndex() throws IOException {
    Dataset ds = Data.create(dir.resolve("ds"), allocator, 400, 100, LanceFileVersion.V2_1)
        .createIndex("id", IndexType.BTREE);
    CompactionPlan plan = Compaction.plan(ds, CompactionOptions.defaults());
    List<CompactionTaskResult> results = new ArrayList<>();
    for (CompactionTask t : plan.tasks()) {
      results.add(new DefaultCompactionExecutor().execute(ds, t));
    }
    ds.delete("id = 5"); // a concurrent delete of a rewritten fragment: the Rewrite conflicts
    List<String> before = indexDirs(ds);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Compaction.commit(ds, results))
        .isInstanceOf(dev.javelin.table.exceptions.CommitConflictException.class);
    assertThat(indexDirs(ds)).isEqualTo(before);
  }

  @Test
  void deferIndexRemapRecordsAFragmentReuseIndex() throws Exception {
    Dataset ds = Data.create(dir.resolve("ds"), allocator, 400, 100, LanceFileVersion.V2_1)
        .createIndex("id", IndexType.BTREE).delete("id >= 150 AND id < 170");
    IndexInfo before = ds.indices().get(0);
    Dataset after = ds.compact(CompactionOptions.builder().deferIndexRemap(true).build());
    assertThat(after.manifest().fragments()).extracting(Fragment::id).containsExactly(4L);
    // The BTree is untouched (still the old fragments); the system index records the move.
    List<IndexMetadata> indices = after.manifest().indices();
    assertThat(indices).extracting(i -> i.name()).containsExactly("id_idx", "__lance_frag_reuse");
    IndexInfo kept = after.indices().stream().filter(i -> i.name().equals("id_idx")).findFirst().orElseThrow();
    assertThat(kept.uuid()).isEqualTo(before.uuid());
    assertThat(kept.fragments()).containsExactly(0L, 1L, 2L, 3L);
    var reuse = indices.get(1);
    assertThat(reuse.fields()).isEmpty();
    assertThat(reuse.details().typeUrl()).isEqualTo("/lance.table.FragmentReuseIndexDetails");
    var details = dev.javelin.table.proto.TableProtos.FragmentReuseIndexDetails.parseFrom(
        reuse.details().value()).getInline();
    assertThat(details.getVersionsCount()).isEqualTo(1);
    var group = details.getVersions(0).getGroups(0);
    assertThat(group.getOldFragmentsList()).extracting(f -> f.getId()).containsExactly(0L, 1L, 2L, 3L);
    assertThat(group.getOldFragments(1).getNumDeletedRows()).isEqualTo(20);
    assertThat(group.getNewFragmentsList()).extracting(f -> f.getPhysicalRows()).containsExactly(380L);
    Roaring64NavigableMap moved = new Roaring64NavigableMap();
    moved.deserializePortable(new java.io.DataInputStream(group.getChangedRowAddrs().newInput()));
    assertThat(moved.getLongCardinality()).isEqualTo(380);
    assertThat(moved.contains((1L << 32) | 49)).isTrue();
    assertThat(moved.contains((1L << 32) | 50)).isFalse();
    // Javelin's filtered reads stay right: the new fragment is not covered, so it is scanned.
    assertThat(after.countRows("id >= 100 AND id < 200")).isEqualTo(80);
    assertThat(Data.values(after)).isEqualTo(Data.values(ds));
    // A second deferred rewrite appends a version to the same system index.
    Dataset more;
    try (org.apache.arrow.vector.VectorSchemaRoot b = Data.batch(allocator, 400, 10)) {
      more = after.append(List.of(b), dev.javelin.core.WriteParams.builder().build());
    }
    Dataset again = more.compact(CompactionOptions.builder().deferIndexRemap(true).build());
    var reuse2 = again.manifest().indices().stream().filter(i -> i.name().equals("__lance_frag_reuse"))
        .findFirst().orElseThrow();
    assertThat(dev.javelin.table.proto.TableProtos.FragmentReuseIndexDetails.parseFrom(
        reuse2.details().value()).getInline().getVersionsCount()).isEqualTo(2);
    assertThat(again.countRows("id >= 100 AND id < 200")).isEqualTo(80);
  }

  private static List<String> indexDirs(Dataset ds) throws IOException {
    List<String> out = new ArrayList<>();
    ds.store().list("_indices").forEach(k -> out.add(k.key()));
    out.sort(null);
    return out;
  }

  // An index entry of a kind Javelin neither reads nor remaps (as lance-core writes one), over
  // fragments 0 to 4 (its files are never opened).
  private static IndexMetadata foreign(String name, String detailsType, long version) {
    return IndexMetadata.builder()
        .uuid(java.util.UUID.randomUUID().toString())
        .name(name).fields(List.of(0)).datasetVersion(version)
        .fragmentBitmap(org.roaringbitmap.RoaringBitmap.bitmapOf(0, 1, 2, 3, 4))
        .details(detailsType)
        .indexVersion(0).build();
  }

  @Test
  void rewriteRetiresSearchIndicesJavelinCannotRemap() throws IOException {
    Dataset ds = Data.create(dir.resolve("ds"), allocator, 1000, 100, LanceFileVersion.V2_1)
        .createIndex("id", IndexType.BTREE);
    // (Every scalar kind is remapped, its files read: see IndexedScanTest and ListAndTextIndexTest.)
    List<IndexMetadata> foreign = List.of(
        foreign("fts", "/lance.table.InvertedIndexDetails", ds.version()),
        foreign("future", "/lance.table.SomeFutureIndexDetails", ds.version()));
    dev.javelin.table.Table.at(ds.store()).newCommit(dev.javelin.table.Transaction.createIndex(ds.version(), foreign,
        List.of())).commit();
    ds = Dataset.open(dir.resolve("ds"), allocator).delete("id >= 150 AND id < 170");
    // Fragments 0-4 (every foreign index covers them) and 5-9 go to separate rewrites.
    Dataset after = ds.compact(CompactionOptions.builder().targetRowsPerFragment(500).build());
    java.util.Map<String, Set<Long>> coverage = new java.util.HashMap<>();
    after.indices().forEach(x -> coverage.put(x.name(), x.fragments()));
    Set<Long> live = new TreeSet<>(after.manifest().fragments().stream().map(Fragment::id).toList());
    assertThat(live).hasSize(2).allSatisfy(id -> assertThat(id).isGreaterThanOrEqualTo(10L));
    assertThat(coverage.get("id_idx")).isEqualTo(live);
    for (String name : List.of("fts", "future")) {
      assertThat(coverage.get(name)).as(name).containsExactly(0L, 1L, 2L, 3L, 4L);
    }
    assertThat(after.countRows("id >= 100 AND id < 200")).isEqualTo(80);
  }

  @Test
  void deferredRemapRefusesAnInvertedIndexAndUncoversZoneMaps() throws IOException {
    Dataset ds = Data.create(dir.resolve("ds"), allocator, 1000, 100, LanceFileVersion.V2_1);
    dev.javelin.table.Table.at(ds.store()).newCommit(dev.javelin.table.Transaction.createIndex(ds.version(),
        List.of(foreign("fts", "/lance.table.InvertedIndexDetails", ds.version())), List.of())).commit();
    Dataset withFts = Dataset.open(dir.resolve("ds"), allocator);
    CompactionOptions deferred = CompactionOptions.builder().targetRowsPerFragment(500).deferIndexRemap(true).build();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> withFts.compact(deferred))
        .isInstanceOf(IndexRemapUnsupportedException.class).hasMessageContaining("'fts'");
    Dataset noFts = withFts.dropIndex("fts");
    dev.javelin.table.Table.at(ds.store()).newCommit(dev.javelin.table.Transaction.createIndex(noFts.version(),
        List.of(foreign("zones", "/lance.table.ZoneMapIndexDetails", noFts.version())), List.of())).commit();
    Dataset after = Dataset.open(dir.resolve("ds"), allocator).compact(deferred);
    java.util.Map<String, Set<Long>> coverage = new java.util.HashMap<>();
    after.indices().forEach(x -> coverage.put(x.name(), x.fragments()));
    assertThat(coverage.get("zones")).isEmpty();
    assertThat(after.manifest().indices()).anySatisfy(x -> assertThat(x.name()).isEqualTo("__lance_frag_reuse"));
  }
}
