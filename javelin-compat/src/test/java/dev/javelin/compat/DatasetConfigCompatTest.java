package dev.javelin.compat;

import static dev.javelin.compat.DatasetCompatSupport.assertSameRows;
import static dev.javelin.compat.DatasetCompatSupport.batches;
import static dev.javelin.compat.DatasetCompatSupport.expected;
import static dev.javelin.compat.DatasetCompatSupport.javelinScan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.table.Transaction;
import dev.javelin.table.exceptions.CommitConflictException;
import dev.javelin.table.proto.TransactionProtos;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.SourcedTransaction;
import org.lance.operation.UpdateConfig;
import org.lance.operation.UpdateMap;

/**
 * The config map (Lance's table config) both ways with lance-core 7.0.0: the UpdateConfig
 * transaction Javelin writes is the one lance-core writes, each reads the other's config, and
 * stale config updates of different keys from either side rebase over the other's.
 */
class DatasetConfigCompatTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private Dataset create(Path path) {
    List<VectorSchemaRoot> data = batches(allocator, 0, 300, 100);
    try {
      return Dataset.create(path, data, WriteParams.defaults(), allocator);
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
  }

  private static List<TransactionProtos.Transaction.UpdateMapEntry> sortedEntries(TransactionProtos.Transaction t) {
    return t.getUpdateConfig().getConfigUpdates().getUpdateEntriesList().stream()
        .sorted(Comparator.comparing(TransactionProtos.Transaction.UpdateMapEntry::getKey)).toList();
  }

  private long transactionFiles(Path path) throws Exception {
    try (Stream<Path> s = Files.list(path.resolve("_transactions"))) {
      return s.count();
    }
  }

  // lance-core's merging config update (its non-deprecated transaction API; the deprecated
  // Dataset.updateConfig(Map) replaces the whole map instead), committed on lance's version.
  private static void lanceMerge(org.lance.Dataset lance, Map<String, String> updates) {
    UpdateConfig op = UpdateConfig.builder()
        .configUpdates(UpdateMap.builder().updates(updates).replace(false).build()).build();
    try (SourcedTransaction txn = lance.newTransactionBuilder().operation(op).build()) {
      txn.commit().close();
    }
  }

  @Test
  void lanceCoresUpdateConfigTransactionIsTheOneJavelinWrites() {
    Path path = dir.resolve("ds");
    create(path);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.updateConfig(Map.of("b", "2", "a", "1", "c", "3"));
      lance.deleteConfigKeys(Set.of("c"));
      lanceMerge(lance, Map.of("d", "4", "b", "5"));
    }
    Dataset ds = Dataset.open(path, allocator);
    assertThat(ds.version()).isEqualTo(4);
    assertThat(ds.checkout(2).config()).containsExactlyInAnyOrderEntriesOf(Map.of("a", "1", "b", "2", "c", "3"));
    assertThat(ds.checkout(3).config()).containsExactlyInAnyOrderEntriesOf(Map.of("a", "1", "b", "2"));
    assertThat(ds.config()).containsExactlyInAnyOrderEntriesOf(Map.of("a", "1", "b", "5", "d", "4"));
    TransactionProtos.Transaction removed = ds.table().transaction(ds.checkout(3).manifest()).orElseThrow().proto();
    TransactionProtos.Transaction merged = ds.table().transaction(ds.manifest()).orElseThrow().proto();
    TransactionProtos.Transaction javelinRemoved = Transaction.updateConfig(2, Map.of(), Set.of("c")).proto();
    TransactionProtos.Transaction javelinMerged = Transaction.updateConfig(3, Map.of("d", "4", "b", "5"),
        Set.of()).proto();
    // Field by field the same operation (lance-core lists its entries in hash order, Javelin in key order).
    assertThat(removed.getUpdateConfig()).isEqualTo(javelinRemoved.getUpdateConfig());
    assertThat(sortedEntries(merged)).isEqualTo(sortedEntries(javelinMerged));
    assertThat(merged.getUpdateConfig().toBuilder().clearConfigUpdates().build())
        .isEqualTo(javelinMerged.getUpdateConfig().toBuilder().clearConfigUpdates().build());
    assertThat(merged.getUpdateConfig().getConfigUpdates().getReplace()).isFalse();
    assertThat(removed.getReadVersion()).isEqualTo(2);
    assertThat(merged.getReadVersion()).isEqualTo(3);
  }

  @Test
  void javelinReadsTheConfigLanceCoresDeprecatedUpdateReplaced() {
    Path path = dir.resolve("ds");
    create(path).updateConfig().set("javelin", "1").commit();
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.updateConfig(Map.of("lance", "1"));
    }
    Dataset ds = Dataset.open(path, allocator);
    // lance-core 7.0.0's Dataset.updateConfig(Map) writes a replacing map, whatever its javadoc says.
    TransactionProtos.Transaction replaced = ds.table().transaction(ds.manifest()).orElseThrow().proto();
    assertThat(replaced.getUpdateConfig().getConfigUpdates().getReplace()).isTrue();
    assertThat(ds.config()).containsExactlyEntriesOf(Map.of("lance", "1"));
    Dataset next = ds.updateConfig().set("javelin", "2").commit();
    assertThat(next.config()).containsExactlyInAnyOrderEntriesOf(Map.of("lance", "1", "javelin", "2"));
  }

  @Test
  void lanceCoreReadsTheConfigAndTransactionJavelinWrote() throws Exception {
    Path path = dir.resolve("ds");
    Dataset ds = create(path).updateConfig().set("owner", "ml").set("stale", "x").commit()
        .updateConfig().set("tier", "gold").remove("stale").commit();
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.version()).isEqualTo(ds.version());
      assertThat(lance.getConfig()).containsExactlyInAnyOrderEntriesOf(Map.of("owner", "ml", "tier", "gold"));
      assertThat(lance.countRows()).isEqualTo(300);
      try (org.lance.Transaction txn = lance.readTransaction().orElseThrow()) {
        assertThat(txn.readVersion()).isEqualTo(2);
        UpdateConfig op = (UpdateConfig) txn.operation();
        assertThat(op.configUpdates().replace()).isFalse();
        assertThat(op.configUpdates().updates()).containsEntry("tier", "gold").containsKey("stale")
            .hasSize(2);
        assertThat(op.configUpdates().updates().get("stale")).isNull();
      }
      try (org.lance.Dataset v2 = lance.checkoutVersion(2)) {
        assertThat(v2.getConfig()).containsExactlyInAnyOrderEntriesOf(Map.of("owner", "ml", "stale", "x"));
      }
      // lance-core builds on Javelin's version and keeps its config.
      lanceMerge(lance, Map.of("from", "lance"));
    }
    Dataset latest = Dataset.open(path, allocator);
    assertThat(latest.config()).containsExactlyInAnyOrderEntriesOf(
        Map.of("owner", "ml", "tier", "gold", "from", "lance"));
    assertSameRows(javelinScan(latest), expected(allocator, 0, 300));
  }

  @Test
  void staleUpdatesOfDifferentKeysFromBothSidesBothLand() throws Exception {
    Path path = dir.resolve("ds");
    Dataset v1 = create(path);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      // lance-core commits version 2; Javelin, still at version 1, rebases over its transaction.
      lanceMerge(lance, Map.of("lance", "1"));
      Dataset v3 = v1.updateConfig().set("javelin", "1").commit();
      assertThat(v3.version()).isEqualTo(3);
      assertThat(v3.config()).containsExactlyInAnyOrderEntriesOf(Map.of("lance", "1", "javelin", "1"));
      // lance-core, now at version 3, and Javelin commits version 4 meanwhile: lance-core rebases
      // over Javelin's transaction.
      try (org.lance.Dataset lanceV3 = lance.checkoutVersion(3)) {
        v3.updateConfig().set("javelin", "2").remove("absent").commit();
        lanceMerge(lanceV3, Map.of("lance", "2"));
      }
    }
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.version()).isEqualTo(5);
      assertThat(lance.getConfig()).containsExactlyInAnyOrderEntriesOf(Map.of("lance", "2", "javelin", "2"));
      try (org.lance.Transaction txn = lance.readTransaction().orElseThrow()) {
        assertThat(txn.readVersion()).isEqualTo(3);
      }
    }
    Dataset latest = Dataset.open(path, allocator);
    assertThat(latest.version()).isEqualTo(5);
    assertThat(latest.config()).containsExactlyInAnyOrderEntriesOf(Map.of("lance", "2", "javelin", "2"));
    assertSameRows(javelinScan(latest), expected(allocator, 0, 300));
  }

  @Test
  void staleUpdatesOfTheSameKeyConflictOnBothSides() throws Exception {
    Path path = dir.resolve("ds");
    Dataset v1 = create(path);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lanceMerge(lance, Map.of("k", "lance"));
      long txns = transactionFiles(path);
      assertThatThrownBy(() -> v1.updateConfig().set("k", "javelin").commit())
          .isInstanceOf(CommitConflictException.class)
          .hasMessage("This UpdateConfig (read version 1) conflicts with the UpdateConfig committed as version 2: "
              + path.toAbsolutePath());
      assertThat(transactionFiles(path)).isEqualTo(txns);
      // lance-core at version 2 refuses to set a key Javelin removed meanwhile.
      try (org.lance.Dataset lanceV2 = lance.checkoutVersion(2)) {
        Dataset.open(path, allocator).updateConfig().remove("k").commit();
        assertThatThrownBy(() -> lanceMerge(lanceV2, Map.of("k", "again"))).isInstanceOf(RuntimeException.class);
      }
    }
    Dataset latest = Dataset.open(path, allocator);
    assertThat(latest.version()).isEqualTo(3);
    assertThat(latest.config()).isEmpty();
  }
}
