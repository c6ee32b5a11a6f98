package dev.javelin.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import dev.javelin.table.exceptions.CorruptManifestException;
import dev.javelin.table.proto.TableProtos;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ManifestFilesTest extends TableTestBase {
  @Test
  void framingMatchesTheFormat() throws Exception {
    Manifest m = create(fragment(10));
    byte[] bytes = local.read(ManifestNaming.V2.key(1));
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    int t = bytes.length - 16;
    assertThat(new String(bytes, t + 12, 4, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("LANC");
    assertThat(b.getShort(t + 8)).isEqualTo((short) 0);
    assertThat(b.getShort(t + 10)).isEqualTo((short) 2);
    long pos = b.getLong(t);
    int len = b.getInt((int) pos);
    assertThat(pos + 4 + len).isEqualTo(t);
    TableProtos.Manifest proto = TableProtos.Manifest.parseFrom(Arrays.copyOfRange(bytes, (int) pos + 4, t));
    // The transaction is inline (first section here, as there are no indices) ...
    assertThat(proto.getTransactionSection()).isZero();
    assertThat(proto.hasTransactionSection()).isTrue();
    assertThat(proto.hasIndexSection()).isFalse();
    assertThat(proto.getWriterVersion().getLibrary()).isEqualTo("javelin");
    assertThat(proto.getDataFormat().getFileFormat()).isEqualTo("lance");
    assertThat(proto.getDataFormat().getVersion()).isEqualTo("2.1");
    assertThat(proto.getMaxFragmentId()).isZero();
    assertThat(proto.hasMaxFragmentId()).isTrue();
    // ... and in _transactions/{read_version}-{uuid}.txn, named by the manifest.
    assertThat(proto.getTransactionFile()).startsWith("0-").endsWith(".txn");
    assertThat(local.exists("_transactions/" + proto.getTransactionFile())).isTrue();
    assertThat(table.transaction(m)).contains(m.inlineTransaction().get());
  }

  @Test
  void roundTripKeepsIndicesAndUnknownFields() throws Exception {
    Manifest created = create(fragment(10));
    // Fields a newer writer added (here 99 on the manifest, 11 on an index entry) must survive, and
    // so must the entry's list of files (field 10, which lance-core 7.0.0 writes).
    UnknownFieldSet extra = UnknownFieldSet.newBuilder()
        .addField(99, UnknownFieldSet.Field.newBuilder().addLengthDelimited(ByteString.copyFromUtf8("future")).build())
        .build();
    IndexMetadata index = IndexMetadata.fromProto(TableProtos.IndexMetadata.newBuilder()
        .setName("idx").addFields(0).setDatasetVersion(1)
        .setUuid(TableProtos.UUID.newBuilder().setUuid(ByteString.copyFrom(new byte[16])))
        .addFiles(TableProtos.IndexFile.newBuilder().setPath("page_data.lance").setSizeBytes(123))
        .setUnknownFields(UnknownFieldSet.newBuilder()
            .addField(11, UnknownFieldSet.Field.newBuilder().addVarint(7).build()).build())
        .build());
    Manifest withExtras = new Manifest(created.proto().toBuilder().setUnknownFields(extra).build(), List.of(index),
        created.inlineTransaction().get());
    Manifest back = ManifestFiles.decode(ManifestFiles.encode(withExtras), "test");
    assertThat(back.proto().getUnknownFields().hasField(99)).isTrue();
    assertThat(back.indices()).containsExactly(index);
    assertThat(back.indices().get(0).proto().getUnknownFields().hasField(11)).isTrue();
    assertThat(back.indices().get(0).files()).containsExactly(new IndexMetadata.IndexFile("page_data.lance", 123));
    assertThat(back.inlineTransaction()).isEqualTo(created.inlineTransaction());

    // And they survive a commit built on top of it.
    replaceObject(ManifestNaming.V2.key(1), ManifestFiles.encode(withExtras));
    Manifest next = append(1, fragment(5));
    Manifest reread = table.load(next.version());
    assertThat(reread.proto().getUnknownFields().hasField(99)).isTrue();
    assertThat(reread.indices()).containsExactly(index);
  }

  @Test
  void brokenFilesNameTheFile() throws Exception {
    create(fragment(10));
    byte[] good = local.read(ManifestNaming.V2.key(1));
    byte[] noMagic = good.clone();
    noMagic[noMagic.length - 1] = 'X';
    assertThatThrownBy(() -> ManifestFiles.decode(noMagic, "f.manifest"))
        .isInstanceOf(CorruptManifestException.class).hasMessage("Manifest file does not end with LANC: f.manifest");
    byte[] badPos = good.clone();
    ByteBuffer.wrap(badPos).order(ByteOrder.LITTLE_ENDIAN).putLong(badPos.length - 16, badPos.length);
    assertThatThrownBy(() -> ManifestFiles.decode(badPos, "f.manifest"))
        .isInstanceOf(CorruptManifestException.class).hasMessageContaining("outside the file");
    assertThatThrownBy(() -> ManifestFiles.decode(new byte[3], "f.manifest"))
        .isInstanceOf(CorruptManifestException.class).hasMessageContaining("too short");
  }
}
