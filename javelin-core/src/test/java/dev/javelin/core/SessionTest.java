package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.internal.SessionState;
import dev.javelin.index.IndexType;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sessions own the caches and pools their datasets use: two sessions share no entry, closing one
 * closes its caches, pools and allocator (which then holds nothing), and every dataset opened
 * without one uses the default session. Scans and takes read with children of the dataset's
 * allocator named after them, so a leak names the operation.
 */
class SessionTest {
  static final Schema SCHEMA = new Schema(List.of(Field.nullable("id", new ArrowType.Int(64, true))));
  static final int ROWS = 3_000;

  @TempDir Path dir;
  RootAllocator data;

  @BeforeEach
  void open() {
    data = new RootAllocator();
  }

  @AfterEach
  void close() {
    data.close();
  }

  private VectorSchemaRoot rows() {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, data);
    root.allocateNew();
    BigIntVector id = (BigIntVector) root.getVector("id");
    for (int i = 0; i < ROWS; i++) {
      id.setSafe(i, i);
    }
    root.setRowCount(ROWS);
    return root;
  }

  // Three fragments of 1,000 rows, in the session given (null: with the test's allocator).
  private Dataset create(Path path, Session session) {
    WriteParams p = WriteParams.builder().maxRowsPerFile(1_000).build();
    try (VectorSchemaRoot root = rows()) {
      return session == null ? Dataset.create(path, List.of(root), p, data)
          : Dataset.create(path, List.of(root), p, session);
    }
  }

  private static long ids(ArrowReader r) throws Exception {
    long sum = 0;
    while (r.loadNextBatch()) {
      BigIntVector v = (BigIntVector) r.getVectorSchemaRoot().getVector("id");
      for (int i = 0; i < v.getValueCount(); i++) {
        sum += v.get(i);
      }
    }
    return sum;
  }

  @Test
  void aDatasetOpenedInASessionReadsWithItsAllocatorAndKeepsItThroughWrites() throws Exception {
    try (Session session = Session.builder().cpuThreads(2).ioThreads(2).build()) {
      Dataset ds = create(dir.resolve("ds"), session);
      assertThat(ds.session()).isSameAs(session);
      assertThat(ds.allocator()).isSameAs(session.allocator());
      try (VectorSchemaRoot more = rows()) {
        ds = ds.append(List.of(more), WriteParams.defaults());
      }
      assertThat(ds.session()).isSameAs(session);
      assertThat(ds.checkout(1).session()).isSameAs(session);
      Dataset opened = Dataset.open(dir.resolve("ds"), session);
      assertThat(opened.session()).isSameAs(session);
      assertThat(opened.countRows()).isEqualTo(2L * ROWS);
      assertThat(Dataset.open(dir.resolve("ds").toString(), 1, session).countRows()).isEqualTo(ROWS);
      try (ArrowReader r = opened.newScan().build()) {
        // The scan reads with a child of the session's allocator, named after it.
        assertThat(session.allocator().getChildAllocators()).extracting(BufferAllocator::getName)
            .contains("scan " + opened.location());
        assertThat(ids(r)).isEqualTo(2L * ((long) ROWS * (ROWS - 1) / 2));
      }
      assertThat(session.allocator().getChildAllocators()).extracting(BufferAllocator::getName)
          .doesNotContain("scan " + opened.location());
      try (VectorSchemaRoot got = opened.take(new long[] {5, ROWS + 7}, null)) {
        assertThat(got.getVector("id").getObject(0)).isEqualTo(5L);
        assertThat(got.getVector("id").getObject(1)).isEqualTo(7L);
      }
    }
  }

  @Test
  void twoSessionsShareNoCacheEntry() throws Exception {
    Dataset created = create(dir.resolve("ds"), null).createIndex("id", IndexType.BTREE);
    try (Session a = Session.builder().build(); Session b = Session.builder().build()) {
      Dataset inA = Dataset.open(dir.resolve("ds"), a);
      Dataset inB = Dataset.open(dir.resolve("ds"), b);
      SessionState stateA = SessionState.of(a);
      SessionState stateB = SessionState.of(b);
      assertThat(inA.countRows("id < 10")).isEqualTo(10);
      try (VectorSchemaRoot got = inA.take(new long[] {1, 1_500, 2_999}, null)) {
        assertThat(got.getRowCount()).isEqualTo(3);
      }
      assertThat(stateA.indices().size()).isEqualTo(1);
      assertThat(stateA.dataFiles().fileCount()).isEqualTo(3);
      assertThat(stateB.indices().size()).isZero();
      assertThat(stateB.dataFiles().fileCount()).isZero();
      // The index lookup the cache keeps is in the session's memory, not a query's.
      assertThat(a.allocator().getAllocatedMemory()).isPositive();
      assertThat(b.allocator().getAllocatedMemory()).isZero();
      assertThat(inB.countRows("id >= 2990")).isEqualTo(10);
      assertThat(stateB.indices().size()).isEqualTo(1);
      // Nor with the default session.
      assertThat(SessionState.of(created).indices()).isNotSameAs(stateA.indices()).isNotSameAs(stateB.indices());
    }
  }

  @Test
  void closingASessionClosesItsCachesAndPoolsAndLeavesNoMemoryHeld() throws Exception {
    Session session = Session.builder().cpuThreads(1).build();
    Dataset ds = create(dir.resolve("ds"), session).createIndex("id", IndexType.BTREE);
    assertThat(ds.countRows("id = 17")).isEqualTo(1);
    assertThat(ds.delete("id < 100").countRows()).isEqualTo(ROWS - 100);
    try (VectorSchemaRoot got = ds.take(new long[] {0, 2_000}, null)) {
      assertThat(got.getRowCount()).isEqualTo(2);
    }
    SessionState state = SessionState.of(session);
    assertThat(state.indices().size()).isEqualTo(1);
    assertThat(session.allocator().getAllocatedMemory()).isPositive();
    session.close();
    assertThat(session.allocator().getAllocatedMemory()).isZero();
    assertThat(session.allocator().getChildAllocators()).isEmpty();
    assertThat(state.pools().isShutdown()).isTrue();
    assertThat(state.vectorIndices().isClosed()).isTrue();
    assertThat(state.transitions().isClosed()).isTrue();
    assertThatThrownBy(() -> state.indices().open(ds.store(), ds.indices().get(0).uuid()))
        .isInstanceOf(IllegalStateException.class).hasMessage("The cache is closed");
    assertThatThrownBy(() -> state.rowMaps().lease(ds.store(), "x"))
        .isInstanceOf(IllegalStateException.class).hasMessage("The cache is closed");
    assertThatThrownBy(() -> ds.take(new long[] {0}, null)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void closingASessionWhileAScanIsOpenNamesTheScan() throws Exception {
    Session session = Session.builder().build();
    Dataset ds = create(dir.resolve("ds"), session);
    ArrowReader open = ds.newScan().parallelism(1).build();
    assertThat(open.loadNextBatch()).isTrue();
    assertThatThrownBy(session::close).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Memory was leaked")
        .hasMessageContaining("Allocator(scan " + ds.location() + ")");
    // Its memory outlived the session's allocator, which now refuses to take it back.
    assertThatThrownBy(open::close).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("allocator is closed");
  }

  @Test
  void aLeakInAScanIsReportedWithTheScansAllocatorName() throws Exception {
    Dataset ds = create(dir.resolve("ds"), null);
    RootAllocator root = new RootAllocator();
    Dataset reading = Dataset.open(dir.resolve("ds"), root);
    ArrowReader r = reading.newScan().build();
    assertThat(r.loadNextBatch()).isTrue();
    // A buffer of the scan's batch kept past the scan (a caller's bug).
    ArrowBuf kept = ((BigIntVector) r.getVectorSchemaRoot().getVector("id")).getDataBuffer();
    kept.getReferenceManager().retain();
    assertThatThrownBy(r::close).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Memory was leaked")
        .hasMessageContaining("Allocator(scan " + ds.location() + ")");
    // The caller's root names the scan's allocator too. (Both stay unusable: the leak is the
    // point, and memory of a closed allocator cannot be released.)
    assertThatThrownBy(root::close).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("scan " + ds.location());
  }

  @Test
  void theDefaultSessionServesDatasetsOpenedWithAnAllocator() throws Exception {
    Session shared = Session.defaultSession();
    assertThat(Session.defaultSession()).isSameAs(shared);
    Dataset ds = create(dir.resolve("ds"), null);
    assertThat(ds.session()).isSameAs(shared);
    assertThat(ds.allocator()).isSameAs(data);
    Dataset opened = Dataset.open(dir.resolve("ds"), data);
    assertThat(opened.session()).isSameAs(shared);
    try (ArrowReader r = opened.newScan().build()) {
      assertThat(ids(r)).isEqualTo((long) ROWS * (ROWS - 1) / 2);
    }
    try (VectorSchemaRoot got = opened.take(new long[] {2_999}, null)) {
      assertThat(got.getVector("id").getObject(0)).isEqualTo(2_999L);
    }
    assertThat(SessionState.of(shared).dataFiles().fileCount()).isPositive();
    assertThat(SessionState.of(shared).pools()).isSameAs(dev.javelin.common.ThreadPools.shared());
    assertThatThrownBy(shared::close).isInstanceOf(UnsupportedOperationException.class)
        .hasMessage("The default session cannot be closed");
    assertThat(data.getAllocatedMemory()).isZero();
  }

  @Test
  void badSizesAreRefused() {
    assertThatThrownBy(() -> Session.builder().indexCacheSize(-1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("indexCacheSize must be at least 0, got -1");
    assertThatThrownBy(() -> Session.builder().dataFileCacheFiles(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("dataFileCacheFiles must be at least 1, got 0");
    assertThatThrownBy(() -> Session.builder().dataFileCacheBytes(-5)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("dataFileCacheBytes must not be negative, got -5");
    assertThatThrownBy(() -> Session.builder().cpuThreads(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cpuThreads must be at least 1, got 0");
  }
}
