package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.table.exceptions.CommitStateUnknownException;
import dev.javelin.testing.FaultyObjectStore.Fault;
import dev.javelin.testing.FaultyObjectStore.Op;
import dev.javelin.testing.FaultyObjectStore;
import dev.javelin.testing.MixedBatches;
import dev.javelin.testing.Readers;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a write leaves behind when the store fails at the commit. */
class DatasetFailureTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  @Test
  void unknownCommitOutcomeKeepsTheFiles() throws Exception {
    FaultyObjectStore store = new FaultyObjectStore(dir);
    Dataset ds;
    try (VectorSchemaRoot b = MixedBatches.batch(allocator, 0, 10);
        org.apache.arrow.vector.ipc.ArrowReader reader = readerOf(b)) {
      ds = Dataset.create(store, reader, WriteParams.defaults(), allocator);
    }
    store.failAll(Op.PUT_IF_ABSENT, Fault.ioError("connection reset"));
    try (VectorSchemaRoot b = MixedBatches.batch(allocator, 10, 10)) {
      Dataset base = ds;
      assertThatThrownBy(() -> base.append(List.of(b), WriteParams.defaults()))
          .isInstanceOf(CommitStateUnknownException.class)
          .hasRootCauseMessage("connection reset");
    }
    assertThat(store.list("data/")).hasSize(2);
    assertThat(store.list("_transactions/")).hasSize(2);
    assertThat(Dataset.open(store, allocator).version()).isEqualTo(1);
  }

  private org.apache.arrow.vector.ipc.ArrowReader readerOf(VectorSchemaRoot b) {
    return Readers.readerOf(allocator, b);
  }
}
