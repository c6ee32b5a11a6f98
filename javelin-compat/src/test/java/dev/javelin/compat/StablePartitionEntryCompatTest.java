package dev.javelin.compat;

import static dev.javelin.compat.DatasetCompatSupport.batches;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import dev.javelin.compat.LanceToleranceChecks.EntryState;
import dev.javelin.compat.LanceToleranceChecks.Kind;
import dev.javelin.compat.LanceToleranceChecks.Op;
import dev.javelin.compat.LanceToleranceChecks.Outcome;
import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.index.IndexType;
import dev.javelin.io.LocalObjectStore;
import dev.javelin.table.IndexMetadata;
import dev.javelin.table.Manifest;
import dev.javelin.table.Table;
import dev.javelin.table.Transaction;
import dev.javelin.table.proto.TableProtos;
import dev.javelin.testing.TestAllocator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.RoaringBitmap;

/**
 * What lance-core 7.0.0 does with a {@code __lance_stable_partition} index entry, operation by
 * operation, each in a child JVM (a panic aborts the JVM). The entry is hand-made here by
 * {@link #entry}; {@link LanceToleranceChecks} runs the operations and can be pointed at any dataset.
 *
 * <p>{@link StablePartitionExplorer} (a main program, not a test) tries every candidate shape and
 * writes the findings table. The asserted tests pin the outcomes of {@link #RECOMMENDED} and of the
 * naive shape.
 */
class StablePartitionEntryCompatTest {
  static final String ENTRY_NAME = "__lance_stable_partition";

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  /**
   * A candidate shape of the entry: the details' type URL and payload, the field ids, and the
   * {@code index_version} (null leaves it unset).
   */
  record Shape(String label, String typeUrl, ByteString payload, List<Integer> fields, Integer indexVersion) {}

  /** The details Javelin means to store: one transition, hand-encoded as the design's StablePartitionDetails. */
  static ByteString ownPayload(long datasetVersion, long[] sourceIds, long rowsPerSource, long[] destinations,
      String rowMapPath) {
    try {
      ByteArrayOutputStream transition = new ByteArrayOutputStream();
      CodedOutputStream t = CodedOutputStream.newInstance(transition);
      t.writeUInt64(1, datasetVersion);
      for (long id : sourceIds) {
        t.writeMessage(2, TableProtos.FragmentReuseIndexDetails.FragmentDigest.newBuilder().setId(id)
            .setPhysicalRows(rowsPerSource).build());
      }
      for (long d : destinations) {
        t.writeUInt64(3, d);
      }
      t.writeString(4, rowMapPath);
      t.flush();
      ByteArrayOutputStream inline = new ByteArrayOutputStream();
      CodedOutputStream i = CodedOutputStream.newInstance(inline);
      i.writeByteArray(1, transition.toByteArray());
      i.flush();
      ByteArrayOutputStream details = new ByteArrayOutputStream();
      CodedOutputStream d = CodedOutputStream.newInstance(details);
      d.writeByteArray(1, inline.toByteArray());
      d.flush();
      return ByteString.copyFrom(details.toByteArray());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The entry of {@code shape} with fragment bitmap {@code fragmentIds}, made at {@code datasetVersion}. */
  static IndexMetadata entry(Shape shape, String uuid, long datasetVersion, long... fragmentIds) {
    RoaringBitmap bitmap = new RoaringBitmap();
    for (long id : fragmentIds) {
      bitmap.add((int) id);
    }
    IndexMetadata.Builder b = IndexMetadata.builder()
        .uuid(uuid)
        .name(ENTRY_NAME)
        .fields(shape.fields())
        .datasetVersion(datasetVersion)
        .fragmentBitmap(bitmap)
        .details(new IndexMetadata.Details(shape.typeUrl(), shape.payload()));
    if (shape.indexVersion() != null) {
      b.indexVersion(shape.indexVersion());
    }
    return b.build();
  }

  /**
   * Writes a dataset with Javelin: 1,200 rows in 6 fragments of 200, a BTree {@code id_idx} on id,
   * rows id < 400 deleted (retiring fragments 0 and 1); then commits the entry of {@code shape} (bitmap
   * {@code bitmapIds}) as a CreateIndex, with a stand-in row map and spilled details file under
   * {@code _indices/}. Returns the target to check.
   */
  LanceToleranceChecks.Target datasetWithEntry(Path path, Shape shape, long... bitmapIds) throws IOException {
    List<VectorSchemaRoot> data = batches(allocator, 0, 1200, 200);
    Dataset ds;
    try {
      ds = Dataset.create(path, data, WriteParams.builder().fileVersion(LanceFileVersion.V2_1).maxRowsPerFile(200)
          .build(), allocator);
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
    ds = ds.createIndex("id", IndexType.BTREE).delete("id < 400");
    assertThat(ds.manifest().fragments()).extracting(f -> f.id()).containsExactly(2L, 3L, 4L, 5L);
    long oldVersion = ds.version();
    String entryUuid = UUID.randomUUID().toString();
    String rowMap = "_indices/" + UUID.randomUUID() + "/row_map.lance";
    String spilled = "_indices/" + entryUuid + "/details.binpb";
    for (String f : List.of(rowMap, spilled)) {
      Files.createDirectories(path.resolve(f).getParent());
      Files.write(path.resolve(f), new byte[] {1, 2, 3});
    }
    Table table = Table.at(new LocalObjectStore(path));
    Manifest m = table.newCommit(Transaction.createIndex(oldVersion,
        List.of(entry(shape, entryUuid, oldVersion, bitmapIds)), List.of())).commit();
    return new LanceToleranceChecks.Target(path, ENTRY_NAME, "id_idx", "id >= 500 AND id < 650", oldVersion,
        m.version(), List.of(rowMap, spilled));
  }

  static final ByteString OWN = ownPayload(3, new long[] {0, 1}, 200, new long[] {6}, "_indices/x/row_map.lance");
  static final String OWN_URL = "/lance.table.StablePartitionDetails";

  static final List<Shape> SHAPES = List.of(
      new Shape("naive: own URL, no fields, index_version unset", OWN_URL, OWN, List.of(), null),
      new Shape("own URL, index_version 2^31-1", OWN_URL, OWN, List.of(), Integer.MAX_VALUE),
      new Shape("FragmentReuseIndexDetails URL, own payload", "/lance.table.FragmentReuseIndexDetails", OWN,
          List.of(), null),
      new Shape("FragmentReuseIndexDetails URL and payload", "/lance.table.FragmentReuseIndexDetails",
          TableProtos.FragmentReuseIndexDetails.newBuilder().setInline(
              TableProtos.FragmentReuseIndexDetails.InlineContent.getDefaultInstance()).build().toByteString(),
          List.of(), null),
      new Shape("empty Any", "", ByteString.EMPTY, List.of(), null),
      new Shape("BTreeIndexDetails URL, own payload, index_version 0", "/lance.index.pb.BTreeIndexDetails", OWN,
          List.of(), 0),
      new Shape("BTreeIndexDetails URL, own payload, index_version 2^31-1", "/lance.index.pb.BTreeIndexDetails",
          OWN, List.of(), Integer.MAX_VALUE),
      new Shape("own URL, fields [0] (id)", OWN_URL, OWN, List.of(0), null),
      new Shape("own URL, fields [-1]", OWN_URL, OWN, List.of(-1), null),
      new Shape("own URL, fields [2^31-1]", OWN_URL, OWN, List.of(Integer.MAX_VALUE), null),
      new Shape("BTreeIndexDetails URL, own payload, fields [0], index_version 0", "/lance.index.pb.BTreeIndexDetails",
          OWN, List.of(0), 0),
      new Shape("own URL, fields [3] (list column)", OWN_URL, OWN, List.of(3), null),
      new Shape("BTreeIndexDetails URL, own payload, fields [3] (list column), index_version 0",
          "/lance.index.pb.BTreeIndexDetails", OWN, List.of(3), 0),
      new Shape("VectorIndexDetails URL, own payload, fields [0], index_version 0", "/lance.table.VectorIndexDetails",
          OWN, List.of(0), 0));

  /**
   * The shape chosen from the exploration: Javelin's own details type URL (lance-core finds no plugin
   * for it, so it never opens the entry), one field id that exists (an entry without fields makes
   * optimize, statistics and compaction remaps index {@code fields[0]} and panic; a missing field id
   * makes optimize fail for every index and delete/add-columns drop the entry), and index_version 0
   * explicit (lance-core writes an unset one back as 0).
   */
  static final Shape RECOMMENDED = new Shape("recommended: own URL, fields [0], index_version 0", OWN_URL, OWN,
      List.of(0), 0);

  // What lance-core 7.0.0 writes back into a carried entry: index_version made explicit, and its
  // list of the entry's files under _indices/<uuid>/ (field 10: here details.binpb, 3 bytes).
  private static final String FILES_FIELD = "files []->[details.binpb (3 bytes)]";

  @Test
  void recommendedShapeIsToleratedByEveryOperation() throws IOException {
    LanceToleranceChecks.Target t = datasetWithEntry(dir.resolve("ds"), RECOMMENDED, 0, 1);
    Map<Op, Outcome> out = LanceToleranceChecks.run(t, Arrays.asList(Op.values()), dir.resolve("work"));
    assertThat(out.values()).allSatisfy(o -> assertThat(o.kind()).as(o.toString()).isNotEqualTo(Kind.ABORTED));
    // describeIndices fails as a whole (no plugin for the type URL), and so do statistics on the entry:
    // typed errors, nothing aborts. No shape tried makes describeIndices work while lance-core keeps the
    // entry and never opens it.
    for (Op op : List.of(Op.DESCRIBE, Op.STATS_ENTRY)) {
      assertThat(out.get(op).kind()).as(op.name()).isEqualTo(Kind.ERROR);
      assertThat(out.get(op).message()).as(op.name())
          .contains("No scalar index plugin found for name 'stablepartitiondetails'");
    }
    for (Op op : Op.values()) {
      if (op != Op.DESCRIBE && op != Op.STATS_ENTRY) {
        assertThat(out.get(op).kind()).as(out.get(op).toString()).isEqualTo(Kind.OK);
      }
    }
    assertThat(out.get(Op.SCAN).message()).startsWith("rows=800;");
    assertThat(out.get(Op.INDEXED_COUNT).message()).startsWith("rows=150 count=150;");
    assertThat(out.get(Op.LIST_INDEXES).message()).startsWith("indexes=[__lance_stable_partition, id_idx];");
    assertThat(out.get(Op.CHECKOUT_OLD).message()).startsWith("old rows=800 indexes=[id_idx];");
    // Read-only operations leave the entry alone; every lance-core commit carries it, adding only its
    // list of the files under _indices/<entry uuid>/ (field 10).
    for (Op op : List.of(Op.SCAN, Op.INDEXED_COUNT, Op.LIST_INDEXES, Op.DESCRIBE, Op.STATS_ENTRY, Op.STATS_REAL,
        Op.OPTIMIZE, Op.CLEANUP, Op.CHECKOUT_OLD)) {
      assertThat(out.get(op).entry()).as(op.name()).isEqualTo(EntryState.CARRIED);
    }
    assertThat(out.get(Op.STALE_DELETE).message()).endsWith("latest v5 rows=720");
    for (Op op : List.of(Op.DROP_INDEX_COUNT, Op.OPTIMIZE_AFTER_APPEND, Op.APPEND, Op.DELETE, Op.ADD_COLUMNS,
        Op.DROP_COLUMN, Op.CREATE_INDEX, Op.COMPACT, Op.STALE_DELETE, Op.RESTORE)) {
      assertThat(out.get(op).entry()).as(op.name()).isEqualTo(EntryState.CHANGED);
      assertThat(out.get(op).entryChange()).as(op.name()).isEqualTo(FILES_FIELD);
    }
    // Dropping the column the entry names drops the entry (the degrade path: indices no longer cover
    // the destinations, so readers scan them).
    assertThat(out.get(Op.DROP_ID_COLUMN).entry()).isEqualTo(EntryState.DROPPED);
    // lance-core's cleanup keeps what lies under the entry's own uuid, but deletes a row map kept under
    // a directory named by any other uuid.
    assertThat(out.get(Op.CLEANUP).missingFiles()).containsExactly(t.watchedFiles().get(0));
    assertThat(t.watchedFiles().get(0)).endsWith("/row_map.lance");
  }

  @Test
  void recommendedShapeSurvivesACompactionOfFragmentsInItsBitmap() throws IOException {
    // Javelin's bitmaps name retired ids only; this is the margin if a live id ever got in. (Two live
    // ids: compaction only merges neighbours with the same index coverage.)
    LanceToleranceChecks.Target t = datasetWithEntry(dir.resolve("ds"), RECOMMENDED, 0, 1, 2, 3);
    Map<Op, Outcome> out = LanceToleranceChecks.run(t, List.of(Op.INDEXED_COUNT, Op.DROP_INDEX_COUNT, Op.COMPACT),
        dir.resolve("work"));
    assertThat(out.values()).allSatisfy(o -> assertThat(o.kind()).as(o.toString()).isEqualTo(Kind.OK));
    assertThat(out.get(Op.INDEXED_COUNT).message()).startsWith("rows=150 count=150;");
    // With the real index gone, lance-core does not try to answer the filter from the entry.
    assertThat(out.get(Op.DROP_INDEX_COUNT).message()).startsWith("rows=150 comparisons=0;");
    // The remap leaves the entry as it was (its bitmap still names the rewritten fragments).
    assertThat(out.get(Op.COMPACT).entryChange()).isEqualTo(FILES_FIELD);
    assertThat(out.get(Op.COMPACT).message()).isEqualTo("compacted; latest v6 rows=800");
  }

  @Test
  void naiveShapeAbortsLanceCore() throws IOException {
    LanceToleranceChecks.Target t = datasetWithEntry(dir.resolve("ds"), SHAPES.get(0), 0, 1);
    Map<Op, Outcome> out = LanceToleranceChecks.run(t, List.of(Op.SCAN, Op.DESCRIBE, Op.STATS_ENTRY, Op.OPTIMIZE,
        Op.APPEND), dir.resolve("work"));
    assertThat(out.get(Op.SCAN).kind()).isEqualTo(Kind.OK);
    assertThat(out.get(Op.DESCRIBE).kind()).isEqualTo(Kind.ERROR);
    assertThat(out.get(Op.DESCRIBE).message()).contains("No scalar index plugin found for name 'stablepartitiondetails'");
    assertThat(out.get(Op.STATS_ENTRY).kind()).isEqualTo(Kind.ABORTED);
    assertThat(out.get(Op.STATS_ENTRY).message()).contains("index out of bounds: the len is 0 but the index is 0");
    assertThat(out.get(Op.OPTIMIZE).kind()).isEqualTo(Kind.ABORTED);
    assertThat(out.get(Op.OPTIMIZE).message()).contains("append.rs").contains("index out of bounds");
    assertThat(out.get(Op.APPEND).kind()).isEqualTo(Kind.OK);
    assertThat(out.get(Op.APPEND).entryChange()).isEqualTo("index_version unset->0, " + FILES_FIELD);
  }
}
