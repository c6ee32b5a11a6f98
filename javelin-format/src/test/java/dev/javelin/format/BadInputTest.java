package dev.javelin.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.assertj.core.api.SoftAssertions.assertSoftly;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.javelin.format.WriteOptions;
import dev.javelin.format.exceptions.CorruptFileException;
import dev.javelin.format.exceptions.LanceFormatException;
import dev.javelin.format.exceptions.UnsupportedFormatException;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import dev.javelin.format.proto.FileProtos;
import dev.javelin.format.testing.Containers;
import dev.javelin.format.testing.FileBytes;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
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
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Files that are not valid Lance 2.x: too short, truncated, wrong magic, unsupported versions,
 * offsets and sizes past the end, malformed metadata and schemas, undecodable pages. Each must be
 * refused with a {@link LanceFormatException} (of the right subtype) whose message ends with the
 * file's path; never another exception, never a hang.
 *
 * <p>Container checks run on hand-made containers ({@link Containers}); the truncation sweep
 * also runs on a real file written by Javelin.
 */
class BadInputTest {
  private static final Duration LIMIT = Duration.ofSeconds(20);

  @TempDir Path dir;
  @TestAllocator private BufferAllocator allocator;
  private int files;

  private Path container(LanceFileVersion version) throws IOException {
    return Containers.write(dir.resolve("good-" + version + ".lance"), version);
  }

  private Path container(LanceFileVersion version, List<FileProtos.Field> schema, int columns,
      List<UnaryOperator<ColumnMetadata>> edits) throws IOException {
    return Containers.write(dir.resolve("made-" + version + "-" + files++ + ".lance"), version, schema, 3, columns,
        edits);
  }

  private Path bad(FileBytes bytes) {
    return bytes.writeTo(dir.resolve("bad.lance"));
  }

  private void open(Path path) throws IOException {
    try (LanceFileReader r = LanceFileReader.open(path, allocator)) {
      r.numRows();
    }
  }

  // ------------------------------------------------------------------ the reference files open

  @ParameterizedTest
  @EnumSource(LanceFileVersion.class)
  void handMadeContainerOpens(LanceFileVersion version) throws IOException {
    Path p = container(version);
    try (LanceFileReader r = LanceFileReader.open(p, allocator)) {
      assertThat(r.version()).isEqualTo(version);
      assertThat(r.numRows()).isEqualTo(3);
      assertThat(r.metadata().columns()).hasSize(2);
      assertThat(r.lanceSchema().fields()).extracting(f -> f.name()).containsExactly("id", "name");
    }
  }

  @ParameterizedTest
  @EnumSource(LanceFileVersion.class)
  void fileWithoutColumnsOpens(LanceFileVersion version) throws IOException {
    Path p = dir.resolve("empty.lance");
    WriteOptions opts = WriteOptions.builder().version(version).build();
    LanceFileWriter.create(p, new Schema(List.of()), opts).close();
    try (LanceFileReader r = LanceFileReader.open(p, allocator)) {
      assertThat(r.version()).isEqualTo(version);
      assertThat(r.numRows()).isZero();
      assertThat(r.schema().getFields()).isEmpty();
    }
  }

  // ------------------------------------------------------------------ footer

  @Test
  void missingFileIsRefused() {
    Path p = dir.resolve("nope.lance");
    assertThatThrownBy(() -> open(p)).isInstanceOf(LanceFormatException.class)
        .hasMessage("File not found: " + p);
  }

  @Test
  void emptyFileIsTooSmall() throws IOException {
    Path p = Files.write(dir.resolve("zero.lance"), new byte[0]);
    assertThatThrownBy(() -> open(p)).isExactlyInstanceOf(CorruptFileException.class)
        .hasMessage("File is too small to be a Lance file (0 bytes): " + p);
  }

  @ParameterizedTest
  @EnumSource(LanceFileVersion.class)
  void fileShorterThanAFooterIsTooSmall(LanceFileVersion version) throws IOException {
    FileBytes good = FileBytes.read(container(version));
    // The last 39 bytes: everything of the footer but its first byte.
    Path p = bad(new FileBytes(java.util.Arrays.copyOfRange(good.bytes(), good.length() - 39, good.length())));
    assertThatThrownBy(() -> open(p)).isExactlyInstanceOf(CorruptFileException.class)
        .hasMessage("File is too small to be a Lance file (39 bytes): " + p);
  }

  @ParameterizedTest
  @EnumSource(LanceFileVersion.class)
  void wrongMagicIsNotALanceFile(LanceFileVersion version) throws IOException {
    FileBytes good = FileBytes.read(container(version));
    assertSoftly(soft -> {
      for (String magic : new String[] {"LANX", "lanc", "\0\0\0\0", "PAR1"}) {
        Path p = bad(good.withBytes(good.length() - 4, magic.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1)));
        soft.assertThatThrownBy(() -> open(p)).as(magic).isExactlyInstanceOf(CorruptFileException.class)
            .hasMessage("Not a Lance file (no LANC magic at the end): " + p);
      }
    });
  }

  @ParameterizedTest
  @EnumSource(LanceFileVersion.class)
  void futureVersionIsUnsupported(LanceFileVersion version) throws IOException {
    FileBytes good = FileBytes.read(container(version));
    int[][] versions = {{3, 7}, {2, 3}, {2, 0}, {1, 0}, {0, 4}, {65535, 65535}};
    assertSoftly(soft -> {
      for (int[] v : versions) {
        Path p = bad(good.withVersion(v[0], v[1]));
        soft.assertThatThrownBy(() -> open(p)).as(v[0] + "." + v[1]).isExactlyInstanceOf(UnsupportedFormatException.class)
            .hasMessage("Unsupported Lance file version " + v[0] + "." + v[1] + ": " + p);
      }
    });
  }

  @ParameterizedTest
  @EnumSource(LanceFileVersion.class)
  void legacyVersionsAreUnsupported(LanceFileVersion version) throws IOException {
    FileBytes good = FileBytes.read(container(version));
    assertSoftly(soft -> {
      for (int minor : new int[] {1, 2}) {
        Path p = bad(good.withVersion(0, minor));
        soft.assertThatThrownBy(() -> open(p)).isExactlyInstanceOf(UnsupportedFormatException.class)
            .hasMessage("Legacy Lance file version 0." + minor + " is not supported: " + p);
      }
    });
  }

  @ParameterizedTest
  @EnumSource(LanceFileVersion.class)
  void footerOffsetsPastTheEndAreCorrupt(LanceFileVersion version) throws IOException {
    FileBytes good = FileBytes.read(container(version));
    long footerStart = good.length() - FileBytes.FOOTER;
    assertSoftly(soft -> {
      for (int field : new int[] {FileBytes.COLUMN_METADATA_START, FileBytes.CMO_TABLE_START, FileBytes.GBO_TABLE_START}) {
        for (long value : new long[] {footerStart + 1, good.length(), Long.MAX_VALUE, -1, Long.MIN_VALUE}) {
          Path p = bad(good.withFooterLong(field, value));
          soft.assertThatThrownBy(() -> open(p)).as("field %d = %d", field, value)
              .isExactlyInstanceOf(CorruptFileException.class)
              .hasMessage("Footer offsets point past the end of the file: " + p);
        }
      }
    });
  }

  @ParameterizedTest
  @EnumSource(LanceFileVersion.class)
  void footerTablesPastTheEndAreCorrupt(LanceFileVersion version) throws IOException {
    FileBytes good = FileBytes.read(container(version));
    Path p = bad(good.withFooterInt(FileBytes.NUM_COLUMNS, 1_000_000));
    assertThatThrownBy(() -> open(p)).isExactlyInstanceOf(CorruptFileException.class)
        .hasMessage("Footer tables (1000000 columns, 1 global buffers) pass the end of the file: " + p);
    Path q = bad(good.withFooterInt(FileBytes.NUM_GLOBAL_BUFFERS, -1));
    assertThatThrownBy(() -> open(q)).isExactlyInstanceOf(CorruptFileException.class)
        .hasMessage("Footer tables (2 columns, 4294967295 global buffers) pass the end of the file: " + q);
    Path r = bad(good.withFooterInt(FileBytes.NUM_COLUMNS, -1));
    assertThatThrownBy(() -> open(r)).isExactlyInstanceOf(CorruptFileException.class)
        .hasMessage("Footer tables (4294967295 columns, 1 global buffers) pass the end of the file: " + r);
  }

  @ParameterizedTest
  @EnumSource(LanceFileVersion.class)
  void fileWithoutGlobalBuffersIsCorrupt(LanceFileVersion version) throws IOException {
    Path p = bad(FileBytes.read(container(version)).withFooterInt(FileBytes.NUM_GLOBAL_BUFFERS, 0));
    assertThatThrownBy(() -> open(p)).isExactlyInstanceOf(CorruptFileException.class)
        .hasMessage("File has no global buffer 0 (the schema): " + p);
  }

  // ------------------------------------------------------------------ tables and metadata

  @ParameterizedTest
  @EnumSource(LanceFileVersion.class)
  void globalBufferOutsideTheFileIsCorrupt(LanceFileVersion version) throws IOException {
    FileBytes good = FileBytes.read(container(version));
    long entry = good.footerLong(FileBytes.GBO_TABLE_START);
    long[] gb0 = good.globalBuffer(0);
    long[][] cases = {{good.length(), gb0[1]}, {gb0[0], good.length()}, {-8, gb0[1]}, {gb0[0], -1},
        {gb0[0], Long.MAX_VALUE}, {Long.MAX_VALUE, 1}};
    assertSoftly(soft -> {
      for (long[] c : cases) {
        Path p = bad(good.withLong(entry, c[0]).withLong(entry + 8, c[1]));
        soft.assertThatThrownBy(() -> open(p)).as("gb0 %d+%d", c[0], c[1]).isExactlyInstanceOf(CorruptFileException.class)
            .hasMessage("The global buffer 0 (" + c[0] + "+" + c[1] + ") lies outside the file: " + p);
      }
    });
  }

  @ParameterizedTest
  @EnumSource(LanceFileVersion.class)
  void columnMetadataOutsideTheFileIsCorrupt(LanceFileVersion version) throws IOException {
    FileBytes good = FileBytes.read(container(version));
    long entry = good.footerLong(FileBytes.CMO_TABLE_START) + 16;
    long[] cm1 = good.columnMetadata(1);
    long[][] cases = {{good.length(), cm1[1]}, {cm1[0], good.length()}, {-1, cm1[1]}, {cm1[0], Long.MIN_VALUE},
        {Long.MAX_VALUE, 1}, {1, Long.MAX_VALUE}};
    assertSoftly(soft -> {
      for (long[] c : cases) {
        Path p = bad(good.withLong(entry, c[0]).withLong(entry + 8, c[1]));
        soft.assertThatThrownBy(() -> open(p)).as("column 1 %d+%d", c[0], c[1]).isExactlyInstanceOf(CorruptFileException.class)
            .hasMessage("The metadata of column 1 (" + c[0] + "+" + c[1] + ") lies outside the file: " + p);
      }
    });
  }

  @ParameterizedTest
  @EnumSource(LanceFileVersion.class)
  void metadataOverlappingTheFooterIsCorrupt(LanceFileVersion version) throws IOException {
    // Inside the file, but running into (or lying in) the footer: no valid file puts metadata there.
    FileBytes good = FileBytes.read(container(version));
    long cmEntry = good.footerLong(FileBytes.CMO_TABLE_START);
    long gbEntry = good.footerLong(FileBytes.GBO_TABLE_START);
    long footer = good.length() - FileBytes.FOOTER;
    long[][] ranges = {{footer - 4, 8}, {footer, 40}, {good.length() - 1, 1}, {footer + 8, 16}};
    assertSoftly(soft -> {
      for (long[] r : ranges) {
        for (long entry : new long[] {cmEntry, gbEntry}) {
          Path p = bad(good.withLong(entry, r[0]).withLong(entry + 8, r[1]));
          String what = (entry == cmEntry ? "column 0 metadata" : "global buffer 0") + " at " + r[0] + "+" + r[1];
          soft.assertThatThrownBy(() -> open(p)).as(what).isInstanceOf(CorruptFileException.class)
              .hasMessageEndingWith(": " + p);
        }
      }
    });
  }

  @ParameterizedTest
  @EnumSource(LanceFileVersion.class)
  void garbledColumnMetadataIsCorrupt(LanceFileVersion version) throws IOException {
    FileBytes good = FileBytes.read(container(version));
    long[] cm0 = good.columnMetadata(0);
    byte[] ff = new byte[(int) cm0[1]];
    java.util.Arrays.fill(ff, (byte) 0xff);
    Path p = bad(good.withBytes(cm0[0], ff));
    assertThatThrownBy(() -> open(p)).isExactlyInstanceOf(CorruptFileException.class)
        .hasMessageStartingWith("Metadata of column 0 is not valid: ")
        .hasMessageEndingWith(": " + p);
  }

  @ParameterizedTest
  @EnumSource(LanceFileVersion.class)
  void columnWithoutEncodingIsCorrupt(LanceFileVersion version) throws IOException {
    Path p = container(version, Containers.twoColumnSchema(), 2,
        List.of(c -> c, c -> c.toBuilder().clearEncoding().build()));
    assertThatThrownBy(() -> open(p)).isExactlyInstanceOf(CorruptFileException.class)
        .hasMessage("Column 1 has no encoding: " + p);
  }

  @ParameterizedTest
  @EnumSource(LanceFileVersion.class)
  void garbledFileDescriptorIsCorrupt(LanceFileVersion version) throws IOException {
    FileBytes good = FileBytes.read(container(version));
    long[] gb0 = good.globalBuffer(0);
    byte[] ff = new byte[(int) gb0[1]];
    java.util.Arrays.fill(ff, (byte) 0xff);
    Path p = bad(good.withBytes(gb0[0], ff));
    assertThatThrownBy(() -> open(p)).isExactlyInstanceOf(CorruptFileException.class)
        .hasMessageStartingWith("The file descriptor (global buffer 0) is not valid: ")
        .hasMessageEndingWith(": " + p);
  }

  @ParameterizedTest
  @EnumSource(LanceFileVersion.class)
  void invalidSchemasAreCorrupt(LanceFileVersion version) throws IOException {
    List<List<FileProtos.Field>> schemas = List.of(
        List.of(Containers.field(0, "a", "int3")),
        List.of(Containers.field(0, "a", "timestamp:xs:UTC")),
        List.of(Containers.field(0, "a", "decimal:128:x:2")),
        List.of(Containers.field(0, "a", "fixed_size_list:float")),
        List.of(Containers.field(0, "a", "fixed_size_binary:-3")),
        List.of(Containers.field(0, "a", "")),
        List.of(Containers.field(0, "a", "int32"), Containers.field(0, "b", "int32")),
        List.of(Containers.field(0, "a", "int32"), Containers.field(1, 7, "b", "int32")),
        List.of(Containers.field(0, "a", "list")),
        List.of(Containers.field(0, "a", "list"), Containers.field(1, 0, "x", "int32"),
            Containers.field(2, 0, "y", "int32")));
    List<Path> files = new java.util.ArrayList<>();
    for (List<FileProtos.Field> schema : schemas) {
      files.add(container(version, schema, 1, List.of()));
    }
    assertSoftly(soft -> {
      for (int i = 0; i < schemas.size(); i++) {
        List<FileProtos.Field> schema = schemas.get(i);
        Path p = files.get(i);
        soft.assertThatThrownBy(() -> open(p)).as(schema.toString()).isExactlyInstanceOf(CorruptFileException.class)
            .hasMessageStartingWith("The file's schema is not valid: ")
            .hasMessageEndingWith(": " + p);
      }
    });
  }

  @ParameterizedTest
  @EnumSource(LanceFileVersion.class)
  void columnCountMustMatchTheSchema(LanceFileVersion version) throws IOException {
    Path p = container(version, Containers.twoColumnSchema(), 1, List.of());
    assertThatThrownBy(() -> open(p)).isExactlyInstanceOf(CorruptFileException.class)
        .hasMessage("The schema needs 2 columns but the file has 1: " + p);
    Path q = container(version, Containers.twoColumnSchema(), 3, List.of());
    assertThatThrownBy(() -> open(q)).isExactlyInstanceOf(CorruptFileException.class)
        .hasMessage("The schema needs 2 columns but the file has 3: " + q);
  }

  // ------------------------------------------------------------------ pages

  @ParameterizedTest
  @EnumSource(LanceFileVersion.class)
  void undecodablePagesAreRefusedOnRead(LanceFileVersion version) throws IOException {
    // An empty page encoding, an unknown type URL, bytes that are not an Any, a buffer past the
    // end, fewer rows in pages than in the file.
    List<UnaryOperator<ColumnMetadata>> edits = List.of(
        c -> c,
        c -> pageEncoding(c, Containers.direct(FileProtos.Field.getDefaultInstance(), "/lance.unknown.Thing")),
        c -> pageEncoding(c, dev.javelin.format.proto.File2Protos.Encoding.newBuilder()
            .setDirect(dev.javelin.format.proto.File2Protos.DirectEncoding.newBuilder()
                .setEncoding(com.google.protobuf.ByteString.copyFrom(new byte[] {(byte) 0xff, 1, 2}))).build()),
        c -> c.toBuilder().setPages(0, c.getPages(0).toBuilder().setBufferOffsets(0, 1L << 40)).build(),
        c -> c.toBuilder().setPages(0, c.getPages(0).toBuilder().setLength(1)).build(),
        c -> c.toBuilder().clearPages().build());
    for (UnaryOperator<ColumnMetadata> edit : edits) {
      Path p = container(version, Containers.twoColumnSchema(), 2, List.of(edit, edit));
      assertTimeoutPreemptively(LIMIT, () -> {
        try (LanceFileReader r = LanceFileReader.open(p, allocator)) {
          assertThatThrownBy(() -> readAll(r)).isInstanceOf(LanceFormatException.class)
              .hasMessageEndingWith(": " + p);
          assertThatThrownBy(() -> r.take(new long[] {2}, null).close()).isInstanceOf(LanceFormatException.class)
              .hasMessageEndingWith(": " + p);
        }
      });
    }
  }

  private static ColumnMetadata pageEncoding(ColumnMetadata c, dev.javelin.format.proto.File2Protos.Encoding e) {
    return c.toBuilder().setPages(0, c.getPages(0).toBuilder().setEncoding(e)).build();
  }

  private long readAll(LanceFileReader r) throws IOException {
    long rows = 0;
    try (ArrowReader batches = r.read(ReadOptions.all())) {
      while (batches.loadNextBatch()) {
        rows += batches.getVectorSchemaRoot().getRowCount();
      }
    }
    return rows;
  }

  // ------------------------------------------------------------------ truncation

  @ParameterizedTest
  @EnumSource(LanceFileVersion.class)
  void everyTruncationOfAContainerIsRefused(LanceFileVersion version) throws IOException {
    assertEveryTruncationRefused(FileBytes.read(container(version)));
  }

  @ParameterizedTest
  @EnumSource(value = LanceFileVersion.class, names = {"V2_0", "V2_1"})
  void everyTruncationOfADataFileIsRefused(LanceFileVersion version) throws IOException {
    Path p = dataFile(version);
    try (LanceFileReader r = LanceFileReader.open(p, allocator)) {
      assertThat(readAll(r)).isEqualTo(ROWS);
    }
    assertEveryTruncationRefused(FileBytes.read(p));
  }

  private void assertEveryTruncationRefused(FileBytes good) {
    Path p = dir.resolve("cut.lance");
    assertTimeoutPreemptively(LIMIT, () -> {
      for (int len = 0; len < good.length(); len++) {
        good.truncate(len).writeTo(p);
        try (LanceFileReader r = LanceFileReader.open(p, allocator)) {
          // A cut can only open if the bytes before it happen to end in a valid footer.
          readAll(r);
          fail("A file cut to %d of %d bytes opened and read", len, good.length());
        } catch (LanceFormatException e) {
          assertThat(e.location()).as("cut to %d bytes", len).isEqualTo(p.toString());
          assertThat(e.getMessage()).as("cut to %d bytes", len).endsWith(": " + p);
          if (len < FileBytes.FOOTER) {
            assertThat(e).hasMessage("File is too small to be a Lance file (" + len + " bytes): " + p);
          }
        } catch (Throwable t) {
          throw new AssertionError("A file cut to " + len + " of " + good.length()
              + " bytes failed with " + t + " instead of a LanceFormatException", t);
        }
      }
    }, () -> "Reading a truncated file did not finish within " + LIMIT);
  }

  // ------------------------------------------------------------------ a real file

  private static final int ROWS = 60;

  // int32, utf8, list<int64>, struct<f64, utf8>, fixed_size_list<f32, 2>, with nulls, in pages of
  // at most 1 KiB so that the file has several pages per column.
  private Path dataFile(LanceFileVersion version) throws IOException {
    Field item = new Field("item", FieldType.nullable(new ArrowType.Int(64, true)), null);
    Field fslItem = new Field("item", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null);
    Schema schema = new Schema(List.of(
        new Field("i", FieldType.nullable(new ArrowType.Int(32, true)), null),
        new Field("s", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
        new Field("l", FieldType.nullable(ArrowType.List.INSTANCE), List.of(item)),
        new Field("st", FieldType.notNullable(ArrowType.Struct.INSTANCE), List.of(
            new Field("d", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)), null),
            new Field("t", FieldType.nullable(ArrowType.Utf8.INSTANCE), null))),
        new Field("v", FieldType.nullable(new ArrowType.FixedSizeList(2)), List.of(fslItem))));
    Path p = dir.resolve("data-" + version + ".lance");
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      root.allocateNew();
      IntVector i = (IntVector) root.getVector("i");
      VarCharVector s = (VarCharVector) root.getVector("s");
      ListVector l = (ListVector) root.getVector("l");
      BigIntVector li = (BigIntVector) l.getDataVector();
      StructVector st = (StructVector) root.getVector("st");
      Float8Vector d = (Float8Vector) st.getChild("d");
      VarCharVector t = (VarCharVector) st.getChild("t");
      FixedSizeListVector v = (FixedSizeListVector) root.getVector("v");
      Float4Vector vi = (Float4Vector) v.getDataVector();
      int items = 0;
      for (int r = 0; r < ROWS; r++) {
        if (r % 7 == 3) {
          i.setNull(r);
          s.setNull(r);
          l.setNull(r);
          v.setNull(r);
        } else {
          i.setSafe(r, r * 1000);
          s.setSafe(r, ("row " + r + " " + "x".repeat(r % 13)).getBytes(java.nio.charset.StandardCharsets.UTF_8));
          l.startNewValue(r);
          for (int k = 0; k < r % 4; k++) {
            li.setSafe(items++, (long) r * k);
          }
          l.endValue(r, r % 4);
          v.setNotNull(r);
        }
        vi.setSafe(2 * r, r);
        vi.setSafe(2 * r + 1, -r);
        st.setIndexDefined(r);
        d.setSafe(r, r / 3.0);
        if (r % 5 == 0) {
          t.setNull(r);
        } else {
          t.setSafe(r, ("t" + r).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
      }
      li.setValueCount(items);
      vi.setValueCount(2 * ROWS);
      root.setRowCount(ROWS);
      WriteOptions opts = WriteOptions.builder().version(version).maxPageBytes(1024).build();
      try (LanceFileWriter w = LanceFileWriter.create(p, schema, opts);
          VectorSchemaRoot first = root.slice(0, 25);
          VectorSchemaRoot rest = root.slice(25, ROWS - 25)) {
        w.write(first);
        w.write(rest);
      }
    }
    return p;
  }
}
