package dev.javelin.compat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.format.LanceFileReader;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.encoding.WriteOptions;
import dev.javelin.format.io.LocalOutputFile;
import dev.javelin.format.proto.Encodings21.CompressiveEncoding;
import dev.javelin.format.proto.Encodings21.PageLayout;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Javelin writes format 2.2 files; lance-core 7.0.0 reads every value back row by row, and the
 * pages are what lance-core requires and chooses in 2.2: every mini-block page says
 * {@code has_large_chunk}, and each page's repetition and definition levels use the same kind of
 * compression (run-length or bit-packed) as lance-core's 2.2 file of the same data. Over typical
 * shapes ({@link EncShapes}) and every type and nesting of the smoke test with random data, in
 * default and small pages. Javelin reads its own files back too (whole and by takes).
 */
class JavelinWrites22Test {
  @TempDir Path dir;
  BufferAllocator allocator;

  @BeforeEach
  void open() {
    allocator = new RootAllocator();
  }

  @AfterEach
  void close() {
    allocator.close();
  }

  static Stream<String> shapes() {
    return EncShapes.names().stream();
  }

  static Stream<Field> everyType() {
    return V21SmokeTest.javelinToLanceFields().stream();
  }

  private void javelinWrite(Path f, VectorSchemaRoot root, long pageBytes) throws Exception {
    try (LanceFileWriter w = LanceFileWriter.create(new LocalOutputFile(f), root.getSchema(),
        WriteOptions.builder().version(LanceFileVersion.V2_2).maxPageBytes(pageBytes).build())) {
      w.write(root);
    }
  }

  private void lanceWrite(Path f, VectorSchemaRoot root) throws Exception {
    try (org.lance.file.LanceFileWriter w = org.lance.file.LanceFileWriter.open(f.toString(), allocator, null,
        Optional.of("2.2"), Map.of())) {
      w.write(root);
    }
  }

  private static List<PageLayout> layouts(Path f) throws Exception {
    List<PageLayout> out = new ArrayList<>();
    for (ColumnMetadata c : new RawFile(Files.readAllBytes(f)).columns()) {
      for (ColumnMetadata.Page p : c.getPagesList()) {
        com.google.protobuf.Any any = com.google.protobuf.Any.parseFrom(p.getEncoding().getDirect().getEncoding());
        out.add(PageLayout.parseFrom(any.getValue()));
      }
    }
    return out;
  }

  // "rep:rle def:out_of_line_bitpacking" for a mini-block page; the layout's name otherwise.
  private static String levels(PageLayout l) {
    if (!l.hasMiniBlockLayout()) {
      return l.getLayoutCase().toString();
    }
    var m = l.getMiniBlockLayout();
    return "rep:" + kind(m.hasRepCompression() ? m.getRepCompression() : null)
        + " def:" + kind(m.hasDefCompression() ? m.getDefCompression() : null);
  }

  private static String kind(CompressiveEncoding e) {
    return e == null ? "-" : e.getCompressionCase().toString();
  }

  private void check(VectorSchemaRoot root, String name, boolean compareLevels) throws Exception {
    List<List<Object>> expected = V21SmokeTest.rows(root);
    Path j = dir.resolve(name + "-j.lance");
    javelinWrite(j, root, WriteOptions.DEFAULT_MAX_PAGE_BYTES);
    try (LanceFileReader r = LanceFileReader.open(j, allocator)) {
      assertThat(r.version()).isEqualTo(LanceFileVersion.V2_2);
    }
    assertThat(new RawFile(Files.readAllBytes(j)).minor).isEqualTo(2);
    assertThat(EncFiles.lanceRead(j, allocator)).as(name).isEqualTo(expected);
    assertThat(EncFiles.javelinRead(j, allocator)).as(name).isEqualTo(expected);
    List<PageLayout> ours = layouts(j);
    for (PageLayout l : ours) {
      if (l.hasMiniBlockLayout()) {
        assertThat(l.getMiniBlockLayout().getHasLargeChunk()).as(name).isTrue();
      }
    }
    if (compareLevels) {
      Path l = dir.resolve(name + "-l.lance");
      lanceWrite(l, root);
      List<PageLayout> theirs = layouts(l);
      if (theirs.size() == ours.size()) {
        for (int p = 0; p < ours.size(); p++) {
          if (ours.get(p).hasMiniBlockLayout() && theirs.get(p).hasMiniBlockLayout()) {
            assertThat(levels(ours.get(p))).as("%s page %s levels", name, p).isEqualTo(levels(theirs.get(p)));
          }
        }
      }
    }
    Path small = dir.resolve(name + "-small.lance");
    javelinWrite(small, root, 4096);
    assertThat(EncFiles.lanceRead(small, allocator)).as(name + " in small pages").isEqualTo(expected);
    java.util.Random r = new java.util.Random(name.hashCode());
    long[] take = new long[40];
    List<List<Object>> taken = new ArrayList<>();
    for (int i = 0; i < take.length; i++) {
      take[i] = r.nextInt(expected.size());
      taken.add(expected.get((int) take[i]));
    }
    assertThat(EncFiles.javelinTake(small, allocator, take)).as(name).isEqualTo(taken);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("shapes")
  void lanceReadsEveryShape(String shape) throws Exception {
    try (VectorSchemaRoot root = EncShapes.all().get(shape).apply(allocator, 20_000)) {
      check(root, shape, true);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("everyType")
  void lanceReadsEveryType(Field field) throws Exception {
    Schema schema = new Schema(List.of(field));
    V21SmokeTest.ArrowData.Gen g = new V21SmokeTest.ArrowData.Gen(field.getName().hashCode() + 22);
    try (VectorSchemaRoot root = V21SmokeTest.ArrowData.root(schema,
        V21SmokeTest.ArrowData.randomRows(schema, 3000, g), allocator)) {
      check(root, field.getName(), true);
    }
  }
}
