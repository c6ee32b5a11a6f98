package dev.javelin.table.rowmap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.exceptions.CorruptFileException;
import dev.javelin.io.CountingInputFile;
import dev.javelin.io.InputFile;
import dev.javelin.io.LocalObjectStore;
import dev.javelin.io.ObjectInfo;
import dev.javelin.testing.ForwardingObjectStore;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class RowMapTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;
  CountingStore store;

  @BeforeEach
  void setUp() {
    store = new CountingStore(new LocalObjectStore(dir));
  }

  // Labels 0..m-1 in runs (as a clustering writes them) mixed with random ones; ~10% deleted.
  static int[] labels(int n, int m, long seed) {
    Random r = new Random(seed);
    int[] out = new int[n];
    for (int i = 0; i < n; i++) {
      if (r.nextInt(10) == 0) {
        out[i] = RowMapWriter.DELETED;
      } else {
        out[i] = r.nextInt(4) == 0 ? r.nextInt(m) : (int) ((long) i * m / n);
      }
    }
    return out;
  }

  String write(int[] labels, int m, LanceFileVersion v) throws IOException {
    try (RowMapWriter w = RowMapWriter.create(store, m, v, allocator)) {
      for (int l : labels) {
        if (l == RowMapWriter.DELETED) {
          w.appendDeleted();
        } else {
          w.append(l);
        }
      }
      w.finish();
      return w.path();
    }
  }

  @ParameterizedTest
  @EnumSource(value = LanceFileVersion.class, names = {"V2_0", "V2_1"})
  void millionLabelsRoundTripWithRanks(LanceFileVersion v) throws IOException {
    int n = 1_000_000;
    int m = 7;
    int[] labels = labels(n, m, 42);
    String path = write(labels, m, v);
    assertThat(path).matches("_indices/[0-9a-f-]{36}/row_map-[0-9a-f-]{36}\\.lance");
    long[] ranks = new long[n];
    long[] seen = new long[m];
    long[] totals = new long[m];
    long deleted = 0;
    for (int i = 0; i < n; i++) {
      if (labels[i] < 0) {
        ranks[i] = -1;
        deleted++;
      } else {
        ranks[i] = seen[labels[i]]++;
        totals[labels[i]]++;
      }
    }
    try (RowMapReader r = RowMapReader.open(store, path, allocator)) {
      RowMapSummary s = r.summary();
      assertThat(s.rows()).isEqualTo(n);
      assertThat(s.deleted()).isEqualTo(deleted);
      assertThat(s.destinations()).isEqualTo(m);
      for (int d = 0; d < m; d++) {
        assertThat(s.destinationRows(d)).isEqualTo(totals[d]);
      }
      Random rnd = new Random(7);
      for (int k = 0; k < 3000; k++) {
        long p = rnd.nextInt(n);
        assertThat(r.label(p)).as("label at %d", p).isEqualTo(labels[(int) p]);
        assertThat(r.rank(p)).as("rank at %d", p).isEqualTo(ranks[(int) p]);
      }
      // A few ranks against a literal count of earlier equal labels.
      for (long p : new long[] {0, 65_535, 65_536, 500_001, n - 1}) {
        int l = labels[(int) p];
        long count = 0;
        for (int i = 0; i < p; i++) {
          count += labels[i] == l ? 1 : 0;
        }
        assertThat(r.rank(p)).isEqualTo(l < 0 ? -1 : count);
      }
      // Bulk reads across chunk boundaries, starting at a position not visited yet.
      int len = 200_000;
      int[] got = new int[len];
      long[] gotRanks = new long[len];
      r.ranks(765_431, len, got, gotRanks);
      assertThat(got).isEqualTo(Arrays.copyOfRange(labels, 765_431, 765_431 + len));
      assertThat(gotRanks).isEqualTo(Arrays.copyOfRange(ranks, 765_431, 765_431 + len));
      r.labels(0, 10, got);
      assertThat(Arrays.copyOf(got, 10)).isEqualTo(Arrays.copyOf(labels, 10));
      assertThatThrownBy(() -> r.label(n)).isInstanceOf(IndexOutOfBoundsException.class)
          .hasMessage("Positions " + n + " to " + (n + 1) + " are outside the " + n + " rows of row map "
              + r.location());
    }
  }

  @Test
  void summaryIsReadWithoutScanningLabels() throws IOException {
    int n = 1_000_000;
    String path = write(labels(n, 3, 1), 3, LanceFileVersion.V2_1);
    long size = store.size(path);
    try (RowMapReader r = RowMapReader.open(store, path, allocator)) {
      assertThat(r.summary().rows()).isEqualTo(n);
      assertThat(store.last.bytesRead()).as("bytes read of %d", size).isLessThan(size / 10);
      r.label(n - 1); // one chunk, not the file
      assertThat(store.last.bytesRead()).isLessThan(size / 4);
    }
  }

  @Test
  void abortedWriterRemovesItsFile() throws IOException {
    String path;
    try (RowMapWriter w = RowMapWriter.create(store, 2, LanceFileVersion.V2_1, allocator)) {
      path = w.path();
      for (int i = 0; i < 100_000; i++) {
        w.append(i % 2);
      }
      assertThatThrownBy(() -> w.append(2)).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Label 2 of row 100000 is not a destination (0 to 1) of " + path);
    }
    assertThat(store.list("_indices/")).isEmpty();
  }

  @Test
  void truncatedFileIsCorrupt() throws IOException {
    String path = write(labels(100_000, 4, 3), 4, LanceFileVersion.V2_1);
    byte[] all = store.read(path);
    store.put("_indices/t/row_map.lance", Arrays.copyOf(all, all.length - 20));
    assertThatThrownBy(() -> RowMapReader.open(store, "_indices/t/row_map.lance", allocator))
        .isInstanceOf(CorruptFileException.class);
    store.put("_indices/u/row_map.lance", Arrays.copyOf(all, all.length / 2));
    assertThatThrownBy(() -> RowMapReader.open(store, "_indices/u/row_map.lance", allocator))
        .isInstanceOf(CorruptFileException.class);
  }

  @Test
  void summaryContradictingTheFileIsCorrupt() throws IOException {
    // A summary is checked against the file's row count.
    dev.javelin.table.proto.TableProtos.RowMapSummary bad = dev.javelin.table.proto.TableProtos.RowMapSummary
        .newBuilder().setRows(10).setDeleted(1).setDestinations(2).addDestinationRows(4).addDestinationRows(4).build();
    assertThatThrownBy(() -> RowMapSummary.fromProto(bad, 10, "f"))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("Row map summary counts 10 rows (1 deleted + 8 labeled) but the file has 10");
  }

  @Test
  void aFileOfAnotherShapeIsNotARowMap() throws IOException {
    String path = "_indices/x/row_map.lance";
    org.apache.arrow.vector.types.pojo.Schema schema = new org.apache.arrow.vector.types.pojo.Schema(List.of(
        org.apache.arrow.vector.types.pojo.Field.nullable("label", new org.apache.arrow.vector.types.pojo.ArrowType.Int(32, true))));
    try (dev.javelin.format.LanceFileWriter w = dev.javelin.format.LanceFileWriter.create(store.newOutputFile(path),
        schema, dev.javelin.format.WriteOptions.defaults())) {
      // no rows
    }
    assertThatThrownBy(() -> RowMapReader.open(store, path, allocator))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("Row map expected one UInt16 column 'label' but the schema is");
  }

  /** A local store that counts the bytes read through the last opened file. */
  static final class CountingStore extends ForwardingObjectStore {
    CountingInputFile last;

    CountingStore(LocalObjectStore delegate) {
      super(delegate);
    }

    long size(String key) throws IOException {
      try (InputFile f = delegate().open(key)) {
        return f.length();
      }
    }

    @Override
    public List<ObjectInfo> list(String prefix) throws IOException {
      return new ArrayList<>(super.list(prefix));
    }

    @Override
    public InputFile open(String key) throws IOException {
      last = new CountingInputFile(super.open(key));
      return last;
    }
  }
}
