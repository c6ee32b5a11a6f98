package dev.javelin.table.rowids;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import dev.javelin.io.LocalObjectStore;
import dev.javelin.table.Fragment;
import dev.javelin.table.exceptions.CorruptManifestException;
import dev.javelin.table.proto.TableProtos;
import java.nio.file.Path;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FragmentRowIdsTest {
  @TempDir Path dir;

  @Test
  void readsInlineAndExternalSequences() throws Exception {
    LocalObjectStore store = new LocalObjectStore(dir);
    RowIdSequence ids = RowIdSequence.ofValues(LongStream.range(0, 500).map(v -> v * 5 + 1).toArray());
    RowVersionSequence created = RowVersionSequence.uniform(500, 3);
    RowVersionSequence updated = RowVersionSequence.uniform(500, 4);
    // Three regions of one file, each after some other bytes.
    byte[] a = ids.toBytes();
    byte[] b = created.toBytes();
    byte[] c = updated.toBytes();
    byte[] file = new byte[7 + a.length + b.length + c.length];
    System.arraycopy(a, 0, file, 7, a.length);
    System.arraycopy(b, 0, file, 7 + a.length, b.length);
    System.arraycopy(c, 0, file, 7 + a.length + b.length, c.length);
    store.put("_rowids/f.bin", file);
    Fragment external = Fragment.fromProto(TableProtos.DataFragment.newBuilder().setId(4).setPhysicalRows(500)
        .setExternalRowIds(ext(7, a.length))
        .setExternalCreatedAtVersions(ext(7 + a.length, b.length))
        .setExternalLastUpdatedAtVersions(ext(7 + a.length + b.length, c.length)).build());
    assertThat(external.rowIdSequence(store)).contains(ids);
    assertThat(external.createdAtVersions(store)).contains(created);
    assertThat(external.lastUpdatedAtVersions(store)).contains(updated);

    Fragment inline = Fragment.fromProto(TableProtos.DataFragment.newBuilder().setId(4).setPhysicalRows(500)
        .setInlineRowIds(ByteString.copyFrom(a)).setInlineCreatedAtVersions(ByteString.copyFrom(b))
        .setInlineLastUpdatedAtVersions(ByteString.copyFrom(c)).build());
    assertThat(inline.rowIdSequence(store)).contains(ids);
    assertThat(inline.createdAtVersions(store)).contains(created);
    assertThat(inline.lastUpdatedAtVersions(store)).contains(updated);

    Fragment none = Fragment.fromProto(TableProtos.DataFragment.newBuilder().setPhysicalRows(500).build());
    assertThat(none.rowIdSequence(store)).isEmpty();
    assertThat(none.createdAtVersions(store)).isEmpty();
    assertThat(none.lastUpdatedAtVersions(store)).isEmpty();
  }

  private static TableProtos.ExternalFile ext(long offset, long size) {
    return TableProtos.ExternalFile.newBuilder().setPath("_rowids/f.bin").setOffset(offset).setSize(size).build();
  }

  @Test
  void badSequencesNameTheFragment() {
    LocalObjectStore store = new LocalObjectStore(dir);
    Fragment wrongLength = Fragment.fromProto(TableProtos.DataFragment.newBuilder().setId(2).setPhysicalRows(10)
        .setInlineRowIds(ByteString.copyFrom(RowIdSequence.range(0, 9).toBytes())).build());
    assertThatThrownBy(() -> wrongLength.rowIdSequence(store)).isInstanceOf(CorruptManifestException.class)
        .hasMessage("Fragment 2 has a row id sequence of 9 rows but 10 physical rows: " + store.location());
    Fragment garbage = Fragment.fromProto(TableProtos.DataFragment.newBuilder().setId(3).setPhysicalRows(10)
        .setInlineCreatedAtVersions(ByteString.copyFrom(new byte[] {0x0a, 0x02, 0x0a, 0x00})).build());
    assertThatThrownBy(() -> garbage.createdAtVersions(store)).isInstanceOf(CorruptManifestException.class)
        .hasMessage("Fragment 3 has a bad created-at version sequence (U64Segment has no segment): "
            + store.location());
  }
}
