package dev.javelin.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.proto.FileProtos;
import dev.javelin.table.proto.TableProtos;
import dev.javelin.table.proto.TransactionProtos;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ManifestBuilderConfigTest {
  private static Manifest current() {
    TableProtos.DataFile d = TableProtos.DataFile.newBuilder().setPath("f0").setFileMajorVersion(2)
        .setFileMinorVersion(1).addFields(0).addColumnIndices(0).build();
    TableProtos.Manifest p = TableProtos.Manifest.newBuilder().setVersion(4)
        .setDataFormat(TableProtos.Manifest.DataStorageFormat.newBuilder().setFileFormat("lance").setVersion("2.1"))
        .addFields(FileProtos.Field.newBuilder().setId(0).setName("a").setLogicalType("int64"))
        .addFragments(TableProtos.DataFragment.newBuilder().setId(0).setPhysicalRows(10).addFiles(d))
        .setMaxFragmentId(3).putConfig("keep", "k").putConfig("old", "o").putConfig("change", "c1")
        .build();
    List<TableProtos.IndexMetadata> indices = List.of(TableProtos.IndexMetadata.newBuilder().setName("on_a")
        .addFields(0).build());
    return new Manifest(p, IndexMetadata.fromProtos(indices), null);
  }

  private static Manifest build(Transaction txn) {
    return ManifestBuilder.build(txn, current(), 5, LanceFileVersion.V2_1, Instant.EPOCH, "mem");
  }

  @Test
  void writesOneConfigUpdatesMapInKeyOrderAsLanceDoes() {
    Transaction t = Transaction.updateConfig(4, Map.of("z", "1", "b", "2"), Set.of("m"));
    TransactionProtos.Transaction.UpdateConfig op = t.proto().getUpdateConfig();
    assertThat(t.kind()).isEqualTo(OperationKind.UPDATE_CONFIG);
    assertThat(t.readVersion()).isEqualTo(4);
    assertThat(op.getConfigUpdates().getReplace()).isFalse();
    assertThat(op.getConfigUpdates().getUpdateEntriesList()).containsExactly(
        TransactionProtos.Transaction.UpdateMapEntry.newBuilder().setKey("b").setValue("2").build(),
        TransactionProtos.Transaction.UpdateMapEntry.newBuilder().setKey("m").build(),
        TransactionProtos.Transaction.UpdateMapEntry.newBuilder().setKey("z").setValue("1").build());
    assertThat(op.getUpsertValuesCount()).isZero();
    assertThat(op.getDeleteKeysCount()).isZero();
    assertThat(op.hasTableMetadataUpdates() || op.hasSchemaMetadataUpdates()).isFalse();
  }

  @Test
  void refusesAnEmptyUpdateAndAKeyBothSetAndRemoved() {
    assertThatThrownBy(() -> Transaction.updateConfig(1, Map.of(), Set.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("A config update sets or removes at least one key");
    assertThatThrownBy(() -> Transaction.updateConfig(1, Map.of("a", "1"), Set.of("a")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Config key 'a' is both set and removed");
  }

  @Test
  void upsertsAndDeletesConfigKeysAndChangesNothingElse() {
    Manifest before = current();
    Manifest next = build(Transaction.updateConfig(4, Map.of("change", "c2", "new", "n"), Set.of("old", "absent")));
    assertThat(next.config()).containsExactlyInAnyOrderEntriesOf(Map.of("keep", "k", "change", "c2", "new", "n"));
    assertThat(next.version()).isEqualTo(5);
    assertThat(next.proto().getFragmentsList()).isEqualTo(before.proto().getFragmentsList());
    assertThat(next.proto().getFieldsList()).isEqualTo(before.proto().getFieldsList());
    assertThat(next.proto().getMaxFragmentId()).isEqualTo(3);
    assertThat(next.indices()).isEqualTo(before.indices());
    assertThat(next.proto().getWriterFeatureFlags() & FeatureFlags.TABLE_CONFIG).isNotZero();
  }

  @Test
  void removingTheLastKeyClearsTheConfigFlag() {
    Manifest m = build(Transaction.updateConfig(4, Map.of(), Set.of("keep", "old", "change")));
    assertThat(m.config()).isEmpty();
    assertThat(m.proto().getWriterFeatureFlags() & FeatureFlags.TABLE_CONFIG).isZero();
  }

  @Test
  void appliesAReplacingMapAndTheDeprecatedFieldsOlderWritersUsed() {
    Transaction replacing = Transaction.fromProto(Transaction.updateConfig(4, Map.of("x", "1"), Set.of()).proto()
        .toBuilder().setUpdateConfig(TransactionProtos.Transaction.UpdateConfig.newBuilder().setConfigUpdates(
            TransactionProtos.Transaction.UpdateMap.newBuilder().setReplace(true).addUpdateEntries(
                TransactionProtos.Transaction.UpdateMapEntry.newBuilder().setKey("x").setValue("1")))).build());
    assertThat(build(replacing).config()).containsExactlyInAnyOrderEntriesOf(Map.of("x", "1"));
    Transaction legacy = Transaction.fromProto(replacing.proto().toBuilder().setUpdateConfig(
        TransactionProtos.Transaction.UpdateConfig.newBuilder().putUpsertValues("y", "2").addDeleteKeys("old"))
        .build());
    assertThat(build(legacy).config())
        .containsExactlyInAnyOrderEntriesOf(Map.of("keep", "k", "change", "c1", "y", "2"));
  }

  @Test
  void refusesMetadataUpdatesItCannotApply() {
    Transaction schemaMeta = Transaction.fromProto(Transaction.updateConfig(4, Map.of("x", "1"), Set.of()).proto()
        .toBuilder().setUpdateConfig(TransactionProtos.Transaction.UpdateConfig.newBuilder()
            .setSchemaMetadataUpdates(TransactionProtos.Transaction.UpdateMap.getDefaultInstance())).build());
    assertThatThrownBy(() -> build(schemaMeta))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessage("Javelin cannot commit an UpdateConfig of table, schema or field metadata yet: mem");
  }

  @Test
  void needsADataset() {
    assertThatThrownBy(() -> ManifestBuilder.build(Transaction.updateConfig(0, Map.of("x", "1"), Set.of()), null, 1,
        LanceFileVersion.V2_1, Instant.EPOCH, "mem"))
        .hasMessageContaining("mem");
  }
}
