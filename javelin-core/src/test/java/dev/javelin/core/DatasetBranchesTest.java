package dev.javelin.core;

import static dev.javelin.core.DatasetApiTest.scanAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.compaction.CompactionOptions;
import dev.javelin.index.IndexType;
import dev.javelin.table.BranchInfo;
import dev.javelin.table.CleanupPolicy;
import dev.javelin.table.FeatureFlags;
import dev.javelin.table.exceptions.BranchExistsException;
import dev.javelin.table.exceptions.BranchInUseException;
import dev.javelin.table.exceptions.BranchNotFoundException;
import dev.javelin.table.exceptions.CloneRefusedException;
import dev.javelin.table.exceptions.DatasetExistsException;
import dev.javelin.table.exceptions.InvalidBranchNameException;
import dev.javelin.testing.MixedBatches;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Shallow clones and branches through the Dataset API, with the rows read back. */
class DatasetBranchesTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private Dataset write(Dataset ds, Path path, long start, int rows) {
    List<VectorSchemaRoot> batches = MixedBatches.batches(allocator, start, rows, 400);
    try {
      WriteParams p = WriteParams.builder().maxRowsPerFile(500).build();
      return ds == null ? Dataset.create(path, batches, p, allocator) : ds.append(batches, p);
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  private List<List<Object>> expected(long start, int rows) {
    try (VectorSchemaRoot r = MixedBatches.batch(allocator, start, rows)) {
      return MixedBatches.rows(r);
    }
  }

  private static List<List<Object>> without(List<List<Object>> rows, java.util.function.LongPredicate deleted) {
    List<List<Object>> out = new ArrayList<>();
    for (List<Object> r : rows) {
      if (!deleted.test(Long.parseLong((String) r.get(0)))) {
        out.add(r);
      }
    }
    return out;
  }

  // Every file under a directory, with its size (what a write must leave alone).
  private static Map<String, Long> files(Path root) throws IOException {
    Map<String, Long> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : (Iterable<Path>) s.filter(Files::isRegularFile)::iterator) {
        out.put(root.relativize(p).toString(), Files.size(p));
      }
    }
    return out;
  }

  /** 1000 rows in two fragments, rows 0..9 deleted, a BTree index on id: version 3. */
  private Dataset source(Path path) {
    Dataset ds = write(null, path, 0, 1000);
    ds = ds.delete("id < 10");
    return ds.createIndex("id", IndexType.BTREE, "id_idx");
  }

  @Test
  void shallowCloneReadsTheSourceAndWritesOnlyItsOwnFiles() throws Exception {
    Path src = dir.resolve("src");
    Dataset ds = source(src);
    Map<String, Long> before = files(src);
    Dataset clone = ds.shallowClone(dir.resolve("clone"));
    assertThat(clone.version()).isEqualTo(ds.version());
    assertThat(clone.manifest().readerFeatureFlags() & FeatureFlags.BASE_PATHS).isEqualTo(FeatureFlags.BASE_PATHS);
    assertThat(clone.manifest().basePaths().byId()).hasSize(1);
    assertThat(clone.manifest().basePaths().byId().get(0).path()).isEqualTo(src.toString());
    assertThat(clone.manifest().fragments()).allSatisfy(f -> assertThat(f.files().get(0).hasBaseId()).isTrue());
    assertThat(Files.exists(dir.resolve("clone/data"))).isFalse();

    Dataset reopened = Dataset.open(dir.resolve("clone"), allocator);
    MixedBatches.assertSameRows(scanAll(reopened, 256), without(expected(0, 1000), id -> id < 10));
    assertThat(reopened.indices()).extracting(IndexInfo::name).containsExactly("id_idx");
    assertThat(reopened.explain("id = 777").toString()).contains("id_idx");
    assertThat(reopened.countRows("id = 777")).isEqualTo(1);
    assertThat(reopened.countRows("id = 5")).isZero();
    try (VectorSchemaRoot r = reopened.take(new long[] {0, 989})) {
      assertThat(MixedBatches.rows(r)).isEqualTo(List.of(expected(10, 1).get(0), expected(999, 1).get(0)));
    }

    // Writes: new files under the clone, the source untouched.
    Dataset c = write(reopened, null, 1000, 200);
    c = c.delete("id >= 500 AND id < 520");
    c = c.update("id = 600", Map.of("s", "'changed'")).dataset();
    List<List<Object>> want = without(expected(0, 1200), id -> id < 10 || (id >= 500 && id < 520));
    for (List<Object> r : want) {
      if (r.get(0).equals("600")) {
        r.set(2, "changed");
      }
    }
    want.sort(java.util.Comparator.comparingLong(r -> Long.parseLong((String) r.get(0))));
    List<List<Object>> got = scanAll(Dataset.open(dir.resolve("clone"), allocator), 300);
    got.sort(java.util.Comparator.comparingLong(r -> Long.parseLong((String) r.get(0))));
    MixedBatches.assertSameRows(got, want);
    assertThat(files(dir.resolve("clone"))).containsKey("_versions/latest_version_hint.json")
        .satisfies(m -> assertThat(m.keySet()).anyMatch(k -> k.startsWith("data/")));
    assertThat(files(src)).isEqualTo(before);
    MixedBatches.assertSameRows(scanAll(Dataset.open(src, allocator), 256), without(expected(0, 1000), id -> id < 10));

    // Optimizing the source's index writes the merged index into the clone.
    c = c.optimizeIndices().dataset();
    assertThat(c.manifest().indices()).allSatisfy(i -> assertThat(i.baseId()).isEmpty());
    assertThat(c.explain("id = 1100").usesIndex()).isTrue();
    assertThat(c.countRows("id = 1100")).isEqualTo(1);
    assertThat(files(src)).isEqualTo(before);

    // Compaction rewrites into the clone; cleanup of the clone never touches the source.
    Dataset compacted = c.compact(CompactionOptions.builder().targetRowsPerFragment(5000).build());
    compacted.cleanup(CleanupPolicy.builder().beforeVersion(compacted.version()).deleteUnverified(true).build());
    got = scanAll(Dataset.open(dir.resolve("clone"), allocator), 300);
    got.sort(java.util.Comparator.comparingLong(r -> Long.parseLong((String) r.get(0))));
    MixedBatches.assertSameRows(got, want);
    assertThat(files(src)).isEqualTo(before);
    // The index was remapped into the clone's own _indices/ (no base id), and still answers.
    Dataset after = Dataset.open(dir.resolve("clone"), allocator);
    assertThat(after.manifest().indices()).allSatisfy(i -> assertThat(i.baseId()).isEmpty());
    assertThat(after.explain("id = 777").usesIndex()).isTrue();
    assertThat(after.countRows("id = 777")).isEqualTo(1);
    assertThat(after.countRows("id >= 500 AND id < 530")).isEqualTo(10);

    assertThatThrownBy(() -> ds.shallowClone(dir.resolve("clone"))).isInstanceOf(DatasetExistsException.class);
  }

  @Test
  void aCloneOfAVersionWithOverlaysIsRefusedAndWritesNothing() throws Exception {
    Path src = dir.resolve("src");
    Dataset ds = source(src).updateOverlay("id < 100", Map.of("s", "'u'")).dataset();
    Map<String, Long> before = files(src);
    Path target = dir.resolve("clone");
    assertThatThrownBy(() -> ds.shallowClone(target))
        .isInstanceOf(CloneRefusedException.class)
        .hasMessage("Cannot shallow-clone version " + ds.version() + ": it has data overlays (fragment 0), which a "
            + "shallow clone cannot refer to yet; compact first: " + target);
    assertThat(files(src)).isEqualTo(before);
    assertThat(Files.exists(target) ? files(target) : Map.of()).isEmpty();
  }

  @Test
  void cloneOfATaggedVersionAndOfAClone() throws Exception {
    Path src = dir.resolve("src");
    Dataset ds = source(src);
    ds.tags().create("first", 1);
    Dataset atTag = ds.shallowClone(dir.resolve("c1"), "first");
    assertThat(atTag.version()).isEqualTo(1);
    MixedBatches.assertSameRows(scanAll(atTag, 256), expected(0, 1000));
    Dataset grandchild = write(atTag, null, 1000, 10).shallowClone(dir.resolve("c2"));
    assertThat(grandchild.manifest().basePaths().byId()).hasSize(2);
    MixedBatches.assertSameRows(scanAll(Dataset.open(dir.resolve("c2"), allocator), 256), expected(0, 1010));
  }

  @Test
  void branchesAreCreatedListedWrittenAndDeleted() throws Exception {
    Path src = dir.resolve("src");
    Dataset main = source(src);
    Map<String, Long> before = files(src);
    Dataset b = main.createBranch("feat/x", 2);
    assertThat(b.branch()).contains("feat/x");
    assertThat(b.version()).isEqualTo(2);
    assertThat(b.manifest().branch()).contains("feat/x");
    assertThat(Files.exists(src.resolve("tree/feat/x/_versions"))).isTrue();
    assertThat(Files.exists(src.resolve("_refs/branches/feat%2Fx.json"))).isTrue();
    BranchInfo info = main.branches().get("feat/x");
    assertThat(info.parentBranch()).isEmpty();
    assertThat(info.parentVersion()).isEqualTo(2);
    assertThat(info.lineage()).hasSize(1);

    Dataset b2 = write(b, null, 1000, 100).delete("id = 20");
    assertThat(b2.version()).isEqualTo(4);
    List<List<Object>> onBranch = without(expected(0, 1100), id -> id < 10 || id == 20);
    MixedBatches.assertSameRows(scanAll(main.checkoutBranch("feat/x"), 256), onBranch);
    MixedBatches.assertSameRows(scanAll(Dataset.open(src.resolve("tree/feat/x"), allocator), 256), onBranch);
    assertThat(Dataset.open(src.resolve("tree/feat/x"), allocator).branch()).contains("feat/x");
    // Main is not changed by the branch's writes (its new files are under tree/feat/x).
    MixedBatches.assertSameRows(scanAll(Dataset.open(src, allocator), 256), without(expected(0, 1000), id -> id < 10));
    Map<String, Long> mainFiles = new TreeMap<>(files(src));
    mainFiles.keySet().removeIf(k -> k.startsWith("tree/") || k.startsWith("_refs/"));
    assertThat(mainFiles).isEqualTo(before);

    // A branch of the branch, a tag on a branch.
    Dataset nested = b2.createBranch("feat/x/y");
    assertThat(main.branches().get("feat/x/y").parentBranch()).contains("feat/x");
    assertThat(main.branches().get("feat/x/y").lineage()).hasSize(2);
    MixedBatches.assertSameRows(scanAll(write(nested, null, 2000, 5), 256), concat(onBranch, expected(2000, 5)));
    b2.tags().create("on-branch", b2.version());
    assertThat(main.tags().get("on-branch").branch()).contains("feat/x");
    Dataset tagged = main.checkout("on-branch");
    assertThat(tagged.branch()).contains("feat/x");
    MixedBatches.assertSameRows(scanAll(tagged, 256), onBranch);
    assertThat(main.branches().list().keySet()).containsExactly("feat/x", "feat/x/y");

    assertThatThrownBy(() -> main.createBranch("feat/x")).isInstanceOf(BranchExistsException.class)
        .hasMessage("Branch 'feat/x' already exists: " + src);
    assertThatThrownBy(() -> main.createBranch("main")).isInstanceOf(InvalidBranchNameException.class);
    assertThatThrownBy(() -> main.createBranch("a//b")).isInstanceOf(InvalidBranchNameException.class);
    assertThatThrownBy(() -> main.checkoutBranch("nope")).isInstanceOf(BranchNotFoundException.class)
        .hasMessage("Dataset has no branch 'nope': " + src);

    // A branch others were made from stays; deleting one removes its files, not those of a
    // branch named below it.
    assertThatThrownBy(() -> main.branches().delete("feat/x")).isInstanceOf(BranchInUseException.class)
        .hasMessage("Branch 'feat/x' cannot be deleted: branches [feat/x/y] were created from it and refer to its "
            + "files; delete them first: " + src);
    main.createBranch("feat/x/z", 1);
    main.branches().delete("feat/x/y");
    main.branches().delete("feat/x");
    assertThat(main.branches().list().keySet()).containsExactly("feat/x/z");
    assertThat(files(src).keySet()).noneMatch(k -> k.startsWith("tree/feat/x/_") || k.startsWith("tree/feat/x/y/"))
        .anyMatch(k -> k.startsWith("tree/feat/x/z/_versions/"));
    MixedBatches.assertSameRows(scanAll(main.checkoutBranch("feat/x/z"), 256), expected(0, 1000));
    assertThatThrownBy(() -> main.branches().delete("feat/x")).isInstanceOf(BranchNotFoundException.class);
  }

  @Test
  void mainCleanupKeepsTheVersionsBranchesWereCreatedFrom() throws Exception {
    Path src = dir.resolve("src");
    Dataset main = write(null, src, 0, 1000);
    main.createBranch("b", 1);
    main = main.delete("id < 600"); // drops fragment 0, rewrites fragment 1's deletions
    main = main.compact(CompactionOptions.builder().targetRowsPerFragment(5000).build());
    main.cleanup(CleanupPolicy.builder().beforeVersion(main.version()).deleteUnverified(true).build());
    assertThat(main.versions()).extracting(VersionInfo::version).contains(1L, main.version());
    MixedBatches.assertSameRows(scanAll(main.checkoutBranch("b"), 256), expected(0, 1000));
    main.branches().delete("b");
    main.cleanup(CleanupPolicy.builder().beforeVersion(main.version()).deleteUnverified(true).build());
    assertThat(main.versions()).extracting(VersionInfo::version).containsExactly(main.version());
    MixedBatches.assertSameRows(scanAll(main, 256), expected(600, 400));
  }

  private static List<List<Object>> concat(List<List<Object>> a, List<List<Object>> b) {
    List<List<Object>> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }
}
