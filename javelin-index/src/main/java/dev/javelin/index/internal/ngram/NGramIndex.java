package dev.javelin.index.internal.ngram;

import dev.javelin.format.LanceFileReader;
import dev.javelin.format.ReadOptions;
import dev.javelin.io.ObjectStore;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * An open n-gram index ({@code _indices/{uuid}/ngram_postings.lance}): per trigram token the row
 * addresses of the texts holding it, read whole into memory on open. Finds the candidate rows of a
 * substring filter: those holding every token of the literal (a superset of the matches, checked
 * again by the scan). Thread-safe.
 */
public final class NGramIndex {
  /** The index's one file. */
  public static final String FILE_NAME = "ngram_postings.lance";

  private final Map<Integer, Roaring64NavigableMap> byToken;

  private NGramIndex(Map<Integer, Roaring64NavigableMap> byToken) {
    this.byToken = byToken;
  }

  /**
   * Reads the n-gram index in {@code directory} of {@code store}.
   *
   * @throws IOException if its file cannot be read or is not an n-gram index
   */
  public static NGramIndex open(ObjectStore store, String directory, BufferAllocator allocator) throws IOException {
    Map<Integer, Roaring64NavigableMap> byToken = new HashMap<>();
    scan(store, directory, allocator, (token, rows) -> byToken.merge(token, rows, (a, b) -> {
      a.or(b);
      return a;
    }));
    return new NGramIndex(byToken);
  }

  /** Receives one row of an n-gram index's file: a token and the rows holding it. */
  public interface EntryConsumer {
    void accept(int token, Roaring64NavigableMap rows) throws IOException;
  }

  /**
   * Hands every row of the n-gram index in {@code directory} of {@code store} to {@code consumer}.
   *
   * @throws IOException if its file cannot be read or is not an n-gram index
   */
  public static void scan(ObjectStore store, String directory, BufferAllocator allocator, EntryConsumer consumer)
      throws IOException {
    String path = directory + "/" + FILE_NAME;
    try (LanceFileReader r = LanceFileReader.open(store.open(path), allocator)) {
      var fields = r.schema().getFields();
      if (fields.size() != 2 || !fields.get(0).getName().equals("tokens")
          || !fields.get(0).getType().equals(new ArrowType.Int(32, false))
          || !fields.get(1).getName().equals("posting_list")) {
        throw new IOException("Not an n-gram index (columns " + fields + "): " + path);
      }
      try (ArrowReader in = r.read(ReadOptions.builder().batchSize(256).build())) {
        while (in.loadNextBatch()) {
          VectorSchemaRoot batch = in.getVectorSchemaRoot();
          UInt4Vector tokens = (UInt4Vector) batch.getVector(0);
          VarBinaryVector lists = (VarBinaryVector) batch.getVector(1);
          for (int i = 0; i < batch.getRowCount(); i++) {
            if (!tokens.isNull(i) && !lists.isNull(i)) {
              consumer.accept(tokens.get(i), postings(lists.get(i), path));
            }
          }
        }
      }
    } catch (IllegalArgumentException e) {
      throw new IOException("Cannot read n-gram index " + path + ": " + e.getMessage(), e);
    }
  }

  // A posting list: a serialized 64-bit Roaring tree map (Roaring's portable form).
  private static Roaring64NavigableMap postings(byte[] bytes, String path) throws IOException {
    Roaring64NavigableMap rows = new Roaring64NavigableMap();
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      rows.deserializePortable(in);
      if (in.available() > 0) {
        throw new IOException("Not a posting list in " + path + ": " + in.available() + " bytes left over");
      }
    } catch (RuntimeException e) {
      throw new IOException("Not a posting list in " + path + " (" + bytes.length + " bytes): " + e.getMessage(), e);
    }
    return rows;
  }

  /** Distinct tokens. */
  public int tokens() {
    return byToken.size();
  }

  /**
   * The rows that may hold every one of {@code literals} (exactly, as substrings): those whose
   * text has every token of the literals; null when the literals have no token (the index cannot
   * narrow the rows then).
   */
  public Roaring64NavigableMap candidates(List<String> literals) {
    Roaring64NavigableMap[] out = {null};
    boolean[] missing = {false};
    for (String literal : literals) {
      NGramTokens.ofLiteral(literal, token -> {
        Roaring64NavigableMap rows = byToken.get(token);
        if (rows == null) {
          missing[0] = true;
        } else if (out[0] == null) {
          out[0] = rows.clone();
        } else {
          out[0].and(rows);
        }
      });
    }
    if (missing[0]) {
      return new Roaring64NavigableMap(); // a token no text has: nothing matches
    }
    return out[0];
  }
}
