package dev.javelin.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import dev.javelin.table.exceptions.CorruptManifestException;
import dev.javelin.table.proto.TableProtos;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

/** Each inconsistency the validator catches, named with the version and file; and its cost. */
class ManifestValidatorTest extends TableTestBase {
  private static final String FILE = "/data/ds/" + ManifestNaming.V2.key(2);

  // Version 2: fragments 0 and 1 (10 rows each, fields 0-2 in one file), fragment 1 deleting 3
  // rows, and a BTree index on field 0 covering both.
  private TableProtos.Manifest base;

  private TableProtos.Manifest base() throws Exception {
    if (base != null) {
      return base;
    }
    create(fragment(10));
    Manifest v2 = append(1, fragment(10));
    TableProtos.Manifest.Builder m = v2.proto().toBuilder();
    m.getFragmentsBuilder(1).setDeletionFile(TableProtos.DeletionFile.newBuilder().setReadVersion(1).setId(7)
        .setNumDeletedRows(3));
    base = m.build();
    return base;
  }

  private static TableProtos.IndexMetadata index(String name, int field, int... fragments) {
    UUID u = UUID.randomUUID();
    return TableProtos.IndexMetadata.newBuilder().setName(name).addFields(field)
        .setUuid(TableProtos.UUID.newBuilder().setUuid(IndexUuids.toBytes(u.toString())))
        .setFragmentBitmap(IndexBitmaps.write(RoaringBitmap.bitmapOf(fragments))).build();
  }

  private static Manifest decode(TableProtos.Manifest proto, List<TableProtos.IndexMetadata> indices) {
    return ManifestFiles.decode(ManifestFiles.encode(new Manifest(proto, IndexMetadata.fromProtos(indices), null)),
        FILE);
  }

  private void assertInvalid(UnaryOperator<TableProtos.Manifest.Builder> damage,
      List<TableProtos.IndexMetadata> indices, String what) throws Exception {
    TableProtos.Manifest damaged = damage.apply(base().toBuilder()).build();
    assertThatThrownBy(() -> decode(damaged, indices)).isInstanceOf(CorruptManifestException.class)
        .hasMessage("Manifest of version 2 is inconsistent: " + what + ": " + FILE);
  }

  private void assertInvalid(UnaryOperator<TableProtos.Manifest.Builder> damage, String what) throws Exception {
    assertInvalid(damage, List.of(), what);
  }

  private static TableProtos.DataFile.Builder file(TableProtos.Manifest.Builder m, int fragment) {
    return m.getFragmentsBuilder(fragment).getFilesBuilder(0);
  }

  @Test
  void anIntactManifestPasses() throws Exception {
    TableProtos.Manifest m = base();
    // A retired fragment id (0 after a rewrite to fragment 2, say) may stay in an index's bitmap.
    Manifest read = decode(m.toBuilder().setMaxFragmentId(2).build(), List.of(index("by_id", 0, 0, 1, 2)));
    assertThat(read.fragments()).hasSize(2);
    // System entries' bitmaps are provenance, and may name any id.
    decode(m, List.of(index("__lance_stable_partition", 0, 0, 1, 99)));
  }

  @Test
  void versionAndFragmentIds() throws Exception {
    assertInvalid(m -> m.setVersion(3), "the file holds version 3 but is named for version 2");
    assertInvalid(m -> m.setFragments(1, m.getFragments(1).toBuilder().setId(0)), "fragment 0 appears twice");
    assertInvalid(m -> m.setFragments(0, m.getFragments(0).toBuilder().setId(5)).setMaxFragmentId(7),
        "fragment 1 comes after fragment 5 (fragments must be in ascending id order)");
    assertInvalid(m -> m.setMaxFragmentId(0), "fragment 1 is above max_fragment_id 0");
    assertInvalid(m -> m.setFragments(0, m.getFragments(0).toBuilder().clearFiles()), "fragment 0 has no data file");
    assertInvalid(m -> m.setFragments(0, m.getFragments(0).toBuilder().setPhysicalRows(0)),
        "fragment 0 has 0 physical rows");
    assertInvalid(m -> {
      m.getFragmentsBuilder(1).getDeletionFileBuilder().setNumDeletedRows(11);
      return m;
    }, "fragment 1 deletes 11 rows but has only 10");
  }

  @Test
  void fieldsAndColumnsOfDataFiles() throws Exception {
    String f0 = "fragment 0, data file " + base().getFragments(0).getFiles(0).getPath();
    assertInvalid(m -> {
      file(m, 0).setFields(1, -3);
      return m;
    }, f0 + " holds field id -3");
    // An id the schema lacks is a column Lance dropped (it leaves the data files as they are).
    TableProtos.Manifest.Builder droppedByLance = base().toBuilder();
    file(droppedByLance, 0).setFields(1, 9);
    decode(droppedByLance.build(), List.of());
    assertInvalid(m -> {
      file(m, 0).addFields(2);
      return m;
    }, f0 + " lists 4 fields but 3 column indices");
    assertInvalid(m -> {
      file(m, 0).setColumnIndices(2, 3);
      return m;
    }, f0 + " puts field 's' (id 2) in column 3, outside 0..2");
    assertInvalid(m -> {
      file(m, 0).setColumnIndices(2, 1);
      return m;
    }, f0 + " puts two fields in column 1");
    assertInvalid(m -> {
      file(m, 0).setFields(2, 1);
      return m;
    }, f0 + " holds field 'x' (id 1), which another file of the fragment (or this one) already holds");
    assertInvalid(m -> {
      m.getFragmentsBuilder(0).addFiles(file(m, 0).build().toBuilder().setPath("other.lance").clearFields()
          .clearColumnIndices().addFields(0).addColumnIndices(0));
      return m;
    }, "fragment 0, data file other.lance holds field 'id' (id 0), which another file of the fragment (or this one) "
        + "already holds");
    assertInvalid(m -> {
      file(m, 0).clearFields().clearColumnIndices();
      return m;
    }, f0 + " holds no field");
    // A dropped field (tombstoned) need not be held; a non-nullable one must be.
    TableProtos.Manifest.Builder dropped = base().toBuilder();
    file(dropped, 0).setFields(0, DataFile.TOMBSTONE);
    decode(dropped.build(), List.of());
    assertInvalid(m -> {
      file(m, 1).setFields(0, DataFile.TOMBSTONE);
      m.setFields(0, m.getFields(0).toBuilder().setNullable(false));
      return m;
    }, "fragment 1 has no data file holding the non-nullable field 'id' (id 0)");
  }

  @Test
  void indices() throws Exception {
    assertInvalid(m -> m, List.of(index("by_id", 0, 0, 3)),
        "index 'by_id' covers fragment 3, an id never handed out (the highest is 1)");
    assertInvalid(m -> m, List.of(index("by_id", 7, 0)), "index 'by_id' indexes field id 7, which the schema does not have");
    assertInvalid(m -> m, List.of(index("by_id", 0, 0), index("by_id", 0, 0, 1)),
        "index 'by_id' has deltas that both cover fragments {0}");
    TableProtos.IndexMetadata one = index("a", 0, 0);
    assertInvalid(m -> m, List.of(one, one.toBuilder().setName("b").build()),
        "index 'b' has the uuid " + Cleanup.uuid(one.getUuid().getUuid().toByteArray()) + " of another index");
    assertInvalid(m -> m, List.of(one.toBuilder().setFragmentBitmap(ByteString.copyFromUtf8("nonsense")).build()),
        "index 'a' has a fragment bitmap that does not parse");
  }

  @Test
  void aManifestOfManyFragmentsIsValidatedInLinearTime() throws Exception {
    TableProtos.Manifest one = base();
    TableProtos.Manifest.Builder many = one.toBuilder().clearFragments().setMaxFragmentId(19_999);
    List<Integer> covered = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      many.addFragments(one.getFragments(i % 2).toBuilder().setId(i)
          .setFiles(0, one.getFragments(0).getFiles(0).toBuilder().setPath(i + ".lance")));
      covered.add(i);
    }
    byte[] bytes = ManifestFiles.encode(new Manifest(many.build(),
        List.of(IndexMetadata.fromProto(index("by_id", 0, covered.stream().mapToInt(Integer::intValue).toArray()))),
        null));
    ManifestFiles.decode(bytes, FILE); // warm up
    long start = System.nanoTime();
    Manifest m = ManifestFiles.decode(bytes, FILE);
    long micros = (System.nanoTime() - start) / 1000;
    assertThat(m.fragments()).hasSize(20_000);
    // Parsing and validating take some microseconds per fragment; "well under a millisecond" with room for a busy machine.
    assertThat(micros / 20_000.0).as("microseconds per fragment").isLessThan(100);
  }
}
