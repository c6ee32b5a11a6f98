package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.table.exceptions.NullValueException;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.complex.impl.UnionListWriter;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every way rows get written refuses nulls in a field the dataset declares not nullable, with
 * the column named, nothing committed and no file left.
 */
class NonNullableWritesTest {
  /** order_id and customer not null; addr.city and tags' items not null inside nullable parents. */
  static final Schema ORDERS = new Schema(List.of(
      new Field("order_id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      new Field("customer", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
      Field.nullable("note", ArrowType.Utf8.INSTANCE),
      new Field("addr", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
          new Field("city", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
          Field.nullable("zip", ArrowType.Utf8.INSTANCE))),
      new Field("tags", FieldType.nullable(ArrowType.List.INSTANCE),
          List.of(new Field("item", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null)))));

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;
  Path path;

  @BeforeEach
  void open() {
    path = dir.resolve("orders");
  }

  /** One row's values; a null string in a not-null place is what the tests try to write. */
  record Order(long id, String customer, String note, boolean addrNull, String city, List<String> tags) {
    static Order ok(long id) {
      return new Order(id, "c" + (id % 3), id % 2 == 0 ? null : "n" + id, id % 4 == 3, "city" + id,
          id % 5 == 4 ? null : List.of("t" + id, "u" + id));
    }

    Order customer(String c) {
      return new Order(id, c, note, addrNull, city, tags);
    }
  }

  static VectorSchemaRoot batch(BufferAllocator a, Schema schema, List<Order> rows) {
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, a);
    root.allocateNew();
    BigIntVector id = (BigIntVector) root.getVector("order_id");
    VarCharVector customer = (VarCharVector) root.getVector("customer");
    VarCharVector note = (VarCharVector) root.getVector("note");
    StructVector addr = (StructVector) root.getVector("addr");
    VarCharVector city = (VarCharVector) addr.getChild("city");
    VarCharVector zip = (VarCharVector) addr.getChild("zip");
    UnionListWriter tags = ((ListVector) root.getVector("tags")).getWriter();
    for (int i = 0; i < rows.size(); i++) {
      Order o = rows.get(i);
      id.setSafe(i, o.id);
      set(customer, i, o.customer);
      set(note, i, o.note);
      if (o.addrNull) {
        addr.setNull(i);
        city.setNull(i); // a null struct's children do not count
        zip.setNull(i);
      } else {
        addr.setIndexDefined(i);
        set(city, i, o.city);
        set(zip, i, "z" + o.id);
      }
      tags.setPosition(i);
      if (o.tags == null) {
        tags.writeNull();
      } else {
        tags.startList();
        for (String t : o.tags) {
          if (t == null) {
            tags.writeNull();
          } else {
            tags.varChar().writeVarChar(t);
          }
        }
        tags.endList();
      }
    }
    root.setRowCount(rows.size());
    return root;
  }

  private static void set(VarCharVector v, int i, String s) {
    if (s == null) {
      v.setNull(i);
    } else {
      v.setSafe(i, s.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static List<Order> orders(int from, int n) {
    List<Order> out = new ArrayList<>();
    for (int i = from; i < from + n; i++) {
      out.add(Order.ok(i));
    }
    return out;
  }

  private Dataset create(LanceFileVersion v) {
    try (VectorSchemaRoot b = batch(allocator, ORDERS, orders(0, 8))) {
      return Dataset.create(path, List.of(b), WriteParams.builder().fileVersion(v).maxRowsPerFile(4).build(),
          allocator);
    }
  }

  /** Every file of the dataset, relative to its root. */
  private Set<String> files() throws IOException {
    try (Stream<Path> s = Files.walk(path)) {
      Set<String> out = new TreeSet<>();
      s.filter(Files::isRegularFile).forEach(p -> out.add(path.relativize(p).toString()));
      return out;
    }
  }

  /** Runs a write that must be refused and checks that it left the dataset as it was. */
  private void assertRefused(Dataset ds, Runnable write, String message) throws IOException {
    Set<String> before = files();
    long rowsBefore = ds.countRows();
    assertThatThrownBy(write::run).isInstanceOf(NullValueException.class).hasMessage(message + ": "
        + ds.location());
    Dataset now = Dataset.open(path, allocator);
    assertThat(now.version()).isEqualTo(ds.version());
    assertThat(now.countRows()).isEqualTo(rowsBefore);
    assertThat(files()).isEqualTo(before);
  }

  @ParameterizedTest
  @EnumSource(value = LanceFileVersion.class, names = {"V2_0", "V2_1"})
  void updateThatRewritesRowsRefusesNull(LanceFileVersion v) throws IOException {
    Dataset ds = create(v);
    assertRefused(ds, () -> ds.update("order_id = 1 OR order_id = 5", Map.of("customer", "NULL")),
        "Column 'customer' is not nullable but the update writes nulls into it");
    assertThat(ds.update("order_id = 1", Map.of("customer", "'ada'")).rowsUpdated()).isEqualTo(1);
  }

  @Test
  void updateThatRewritesColumnsRefusesNull() throws IOException {
    Dataset ds = create(LanceFileVersion.V2_1);
    // One fragment of four rows holds both matches; its whole column is rewritten.
    assertRefused(ds, () -> ds.updateColumns("order_id = 1 OR order_id = 2", Map.of("customer", "NULL")),
        "Column 'customer' is not nullable but the update writes nulls into it");
  }

  @Test
  void overlayUpdateRefusesNull() throws IOException {
    Dataset ds = create(LanceFileVersion.V2_1);
    assertRefused(ds, () -> ds.updateOverlay("order_id = 6", Map.of("customer", "NULL")),
        "Column 'customer' is not nullable but the update writes nulls into it");
  }

  @Test
  void updateWithAnExpressionThatIsNullForSomeRowsRefusesThem() throws IOException {
    Dataset ds = create(LanceFileVersion.V2_1);
    // note is null on even ids: the new customer is null there.
    assertRefused(ds, () -> ds.update("order_id < 4", Map.of("customer", "note")),
        "Column 'customer' is not nullable but the update writes nulls into it");
  }

  @Test
  void appendRefusesNullsEvenIfTheDataCallsTheColumnNullable() throws IOException {
    Dataset ds = create(LanceFileVersion.V2_1);
    Schema loose = new Schema(List.of(ORDERS.getFields().get(0),
        Field.nullable("customer", ArrowType.Utf8.INSTANCE), ORDERS.getFields().get(2),
        ORDERS.getFields().get(3), ORDERS.getFields().get(4)));
    List<Order> rows = orders(100, 6);
    rows.set(2, rows.get(2).customer(null));
    // The first batch is fine and already written to a file when the second is refused.
    try (VectorSchemaRoot good = batch(allocator, loose, orders(200, 5));
        VectorSchemaRoot bad = batch(allocator, loose, rows)) {
      assertRefused(ds, () -> ds.append(List.of(good, bad), WriteParams.defaults()),
          "Column 'customer' is not nullable but the append writes nulls into it");
    }
  }

  @Test
  void structChildIsCheckedWhereTheStructIsValid() throws IOException {
    Dataset ds = create(LanceFileVersion.V2_1);
    List<Order> rows = orders(100, 4); // 103 has a null addr (and a null city under it): fine
    try (VectorSchemaRoot fine = batch(allocator, ORDERS, rows)) {
      assertThat(ds.append(List.of(fine), WriteParams.defaults()).countRows()).isEqualTo(12);
    }
    Dataset now = Dataset.open(path, allocator);
    rows.set(1, new Order(101, "c", null, false, null, List.of()));
    try (VectorSchemaRoot bad = batch(allocator, ORDERS, rows)) {
      assertRefused(now, () -> now.append(List.of(bad), WriteParams.defaults()),
          "Column 'addr.city' is not nullable but the append writes nulls into it");
    }
  }

  @Test
  void listItemsAreCheckedInValidLists() throws IOException {
    Dataset ds = create(LanceFileVersion.V2_1);
    List<String> withNull = new ArrayList<>();
    withNull.add("a");
    withNull.add(null);
    withNull.add(null);
    List<Order> rows = orders(100, 5);
    rows.set(3, new Order(103, "c", null, false, "x", withNull));
    try (VectorSchemaRoot bad = batch(allocator, ORDERS, rows)) {
      assertRefused(ds, () -> ds.append(List.of(bad), WriteParams.defaults()),
          "Column 'tags.item' is not nullable but the append writes nulls into it");
    }
  }

  @Test
  void createAndOverwriteRefuseNullsTheDataSchemaForbids() throws IOException {
    List<Order> rows = orders(0, 3);
    rows.set(0, rows.get(0).customer(null));
    try (VectorSchemaRoot bad = batch(allocator, ORDERS, rows)) {
      assertThatThrownBy(() -> Dataset.create(path, List.of(bad), WriteParams.defaults(), allocator))
          .isInstanceOf(NullValueException.class)
          .hasMessageStartingWith("Column 'customer' is not nullable but the create writes nulls into it: ")
          .hasMessageEndingWith("orders");
      assertThat(Files.exists(path) ? files() : Set.of()).isEmpty();
      Dataset ds = create(LanceFileVersion.V2_1);
      assertRefused(ds, () -> ds.overwrite(List.of(bad), WriteParams.defaults()),
          "Column 'customer' is not nullable but the overwrite writes nulls into it");
    }
  }

  /** One batch as a reader. */
  static final class OneBatch extends ArrowReader {
    private final VectorSchemaRoot batch;
    private boolean done;

    OneBatch(BufferAllocator a, VectorSchemaRoot batch) {
      super(a);
      this.batch = batch;
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      ensureInitialized();
      if (done) {
        return false;
      }
      try (ArrowRecordBatch rb = new VectorUnloader(batch).getRecordBatch()) {
        loadRecordBatch(rb);
      }
      done = true;
      return true;
    }

    @Override
    public long bytesRead() {
      return 0;
    }

    @Override
    protected void closeReadSource() {}

    @Override
    protected Schema readSchema() {
      return batch.getSchema();
    }
  }

  static final Schema REGION = new Schema(List.of(new Field("region", FieldType.notNullable(ArrowType.Utf8.INSTANCE),
      null)));

  private VectorSchemaRoot regions(int n, int nullAt) {
    VectorSchemaRoot r = VectorSchemaRoot.create(REGION, allocator);
    VarCharVector v = (VarCharVector) r.getVector(0);
    v.allocateNew();
    for (int i = 0; i < n; i++) {
      set(v, i, i == nullAt ? null : "r" + i);
    }
    r.setRowCount(n);
    return r;
  }

  @Test
  void addColumnsFromAStreamRefusesNullsInANonNullableColumn() throws IOException {
    Dataset ds = create(LanceFileVersion.V2_1);
    try (VectorSchemaRoot values = regions(8, 6); OneBatch reader = new OneBatch(allocator, values)) {
      // Fragment 0 (rows 0-3) is written before fragment 1's rows show the null.
      assertRefused(ds, () -> ds.addColumns(reader),
          "Column 'region' is not nullable but the column addition writes nulls into it");
    }
  }

  @Test
  void addColumnsFromAFunctionRefusesNullsInANonNullableColumn() throws IOException {
    Dataset ds = create(LanceFileVersion.V2_1);
    assertRefused(ds, () -> ds.addColumns(REGION, List.of("order_id"), in -> {
      BigIntVector id = (BigIntVector) in.getVector(0);
      int nullAt = -1;
      for (int i = 0; i < in.getRowCount(); i++) {
        if (id.get(i) == 5) {
          nullAt = i;
        }
      }
      return regions(in.getRowCount(), nullAt);
    }), "Column 'region' is not nullable but the column addition writes nulls into it");
  }

  @Test
  void expressionColumnsAreNullableSoTheirNullsAreKept() {
    Dataset ds = create(LanceFileVersion.V2_1);
    Dataset added = ds.addColumns(Map.of("note2", "note"));
    assertThat(added.schema().field("note2").orElseThrow().nullable()).isTrue();
    assertThat(added.countRows("note2 IS NULL")).isEqualTo(4);
  }

  @Test
  void distributedWritesRefuseNulls() throws IOException {
    Dataset ds = create(LanceFileVersion.V2_1);
    Set<String> before = files();
    List<Order> rows = orders(100, 3);
    rows.set(1, rows.get(1).customer(null));
    try (VectorSchemaRoot bad = batch(allocator, ORDERS, rows);
        DistributedWrite.FragmentSink sink = DistributedWrite.fragmentSink(ds.store(), ds.schema(),
            ds.fileVersion(), WriteParams.defaults())) {
      try (VectorSchemaRoot good = batch(allocator, ORDERS, orders(200, 3))) {
        sink.write(good);
      }
      assertThatThrownBy(() -> sink.write(bad)).isInstanceOf(NullValueException.class)
          .hasMessage("Column 'customer' is not nullable but the distributed write writes nulls into it: "
              + ds.location());
    }
    assertThat(files()).isEqualTo(before);
    var columns = DistributedWrite.newColumns(ds, REGION);
    assertThatThrownBy(() -> DistributedWrite.writeColumnFile(ds, 1, columns, List.of(), in -> regions(
        in.getRowCount(), 0), 1024)).isInstanceOf(NullValueException.class)
        .hasMessage("Column 'region' is not nullable but the backfill writes nulls into it: " + ds.location());
    assertThat(files()).isEqualTo(before);
    assertThat(Dataset.open(path, allocator).version()).isEqualTo(ds.version());
  }
}
