package dev.javelin.cli;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The demo's rows, the same on every run: id int64, name utf8, score float64, vector
 * fixed_size_list&lt;float32, 4&gt;, rating int32 (every fifth null), tags list&lt;int32&gt; (0 to 3
 * items, every eleventh null) and address struct&lt;city utf8, zip int32&gt;.
 */
final class SampleData {
  private static final String[] NAMES = {
    "ada", "grace", "alan", "edsger", "barbara", "donald", "frances", "john", "margaret", "dennis", "radia", "ken"
  };
  private static final String[] CITIES = {"Oslo", "Lyon", "Porto", "Kyoto", "Quito", "Perth", "Tunis", "Gent"};

  private SampleData() {}

  static Schema schema() {
    FieldType int32 = FieldType.nullable(new ArrowType.Int(32, true));
    FieldType utf8 = FieldType.nullable(ArrowType.Utf8.INSTANCE);
    return new Schema(List.of(
        new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
        new Field("name", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
        new Field("score", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)), null),
        new Field("vector", FieldType.nullable(new ArrowType.FixedSizeList(4)), List.of(
            new Field("item", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null))),
        new Field("rating", int32, null),
        new Field("tags", FieldType.nullable(ArrowType.List.INSTANCE), List.of(new Field("item", int32, null))),
        new Field("address", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
            new Field("city", utf8, null), new Field("zip", int32, null)))));
  }

  /** The first {@code rows} sample rows; the caller closes the root. */
  static VectorSchemaRoot create(BufferAllocator allocator, int rows) {
    VectorSchemaRoot root = VectorSchemaRoot.create(schema(), allocator);
    try {
      fill(root, rows);
      return root;
    } catch (RuntimeException e) {
      root.close();
      throw e;
    }
  }

  private static void fill(VectorSchemaRoot root, int rows) {
    Random random = new Random(42);
    root.allocateNew();
    BigIntVector id = (BigIntVector) root.getVector("id");
    VarCharVector name = (VarCharVector) root.getVector("name");
    Float8Vector score = (Float8Vector) root.getVector("score");
    FixedSizeListVector vector = (FixedSizeListVector) root.getVector("vector");
    Float4Vector items = (Float4Vector) vector.getDataVector();
    IntVector rating = (IntVector) root.getVector("rating");
    ListVector tags = (ListVector) root.getVector("tags");
    IntVector tagItems = (IntVector) tags.getDataVector();
    StructVector address = (StructVector) root.getVector("address");
    VarCharVector city = address.getChild("city", VarCharVector.class);
    IntVector zip = address.getChild("zip", IntVector.class);
    for (int i = 0; i < rows; i++) {
      id.setSafe(i, i);
      name.setSafe(i, NAMES[i % NAMES.length].getBytes(StandardCharsets.UTF_8));
      score.setSafe(i, Math.round(random.nextDouble() * 10_000) / 100.0);
      vector.setNotNull(i);
      for (int k = 0; k < 4; k++) {
        items.setSafe(i * 4 + k, Math.round(random.nextFloat() * 1000) / 1000f);
      }
      if (i % 5 == 4) {
        rating.setNull(i);
      } else {
        rating.setSafe(i, 1 + random.nextInt(5));
      }
      if (i % 11 == 10) {
        tags.setNull(i);
      } else {
        int start = tags.startNewValue(i);
        int n = i % 4;
        for (int k = 0; k < n; k++) {
          tagItems.setSafe(start + k, random.nextInt(100));
        }
        tags.endValue(i, n);
      }
      address.setIndexDefined(i);
      city.setSafe(i, CITIES[(i * 3) % CITIES.length].getBytes(StandardCharsets.UTF_8));
      zip.setSafe(i, 10_000 + (i * 37) % 90_000);
    }
    root.setRowCount(rows);
  }

  /** Writes the first {@code rows} sample rows to an Arrow IPC file, in batches of 100. */
  static void writeArrow(Path path, BufferAllocator allocator, int rows) throws IOException {
    try (VectorSchemaRoot all = create(allocator, rows);
        VectorSchemaRoot batch = VectorSchemaRoot.create(schema(), allocator);
        FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING);
        ArrowFileWriter writer = new ArrowFileWriter(batch, null, channel)) {
      writer.start();
      for (int from = 0; from < rows; from += 100) {
        int n = Math.min(100, rows - from);
        for (int j = 0; j < all.getFieldVectors().size(); j++) {
          all.getVector(j).makeTransferPair(batch.getVector(j)).splitAndTransfer(from, n);
        }
        batch.setRowCount(n);
        writer.writeBatch();
      }
      writer.end();
    }
  }
}
