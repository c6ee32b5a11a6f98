package dev.javelin.compat;

import static dev.javelin.compat.DatasetCompatSupport.batches;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import dev.javelin.compat.LanceToleranceChecks.Op;
import dev.javelin.compat.LanceToleranceChecks.Outcome;
import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.index.IndexType;
import dev.javelin.table.IndexBitmaps;
import dev.javelin.table.IndexUuids;
import dev.javelin.table.Manifest;
import dev.javelin.table.Table;
import dev.javelin.table.Transaction;
import dev.javelin.table.io.LocalObjectStore;
import dev.javelin.table.proto.TableProtos;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.RoaringBitmap;

/**
 * What lance-core 7.0.0 does with a {@code __lance_stable_partition} index entry, operation by
 * operation, each in a child JVM (a panic aborts the JVM). The entry is hand-made here by
 * {@link #entry}; {@link LanceToleranceChecks} runs the operations and can be pointed at any dataset.
 *
 * <p>{@link #explore} (run with {@code -Dspcompat.explore=true}) tries every candidate shape and writes
 * the findings table to {@code target/stable-partition-compat.md}.
 */
class StablePartitionEntryCompatTest {
  static final String ENTRY_NAME = "__lance_stable_partition";

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
  static TableProtos.IndexMetadata entry(Shape shape, String uuid, long datasetVersion, long... fragmentIds) {
    RoaringBitmap bitmap = new RoaringBitmap();
    for (long id : fragmentIds) {
      bitmap.add((int) id);
    }
    TableProtos.IndexMetadata.Builder b = TableProtos.IndexMetadata.newBuilder()
        .setUuid(TableProtos.UUID.newBuilder().setUuid(IndexUuids.toBytes(uuid)))
        .setName(ENTRY_NAME)
        .addAllFields(shape.fields())
        .setDatasetVersion(datasetVersion)
        .setFragmentBitmap(IndexBitmaps.write(bitmap))
        .setIndexDetails(Any.newBuilder().setTypeUrl(shape.typeUrl()).setValue(shape.payload()));
    if (shape.indexVersion() != null) {
      b.setIndexVersion(shape.indexVersion());
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
    ds = ds.createIndex("id", IndexType.BTREE, null, false).delete("id < 400");
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

  @Test
  @EnabledIfSystemProperty(named = "spcompat.explore", matches = "true")
  void explore() throws IOException {
    List<Op> ops = Arrays.asList(Op.values());
    StringBuilder md = new StringBuilder("| shape | bitmap |");
    ops.forEach(o -> md.append(' ').append(o).append(" |"));
    md.append("\n|---|---|").append("---|".repeat(ops.size())).append('\n');
    int n = 0;
    List<Object[]> runs = new ArrayList<>();
    for (Shape s : SHAPES) {
      runs.add(new Object[] {s, new long[] {0, 1}});
    }
    // Not what Javelin writes (its bitmaps name retired ids only): what a live id would do.
    // (Two live ids: compaction's planner only merges neighbours with the same index coverage.)
    for (int k : new int[] {0, 7, 10}) {
      runs.add(new Object[] {SHAPES.get(k), new long[] {0, 1, 2, 3}});
    }
    String only = System.getProperty("spcompat.only");
    for (Object[] run : runs) {
      Shape s = (Shape) run[0];
      if (only != null && !s.label().matches(only)) {
        continue;
      }
      long[] bitmap = (long[]) run[1];
      Path base = dir.resolve("v" + n++);
      LanceToleranceChecks.Target t = datasetWithEntry(base.resolve("ds"), s, bitmap);
      Map<Op, Outcome> out = LanceToleranceChecks.run(t, ops, base.resolve("work"));
      md.append("| ").append(s.label()).append(" | ").append(Arrays.toString(bitmap)).append(" |");
      for (Op o : ops) {
        md.append(' ').append(out.get(o).cell()).append(" |");
      }
      md.append('\n');
      StringBuilder detail = new StringBuilder("## " + s.label() + "\n");
      out.values().forEach(o -> detail.append("- ").append(o).append('\n'));
      Files.writeString(Path.of("target", "stable-partition-details.md"), detail.toString(),
          java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
      System.out.println(md);
      Files.writeString(Path.of("target", "stable-partition-compat.md"), md.toString());
    }
  }
}
