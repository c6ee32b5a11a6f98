package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.compaction.CompactionOptions;
import dev.javelin.core.exceptions.InvalidConfigException;
import dev.javelin.table.OperationKind;
import dev.javelin.table.exceptions.CommitConflictException;
import dev.javelin.testing.MixedBatches;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatasetConfigTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private Dataset create() {
    List<VectorSchemaRoot> batches = MixedBatches.batches(allocator, 0, 100, 50);
    try {
      return Dataset.create(dir.resolve("ds"), batches, WriteParams.builder().build(), allocator);
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  private long transactionFiles() throws IOException {
    try (Stream<Path> files = Files.list(dir.resolve("ds").resolve("_transactions"))) {
      return files.count();
    }
  }

  @Test
  void setsAndRemovesKeysInOneCommitEachAndLeavesTheDataAlone() {
    Dataset v1 = create();
    assertThat(v1.config()).isEmpty();
    Dataset v2 = v1.updateConfig().set("owner", "ml").set(Map.of("tier", "gold", "stale", "x")).commit();
    assertThat(v2.version()).isEqualTo(v1.version() + 1);
    assertThat(v2.config()).containsExactlyInAnyOrderEntriesOf(Map.of("owner", "ml", "tier", "gold", "stale", "x"));
    Dataset v3 = v2.updateConfig().set("tier", "silver").remove("stale").remove("never-set").commit();
    assertThat(v3.config()).containsExactlyInAnyOrderEntriesOf(Map.of("owner", "ml", "tier", "silver"));
    assertThat(v3.table().transaction(v3.manifest()).orElseThrow().kind()).isEqualTo(OperationKind.UPDATE_CONFIG);
    // Reopened from storage, and the old version keeps its config.
    Dataset reopened = Dataset.open(dir.resolve("ds"), allocator);
    assertThat(reopened.version()).isEqualTo(v3.version());
    assertThat(reopened.config()).isEqualTo(v3.config());
    assertThat(reopened.countRows()).isEqualTo(100);
    assertThat(reopened.checkout(v2.version()).config()).containsEntry("stale", "x");
  }

  @Test
  void laterOperationsKeepTheConfig() {
    Dataset ds = create().updateConfig().set("owner", "ml").commit();
    Dataset deleted = ds.delete("id < 10");
    assertThat(deleted.config()).containsExactlyEntriesOf(Map.of("owner", "ml"));
    assertThat(deleted.countRows()).isEqualTo(90);
  }

  @Test
  void refusesBadInputNamingTheKeyAndWritesNothing() throws IOException {
    Dataset ds = create();
    long txns = transactionFiles();
    assertThatThrownBy(() -> ds.updateConfig().commit())
        .isInstanceOf(InvalidConfigException.class)
        .hasMessage("Set or remove at least one config key: " + ds.location());
    assertThatThrownBy(() -> ds.updateConfig().set("a", "1").remove("a").commit())
        .isInstanceOf(InvalidConfigException.class)
        .hasMessage("Config key 'a' is both set and removed: " + ds.location());
    assertThatThrownBy(() -> ds.updateConfig().set(" ", "1"))
        .isInstanceOf(InvalidConfigException.class)
        .hasMessage("A config key must not be blank");
    assertThatThrownBy(() -> ds.updateConfig().set(CompactionOptions.MAX_DATA_FILES_KEY, "zero").commit())
        .isInstanceOf(InvalidConfigException.class)
        .hasMessage("Table config lance.compaction.max_data_files_per_fragment is not a positive integer: 'zero'")
        .satisfies(e -> assertThat(((InvalidConfigException) e).key()).isEqualTo(CompactionOptions.MAX_DATA_FILES_KEY));
    assertThatThrownBy(() -> ds.updateConfig().set(CompactionOptions.MAX_DATA_FILES_KEY, "0").commit())
        .isInstanceOf(InvalidConfigException.class)
        .hasMessage("Table config lance.compaction.max_data_files_per_fragment is not a positive integer: '0'");
    assertThatThrownBy(() -> ds.updateConfig().set(CompactionOptions.COLUMN_GROUPS_KEY, "[\"id\"]").commit())
        .isInstanceOf(InvalidConfigException.class)
        .hasMessage("Table config lance.compaction.column_groups is not a JSON array of arrays of column names:"
            + " '[\"id\"]'");
    Dataset reopened = Dataset.open(dir.resolve("ds"), allocator);
    assertThat(reopened.version()).isEqualTo(ds.version());
    assertThat(reopened.config()).isEmpty();
    assertThat(transactionFiles()).isEqualTo(txns);
    // Good values of the reserved keys are taken, and other lance.* keys are not interpreted.
    Dataset next = ds.updateConfig().set(CompactionOptions.MAX_DATA_FILES_KEY, "3")
        .set(CompactionOptions.COLUMN_GROUPS_KEY, "[[\"id\"]]").set("lance.auto_cleanup.interval", "20").commit();
    assertThat(next.config()).containsEntry(CompactionOptions.MAX_DATA_FILES_KEY, "3")
        .containsEntry(CompactionOptions.COLUMN_GROUPS_KEY, "[[\"id\"]]");
  }

  @Test
  void concurrentUpdatesOfDifferentKeysBothLandAndOfTheSameKeyConflict() throws IOException {
    Dataset base = create();
    Dataset first = base.updateConfig().set("a", "1").commit();
    Dataset second = base.updateConfig().set("b", "2").remove("c").commit();
    assertThat(second.version()).isEqualTo(first.version() + 1);
    assertThat(second.config()).containsExactlyInAnyOrderEntriesOf(Map.of("a", "1", "b", "2"));
    long txns = transactionFiles();
    assertThatThrownBy(() -> base.updateConfig().remove("a").commit())
        .isInstanceOf(CommitConflictException.class);
    assertThat(transactionFiles()).isEqualTo(txns);
    Dataset reopened = Dataset.open(dir.resolve("ds"), allocator);
    assertThat(reopened.version()).isEqualTo(second.version());
    assertThat(reopened.config()).containsExactlyInAnyOrderEntriesOf(Map.of("a", "1", "b", "2"));
  }
}
