package dev.javelin.bench;

import dev.javelin.core.Dataset;
import dev.javelin.core.MergeInsertResult;
import dev.javelin.core.WriteParams;
import dev.javelin.index.IndexType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.index.IndexParams;
import org.lance.index.scalar.BTreeIndexParams;
import org.lance.merge.MergeInsertParams;

/**
 * Merge insert (upsert) of {@code changes} rows, half updates of existing ids and half inserts of
 * new ones, into {@code rows} rows (id, score, name; format 2.1, lance-core's default fragment
 * size), by Javelin and by lance-core 7.0.0, each on a fresh copy of the same dataset, with and
 * without a BTree index on the key (built on the copy before the timed merge). Prints the median
 * wall and process CPU times and ratios (CPU time is steadier on a shared machine). Usage:
 * {@code MergeInsertBenchmark [rows] [changes] [runs] [javelin]} (javelin: Javelin's two merges
 * only, for profiling); data under {@link BenchData#dir()}.
 */
public final class MergeInsertBenchmark {
  private MergeInsertBenchmark() {}

  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
    int changes = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
    int runs = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    // "javelin" runs Javelin's two merges only (for profiling them).
    boolean javelinOnly = args.length > 3 && args[3].equals("javelin");
    Path root = BenchData.dir().resolve("merge-insert-" + rows);
    Path base = root.resolve("base");
    try (BufferAllocator allocator = new RootAllocator()) {
      if (!Files.exists(base.resolve("_versions"))) {
        DatasetBenchData.deleteTree(root);
        List<VectorSchemaRoot> data = DatasetBenchData.batches(allocator, 0, rows);
        try {
          Dataset.create(base, data, WriteParams.builder().maxRowsPerFile(1024 * 1024).build(), allocator);
        } finally {
          data.forEach(VectorSchemaRoot::close);
        }
      }
      List<VectorSchemaRoot> source = changes(allocator, rows, changes);
      try {
        String[] names = {"javelin", "javelin+btree", "lance", "lance+btree"};
        List<List<Long>> times = new ArrayList<>();
        List<List<Long>> cpu = new ArrayList<>();
        for (int k = 0; k < names.length; k++) {
          times.add(new ArrayList<>());
          cpu.add(new ArrayList<>());
        }
        for (int run = 0; run < runs + 1; run++) { // the first turn warms up
          for (int k = 0; k < names.length; k++) {
            if (javelinOnly && names[k].startsWith("lance")) {
              times.get(k).add(1L);
              cpu.get(k).add(1L);
              continue;
            }
            Path copy = root.resolve("run");
            DatasetBenchData.deleteTree(copy);
            DatasetBenchData.copyTree(base, copy);
            boolean index = names[k].endsWith("btree");
            long[] ns = names[k].startsWith("javelin") ? javelin(copy, source, index, allocator)
                : lance(copy, source, index, allocator);
            if (run > 0) {
              times.get(k).add(ns[0]);
              cpu.get(k).add(ns[1]);
            }
          }
        }
        long javelin = median(times.get(0));
        long javelinIndexed = median(times.get(1));
        long lance = median(times.get(2));
        long lanceIndexed = median(times.get(3));
        System.out.printf(Locale.ROOT, "merge insert of %,d changes (half updates) into %,d rows, median of %d%n",
            changes, rows, runs);
        for (int k = 0; k < names.length; k++) {
          System.out.printf(Locale.ROOT, "  %-14s %8.1f ms  (CPU %8.1f ms)%n", names[k], median(times.get(k)) / 1e6,
              median(cpu.get(k)) / 1e6);
        }
        System.out.printf(Locale.ROOT, "  speed vs lance-core: %.2fx without index, %.2fx with a BTree%n",
            (double) lance / javelin, (double) lanceIndexed / javelinIndexed);
        System.out.printf(Locale.ROOT, "  Javelin with a BTree vs without: %.2fx%n", (double) javelin / javelinIndexed);
        System.out.printf(Locale.ROOT, "  CPU time vs lance-core: %.2fx without index, %.2fx with a BTree%n",
            (double) median(cpu.get(2)) / median(cpu.get(0)), (double) median(cpu.get(3)) / median(cpu.get(1)));
      } finally {
        source.forEach(VectorSchemaRoot::close);
      }
    }
  }

  // Ids rows - changes/2 .. rows + changes/2 (the last half of the changes are new), shuffled into batches.
  private static List<VectorSchemaRoot> changes(BufferAllocator allocator, long rows, int changes) {
    List<Long> ids = new ArrayList<>();
    for (long i = rows - changes / 2; i < rows + (changes - changes / 2); i++) {
      ids.add(i);
    }
    Collections.shuffle(ids, new java.util.Random(42));
    List<VectorSchemaRoot> out = new ArrayList<>();
    for (int done = 0; done < ids.size(); done += BenchData.BATCH) {
      int n = Math.min(BenchData.BATCH, ids.size() - done);
      VectorSchemaRoot b = DatasetBenchData.batch(allocator, 0, n);
      BigIntVector id = (BigIntVector) b.getVector("id");
      for (int i = 0; i < n; i++) {
        id.set(i, ids.get(done + i));
      }
      out.add(b);
    }
    return out;
  }

  // Wall and process CPU time of the merge (CPU: all threads, lance-core's native ones too).
  private static long[] javelin(Path path, List<VectorSchemaRoot> source, boolean index, BufferAllocator allocator)
      throws Exception {
    Dataset ds = Dataset.open(path, allocator);
    if (index) {
      ds = ds.createIndex("id", IndexType.BTREE);
    }
    try (ArrowReader r = DatasetBenchData.readerOf(allocator, source)) {
      long start = System.nanoTime();
      long cpuStart = CpuTimeProfiler.processCpuNanos();
      MergeInsertResult m = ds.mergeInsert(r).on("id").whenMatchedUpdateAll().whenNotMatchedInsertAll().commit();
      long ns = System.nanoTime() - start;
      long cpuNs = CpuTimeProfiler.processCpuNanos() - cpuStart;
      if (m.plan().usesIndex() != index) {
        throw new IllegalStateException("Expected index use " + index + ": " + m.plan().describe());
      }
      return new long[] {ns, cpuNs};
    }
  }

  private static long[] lance(Path path, List<VectorSchemaRoot> source, boolean index, BufferAllocator allocator)
      throws Exception {
    try (org.lance.Dataset ds = org.lance.Dataset.open(path.toString(), allocator)) {
      if (index) {
        ds.createIndex(List.of("id"), org.lance.index.IndexType.BTREE, Optional.of("id_idx"),
            IndexParams.builder().setScalarIndexParams(BTreeIndexParams.builder().build()).build(), true);
        ds.checkoutLatest();
      }
      try (ArrowReader r = DatasetBenchData.readerOf(allocator, source);
          ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
        Data.exportArrayStream(allocator, r, stream);
        long start = System.nanoTime();
        long cpuStart = CpuTimeProfiler.processCpuNanos();
        ds.mergeInsert(new MergeInsertParams(List.of("id")).withMatchedUpdateAll(), stream).dataset().close();
        return new long[] {System.nanoTime() - start, CpuTimeProfiler.processCpuNanos() - cpuStart};
      }
    }
  }

  private static long median(List<Long> xs) {
    List<Long> s = new ArrayList<>(xs);
    Collections.sort(s);
    return s.get(s.size() / 2);
  }
}
