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
import dev.javelin.index.IndexType;
import dev.javelin.table.BranchInfo;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.LongPredicate;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Branch;
import org.lance.Ref;
import org.lance.ipc.ScanOptions;

/**
 * Shallow clones and branches (reader feature 16, base paths) between Javelin and lance-core
 * 7.0.0 both ways: each opens, scans, filters with indices and writes what the other cloned or
 * branched, rows compared value by value, and neither writes into the source's files.
 */
class BranchCloneCompatTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private static List<List<String>> without(List<List<String>> rows, LongPredicate drop) {
    List<List<String>> out = new ArrayList<>();
    for (List<String> r : rows) {
      if (!drop.test(Long.parseLong(r.get(0)))) {
        out.add(r);
      }
    }
    return out;
  }

  private static List<List<String>> sorted(List<List<String>> rows) {
    List<List<String>> out = new ArrayList<>(rows);
    out.sort(Comparator.comparingLong(r -> Long.parseLong(r.get(0))));
    return out;
  }

  private static List<List<String>> concat(List<List<String>> a, List<List<String>> b) {
    List<List<String>> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  private static List<List<String>> withS(List<List<String>> rows, long id, String s) {
    List<List<String>> out = new ArrayList<>();
    for (List<String> r : rows) {
      List<String> c = new ArrayList<>(r);
      if (Long.parseLong(c.get(0)) == id) {
        c.set(2, s);
      }
      out.add(c);
    }
    return out;
  }

  private static Map<String, Long> files(Path root) throws Exception {
    Map<String, Long> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : (Iterable<Path>) s.filter(Files::isRegularFile)::iterator) {
        out.put(root.relativize(p).toString(), Files.size(p));
      }
    }
    out.keySet().removeIf(k -> k.startsWith("tree/") || k.startsWith("_refs/"));
    return out;
  }

  private void lanceWrite(String uri, org.lance.WriteParams.WriteMode mode, long start, int rows) throws Exception {
    List<VectorSchemaRoot> data = batches(allocator, start, rows, 200);
    try (ArrowReader reader = readerOf(allocator, data)) {
      org.lance.Dataset.write().allocator(allocator).reader(reader).uri(uri).mode(mode).maxRowsPerFile(250)
          .execute().close();
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
  }

  private List<List<String>> lanceRows(org.lance.Dataset lance) throws Exception {
    try (var scanner = lance.newScan(new ScanOptions.Builder().batchSize(170).build())) {
      return readAll(scanner.scanBatches());
    }
  }

  private List<List<String>> lanceFiltered(org.lance.Dataset lance, String filter) throws Exception {
    try (var scanner = lance.newScan(new ScanOptions.Builder().filter(filter).useScalarIndex(true).build())) {
      return readAll(scanner.scanBatches());
    }
  }

  private Dataset javelinWrite(Dataset ds, long start, int rows) {
    List<VectorSchemaRoot> data = batches(allocator, start, rows, 200);
    try {
      return ds.append(data, WriteParams.builder().maxRowsPerFile(250).build());
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
  }

  /** Javelin's reads of a dataset: all rows, a filter answered with the id index, a take. */
  private void checkJavelin(Dataset ds, List<List<String>> want) throws Exception {
    assertSameRows(sorted(javelinScan(ds)), sorted(want));
    assertThat(ds.explain("id = 77").usesIndex()).isTrue();
    List<List<String>> hit = want.stream().filter(r -> r.get(0).equals("77")).toList();
    try (ArrowReader r = ds.newScan().filter("id = 77").batchSize(100).build()) {
      assertSameRows(readAll(r), hit);
    }
    try (VectorSchemaRoot t = ds.take(new long[] {0, want.size() - 1})) {
      List<List<String>> scan = javelinScan(ds);
      assertSameRows(rows(t), List.of(scan.get(0), scan.get(scan.size() - 1)));
    }
  }

  @Test
  void javelinOpensAndWritesLanceClonesAndBranches() throws Exception {
    Path src = dir.resolve("src");
    lanceWrite(src.toString(), org.lance.WriteParams.WriteMode.CREATE, 0, 600);
    Path clonePath = dir.resolve("clone");
    try (org.lance.Dataset lance = org.lance.Dataset.open(src.toString(), allocator)) {
      lance.delete("id = 5");
      lance.createIndex(List.of("id"), org.lance.index.IndexType.BTREE, Optional.of("id_idx"),
          org.lance.index.IndexParams.builder().setScalarIndexParams(
              org.lance.index.scalar.ScalarIndexParams.create("btree", "{}")).build(), true);
      lance.tags().create("t3", 3);
      lance.shallowClone(clonePath.toString(), Ref.ofTag("t3")).close();
      try (org.lance.Dataset br = lance.createBranch("feat/x", Ref.ofMain(3))) {
        br.delete("id = 7");
      }
    }
    Map<String, Long> srcFiles = files(src);
    List<List<String>> v3 = without(expected(allocator, 0, 600), id -> id == 5);

    // The clone: read, then append, delete and update through Javelin.
    Dataset clone = Dataset.open(clonePath, allocator);
    assertThat(clone.version()).isEqualTo(3);
    checkJavelin(clone, v3);
    clone = javelinWrite(clone, 600, 100);
    clone = clone.delete("id >= 100 AND id < 120");
    clone = clone.update("id = 300", Map.of("s", "'cloned'")).dataset();
    List<List<String>> cloneWant = withS(without(concat(v3, expected(allocator, 600, 100)),
        id -> id >= 100 && id < 120), 300, "cloned");
    checkJavelin(Dataset.open(clonePath, allocator), cloneWant);

    // The branch: opened from the root and at its own path, then written.
    Dataset main = Dataset.open(src, allocator);
    assertThat(main.branches().list().keySet()).containsExactly("feat/x");
    BranchInfo info = main.branches().get("feat/x");
    assertThat(info.parentBranch()).isEmpty();
    assertThat(info.parentVersion()).isEqualTo(3);
    Dataset branch = main.checkoutBranch("feat/x");
    assertThat(branch.version()).isEqualTo(4);
    List<List<String>> branchV4 = without(v3, id -> id == 7);
    checkJavelin(branch, branchV4);
    checkJavelin(Dataset.open(src.resolve("tree/feat/x"), allocator), branchV4);
    branch = javelinWrite(branch, 1000, 50).delete("id = 1010").update("id = 400", Map.of("s", "'branched'")).dataset();
    List<List<String>> branchWant = withS(without(concat(branchV4, expected(allocator, 1000, 50)),
        id -> id == 1010), 400, "branched");
    checkJavelin(main.checkoutBranch("feat/x"), branchWant);
    assertThat(files(src)).isEqualTo(srcFiles);

    try (org.lance.Dataset lance = org.lance.Dataset.open(clonePath.toString(), allocator)) {
      assertThat(lance.version()).isEqualTo(clone.version());
      assertSameRows(sorted(lanceRows(lance)), sorted(cloneWant));
      assertSameRows(lanceFiltered(lance, "id = 300"), cloneWant.stream().filter(r -> r.get(0).equals("300")).toList());
    }
    try (org.lance.Dataset lance = org.lance.Dataset.open(src.toString(), allocator);
        org.lance.Dataset br = lance.checkout(Ref.ofBranch("feat/x"))) {
      assertThat(br.version()).isEqualTo(branch.version());
      assertSameRows(sorted(lanceRows(br)), sorted(branchWant));
      assertSameRows(lanceFiltered(br, "id = 400"), branchWant.stream().filter(r -> r.get(0).equals("400")).toList());
      assertSameRows(sorted(lanceRows(lance)), sorted(v3));
      // lance-core writes on top of Javelin's commits on the branch, Javelin reads it back.
      br.delete("id = 401");
    }
    assertSameRows(sorted(javelinScan(main.checkoutBranch("feat/x"))), sorted(without(branchWant, id -> id == 401)));
  }

  @Test
  void lanceOpensAndWritesJavelinClonesAndBranches() throws Exception {
    Path src = dir.resolve("src");
    List<VectorSchemaRoot> data = batches(allocator, 0, 600, 200);
    Dataset main;
    try {
      main = Dataset.create(src, data, WriteParams.builder().maxRowsPerFile(250).build(), allocator);
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
    main = main.delete("id = 5").createIndex("id", IndexType.BTREE, "id_idx");
    main.tags().create("t3", 3);
    Path clonePath = dir.resolve("clone");
    Dataset clone = main.shallowClone(clonePath, "t3");
    Dataset branch = main.createBranch("dev", 3);
    branch = javelinWrite(branch, 1000, 50);
    Map<String, Long> srcFiles = files(src);
    List<List<String>> v3 = without(expected(allocator, 0, 600), id -> id == 5);
    List<List<String>> branchWant = concat(v3, expected(allocator, 1000, 50));

    try (org.lance.Dataset lance = org.lance.Dataset.open(clonePath.toString(), allocator)) {
      assertThat(lance.version()).isEqualTo(3);
      assertSameRows(sorted(lanceRows(lance)), sorted(v3));
      assertSameRows(lanceFiltered(lance, "id = 77"), v3.stream().filter(r -> r.get(0).equals("77")).toList());
      lance.delete("id < 30");
    }
    lanceWrite(clonePath.toString(), org.lance.WriteParams.WriteMode.APPEND, 2000, 40);
    List<List<String>> cloneWant = concat(without(v3, id -> id < 30), expected(allocator, 2000, 40));
    checkJavelin(Dataset.open(clonePath, allocator), cloneWant);

    try (org.lance.Dataset lance = org.lance.Dataset.open(src.toString(), allocator)) {
      List<Branch> branches = lance.branches().list();
      assertThat(branches).extracting(Branch::getName).containsExactly("dev");
      assertThat(branches.get(0).getParentVersion()).isEqualTo(3);
      assertThat(branches.get(0).getParentBranch()).isEmpty();
      try (org.lance.Dataset br = lance.checkout(Ref.ofBranch("dev"))) {
        assertThat(br.version()).isEqualTo(branch.version());
        assertSameRows(sorted(lanceRows(br)), sorted(branchWant));
        assertSameRows(lanceFiltered(br, "id = 77"), v3.stream().filter(r -> r.get(0).equals("77")).toList());
        br.delete("id = 1001");
        // lance-core branches Javelin's branch (from the branch's own dataset: 7.0.0 resolves a
        // branch ref given to the main dataset against main's location); Javelin lists and reads it.
        br.createBranch("dev2", Ref.ofBranch("dev", br.version())).close();
      }
    }
    lanceWrite(src.resolve("tree/dev").toString(), org.lance.WriteParams.WriteMode.APPEND, 3000, 20);
    branchWant = concat(without(branchWant, id -> id == 1001), expected(allocator, 3000, 20));
    checkJavelin(main.checkoutBranch("dev"), branchWant);
    assertThat(main.branches().list().keySet()).containsExactly("dev", "dev2");
    assertThat(files(src)).isEqualTo(srcFiles);
    assertSameRows(sorted(javelinScan(Dataset.open(src, allocator))), sorted(v3));
    try (org.lance.Dataset lance = org.lance.Dataset.open(src.toString(), allocator);
        org.lance.Dataset br = lance.checkout(Ref.ofBranch("dev2"))) {
      assertThat(main.checkoutBranch("dev2").version()).isEqualTo(br.version());
      assertSameRows(sorted(javelinScan(main.checkoutBranch("dev2"))), sorted(lanceRows(br)));
    }
  }

  /**
   * Each library's cleanup of the main branch keeps the version a branch (made by the other) was
   * created from, so the branch still reads in both; a clone's cleanup leaves its source alone.
   */
  @Test
  void cleanupOfMainKeepsWhatTheOthersBranchesUse() throws Exception {
    for (boolean javelinBranches : new boolean[] {true, false}) {
      Path src = dir.resolve("src-" + javelinBranches);
      lanceWrite(src.toString(), org.lance.WriteParams.WriteMode.CREATE, 0, 600);
      if (javelinBranches) {
        Dataset.open(src, allocator).createBranch("b", 1);
      } else {
        try (org.lance.Dataset lance = org.lance.Dataset.open(src.toString(), allocator)) {
          lance.createBranch("b", Ref.ofMain(1)).close();
        }
      }
      // Main drops fragment 0 and rewrites the rest, so version 1's files are only the branch's.
      List<List<String>> mainWant = without(expected(allocator, 0, 600), id -> id < 260);
      if (javelinBranches) {
        try (org.lance.Dataset lance = org.lance.Dataset.open(src.toString(), allocator)) {
          lance.delete("id < 260");
          lance.compact(org.lance.compaction.CompactionOptions.builder().withTargetRowsPerFragment(10000).build());
          lance.checkoutLatest();
          lance.cleanupWithPolicy(org.lance.cleanup.CleanupPolicy.builder().withBeforeVersion(lance.version())
              .withDeleteUnverified(true).build());
        }
      } else {
        Dataset main = Dataset.open(src, allocator).delete("id < 260")
            .compact(dev.javelin.core.compaction.CompactionOptions.builder().targetRowsPerFragment(10000).build());
        main.cleanup(dev.javelin.table.CleanupPolicy.builder().beforeVersion(main.version()).deleteUnverified(true)
            .build());
        assertThat(main.versions()).extracting(dev.javelin.core.VersionInfo::version).contains(1L);
      }
      Dataset main = Dataset.open(src, allocator);
      assertSameRows(sorted(javelinScan(main)), sorted(mainWant));
      assertSameRows(javelinScan(main.checkoutBranch("b")), expected(allocator, 0, 600));
      try (org.lance.Dataset lance = org.lance.Dataset.open(src.toString(), allocator);
          org.lance.Dataset br = lance.checkout(Ref.ofBranch("b"))) {
        assertSameRows(lanceRows(br), expected(allocator, 0, 600));
        assertSameRows(sorted(lanceRows(lance)), sorted(mainWant));
      }
    }

    // A clone compacted and cleaned up by Javelin: the source keeps every file, and lance-core
    // reads the clone (its remapped index too).
    Path src = dir.resolve("src");
    lanceWrite(src.toString(), org.lance.WriteParams.WriteMode.CREATE, 0, 600);
    try (org.lance.Dataset lance = org.lance.Dataset.open(src.toString(), allocator)) {
      lance.delete("id = 5");
      lance.createIndex(List.of("id"), org.lance.index.IndexType.BTREE, Optional.of("id_idx"),
          org.lance.index.IndexParams.builder().setScalarIndexParams(
              org.lance.index.scalar.ScalarIndexParams.create("btree", "{}")).build(), true);
      lance.shallowClone(dir.resolve("clone").toString(), Ref.ofMain(3)).close();
    }
    Map<String, Long> srcFiles = files(src);
    Dataset clone = Dataset.open(dir.resolve("clone"), allocator).delete("id >= 300 AND id < 320")
        .compact(dev.javelin.core.compaction.CompactionOptions.builder().targetRowsPerFragment(10000).build());
    clone.cleanup(dev.javelin.table.CleanupPolicy.builder().beforeVersion(clone.version()).deleteUnverified(true)
        .build());
    assertThat(files(src)).isEqualTo(srcFiles);
    List<List<String>> want = without(expected(allocator, 0, 600), id -> id == 5 || (id >= 300 && id < 320));
    checkJavelin(Dataset.open(dir.resolve("clone"), allocator), want);
    try (org.lance.Dataset lance = org.lance.Dataset.open(dir.resolve("clone").toString(), allocator)) {
      assertSameRows(sorted(lanceRows(lance)), sorted(want));
      assertSameRows(lanceFiltered(lance, "id = 77"), want.stream().filter(r -> r.get(0).equals("77")).toList());
      assertThat(lance.countRows("id >= 300 AND id < 330")).isEqualTo(10);
    }
  }
}
