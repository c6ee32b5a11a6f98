package dev.javelin.compat;

import static dev.javelin.testing.ArrowData.field;
import static dev.javelin.testing.ArrowData.list;
import static dev.javelin.testing.ArrowData.notNull;
import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.internal.container.FileMetadata;
import dev.javelin.format.proto.Encodings21.PageLayout;
import dev.javelin.format.proto.Encodings21.RepDefLayer;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import dev.javelin.io.LocalInputFile;
import dev.javelin.testing.ArrowData;
import dev.javelin.testing.TestAllocator;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Nested structs with null rows over non-nullable children, written by Javelin at 2.1. Lance
 * treats a null struct as a null in each child too, so every layer under a struct with nulls is
 * nullable; when a page has no valid item (an all-null page) lance-core decodes null leaves and
 * refuses the page unless those layers say so. Javelin must write the layers lance-core writes
 * for the same data, and both readers must return the values written.
 */
class NestedNullStructCompatTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private static Field i32NotNull(String name) {
    return notNull(name, new ArrowType.Int(32, true));
  }

  static Stream<Arguments> shapes() {
    Field structStruct = field("c", ArrowType.Struct.INSTANCE,
        field("s", ArrowType.Struct.INSTANCE, i32NotNull("x")));
    Field structNotNullStruct = field("c", ArrowType.Struct.INSTANCE,
        notNull("s", ArrowType.Struct.INSTANCE, i32NotNull("x"), field("y", new ArrowType.Int(64, true))));
    Field notNullStructStruct = notNull("c", ArrowType.Struct.INSTANCE,
        field("s", ArrowType.Struct.INSTANCE, i32NotNull("x")));
    Field structList = field("c", ArrowType.Struct.INSTANCE, list("l", i32NotNull("item")));
    Field listStruct = list("c", field("item", ArrowType.Struct.INSTANCE,
        field("s", ArrowType.Struct.INSTANCE, i32NotNull("x"))));
    List<Arguments> out = new ArrayList<>();
    for (Field f : List.of(structStruct, structNotNullStruct, notNullStructStruct, structList, listStruct)) {
      for (double nullShare : new double[] {1.0, 0.5}) {
        out.add(Arguments.of(describe(f) + ", nulls " + nullShare,
            f, nullShare));
      }
    }
    return out.stream();
  }

  private static String describe(Field f) {
    StringBuilder b = new StringBuilder();
    if (f.getType() instanceof ArrowType.Struct) {
      b.append("struct<");
    } else if (f.getType() instanceof ArrowType.List) {
      b.append("list<");
    } else {
      b.append(f.getType());
    }
    for (int i = 0; i < f.getChildren().size(); i++) {
      b.append(i == 0 ? "" : ", ").append(describe(f.getChildren().get(i)));
    }
    if (!f.getChildren().isEmpty()) {
      b.append('>');
    }
    return b.append(f.isNullable() ? "" : " not null").toString();
  }

  /**
   * A value of {@code f}; each nullable level is null with probability {@code nullShare}. A null
   * struct still carries valid children (lance-core refuses nulls in a non-nullable child even
   * under a null parent): it is a children array with one extra element, TRUE, that
   * {@link #nullStructs} reads once the vector is built.
   */
  private static Object value(Field f, double nullShare, Random r) {
    boolean isNull = f.isNullable() && r.nextDouble() < nullShare;
    ArrowType t = f.getType();
    if (t instanceof ArrowType.Struct) {
      int n = f.getChildren().size();
      Object[] kids = new Object[n + 1];
      for (int k = 0; k < n; k++) {
        kids[k] = value(f.getChildren().get(k), nullShare, r);
      }
      kids[n] = isNull;
      return kids;
    }
    if (isNull) {
      return null;
    }
    if (t instanceof ArrowType.List) {
      List<Object> items = new ArrayList<>();
      int len = r.nextInt(3);
      for (int k = 0; k < len; k++) {
        items.add(value(f.getChildren().get(0), nullShare, r));
      }
      return items;
    }
    int bytes = ((ArrowType.Int) t).getBitWidth() / 8;
    ByteBuffer b = ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
    if (bytes == 4) {
      b.putInt(r.nextInt(1000));
    } else {
      b.putLong(r.nextInt(1000));
    }
    return b.array();
  }

  /** Clears the validity bit of each struct marked null by {@link #value}, leaving its children. */
  @SuppressWarnings("unchecked")
  private static void nullStructs(FieldVector v, int i, Object value) {
    if (v instanceof StructVector) {
      StructVector sv = (StructVector) v;
      Object[] kids = (Object[]) value;
      List<FieldVector> children = sv.getChildrenFromFields();
      for (int k = 0; k < children.size(); k++) {
        nullStructs(children.get(k), i, kids[k]);
      }
      if ((Boolean) kids[children.size()]) {
        sv.setNull(i);
      }
    } else if (v instanceof ListVector && value != null) {
      ListVector lv = (ListVector) v;
      List<Object> items = (List<Object>) value;
      int start = lv.getOffsetBuffer().getInt(4L * i);
      for (int k = 0; k < items.size(); k++) {
        nullStructs(lv.getDataVector(), start + k, items.get(k));
      }
    }
  }

  /** Blocks of 256 rows, every other one all null (where the schema allows). */
  private static List<Object[]> rows(Field f, double nullShare, int n, Random r) {
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      rows.add(new Object[] {value(f, (i / 256) % 2 == 1 ? 1.0 : nullShare, r)});
    }
    return rows;
  }

  private VectorSchemaRoot root(Schema schema, List<Object[]> rows) {
    VectorSchemaRoot root = ArrowData.root(schema, rows, allocator);
    for (int i = 0; i < rows.size(); i++) {
      nullStructs(root.getVector(0), i, rows.get(i)[0]);
    }
    return root;
  }

  /** The distinct rep/def layer lists of the file's pages, per column. */
  private static List<Set<List<RepDefLayer>>> layers(Path file) throws Exception {
    List<Set<List<RepDefLayer>>> out = new ArrayList<>();
    try (LocalInputFile in = LocalInputFile.open(file)) {
      for (ColumnMetadata c : FileMetadata.read(in).columns()) {
        Set<List<RepDefLayer>> col = new LinkedHashSet<>();
        for (ColumnMetadata.Page p : c.getPagesList()) {
          com.google.protobuf.Any any = com.google.protobuf.Any.parseFrom(p.getEncoding().getDirect().getEncoding());
          PageLayout l = PageLayout.parseFrom(any.getValue());
          switch (l.getLayoutCase()) {
            case MINI_BLOCK_LAYOUT:
              col.add(l.getMiniBlockLayout().getLayersList());
              break;
            case FULL_ZIP_LAYOUT:
              col.add(l.getFullZipLayout().getLayersList());
              break;
            case ALL_NULL_LAYOUT:
              col.add(l.getAllNullLayout().getLayersList());
              break;
            default:
              col.add(List.of());
          }
        }
        out.add(col);
      }
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("shapes")
  void lanceReadsWhatJavelinWrites(String name, Field f, double nullShare) throws Exception {
    Schema schema = new Schema(List.of(f));
    Path javelin = dir.resolve("javelin.lance");
    Path lance = dir.resolve("lance.lance");
    try (Table expected = Table.of(root(schema, rows(f, nullShare, 1024, new Random(name.hashCode()))))) {
      // One page per column, so that the layers of the two writers can be compared.
      JavelinIO.write(javelin, LanceFileVersion.V2_1, 1L << 24, schema, expected.batches());
      LanceOracle.write(lance, LanceFileVersion.V2_1, allocator, expected.batches());
      assertThat(layers(javelin)).as("rep/def layers Javelin wrote vs lance-core [%s]", name)
          .isEqualTo(layers(lance));
      ReadChecks.lance(javelin, expected, new Random(3), allocator, "Javelin wrote 2.1, " + name);
      ReadChecks.javelin(javelin, expected, new Random(5), allocator, "Javelin wrote 2.1, " + name);

      // Small pages: partly-null data then also has all-null pages next to pages with values.
      Path small = dir.resolve("small.lance");
      JavelinIO.write(small, LanceFileVersion.V2_1, 1024, schema, expected.batches());
      ReadChecks.lance(small, expected, new Random(7), allocator, "Javelin wrote 2.1 in small pages, " + name);
      ReadChecks.javelin(small, expected, new Random(9), allocator, "Javelin wrote 2.1 in small pages, " + name);
    }
  }
}
