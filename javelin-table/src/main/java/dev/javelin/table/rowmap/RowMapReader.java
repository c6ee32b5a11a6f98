package dev.javelin.table.rowmap;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.javelin.format.LanceFileReader;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.exceptions.CorruptFileException;
import dev.javelin.io.InputFile;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.proto.TableProtos;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Reads a row map file written by {@link RowMapWriter}: the summary on open (no scan), labels by
 * position, and a row's rank within its destination (how many earlier positions carry the same
 * label), which with the label gives its new address: (destination index, offset in destination).
 *
 * <p>Labels are read in chunks of {@value #CHUNK} rows through a small LRU cache. Ranks use
 * per-chunk, per-label count checkpoints built lazily, in chunk order, up to the chunk asked
 * about; they are sparse (one entry per label present in a chunk). Within a chunk, a rank is a
 * binary search in the chunk's positions grouped by label (built once, when a rank is first
 * asked of the chunk), not a count over up to a chunk of labels per address. Thread-safe
 * (calls are serialized).
 */
public final class RowMapReader implements AutoCloseable {
  /** Rows per chunk read and cached. */
  public static final int CHUNK = 1 << 16;
  // 1M rows of labels (4 MiB): random access within that window never reloads a chunk.
  private static final int CACHED_CHUNKS = 16;

  private final LanceFileReader file;
  private final String location;
  private final RowMapSummary summary;
  private final int chunks;
  private final Map<Integer, Chunk> cache = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Integer, Chunk> e) {
      return size() > CACHED_CHUNKS;
    }
  };
  // Checkpoints: for label L, the chunks it occurs in (ascending) and its count through each.
  private final int[][] chunksOf;
  private final long[][] countThrough;
  private final int[] entries;
  private int scanned; // chunks [0, scanned) are in the checkpoints
  private long chunksRead;
  private final int[] scratch; // per-label counts while scanning a chunk
  // ranks(): each label's next rank in the run (-1: not seen yet), and the labels seen, to reset.
  private long[] next;
  private int[] touched;

  private RowMapReader(LanceFileReader file, RowMapSummary summary) {
    this.file = file;
    this.location = file.location();
    this.summary = summary;
    this.chunks = (int) ((summary.rows() + CHUNK - 1) / CHUNK);
    int m = summary.destinations();
    this.chunksOf = new int[m][];
    this.countThrough = new long[m][];
    this.entries = new int[m];
    this.scratch = new int[m];
  }

  /**
   * Opens the row map at {@code path} (relative to the dataset root) and reads its summary.
   *
   * @throws CorruptFileException if the file is not a row map or its summary is inconsistent
   * @throws java.nio.file.NoSuchFileException if there is no such file
   */
  public static RowMapReader open(ObjectStore store, String path, BufferAllocator allocator) throws IOException {
    InputFile in = store.open(path);
    LanceFileReader r;
    try {
      r = LanceFileReader.open(in, allocator);
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
    try {
      return new RowMapReader(r, readSummary(r));
    } catch (IOException | RuntimeException e) {
      r.close();
      throw e;
    }
  }

  private static RowMapSummary readSummary(LanceFileReader r) throws IOException {
    String loc = r.location();
    List<Field> fields = r.schema().getFields();
    if (fields.size() != 1 || !fields.get(0).getName().equals(RowMapWriter.COLUMN)
        || !fields.get(0).getType().equals(new ArrowType.Int(16, false))) {
      throw corrupt(loc, "expected one UInt16 column '" + RowMapWriter.COLUMN + "' but the schema is " + fields);
    }
    String at = r.schema().getCustomMetadata().get(RowMapWriter.SUMMARY_KEY);
    if (at == null) {
      throw corrupt(loc, "no " + RowMapWriter.SUMMARY_KEY + " metadata");
    }
    try {
      ByteBuffer b = r.readGlobalBuffer(Integer.parseInt(at.trim()));
      return RowMapSummary.fromProto(TableProtos.RowMapSummary.parseFrom(b), r.numRows(), loc);
    } catch (InvalidProtocolBufferException | NumberFormatException | IndexOutOfBoundsException e) {
      throw new CorruptFileException(loc, "Row map summary does not parse", e);
    }
  }

  static CorruptFileException corrupt(String location, String message) {
    return new CorruptFileException(location, "Row map " + message);
  }

  /** Where the file is, for messages. */
  public String location() {
    return location;
  }

  /** The counts the file carries. */
  public RowMapSummary summary() {
    return summary;
  }

  /** How many chunks this reader has read from its file so far (cache misses; for tests and metrics). */
  public synchronized long chunksRead() {
    return chunksRead;
  }

  /** The number of labels (source physical rows). */
  public long rows() {
    return summary.rows();
  }

  /** The label at {@code position}: its destination index, or {@link RowMapWriter#DELETED}. */
  public synchronized int label(long position) throws IOException {
    check(position, 1);
    return chunk((int) (position / CHUNK)).labels[(int) (position % CHUNK)];
  }

  /** Copies the labels of positions {@code [start, start + n)} into {@code out[0..n)}. */
  public synchronized void labels(long start, int n, int[] out) throws IOException {
    check(start, n);
    int done = 0;
    while (done < n) {
      long p = start + done;
      int c = (int) (p / CHUNK);
      int off = (int) (p % CHUNK);
      int take = Math.min(n - done, CHUNK - off);
      System.arraycopy(chunk(c).labels, off, out, done, take);
      done += take;
    }
  }

  /**
   * The rank of {@code position} within its destination: the number of earlier positions with the
   * same label, i.e. the row's offset in its destination. -1 for a deleted row.
   */
  public synchronized long rank(long position) throws IOException {
    check(position, 1);
    int c = (int) (position / CHUNK);
    int off = (int) (position % CHUNK);
    Chunk chunk = chunk(c);
    int label = chunk.labels[off];
    if (label < 0) {
      return -1;
    }
    return countBefore(label, c) + chunk.countBefore(label, off, summary.destinations());
  }

  /**
   * Labels and ranks of positions {@code [start, start + n)}: {@code labels[i]} as
   * {@link #label}, {@code ranks[i]} as {@link #rank} (-1 for a deleted row). One pass, so cheap
   * per row when translating runs of positions.
   */
  public synchronized void ranks(long start, int n, int[] labels, long[] ranks) throws IOException {
    labels(start, n, labels);
    if (n == 0) {
      return;
    }
    int firstChunk = (int) (start / CHUNK);
    if (next == null) {
      next = new long[summary.destinations()];
      Arrays.fill(next, -1);
      touched = new int[16];
    }
    Chunk head = chunk(firstChunk);
    int headOff = (int) (start % CHUNK);
    int t = 0;
    try {
      for (int i = 0; i < n; i++) {
        int l = labels[i];
        if (l < 0) {
          ranks[i] = -1;
          continue;
        }
        if (next[l] < 0) {
          // First time in this run: the count before the run's first position.
          next[l] = countBefore(l, firstChunk) + head.countBefore(l, headOff, summary.destinations());
          if (t == touched.length) {
            touched = Arrays.copyOf(touched, t * 2);
          }
          touched[t++] = l;
        }
        ranks[i] = next[l]++;
      }
    } finally {
      for (int j = 0; j < t; j++) {
        next[touched[j]] = -1;
      }
    }
  }

  // How many positions in chunks [0, c) carry label l.
  private long countBefore(int l, int c) throws IOException {
    while (scanned < c) {
      scan(scanned++);
    }
    int[] cs = chunksOf[l];
    if (cs == null) {
      return 0;
    }
    int i = Arrays.binarySearch(cs, 0, entries[l], c);
    int before = i >= 0 ? i - 1 : -i - 2; // the last entry for a chunk below c
    return before < 0 ? 0 : countThrough[l][before];
  }

  private void scan(int c) throws IOException {
    int[] chunk = chunk(c).labels;
    for (int l : chunk) {
      if (l >= 0) {
        scratch[l]++;
      }
    }
    for (int l = 0; l < scratch.length; l++) {
      if (scratch[l] == 0) {
        continue;
      }
      int e = entries[l];
      if (chunksOf[l] == null) {
        chunksOf[l] = new int[4];
        countThrough[l] = new long[4];
      } else if (e == chunksOf[l].length) {
        chunksOf[l] = Arrays.copyOf(chunksOf[l], e * 2);
        countThrough[l] = Arrays.copyOf(countThrough[l], e * 2);
      }
      chunksOf[l][e] = c;
      countThrough[l][e] = (e == 0 ? 0 : countThrough[l][e - 1]) + scratch[l];
      entries[l] = e + 1;
      scratch[l] = 0;
    }
  }

  private Chunk chunk(int c) throws IOException {
    Chunk got = cache.get(c);
    if (got == null) {
      got = new Chunk(load(c));
      cache.put(c, got);
    }
    return got;
  }

  /** A chunk's labels, and (once a rank is asked of it) its positions grouped by label. */
  static final class Chunk {
    final int[] labels;
    // Positions of label l, ascending: byLabel[start[l] .. start[l + 1]).
    private int[] start;
    private int[] byLabel;

    Chunk(int[] labels) {
      this.labels = labels;
    }

    /** How many of positions {@code [0, off)} carry label {@code l} (of {@code m} destinations). */
    int countBefore(int l, int off, int m) {
      if (start == null) {
        group(m);
      }
      int lo = start[l];
      int hi = start[l + 1];
      int from = lo;
      while (lo < hi) { // the first of l's positions at or after off
        int mid = (lo + hi) >>> 1;
        if (byLabel[mid] < off) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      return lo - from;
    }

    // A counting sort of the positions by label (deleted rows left out), stable.
    private void group(int m) {
      int[] s = new int[m + 1];
      for (int l : labels) {
        if (l >= 0) {
          s[l + 1]++;
        }
      }
      for (int l = 0; l < m; l++) {
        s[l + 1] += s[l];
      }
      int[] next = Arrays.copyOf(s, m);
      int[] out = new int[s[m]];
      for (int i = 0; i < labels.length; i++) {
        int l = labels[i];
        if (l >= 0) {
          out[next[l]++] = i;
        }
      }
      byLabel = out;
      start = s;
    }
  }

  private int[] load(int c) throws IOException {
    long start = (long) c * CHUNK;
    int n = (int) Math.min(CHUNK, summary.rows() - start);
    int[] out = new int[n];
    int at = 0;
    chunksRead++;
    int m = summary.destinations();
    try (ArrowReader in = file.read(ReadOptions.builder().columns(List.of(RowMapWriter.COLUMN))
        .rows(start, start + n).batchSize(CHUNK).build())) {
      while (in.loadNextBatch()) {
        VectorSchemaRoot b = in.getVectorSchemaRoot();
        UInt2Vector v = (UInt2Vector) b.getVector(0);
        int rows = b.getRowCount();
        if (at + rows > n) {
          throw corrupt(location, "chunk " + c + " holds more than " + n + " rows");
        }
        for (int i = 0; i < rows; i++) {
          int l = v.isNull(i) ? RowMapWriter.DELETED : (v.get(i) & 0xFFFF);
          if (l >= m) {
            throw corrupt(location, "label " + l + " at position " + (start + at + i) + " is not below the "
                + m + " destinations of its summary");
          }
          out[at + i] = l;
        }
        at += rows;
      }
    }
    if (at != n) {
      throw corrupt(location, "chunk " + c + " holds " + at + " rows, not " + n);
    }
    return out;
  }

  private void check(long start, int n) {
    if (start < 0 || n < 0 || start + n > summary.rows()) {
      throw new IndexOutOfBoundsException("Positions " + start + " to " + (start + n) + " are outside the "
          + summary.rows() + " rows of row map " + location);
    }
  }

  @Override
  public void close() throws IOException {
    file.close();
  }
}
