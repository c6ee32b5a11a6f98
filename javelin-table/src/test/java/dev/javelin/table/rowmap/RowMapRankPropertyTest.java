package dev.javelin.table.rowmap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.io.LocalObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.constraints.IntRange;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/** Ranks through the per-chunk label groups and checkpoints against counting labels one by one. */
class RowMapRankPropertyTest {

  // Labels in runs or at random, some deleted, from a seed.
  static int[] labels(int n, int m, int deletedPercent, boolean runs, long seed) {
    Random r = new Random(seed);
    int[] out = new int[n];
    for (int i = 0; i < n; i++) {
      if (r.nextInt(100) < deletedPercent) {
        out[i] = RowMapWriter.DELETED;
      } else {
        out[i] = runs ? (int) ((long) i * m / n) : r.nextInt(m);
      }
    }
    return out;
  }

  // Uniform, not biased to small sizes: most tries span two to four chunks.
  @Provide
  Arbitrary<Integer> rows() {
    return Arbitraries.integers().between(1, 200_000).withDistribution(RandomDistribution.uniform());
  }

  static long naiveRank(int[] labels, int p) {
    if (labels[p] < 0) {
      return -1;
    }
    long n = 0;
    for (int i = 0; i < p; i++) {
      if (labels[i] == labels[p]) {
        n++;
      }
    }
    return n;
  }

  @Property(tries = 300)
  void aChunkCountsLabelsBeforeAnOffset(@ForAll @IntRange(min = 1, max = 70_000) int n,
      @ForAll @IntRange(min = 1, max = 40) int m, @ForAll @IntRange(min = 0, max = 100) int deleted,
      @ForAll boolean runs, @ForAll long seed) {
    int[] labels = labels(n, m, deleted, runs, seed);
    RowMapReader.Chunk chunk = new RowMapReader.Chunk(labels);
    Random r = new Random(seed ^ 7);
    for (int q = 0; q < 50; q++) {
      int off = r.nextInt(n + 1);
      int l = r.nextInt(m);
      int want = 0;
      for (int i = 0; i < off; i++) {
        if (labels[i] == l) {
          want++;
        }
      }
      assertThat(chunk.countBefore(l, off, m)).as("label %d before %d", l, off).isEqualTo(want);
    }
  }

  @Property(tries = 8)
  void ranksAcrossChunksEqualCounting(@ForAll("rows") int n,
      @ForAll @IntRange(min = 1, max = 300) int m, @ForAll @IntRange(min = 0, max = 30) int deleted,
      @ForAll boolean runs, @ForAll long seed) throws IOException {
    int[] labels = labels(n, m, deleted, runs, seed);
    // Prefix counts: the naive rank of every position in one pass.
    long[] want = new long[n];
    long[] seen = new long[m];
    for (int i = 0; i < n; i++) {
      want[i] = labels[i] < 0 ? -1 : seen[labels[i]]++;
    }
    Path dir = Files.createTempDirectory("rowmap-rank");
    try (BufferAllocator allocator = new RootAllocator()) {
      LocalObjectStore store = new LocalObjectStore(dir);
      String path;
      try (RowMapWriter w = RowMapWriter.create(store, m, LanceFileVersion.V2_1, allocator)) {
        for (int l : labels) {
          if (l < 0) {
            w.appendDeleted();
          } else {
            w.append(l);
          }
        }
        w.finish();
        path = w.path();
      }
      Random r = new Random(seed);
      try (RowMapReader map = RowMapReader.open(store, path, allocator)) {
        for (int q = 0; q < 200; q++) {
          // Out of order, so checkpoints are built for chunks after the ones asked about first.
          int p = r.nextInt(n);
          assertThat(map.rank(p)).as("rank of %d", p).isEqualTo(want[p]);
        }
        for (int q = 0; q < 20; q++) {
          int start = r.nextInt(n);
          int len = 1 + r.nextInt(Math.min(n - start, 70_000));
          int[] gotLabels = new int[len];
          long[] gotRanks = new long[len];
          map.ranks(start, len, gotLabels, gotRanks);
          for (int i = 0; i < len; i++) {
            assertThat(gotLabels[i]).isEqualTo(labels[start + i]);
            assertThat(gotRanks[i]).as("rank of %d in a run from %d", start + i, start).isEqualTo(want[start + i]);
          }
        }
        assertThat(map.rank(n - 1)).isEqualTo(naiveRank(labels, n - 1));
      }
    } finally {
      try (Stream<Path> s = Files.walk(dir)) {
        s.sorted(Comparator.reverseOrder()).forEach(x -> x.toFile().delete());
      }
    }
  }
}
