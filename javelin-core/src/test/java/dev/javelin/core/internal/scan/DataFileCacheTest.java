package dev.javelin.core.internal.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.io.InputFile;
import dev.javelin.table.DataFile;
import dev.javelin.testing.ForwardingObjectStore;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Takes through {@link DataFileCache}: a data file replaced under its name (or a dataset deleted
 * and written again at the same path) is read anew, takes on many threads share the cached
 * metadata and agree with a scan, and the cache holds no memory of the caller's allocator.
 */
class DataFileCacheTest {
  static final Schema SCHEMA = new Schema(List.of(
      Field.nullable("i", new ArrowType.Int(64, true)),
      Field.nullable("s", ArrowType.Utf8.INSTANCE)));
  static final int ROWS = 5_000;

  @TempDir Path dir;
  @TestAllocator RootAllocator allocator;

  private Dataset write(Path path, long scale, int perFile) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
    try (root) {
      root.allocateNew();
      BigIntVector i = (BigIntVector) root.getVector("i");
      VarCharVector s = (VarCharVector) root.getVector("s");
      for (int r = 0; r < ROWS; r++) {
        i.setSafe(r, r * scale);
        s.setSafe(r, ("row " + r * scale).getBytes(StandardCharsets.UTF_8));
      }
      root.setRowCount(ROWS);
      WriteParams p = WriteParams.builder().fileVersion(LanceFileVersion.V2_1).maxRowsPerFile(perFile).build();
      return Dataset.create(path, List.of(root), p, allocator);
    }
  }

  private static List<String> rows(VectorSchemaRoot root) {
    List<String> out = new ArrayList<>();
    for (int r = 0; r < root.getRowCount(); r++) {
      out.add(root.getVector("i").getObject(r) + "/" + root.getVector("s").getObject(r));
    }
    return out;
  }

  private static List<String> expected(long[] offsets, long scale) {
    List<String> out = new ArrayList<>();
    for (long o : offsets) {
      out.add(o * scale + "/row " + o * scale);
    }
    return out;
  }

  @Test
  void aDataFileReplacedUnderItsNameIsReadAnew() throws Exception {
    Dataset ds = write(dir.resolve("a"), 1, ROWS);
    Dataset other = write(dir.resolve("b"), 7, ROWS);
    long[] take = {0, 17, 4_000, ROWS - 1};
    try (VectorSchemaRoot got = ds.take(take, null)) {
      assertThat(rows(got)).isEqualTo(expected(take, 1));
    }
    // Same schema and row count, other values: b's file copied over a's, newer.
    DataFile mine = ds.manifest().fragments().get(0).files().get(0);
    DataFile theirs = other.manifest().fragments().get(0).files().get(0);
    Path target = dir.resolve("a/data/" + mine.path());
    Files.copy(dir.resolve("b/data/" + theirs.path()), target, StandardCopyOption.REPLACE_EXISTING);
    Files.setLastModifiedTime(target, FileTime.fromMillis(Files.getLastModifiedTime(target).toMillis() + 5_000));
    try (VectorSchemaRoot got = ds.take(take, null)) {
      assertThat(rows(got)).isEqualTo(expected(take, 7));
    }
  }

  @Test
  void aDatasetWrittenAgainAtTheSamePathIsReadAnew() throws Exception {
    Path path = dir.resolve("ds");
    long[] take = {3, 2_500, 4_999};
    try (VectorSchemaRoot got = write(path, 1, 1_000).take(take, null)) {
      assertThat(rows(got)).isEqualTo(expected(take, 1));
    }
    try (var files = Files.walk(path)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
    Dataset again = write(path, 3, 1_000);
    try (VectorSchemaRoot got = again.take(take, null)) {
      assertThat(rows(got)).isEqualTo(expected(take, 3));
    }
    try (VectorSchemaRoot got = Dataset.open(path, allocator).take(take, null)) {
      assertThat(rows(got)).isEqualTo(expected(take, 3));
    }
  }

  @Test
  void takesOnManyThreadsAgreeWithTheRows() throws Exception {
    Dataset ds = write(dir.resolve("t"), 1, 700);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int seed = t;
        done.add(pool.submit(() -> {
          Random random = new Random(seed);
          for (int round = 0; round < 25; round++) {
            long[] take = random.longs(1 + random.nextInt(100), 0, ROWS).toArray();
            try (VectorSchemaRoot got = ds.take(take, null)) {
              assertThat(rows(got)).isEqualTo(expected(take, 1));
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    assertThat(DataFileCache.size()).isGreaterThanOrEqualTo(ROWS / 700);
    long[] all = LongStream.range(0, ROWS).toArray();
    try (VectorSchemaRoot got = ds.take(all, null)) {
      assertThat(rows(got)).isEqualTo(expected(all, 1));
    }
    // The cache keeps only heap metadata: everything taken is the caller's, freed when closed.
    assertThat(allocator.getAllocatedMemory()).isZero();
  }

  /** A local store seen through another class (not mapped); its files' dates are hidden or not. */
  static final class ForwardingStore extends ForwardingObjectStore {
    final boolean dated;
    final AtomicInteger dataOpens = new AtomicInteger();

    ForwardingStore(Path root, boolean dated) {
      super(root);
      this.dated = dated;
    }

    @Override
    public String location() {
      return super.location() + (dated ? "#dated" : "#undated");
    }

    @Override
    public InputFile open(String key) throws IOException {
      InputFile in = super.open(key);
      if (key.startsWith("data/")) {
        dataOpens.incrementAndGet();
      }
      if (dated) {
        return in;
      }
      return new InputFile() {
        @Override
        public String location() {
          return in.location();
        }

        @Override
        public long length() throws IOException {
          return in.length();
        }

        @Override
        public ByteBuffer read(long position, int length) throws IOException {
          return in.read(position, length);
        }

        @Override
        public void close() throws IOException {
          in.close();
        }
      };
    }
  }

  @Test
  // Files the manifest gives a size for are kept by path and size, dated or not: data files are
  // written once under fresh names, and no request need ask a remote store for their length.
  void otherStoresOpenTheFilePerTakeAndKeepMetadataOfFilesTheManifestSizes() throws Exception {
    write(dir.resolve("f"), 1, 2_000);
    long[] take = {1, 2_001, 4_002, 10};
    for (boolean dated : new boolean[] {true, false}) {
      ForwardingStore store = new ForwardingStore(dir.resolve("f"), dated);
      Dataset ds = Dataset.open(store, allocator);
      DataFileCache.clear(); // so that earlier tests' files do not count or get evicted here
      for (int round = 0; round < 2; round++) {
        try (VectorSchemaRoot got = ds.takeRows(new long[] {1, 1L << 32 | 1, 2L << 32 | 2, 10}, null)) {
          assertThat(rows(got)).as("dated %s", dated).isEqualTo(expected(take, 1));
        }
      }
      assertThat(store.dataOpens.get()).as("dated %s", dated).isEqualTo(6);
      assertThat(DataFileCache.size()).as("dated %s", dated).isEqualTo(3);
    }
  }
}
