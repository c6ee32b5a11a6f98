package dev.javelin.core.compaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.CapturedLogs;
import dev.javelin.core.Dataset;
import dev.javelin.core.IndexInfo;
import dev.javelin.core.exceptions.CompactionException;
import dev.javelin.format.LanceFileReader;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.WriteOptions;
import dev.javelin.index.IndexType;
import dev.javelin.io.LocalOutputFile;
import dev.javelin.table.DataFile;
import dev.javelin.table.Fragment;
import dev.javelin.table.OperationKind;
import dev.javelin.table.Table;
import dev.javelin.testing.TestAllocator;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Column repacks in the binary-copy modes: encoded pages zipped into one file per planned file. */
class BinaryRepackTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  @BeforeEach
  void open() {
    CapturedLogs.clear(ColumnRepacker.class);
  }

  // What ColumnRepacker logged during the test.
  private static List<String> logged() {
    return CapturedLogs.of(ColumnRepacker.class);
  }

  private static final ArrowType I64 = new ArrowType.Int(64, true);

  /** Adds st: struct{x: id * 5, y: "y{id}"} and l: list of (id % 3) int64s, in one new file per fragment. */
  private static Dataset addNested(Dataset ds) {
    Schema s = new Schema(List.of(
        new Field("st", FieldType.nullable(ArrowType.Struct.INSTANCE),
            List.of(Field.nullable("x", I64), Field.nullable("y", ArrowType.Utf8.INSTANCE))),
        new Field("l", FieldType.nullable(ArrowType.List.INSTANCE), List.of(Field.nullable("item", I64)))));
    return ds.addColumns(s, List.of("id"), in -> {
      VectorSchemaRoot out = VectorSchemaRoot.create(s, ds.allocator());
      out.allocateNew();
      BigIntVector id = (BigIntVector) in.getVector("id");
      StructVector st = (StructVector) out.getVector("st");
      BigIntVector x = (BigIntVector) st.getChild("x");
      VarCharVector y = (VarCharVector) st.getChild("y");
      ListVector l = (ListVector) out.getVector("l");
      BigIntVector items = (BigIntVector) l.getDataVector();
      int n = in.getRowCount();
      int k = 0;
      for (int i = 0; i < n; i++) {
        long v = id.get(i);
        st.setIndexDefined(i);
        x.setSafe(i, v * 5);
        y.setSafe(i, ("y" + v).getBytes(StandardCharsets.UTF_8));
        l.startNewValue(i);
        for (int j = 0; j < v % 3; j++) {
          items.setSafe(k++, v + j);
        }
        l.endValue(i, (int) (v % 3));
      }
      x.setValueCount(n);
      y.setValueCount(n);
      items.setValueCount(k);
      out.setRowCount(n);
      return out;
    });
  }

  /** 3 fragments of 100 rows in 4 files (id,s | a | st,l | b), some rows deleted, a BTree on a. */
  private Dataset backfilled(LanceFileVersion v) {
    Dataset ds = Data.backfill(Data.create(dir.resolve("ds"), allocator, 300, 100, v), "a", 2);
    ds = Data.backfill(addNested(ds), "b", 3);
    return ds.delete("id % 11 = 0").createIndex("a", IndexType.BTREE);
  }

  private static CompactionOptions repack(CompactionMode mode) {
    return CompactionOptions.builder().maxDataFilesPerFragment(1).scope(CompactionScope.REPACK_COLUMNS).mode(mode)
        .build();
  }

  private long dataFilesOnDisk() throws Exception {
    try (Stream<Path> s = Files.list(dir.resolve("ds").resolve("data"))) {
      return s.count();
    }
  }

  @ParameterizedTest
  @CsvSource({"V2_0, TRY_BINARY_COPY", "V2_0, FORCE_BINARY_COPY", "V2_1, TRY_BINARY_COPY",
      "V2_1, FORCE_BINARY_COPY", "V2_1, REENCODE"})
  void binaryRepackKeepsRowsDeletionsAndIndex(LanceFileVersion v, CompactionMode mode) {
    Dataset ds = backfilled(v);
    assertThat(Data.fileCounts(ds)).containsExactly(4, 4, 4);
    List<List<String>> before = Data.rows(ds);
    IndexInfo index = ds.indices().get(0);
    Dataset after = ds.compact(repack(mode));
    assertThat(after.version()).isEqualTo(ds.version() + 1);
    var txn = Table.at(after.store()).transaction(after.manifest()).orElseThrow();
    assertThat(txn.kind()).isEqualTo(OperationKind.DATA_REPLACEMENT);
    assertThat(txn.dataChange()).isFalse();
    assertThat(Data.fileCounts(after)).containsExactly(1, 1, 1);
    assertThat(after.manifest().fragments()).extracting(Fragment::id)
        .isEqualTo(ds.manifest().fragments().stream().map(Fragment::id).toList());
    for (int i = 0; i < 3; i++) {
      Fragment f = after.manifest().fragments().get(i);
      assertThat(f.deletionFile()).isEqualTo(ds.manifest().fragments().get(i).deletionFile());
      assertThat(f.files().get(0).fileMajorVersion()).isEqualTo(v.major());
      assertThat(f.files().get(0).fileMinorVersion()).isEqualTo(v.minor());
    }
    // Row addresses are part of each row.
    assertThat(Data.rows(after)).isEqualTo(before);
    assertThat(Data.rows(Dataset.open(dir.resolve("ds"), allocator))).isEqualTo(before);
    assertThat(after.indices().get(0).uuid()).isEqualTo(index.uuid());
    assertThat(after.indices().get(0).fragments()).isEqualTo(index.fragments());
    assertThat(after.countRows("a >= 100 AND a < 300")).isEqualTo(ds.countRows("a >= 100 AND a < 300"));
    // Binary copy really happened: no fallback was logged.
    assertThat(logged()).isEmpty();
    assertThat(after.compact(repack(mode)).version()).isEqualTo(after.version());
  }

  @ParameterizedTest
  @CsvSource({"V2_0", "V2_1"})
  void binaryRepackTombstonesADroppedStructChild(LanceFileVersion v) {
    Dataset ds = backfilled(v).dropColumns("st.y", "a");
    List<List<String>> before = Data.rows(ds);
    Dataset after = ds.compact(repack(CompactionMode.FORCE_BINARY_COPY));
    assertThat(Data.fileCounts(after)).containsExactly(1, 1, 1);
    assertThat(Data.rows(after)).isEqualTo(before);
    DataFile f = after.manifest().fragments().get(0).files().get(0);
    // The struct is copied whole, its dropped child as a tombstone; the dropped column a is not copied.
    int st = ds.schema().field("st").orElseThrow().id();
    assertThat(f.fields()).contains(st, DataFile.TOMBSTONE);
    assertThat(f.fields().stream().filter(id -> id == DataFile.TOMBSTONE).count()).isEqualTo(1);
    assertThat(after.compact(repack(CompactionMode.FORCE_BINARY_COPY)).version()).isEqualTo(after.version());
  }

  @ParameterizedTest
  @CsvSource({"V2_0", "V2_1"})
  void binaryRepackLeavesADroppedColumnBehind(LanceFileVersion v) {
    // Zip a and b into one file, then drop a: that file still holds a's pages, which the next
    // repack must not copy.
    Dataset ds = backfilled(v);
    ds = ds.compact(CompactionOptions.builder().scope(CompactionScope.REPACK_COLUMNS)
        .columnGroups(List.of(List.of("a", "b"))).mode(CompactionMode.FORCE_BINARY_COPY).build());
    assertThat(Data.fileCounts(ds)).containsExactly(3, 3, 3);
    int a = ds.schema().field("a").orElseThrow().id();
    ds = ds.dropColumns("a");
    List<List<String>> before = Data.rows(ds);
    Dataset after = ds.compact(repack(CompactionMode.FORCE_BINARY_COPY));
    assertThat(Data.fileCounts(after)).containsExactly(1, 1, 1);
    DataFile f = after.manifest().fragments().get(0).files().get(0);
    assertThat(f.fields()).doesNotContain(a, DataFile.TOMBSTONE);
    assertThat(Data.rows(after)).isEqualTo(before);
  }

  @Test
  void binaryRepackTakesSomeColumnsOfAFile() {
    // Groups {s, b}: s leaves the id,s file, which stays; the zipped file takes one of its columns.
    Dataset ds = backfilled(LanceFileVersion.V2_1);
    CompactionOptions groups = CompactionOptions.builder().scope(CompactionScope.REPACK_COLUMNS)
        .columnGroups(List.of(List.of("s", "b"))).mode(CompactionMode.FORCE_BINARY_COPY).build();
    assertThat(Compaction.plan(ds, groups).tasks()).hasSize(3);
    Dataset after = ds.compact(groups);
    assertThat(Data.rows(after)).isEqualTo(Data.rows(ds));
    int s = ds.schema().field("s").orElseThrow().id();
    int b = ds.schema().field("b").orElseThrow().id();
    assertThat(after.manifest().fragments().get(0).files()).anySatisfy(f -> assertThat(f.fields()).containsExactly(s, b));
  }

  @Test
  void binaryRepackKeepsOverlaysShadowingTheBase() {
    // As when re-encoding: the base pages are copied and the overlay keeps its newer values.
    Dataset ds = backfilled(LanceFileVersion.V2_1);
    ds = ds.updateOverlay("id >= 120 AND id < 140", java.util.Map.of("a", "-a")).dataset();
    List<List<String>> before = Data.rows(ds);
    var overlays = ds.manifest().fragments().get(1).overlays();
    assertThat(overlays).isNotEmpty();
    Dataset after = ds.compact(repack(CompactionMode.FORCE_BINARY_COPY));
    assertThat(Data.fileCounts(after)).containsExactly(1, 1, 1);
    assertThat(after.manifest().fragments().get(1).overlays()).isEqualTo(overlays);
    assertThat(Data.rows(after)).isEqualTo(before);
    assertThat(after.countRows("a < 0")).isEqualTo(ds.countRows("a < 0")).isPositive();
  }

  /** Rewrites a data file in place with the same rows and an extra global buffer, which zip refuses. */
  private void addGlobalBuffer(Path file) throws Exception {
    Path tmp = file.resolveSibling("tmp.lance.part");
    try (LanceFileReader r = LanceFileReader.open(file, allocator);
        VectorSchemaRoot all = r.take(LongStream.range(0, r.numRows()).toArray(), null);
        LanceFileWriter w = LanceFileWriter.create(new LocalOutputFile(tmp), r.lanceSchema(),
            WriteOptions.builder().version(r.version()).build())) {
      w.write(all);
      w.addGlobalBuffer(ByteBuffer.wrap(new byte[] {1, 2, 3}));
    }
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
  }

  private Path fileOf(Dataset ds, int fragment, String column) {
    int id = ds.schema().field(column).orElseThrow().id();
    DataFile d = ds.manifest().fragments().get(fragment).files().stream().filter(f -> f.fields().contains(id))
        .findFirst().orElseThrow();
    return dir.resolve("ds").resolve("data").resolve(d.path());
  }

  @Test
  void tryFallsBackToReencodingAndForceRefuses() throws Exception {
    Dataset ds = backfilled(LanceFileVersion.V2_1);
    List<List<String>> before = Data.rows(ds);
    Path b = fileOf(ds, 1, "b");
    addGlobalBuffer(b);
    long files = dataFilesOnDisk();
    String why = "Binary zip needs files whose only global buffer is the schema, this one has 2 (encodings may "
        + "refer to the others by index, which would collide with other files' in one file): ";
    assertThatThrownBy(() -> ds.compact(repack(CompactionMode.FORCE_BINARY_COPY)))
        .isInstanceOf(CompactionException.class)
        .hasMessageStartingWith("The columns of fragment 1 cannot be binary copied (" + why)
        .hasMessageEndingWith(") and the mode is FORCE_BINARY_COPY: " + ds.location());
    assertThat(dataFilesOnDisk()).isEqualTo(files); // what the failed run wrote is gone
    assertThat(Dataset.open(dir.resolve("ds"), allocator).version()).isEqualTo(ds.version());
    assertThat(logged()).isEmpty();

    Dataset after = ds.compact(repack(CompactionMode.TRY_BINARY_COPY));
    assertThat(Data.fileCounts(after)).containsExactly(1, 1, 1);
    assertThat(Data.rows(after)).isEqualTo(before);
    assertThat(logged()).hasSize(1);
    assertThat(logged().get(0)).startsWith("Repack of fragment 1 re-encodes: its columns cannot be binary copied ("
        + why).endsWith("): " + ds.location());
  }
}
