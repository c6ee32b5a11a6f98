package dev.javelin.table;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.schema.LanceSchema;
import dev.javelin.io.LocalObjectStore;
import dev.javelin.testing.InterleavingObjectStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A fresh store per test and helpers that write placeholder data files (the table layer never opens them). */
public abstract class TableTestBase {
  protected static final LanceSchema SCHEMA = LanceSchema.fromArrow(new Schema(List.of(
      Field.nullable("id", new ArrowType.Int(64, true)),
      Field.nullable("x", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
      new Field("s", FieldType.nullable(ArrowType.Utf8.INSTANCE), null))));

  @TempDir Path dir;
  public LocalObjectStore local;
  public InterleavingObjectStore store;
  public Table table;

  @BeforeEach
  void setUpTable() {
    local = new LocalObjectStore(dir);
    store = new InterleavingObjectStore(local);
    table = Table.at(store);
  }

  /**
   * Replaces a stored object behind the table's back (a manifest damaged or written by another
   * program), and opens the table again so that it does not commit on the manifest it remembers.
   */
  protected void replaceObject(String key, byte[] bytes) throws Exception {
    local.put(key, bytes);
    table = Table.at(store);
  }

  /** A fragment whose data file exists (as a placeholder object) so cleanup can be observed. */
  protected Fragment fragment(long rows) throws Exception {
    String path = UUID.randomUUID() + ".lance";
    local.put("data/" + path, "placeholder".getBytes(StandardCharsets.UTF_8));
    List<int[]> fields = new ArrayList<>();
    for (int i = 0; i < SCHEMA.fields().size(); i++) {
      fields.add(new int[] {SCHEMA.fields().get(i).id(), i});
    }
    return Fragment.of(DataFile.of(path, fields, LanceFileVersion.V2_1, 11), rows);
  }

  protected static List<String> keys(List<Fragment> fragments) {
    List<String> out = new ArrayList<>();
    for (Fragment f : fragments) {
      f.files().forEach(d -> out.add("data/" + d.path()));
    }
    return out;
  }

  protected Manifest create(Fragment... fragments) {
    return table.newCommit(Transaction.overwrite(0, SCHEMA, List.of(fragments))).createOnly()
        .cleanupOnFailure(keys(List.of(fragments))).commit();
  }

  protected Manifest append(long readVersion, Fragment... fragments) {
    return table.newCommit(Transaction.append(readVersion, List.of(fragments)))
        .cleanupOnFailure(keys(List.of(fragments))).backoff(0, 0).commit();
  }
}
