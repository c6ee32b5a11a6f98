package dev.javelin.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.format.WriteOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A file larger than the heap scans fine in small batches: the scan runs in a child JVM whose
 * heap is a fraction of the file's size, and checks every row.
 */
class StreamingScanTest {
  private static final int DIM = 64;
  private static final int ROWS = 1_200_000;
  private static final int BATCH = 50_000;
  private static final String HEAP = "-Xmx96m";

  @TempDir Path dir;

  static Schema schema() {
    Field item = new Field("item", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null);
    return new Schema(List.of(
        new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
        new Field("name", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
        new Field("v", FieldType.nullable(new ArrowType.FixedSizeList(DIM)), List.of(item))));
  }

  @ParameterizedTest
  @EnumSource(value = LanceFileVersion.class, names = {"V2_0", "V2_1"})
  void scansAFileLargerThanTheHeap(LanceFileVersion version) throws Exception {
    Path file = dir.resolve("big.lance");
    try (BufferAllocator allocator = new RootAllocator();
        VectorSchemaRoot root = VectorSchemaRoot.create(schema(), allocator);
        LanceFileWriter w = LanceFileWriter.create(file, schema(),
            WriteOptions.builder().version(version).maxPageBytes(8L << 20).build())) {
      for (int first = 0; first < ROWS; first += BATCH) {
        fill(root, first, BATCH);
        w.write(root);
      }
    }
    assertThat(Files.size(file)).isGreaterThan(3L * 96 << 20);

    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), HEAP,
        "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "-cp", System.getProperty("java.class.path"),
        StreamingScanTest.class.getName(), file.toString()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    boolean done = p.waitFor(5, TimeUnit.MINUTES);
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(done).as("child scan finished").isTrue();
    assertThat(p.exitValue()).as(output).isZero();
    assertThat(output).contains("rows=" + ROWS);
  }

  static void fill(VectorSchemaRoot root, int first, int count) {
    root.allocateNew();
    BigIntVector id = (BigIntVector) root.getVector("id");
    VarCharVector name = (VarCharVector) root.getVector("name");
    FixedSizeListVector v = (FixedSizeListVector) root.getVector("v");
    Float4Vector items = (Float4Vector) v.getDataVector();
    for (int i = 0; i < count; i++) {
      long row = first + i;
      id.setSafe(i, row);
      name.setSafe(i, ("n" + row).getBytes(StandardCharsets.UTF_8));
      v.setNotNull(i);
      for (int d = 0; d < DIM; d++) {
        items.setSafe(i * DIM + d, row + d);
      }
    }
    items.setValueCount(count * DIM);
    root.setRowCount(count);
  }

  /** The child JVM: scans the file in 8,192-row batches and checks each row's values. */
  public static void main(String[] args) throws IOException {
    long rows = 0;
    try (BufferAllocator allocator = new RootAllocator();
        LanceFileReader r = LanceFileReader.open(Path.of(args[0]), allocator);
        ArrowReader batches = r.read(ReadOptions.builder().batchSize(8192).build())) {
      while (batches.loadNextBatch()) {
        VectorSchemaRoot root = batches.getVectorSchemaRoot();
        BigIntVector id = (BigIntVector) root.getVector("id");
        VarCharVector name = (VarCharVector) root.getVector("name");
        FixedSizeListVector v = (FixedSizeListVector) root.getVector("v");
        Float4Vector items = (Float4Vector) v.getDataVector();
        for (int i = 0; i < root.getRowCount(); i++) {
          long expected = rows + i;
          if (id.get(i) != expected
              || !name.getObject(i).toString().equals("n" + expected)
              || items.get(i * DIM + DIM - 1) != (float) (expected + DIM - 1)) {
            throw new AssertionError("Row " + expected + " read back wrong");
          }
        }
        rows += root.getRowCount();
      }
    }
    System.out.println("rows=" + rows);
  }
}
