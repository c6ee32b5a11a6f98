package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.io.InputFile;
import dev.javelin.io.LocalObjectStore;
import dev.javelin.io.ObjectInfo;
import dev.javelin.io.ObjectStore;
import dev.javelin.io.OutputFile;
import dev.javelin.table.exceptions.CommitStateUnknownException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a write leaves behind when the store fails at the commit. */
class DatasetFailureTest {
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

  /** Fails every put-if-absent once {@code failing} is set. */
  static final class BrokenCommits implements ObjectStore {
    final LocalObjectStore local;
    boolean failing;

    BrokenCommits(Path root) {
      this.local = new LocalObjectStore(root);
    }

    @Override
    public void putIfAbsent(String key, byte[] data) throws IOException {
      if (failing) {
        throw new IOException("connection reset");
      }
      local.putIfAbsent(key, data);
    }

    @Override
    public String location() {
      return local.location();
    }

    @Override
    public List<ObjectInfo> list(String prefix) throws IOException {
      return local.list(prefix);
    }

    @Override
    public InputFile open(String key) throws IOException {
      return local.open(key);
    }

    @Override
    public void put(String key, byte[] data) throws IOException {
      local.put(key, data);
    }

    @Override
    public OutputFile newOutputFile(String key) {
      return local.newOutputFile(key);
    }

    @Override
    public void delete(String key) throws IOException {
      local.delete(key);
    }

    @Override
    public boolean exists(String key) throws IOException {
      return local.exists(key);
    }
  }

  @Test
  void unknownCommitOutcomeKeepsTheFiles() throws Exception {
    BrokenCommits store = new BrokenCommits(dir);
    Dataset ds;
    try (VectorSchemaRoot b = TestData.batch(allocator, 0, 10);
        org.apache.arrow.vector.ipc.ArrowReader reader = readerOf(b)) {
      ds = Dataset.create(store, reader, WriteParams.defaults(), allocator);
    }
    store.failing = true;
    try (VectorSchemaRoot b = TestData.batch(allocator, 10, 10)) {
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
    return new org.apache.arrow.vector.ipc.ArrowReader(allocator) {
      boolean done;

      @Override
      public boolean loadNextBatch() {
        if (done) {
          return false;
        }
        done = true;
        try (var rb = new org.apache.arrow.vector.VectorUnloader(b).getRecordBatch()) {
          loadRecordBatch(rb);
        }
        return true;
      }

      @Override
      public long bytesRead() {
        return 0;
      }

      @Override
      protected void closeReadSource() {}

      @Override
      protected org.apache.arrow.vector.types.pojo.Schema readSchema() {
        return b.getSchema();
      }
    };
  }
}
