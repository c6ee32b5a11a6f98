package dev.javelin.table;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.table.proto.TableProtos;
import dev.javelin.table.proto.TransactionProtos;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

class ManifestBuilderUpdateTest {
  private static TableProtos.DataFragment frag(long id, String file, int... fields) {
    TableProtos.DataFile.Builder d = TableProtos.DataFile.newBuilder().setPath(file)
        .setFileMajorVersion(2).setFileMinorVersion(1);
    for (int i = 0; i < fields.length; i++) {
      d.addFields(fields[i]).addColumnIndices(i);
    }
    return TableProtos.DataFragment.newBuilder().setId(id).setPhysicalRows(10).addFiles(d).build();
  }

  private static ByteString bitmap(int... ids) {
    RoaringBitmap b = RoaringBitmap.bitmapOf(ids);
    ByteBuffer buf = ByteBuffer.allocate(b.serializedSizeInBytes());
    b.serialize(buf);
    return ByteString.copyFrom(buf.array());
  }

  private static RoaringBitmap read(ByteString bytes) throws Exception {
    RoaringBitmap b = new RoaringBitmap();
    b.deserialize(bytes.asReadOnlyByteBuffer());
    return b;
  }

  private static Manifest current() {
    TableProtos.Manifest p = TableProtos.Manifest.newBuilder().setVersion(4)
        .setDataFormat(TableProtos.Manifest.DataStorageFormat.newBuilder().setFileFormat("lance").setVersion("2.1"))
        .addFragments(frag(0, "f0", 0, 1)).addFragments(frag(1, "f1", 0, 1)).addFragments(frag(2, "f2", 0, 1))
        .setMaxFragmentId(5)
        .build();
    List<TableProtos.IndexMetadata> indices = List.of(
        TableProtos.IndexMetadata.newBuilder().setName("on_b").addFields(1).setFragmentBitmap(bitmap(0, 1, 2)).build(),
        TableProtos.IndexMetadata.newBuilder().setName("on_a").addFields(0).setFragmentBitmap(bitmap(0, 1, 2)).build());
    return new Manifest(p, IndexMetadata.fromProtos(indices), null);
  }

  @Test
  void rewriteRowsReplacesUpdatedDropsRemovedAndNumbersNewFragmentsAfterTheHighWaterMark() {
    TableProtos.DataFragment withDeletions = frag(1, "f1", 0, 1).toBuilder()
        .setDeletionFile(TableProtos.DeletionFile.newBuilder().setNumDeletedRows(3).setId(9)).build();
    Transaction txn = Transaction.update(4, List.of(Fragment.fromProto(withDeletions)), List.of(2L),
        List.of(Fragment.fromProto(frag(0, "new", 0, 1))), List.of(), List.of(1),
        TransactionProtos.Transaction.UpdateMode.REWRITE_ROWS);
    Manifest next = ManifestBuilder.build(txn, current(), 5, LanceFileVersion.V2_1, Instant.EPOCH, "mem");
    assertThat(next.fragments()).extracting(Fragment::id).containsExactly(0L, 1L, 6L);
    assertThat(next.fragments().get(1).liveRows()).isEqualTo(7);
    assertThat(next.fragments().get(2).files().get(0).path()).isEqualTo("new");
    assertThat(next.proto().getMaxFragmentId()).isEqualTo(6);
    assertThat(next.indices()).isEqualTo(current().indices());
    assertThat(next.readerFeatureFlags() & FeatureFlags.DELETION_FILES).isNotZero();
  }

  @Test
  void rewriteColumnsPrunesUpdatedFragmentsFromIndicesOnTheModifiedFields() throws Exception {
    TableProtos.DataFragment rewritten = frag(1, "f1", 0, DataFile.TOMBSTONE).toBuilder()
        .addFiles(frag(1, "cols", 1).getFiles(0)).build();
    Transaction txn = Transaction.update(4, List.of(Fragment.fromProto(rewritten)), List.of(), List.of(),
        List.of(1), List.of(), TransactionProtos.Transaction.UpdateMode.REWRITE_COLUMNS);
    Manifest next = ManifestBuilder.build(txn, current(), 5, LanceFileVersion.V2_1, Instant.EPOCH, "mem");
    assertThat(next.fragments()).extracting(Fragment::id).containsExactly(0L, 1L, 2L);
    assertThat(next.fragments().get(1).files()).hasSize(2);
    assertThat(read(next.indices().get(0).proto().getFragmentBitmap()).toArray()).containsExactly(0, 2);
    assertThat(read(next.indices().get(1).proto().getFragmentBitmap()).toArray()).containsExactly(0, 1, 2);
  }
}
