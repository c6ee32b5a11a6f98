package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.exceptions.ExpressionException;
import dev.javelin.format.exceptions.LanceFormatException;
import dev.javelin.index.IndexType;
import dev.javelin.io.LocalObjectStore;
import dev.javelin.table.Table;
import dev.javelin.table.exceptions.TableException;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every single-byte flip of a newest manifest either fails with a typed error or reads exactly
 * as the undamaged dataset (a flip in a timestamp or an unused field changes nothing a reader
 * sees). Lance manifests carry no checksum, so this is what the manifest validation must catch.
 */
class ManifestByteFlipTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  static final Schema SCHEMA = new Schema(List.of(
      new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      new Field("name", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
      Field.nullable("n", new ArrowType.Int(32, true))));

  /**
   * Three fragments of 10 rows, two data files each (an added column), deletions in two of them,
   * a BTree index on {@code id}.
   */
  static Dataset build(Path path, BufferAllocator a) {
    List<VectorSchemaRoot> batches = new ArrayList<>();
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, a);
    root.allocateNew();
    BigIntVector id = (BigIntVector) root.getVector("id");
    VarCharVector name = (VarCharVector) root.getVector("name");
    IntVector n = (IntVector) root.getVector("n");
    for (int i = 0; i < 30; i++) {
      id.setSafe(i, i);
      name.setSafe(i, ("n" + i).getBytes(StandardCharsets.UTF_8));
      if (i % 4 == 1) {
        n.setNull(i);
      } else {
        n.setSafe(i, i * 3);
      }
    }
    root.setRowCount(30);
    batches.add(root);
    try {
      Dataset ds = Dataset.create(path, batches, WriteParams.builder().maxRowsPerFile(10).build(), a);
      ds = ds.addColumns(Map.of("d", "id * 2"));
      ds = ds.createIndex("id", IndexType.BTREE, "by_id");
      return ds.delete("id = 5 OR id = 17 OR id = 18");
    } finally {
      root.close();
    }
  }

  /** What a reader sees: every row by position (names aside), a filtered count, an indexed query. */
  static String observe(Dataset ds) {
    StringBuilder out = new StringBuilder();
    try (ArrowReader r = ds.newScan().build()) {
      while (r.loadNextBatch()) {
        VectorSchemaRoot b = r.getVectorSchemaRoot();
        for (int row = 0; row < b.getRowCount(); row++) {
          for (FieldVector v : b.getFieldVectors()) {
            out.append(v.getObject(row)).append('|');
          }
          out.append('\n');
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    out.append("count=").append(ds.countRows("name = 'n7'")).append('\n');
    out.append("indexed=");
    try (ArrowReader r = indexedQuery(ds).build()) {
      while (r.loadNextBatch()) {
        VectorSchemaRoot b = r.getVectorSchemaRoot();
        for (int row = 0; row < b.getRowCount(); row++) {
          out.append(b.getVector(0).getObject(row)).append(':').append(b.getVector(1).getObject(row)).append(' ');
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  // A flip may take fragments out of the index's coverage: still right, those are scanned.
  static ScanBuilder indexedQuery(Dataset ds) {
    return ds.newScan().columns("id", "d").filter("id >= 12 AND id < 24");
  }

  static Path newestManifest(Path ds) {
    Table t = Table.at(new LocalObjectStore(ds));
    return ds.resolve(t.listVersions().lastEntry().getValue());
  }

  static String firstDifference(String expected, String seen) {
    String[] a = expected.split("\n");
    String[] b = seen.split("\n");
    for (int i = 0; i < Math.max(a.length, b.length); i++) {
      String x = i < a.length ? a[i] : "<none>";
      String y = i < b.length ? b[i] : "<none>";
      if (!x.equals(y)) {
        return "line " + i + " expected " + x + " but saw " + y;
      }
    }
    return "same";
  }

  /**
   * Flips every byte of the newest manifest, first all its bits, then its lowest bit (a varint one
   * off: a field id, a row count, a column). Each damaged manifest must fail with a typed error
   * (manifest validation, a file or table error, or an unknown column when a flip renamed one), a
   * missing file named in the error (a flipped uuid or file name points at nothing), or read
   * exactly as before.
   */
  @Test
  void everyFlipIsRefusedOrHarmless() throws IOException {
    Path path = dir.resolve("ds");
    Dataset undamaged = build(path, allocator);
    assertThat(indexedQuery(undamaged).explain().usesIndex()).isTrue();
    String expected = observe(undamaged);
    Path manifest = newestManifest(path);
    byte[] original = Files.readAllBytes(manifest);
    Map<String, Integer> outcomes = new TreeMap<>();
    List<String> wrong = new ArrayList<>();
    for (int flip = 0; flip < 2 * original.length; flip++) {
      int i = flip % original.length;
      String which = "byte " + i + (flip < original.length ? " ^ 0xFF" : " ^ 0x01");
      byte[] damaged = original.clone();
      damaged[i] ^= flip < original.length ? (byte) 0xFF : (byte) 0x01;
      Files.write(manifest, damaged);
      try {
        String seen = observe(Dataset.open(path, allocator));
        if (!seen.equals(expected)) {
          wrong.add(which + " reads wrong rows: " + firstDifference(expected, seen));
        }
        outcomes.merge("same", 1, Integer::sum);
      } catch (LanceFormatException | TableException | ExpressionException e) {
        outcomes.merge(e.getClass().getSimpleName(), 1, Integer::sum);
      } catch (UncheckedIOException e) {
        if (!(e.getCause() instanceof NoSuchFileException)) {
          wrong.add(which + ": " + e + " <- " + e.getCause());
        }
        outcomes.merge("NoSuchFileException", 1, Integer::sum);
      } catch (RuntimeException e) {
        wrong.add(which + ": " + e);
      }
    }
    Files.write(manifest, original);
    assertThat(wrong).as("outcomes %s", outcomes).isEmpty();
    assertThat(outcomes.get("CorruptManifestException")).isGreaterThan(original.length);
    assertThat(observe(Dataset.open(path, allocator))).isEqualTo(expected);
  }
}
