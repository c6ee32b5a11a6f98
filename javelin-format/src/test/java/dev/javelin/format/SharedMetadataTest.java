package dev.javelin.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.format.WriteOptions;
import dev.javelin.format.internal.container.FileMetadata;
import dev.javelin.format.internal.encoding.PageCache;
import dev.javelin.io.CountingInputFile;
import dev.javelin.io.LocalInputFile;
import dev.javelin.io.MappedInputFile;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers opened with metadata parsed earlier and a shared {@link PageCache} (as a cache of open
 * files makes them) return what a freshly opened reader returns, from any thread, and do not load
 * page metadata again.
 */
class SharedMetadataTest {
  private static final int ROWS = 20_000;

  @TempDir Path dir;
  @TestAllocator private BufferAllocator allocator;

  private Path write() throws Exception {
    Schema schema = new Schema(List.of(
        new Field("a", FieldType.notNullable(new ArrowType.Int(64, true)), null),
        new Field("s", FieldType.nullable(ArrowType.Utf8.INSTANCE), null)));
    Path file = dir.resolve("t.lance");
    Random random = new Random(5);
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        LanceFileWriter w = LanceFileWriter.create(file, schema,
            WriteOptions.builder().version(LanceFileVersion.V2_1).build())) {
      root.allocateNew();
      BigIntVector a = (BigIntVector) root.getVector("a");
      VarCharVector s = (VarCharVector) root.getVector("s");
      for (int r = 0; r < ROWS; r++) {
        a.setSafe(r, random.nextInt(1 << 20));
        if (r % 11 == 0) {
          s.setNull(r);
        } else {
          s.setSafe(r, ("v" + random.nextInt(500)).getBytes());
        }
      }
      root.setRowCount(ROWS);
      w.write(root);
    }
    return file;
  }

  private static List<Object> rows(VectorSchemaRoot root) {
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < root.getRowCount(); i++) {
      out.add(root.getVector(0).getObject(i) + "|" + root.getVector(1).getObject(i));
    }
    return out;
  }

  private static long[] someRows(Random random) {
    long[] take = new long[1 + random.nextInt(200)];
    for (int i = 0; i < take.length; i++) {
      take[i] = random.nextInt(ROWS);
    }
    return take;
  }

  @Test
  void sharedReadersTakeWhatAFreshReaderTakesAndReusePageMetadata() throws Exception {
    Path file = write();
    FileMetadata metadata;
    try (LocalInputFile in = LocalInputFile.open(file)) {
      metadata = FileMetadata.read(in);
    }
    AtomicLong added = new AtomicLong();
    PageCache pages = new PageCache(1 << 20, added::addAndGet);
    long[] take = someRows(new Random(1));
    List<Object> want;
    try (LanceFileReader fresh = LanceFileReader.open(file, allocator);
        VectorSchemaRoot got = fresh.take(take, null)) {
      want = rows(got);
    }
    long[] bytesRead = new long[2];
    for (int round = 0; round < 2; round++) {
      CountingInputFile counting = new CountingInputFile(LocalInputFile.open(file));
      try (LanceFileReader shared = LanceFileReader.open(counting, metadata, pages, allocator);
          VectorSchemaRoot got = shared.take(take, null)) {
        assertThat(rows(got)).isEqualTo(want);
      }
      bytesRead[round] = counting.bytesRead();
    }
    // The second take finds the page layouts and chunk tables the first one kept.
    assertThat(pages.bytes()).isPositive().isEqualTo(added.get());
    assertThat(bytesRead[1]).isLessThan(bytesRead[0]);
  }

  @Test
  void sharedReadersOnManyThreadsAgree() throws Exception {
    Path file = write();
    MappedInputFile mapped = MappedInputFile.open(file);
    FileMetadata metadata = FileMetadata.read(mapped);
    PageCache pages = new PageCache(1 << 20, n -> { });
    List<Object> all;
    try (LanceFileReader fresh = LanceFileReader.open(file, allocator);
        VectorSchemaRoot got = fresh.take(java.util.stream.LongStream.range(0, ROWS).toArray(), null)) {
      all = rows(got);
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int seed = t;
        done.add(pool.submit(() -> {
          Random random = new Random(seed);
          for (int round = 0; round < 30; round++) {
            long[] take = someRows(random);
            try (LanceFileReader r = LanceFileReader.open(mapped, metadata, pages, allocator);
                VectorSchemaRoot got = r.take(take, null)) {
              List<Object> want = new ArrayList<>();
              for (long row : take) {
                want.add(all.get((int) row));
              }
              assertThat(rows(got)).isEqualTo(want);
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
  }

  @Test
  void pageCacheKeepsWithinItsBoundAndNothingOnceClosed() {
    AtomicLong added = new AtomicLong();
    PageCache pages = new PageCache(100, added::addAndGet);
    pages.put(PageCache.key(0, 0, 0), "a", 60);
    pages.put(PageCache.key(0, 0, 0), "again", 10); // taken already
    pages.put(PageCache.key(0, 1, 0), "b", 50); // would pass the bound
    pages.put(PageCache.key(1, 0, 1), "c", 40);
    assertThat(pages.get(PageCache.key(0, 0, 0))).isEqualTo("a");
    assertThat(pages.get(PageCache.key(0, 1, 0))).isNull();
    assertThat(pages.get(PageCache.key(1, 0, 1))).isEqualTo("c");
    assertThat(pages.bytes()).isEqualTo(100).isEqualTo(added.get());
    assertThat(pages.close()).isEqualTo(100);
    pages.put(PageCache.key(2, 0, 0), "d", 0);
    assertThat(pages.get(PageCache.key(2, 0, 0))).isNull();
    assertThat(pages.get(PageCache.key(0, 0, 0))).isEqualTo("a");
    assertThat(added.get()).isEqualTo(100);
  }
}
