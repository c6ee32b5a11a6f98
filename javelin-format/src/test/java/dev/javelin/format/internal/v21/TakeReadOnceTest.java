package dev.javelin.format.internal.v21;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.format.LanceFileReader;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.WriteOptions;
import dev.javelin.io.InputFile;
import dev.javelin.io.LocalInputFile;
import dev.javelin.testing.ArrowData;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A take from a file that is not memory-mapped reads each byte range it needs once. */
class TakeReadOnceTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  /** A non-mapped file recording every range read. */
  static final class Recording implements InputFile {
    final InputFile in;
    final List<long[]> ranges = new ArrayList<>();
    final long blockSize;

    Recording(InputFile in) {
      this(in, InputFile.REMOTE_BLOCK_SIZE);
    }

    Recording(InputFile in, long blockSize) {
      this.in = in;
      this.blockSize = blockSize;
    }

    @Override
    public long blockSize() {
      return blockSize;
    }

    @Override
    public String location() {
      return in.location();
    }

    @Override
    public long length() throws IOException {
      return in.length();
    }

    @Override
    public synchronized ByteBuffer read(long position, int length) throws IOException {
      ranges.add(new long[] {position, position + length});
      return in.read(position, length);
    }

    /** Calls of readAll (rounds of reads sent at once), and reads outside them. */
    int rounds;
    int readsInRounds;

    @Override
    public ByteBuffer[] readAll(long[] positions, int[] lengths) throws IOException {
      synchronized (this) {
        rounds++;
        readsInRounds += positions.length;
      }
      return InputFile.super.readAll(positions, lengths);
    }

    @Override
    public void close() throws IOException {
      in.close();
    }

    long requested() {
      long n = 0;
      for (long[] r : ranges) {
        n += r[1] - r[0];
      }
      return n;
    }

    long distinct() {
      List<long[]> sorted = new ArrayList<>(ranges);
      sorted.sort((x, y) -> Long.compare(x[0], y[0]));
      long n = 0;
      long end = Long.MIN_VALUE;
      for (long[] r : sorted) {
        long from = Math.max(r[0], end);
        n += Math.max(0, r[1] - from);
        end = Math.max(end, r[1]);
      }
      return n;
    }
  }

  // Bench-like columns (ids, hashed keys, unique strings) and a low-cardinality string column
  // (dictionary), an all-null column (constant page).
  private Path writeFlat(int rows) throws Exception {
    return writeFlat(rows, LanceFileVersion.V2_1);
  }

  private Path writeFlat(int rows, LanceFileVersion version) throws Exception {
    return writeFlat(rows, WriteOptions.builder().version(version).build(), "flat" + version + ".lance");
  }

  private Path writeFlat(int rows, WriteOptions opts, String name) throws Exception {
    Schema schema = new Schema(List.of(
        new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
        new Field("k", FieldType.notNullable(new ArrowType.Int(64, true)), null),
        new Field("payload", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
        new Field("tag", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
        new Field("none", FieldType.nullable(new ArrowType.Int(32, true)), null)));
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      root.allocateNew();
      BigIntVector id = (BigIntVector) root.getVector("id");
      BigIntVector k = (BigIntVector) root.getVector("k");
      VarCharVector p = (VarCharVector) root.getVector("payload");
      VarCharVector tag = (VarCharVector) root.getVector("tag");
      IntVector none = (IntVector) root.getVector("none");
      for (int i = 0; i < rows; i++) {
        id.setSafe(i, i);
        k.setSafe(i, Math.floorMod(i * 2654435761L + 12345L, 1_000_000_000L));
        p.setSafe(i, ("payload-" + i + "-" + Long.toHexString(i * 0x9E3779B97F4A7C15L)).getBytes(StandardCharsets.UTF_8));
        tag.setSafe(i, ("tag" + (i * 7 % 13)).getBytes(StandardCharsets.UTF_8));
        none.setNull(i);
      }
      root.setRowCount(rows);
      return V21Fixtures.write(dir.resolve(name), opts, root);
    }
  }

  // Lists (mini-block with a repetition index), wide strings (full-zip with an index) and
  // vectors (full-zip of fixed-width values).
  private Path writeNested(int rows) throws Exception {
    ArrowData.Gen g = new ArrowData.Gen(11);
    g.minString = 200;
    g.maxString = 300;
    Schema schema = new Schema(List.of(
        ArrowData.list("l", ArrowData.field("item", new ArrowType.Int(32, true))),
        ArrowData.field("wide", ArrowType.Utf8.INSTANCE),
        ArrowData.fsl("v", 32, ArrowData.field("item", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)))));
    try (VectorSchemaRoot root = ArrowData.root(schema, ArrowData.randomRows(schema, rows, g), allocator)) {
      WriteOptions opts = WriteOptions.builder().version(LanceFileVersion.V2_1).build();
      return V21Fixtures.write(dir.resolve("nested.lance"), opts, root);
    }
  }

  // Every value of the file, by column, as Arrow's getObject gives them.
  private List<List<Object>> scan(Path f) throws Exception {
    List<List<Object>> out = new ArrayList<>();
    try (LanceFileReader r = LanceFileReader.open(f, allocator); ArrowReader it = r.read((List<String>) null)) {
      while (it.loadNextBatch()) {
        VectorSchemaRoot b = it.getVectorSchemaRoot();
        for (int c = 0; c < b.getFieldVectors().size(); c++) {
          if (out.size() <= c) {
            out.add(new ArrayList<>());
          }
          for (int i = 0; i < b.getRowCount(); i++) {
            out.get(c).add(b.getVector(c).getObject(i));
          }
        }
      }
    }
    return out;
  }

  /** Takes the rows through a recording file; checks values and that no byte was read twice. */
  private Recording takeOnce(Path f, long[] rows) throws Exception {
    return takeOnce(f, rows, InputFile.REMOTE_BLOCK_SIZE);
  }

  private Recording takeOnce(Path f, long[] rows, long blockSize) throws Exception {
    List<List<Object>> all = scan(f);
    Recording in = new Recording(LocalInputFile.open(f), blockSize);
    try (LanceFileReader r = LanceFileReader.open(in, allocator)) {
      in.ranges.clear();
      try (VectorSchemaRoot t = r.take(rows, null)) {
        assertThat(t.getRowCount()).isEqualTo(rows.length);
        for (int c = 0; c < all.size(); c++) {
          for (int i = 0; i < rows.length; i++) {
            assertThat(t.getVector(c).getObject(i)).as("column %d row %d", c, rows[i])
                .isEqualTo(all.get(c).get((int) rows[i]));
          }
        }
      }
    }
    assertThat(in.requested()).isEqualTo(in.distinct());
    return in;
  }

  /** Scans every column through a recording (not mapped) file; checks the values against a mapped scan. */
  private Recording scanOnce(Path f, int parallelism) throws Exception {
    List<List<Object>> all = scan(f);
    Recording in = new Recording(LocalInputFile.open(f));
    try (LanceFileReader r = LanceFileReader.open(in, allocator)) {
      in.ranges.clear();
      in.rounds = 0;
      in.readsInRounds = 0;
      List<List<Object>> got = new ArrayList<>();
      try (ArrowReader it = r.read(dev.javelin.format.ReadOptions.builder().parallelism(parallelism).build())) {
        while (it.loadNextBatch()) {
          VectorSchemaRoot b = it.getVectorSchemaRoot();
          for (int c = 0; c < b.getFieldVectors().size(); c++) {
            if (got.size() <= c) {
              got.add(new ArrayList<>());
            }
            for (int i = 0; i < b.getRowCount(); i++) {
              got.get(c).add(b.getVector(c).getObject(i));
            }
          }
        }
      }
      assertThat(got).isEqualTo(all);
    }
    return in;
  }

  @Test
  void aScanFromAStoreThatIsNotMappedReadsAWindowAtATimeInRoundsOfConcurrentReads() throws Exception {
    Path smallPages = writeFlat(200_000, WriteOptions.builder().version(LanceFileVersion.V2_1)
        .maxPageBytes(64 << 10).build(), "small-pages.lance");
    for (Path f : List.of(writeFlat(200_000), writeNested(20_000), smallPages)) {
      for (int parallelism : new int[] {1, 2}) {
        Recording in = scanOnce(f, parallelism);
        // A window of rows is fetched in one round: every buffer of its pages, all at once; the
        // decoders then find their bytes fetched. These files' pages hold all rows in one window,
        // except the small pages', which take a few windows sharing no page.
        assertThat(in.rounds).as("rounds").isLessThanOrEqualTo(f == smallPages ? 6 : 1);
        assertThat(in.ranges.size() - in.readsInRounds).as("reads outside the rounds").isZero();
        assertThat(in.requested()).as("no byte read twice").isEqualTo(in.distinct());
        assertThat(in.distinct()).isGreaterThan(Files.size(f) * 7 / 10);
      }
    }
  }

  private static long[] contiguous(long from, int n) {
    return LongStream.range(from, from + n).toArray();
  }

  private static long[] scattered(int n, long bound, long seed) {
    return new Random(seed).longs(n, 0, bound).sorted().distinct().toArray();
  }

  @Test
  void contiguousTakeReadsEachRangeOnce() throws Exception {
    Path f = writeFlat(100_000);
    Recording in = takeOnce(f, contiguous(40_000, 10_000));
    // Each column's chunks are one run: a handful of reads, not one per chunk or row.
    assertThat(in.ranges.size()).isLessThanOrEqualTo(12);
    Path n = writeNested(20_000);
    takeOnce(n, contiguous(5_000, 10_000));
  }

  @Test
  void scatteredTakeReadsEachChunkOnce() throws Exception {
    Path f = writeFlat(100_000);
    Recording in = takeOnce(f, scattered(3_000, 100_000, 1));
    // 3,000 rows of a 100,000-row file share chunks; without fetching ahead each row read its own.
    assertThat(in.ranges.size()).isLessThan(100);
    takeOnce(writeNested(20_000), scattered(2_000, 20_000, 2));
  }

  /**
   * Ranges up to the file's block size apart are read as one: a remote store's 64 KiB merges
   * chunks a local file's 4 KiB reads apart, trading bytes for requests.
   */
  @Test
  void rangesAreCoalescedWithinTheBlockSize() throws Exception {
    Path f = writeFlat(100_000);
    long[] rows = {5, 9_000, 30_000, 99_990};
    Recording local = takeOnce(f, rows, InputFile.LOCAL_BLOCK_SIZE);
    Recording remote = takeOnce(f, rows, InputFile.REMOTE_BLOCK_SIZE);
    assertThat(remote.ranges.size()).isLessThan(local.ranges.size());
    assertThat(remote.requested()).isGreaterThan(local.requested());
  }

  /** 2.0 pages read only the pieces a take needs (whole pages when most is needed), none twice. */
  @Test
  void v20TakesReadNoByteTwice() throws Exception {
    Path f = writeFlat(100_000, LanceFileVersion.V2_0);
    assertThat(takeOnce(f, contiguous(40_000, 10_000)).ranges.size()).isLessThanOrEqualTo(12);
    takeOnce(f, scattered(3_000, 100_000, 1));
  }

  @Test
  void takeInAnyOrderWithDuplicates() throws Exception {
    Path f = writeFlat(50_000);
    long[] rows = {49_999, 3, 3, 20_000, 0, 20_001, 7_777};
    takeOnce(f, rows);
  }
}
