package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.index.DistanceType;
import dev.javelin.index.IndexType;
import dev.javelin.index.IvfPqParams;
import dev.javelin.index.internal.btree.BTreeIndex;
import dev.javelin.index.internal.btree.ScalarQuery;
import dev.javelin.index.internal.ivf.IvfPqIndex;
import dev.javelin.index.internal.ivf.Neighbors;
import dev.javelin.testing.FaultyObjectStore.Fault;
import dev.javelin.testing.FaultyObjectStore.Op;
import dev.javelin.testing.FaultyObjectStore;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.LongPredicate;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Dataset#optimizeIndices()} on IVF_PQ indices: appended fragments go into the existing
 * partitions (old rows keep their codes), searches then find the new rows through the index, and
 * deletions, dropped fragments, null vectors and stable row ids are handled.
 */
class VectorIndexOptimizeTest {
  static final int DIM = 16;
  static final int PER_FRAGMENT = 3000;
  static final int PARTITIONS = 8;
  static final Schema SCHEMA = new Schema(List.of(
      new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      Field.nullable("tag", new ArrowType.Int(32, true)),
      new Field("v", FieldType.nullable(new ArrowType.FixedSizeList(DIM)), List.of(
          new Field("item", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null)))));
  static final IvfPqParams PARAMS = IvfPqParams.of(PARTITIONS, 4, DistanceType.L2).withIterations(10, 5);

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  /** Row {@code id}'s vector: near one of 20 centres, so partitions differ. */
  static float[] vector(long id) {
    Random c = new Random(7 + id % 20);
    Random n = new Random(500 + id);
    float[] v = new float[DIM];
    for (int j = 0; j < DIM; j++) {
      v[j] = c.nextFloat() * 10 + (float) n.nextGaussian() * 0.5f;
    }
    return v;
  }

  /** Rows with ids [start, start + rows); those {@code nullVector} accepts have a null vector. */
  private Dataset write(Dataset ds, long start, int rows, LongPredicate nullVector, boolean stable) {
    List<VectorSchemaRoot> batches = new ArrayList<>();
    for (long b = start; b < start + rows; b += 1500) {
      int n = (int) Math.min(1500, start + rows - b);
      VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
      root.allocateNew();
      FixedSizeListVector v = (FixedSizeListVector) root.getVector("v");
      Float4Vector f = (Float4Vector) v.getDataVector();
      for (int i = 0; i < n; i++) {
        long id = b + i;
        ((BigIntVector) root.getVector("id")).setSafe(i, id);
        ((IntVector) root.getVector("tag")).setSafe(i, (int) (id % 7));
        if (nullVector.test(id)) {
          v.setNull(i);
        } else {
          v.setNotNull(i);
        }
        float[] x = vector(id);
        for (int j = 0; j < DIM; j++) {
          f.setSafe(i * DIM + j, x[j]);
        }
      }
      root.setRowCount(n);
      batches.add(root);
    }
    WriteParams params = WriteParams.builder().maxRowsPerFile(PER_FRAGMENT).enableStableRowIds(stable).build();
    try {
      return ds == null ? Dataset.create(dir.resolve("ds"), batches, params, allocator) : ds.append(batches, params);
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  private static final LongPredicate NO_NULLS = id -> false;

  /** id -> row id (stable row id or address, whichever the dataset's indices store) of every live row. */
  private Map<Long, Long> rowIdsById(Dataset ds) throws IOException {
    Map<Long, Long> out = new java.util.HashMap<>();
    try (ArrowReader r = ds.newScan().columns("id").withRowId().build()) {
      while (r.loadNextBatch()) {
        VectorSchemaRoot b = r.getVectorSchemaRoot();
        for (int i = 0; i < b.getRowCount(); i++) {
          out.put(((BigIntVector) b.getVector("id")).get(i), ((UInt8Vector) b.getVector("_rowid")).get(i));
        }
      }
    }
    return out;
  }

  private IndexInfo index(Dataset ds, String name) {
    return ds.indices().stream().filter(i -> i.name().equals(name)).findFirst().orElseThrow();
  }

  private IvfPqIndex openIndex(Dataset ds) throws IOException {
    return IvfPqIndex.open(ds.store(), index(ds, "v_idx").uuid(), allocator);
  }

  /** The k nearest of the given ids by true distance, as row ids. */
  private static List<Long> brute(float[] q, Map<Long, Long> rowIds, Set<Long> ids, int k) {
    return ids.stream()
        .sorted(Comparator.<Long>comparingDouble(id -> DistanceType.L2.distance(q, 0, vector(id), 0, DIM))
            .thenComparing(id -> id))
        .limit(k).map(rowIds::get).toList();
  }

  private static List<Long> ids(Neighbors n) {
    return Arrays.stream(n.rowIds()).boxed().toList();
  }

  @Test
  void appendedRowsGoIntoTheExistingPartitionsAndAreFoundThroughTheIndex() throws IOException {
    Dataset ds = write(null, 0, 6000, NO_NULLS, false).createIndex("v", PARAMS)
        .createIndex("id", IndexType.BTREE);
    IvfPqIndex before = openIndex(ds);
    ds = write(ds, 6000, 3000, NO_NULLS, false);
    assertThat(index(ds, "v_idx").fragments()).containsExactly(0L, 1L);

    IndexOptimizeResult r = ds.optimizeIndices();
    assertThat(r.indices()).containsExactly(
        new OptimizedIndex("v_idx", IndexType.VECTOR, OptimizedIndex.Outcome.MERGED, List.of(2L), 3000, 0, 1, ""),
        new OptimizedIndex("id_idx", IndexType.BTREE, OptimizedIndex.Outcome.MERGED, List.of(2L), 3000, 0, 1, ""));
    Dataset opt = r.dataset();
    assertThat(opt.version()).isEqualTo(ds.version() + 1);
    assertThat(opt.indices()).extracting(IndexInfo::fragments).containsOnly(Set.of(0L, 1L, 2L));

    IvfPqIndex after = openIndex(opt);
    assertThat(after.numRows()).isEqualTo(9000);
    assertThat(after.numPartitions()).isEqualTo(PARTITIONS);
    Map<Long, Long> rowIds = rowIdsById(opt);
    Set<Long> all = new HashSet<>(rowIds.keySet());
    assertThat(Arrays.stream(after.rowIds()).boxed().toList()).containsExactlyInAnyOrderElementsOf(rowIds.values());
    // Nothing retrained: the old rows keep their codes under the same model, so their PQ distances
    // are the same in both indices.
    Set<Long> old = new HashSet<>();
    for (long id = 0; id < 6000; id++) {
      old.add(rowIds.get(id));
    }
    for (int s = 0; s < 5; s++) {
      float[] q = vector(new Random(s).nextInt(9000));
      Neighbors was = before.search(q, 20, PARTITIONS, null);
      Neighbors is = after.search(q, 20, PARTITIONS, old::contains);
      assertThat(is.rowIds()).isEqualTo(was.rowIds());
      assertThat(is.distances()).isEqualTo(was.distances());
    }
    // The appended rows are found through the index: a query at an appended row finds it in the
    // index alone, and the dataset's search (which uses the index for every covered fragment)
    // returns exactly the index's answer.
    for (long id : new long[] {6001, 7777, 8999}) {
      float[] q = vector(id);
      assertThat(after.search(q, 1, PARTITIONS, null).rowIds()).containsExactly(rowIds.get(id));
      Neighbors viaIndex = after.search(q, 10, 3, null);
      assertThat(opt.nearest("v", q).k(10).nprobes(3).neighbors().rowIds()).isEqualTo(viaIndex.rowIds());
      assertThat(ids(opt.nearest("v", q).k(10).nprobes(PARTITIONS).refineFactor(30).neighbors()))
          .containsExactlyElementsOf(brute(q, rowIds, all, 10));
    }
    // The BTree answers for the new fragment too.
    try (BTreeIndex bt = BTreeIndex.open(opt.store(), index(opt, "id_idx").uuid(), allocator)) {
      assertThat(bt.search(ScalarQuery.greaterOrEqual(6000L)).getLongCardinality()).isEqualTo(3000);
    }
    assertThat(opt.explain("id = 7000").scannedFragments()).isEmpty();

    // Up to date: nothing to do, nothing committed.
    IndexOptimizeResult again = opt.optimizeIndices();
    assertThat(again.unchanged()).isTrue();
    assertThat(again.dataset()).isSameAs(opt);
    assertThat(again.indices()).extracting(OptimizedIndex::outcome)
        .containsOnly(OptimizedIndex.Outcome.UNCHANGED);
  }

  @Test
  void deletedRowsDroppedFragmentsAndNullVectorsAreLeftOut() throws IOException {
    Dataset ds = write(null, 0, 9000, NO_NULLS, false).createIndex("v", PARAMS);
    // Fragment 1 goes entirely; some rows of fragment 0 go.
    ds = ds.delete("(id >= 3000 AND id < 6000) OR id % 10 = 3");
    // Appended: fragment 3, with null vectors (not indexed) and rows deleted before optimizing.
    ds = write(ds, 9000, 3000, id -> id % 9 == 0, false).delete("id >= 11000 AND id % 4 = 1");
    // Dropped from the index: all of fragment 1, and ids % 10 = 3 of fragments 0 and 2.
    long deletedIndexedRows = 3000 + 300 + 300;
    long appendedLive = 3000 - 250;
    long appendedNull = Stream.iterate(9000L, i -> i + 1).limit(3000)
        .filter(id -> id % 9 == 0 && !(id >= 11000 && id % 4 == 1)).count();

    OptimizedIndex v = ds.optimizeIndices().index("v_idx");
    Dataset opt = Dataset.open(dir.resolve("ds"), allocator);
    assertThat(v.outcome()).isEqualTo(OptimizedIndex.Outcome.MERGED);
    assertThat(v.fragmentsAdded()).containsExactly(3L);
    assertThat(v.rowsAdded()).isEqualTo(appendedLive - appendedNull);
    assertThat(v.rowsDropped()).isEqualTo(deletedIndexedRows);
    assertThat(index(opt, "v_idx").fragments()).containsExactly(0L, 2L, 3L);

    Map<Long, Long> rowIds = rowIdsById(opt);
    Set<Long> withVectors = new HashSet<>();
    for (long id : rowIds.keySet()) {
      if (!(id >= 9000 && id % 9 == 0)) {
        withVectors.add(id);
      }
    }
    IvfPqIndex after = openIndex(opt);
    assertThat(Arrays.stream(after.rowIds()).boxed().toList())
        .containsExactlyInAnyOrderElementsOf(withVectors.stream().map(rowIds::get).toList());
    for (long id : new long[] {13, 9001, 11003, 2222}) {
      float[] q = vector(id);
      assertThat(ids(opt.nearest("v", q).k(10).nprobes(PARTITIONS).refineFactor(30).neighbors()))
          .containsExactlyElementsOf(brute(q, rowIds, withVectors, 10));
    }
  }

  @Test
  void stableRowIdsIndexRowIdsAndRowsMovedByUpdatesAreIndexedOnce() throws IOException {
    Dataset ds = write(null, 0, 6000, NO_NULLS, true).createIndex("v", PARAMS)
        .createIndex("id", IndexType.BTREE);
    assertThat(ds.hasStableRowIds()).isTrue();
    // An update rewrites rows into a new fragment under the same row ids (old copies deleted);
    // an append adds rows with new ids.
    ds = ds.update("id % 50 = 7", Map.of("tag", "100")).dataset();
    ds = write(ds, 6000, 2000, NO_NULLS, true).delete("id = 6500 OR id = 107");
    Map<Long, Long> rowIds = rowIdsById(ds);
    assertThat(rowIds.get(7L)).isEqualTo(7L); // stable: not an address

    IndexOptimizeResult r = ds.optimizeIndices();
    Dataset opt = r.dataset();
    assertThat(r.indices()).extracting(OptimizedIndex::outcome).containsOnly(OptimizedIndex.Outcome.MERGED);
    // The updated rows' old copies are dropped and their new copies indexed; the deleted row too.
    long updated = 6000 / 50;
    OptimizedIndex v = r.index("v_idx");
    assertThat(v.rowsAdded()).isEqualTo(updated - 1 + 1999);
    assertThat(v.rowsDropped()).isEqualTo(updated);
    assertThat(r.index("id_idx").rowsAdded()).isEqualTo(v.rowsAdded());

    IvfPqIndex after = openIndex(opt);
    List<Long> indexed = Arrays.stream(after.rowIds()).boxed().toList();
    assertThat(indexed).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(rowIds.values());
    for (long id : new long[] {7, 6001, 7999}) {
      assertThat(after.search(vector(id), 1, PARTITIONS, null).rowIds()).containsExactly(rowIds.get(id));
    }
    try (BTreeIndex bt = BTreeIndex.open(opt.store(), index(opt, "id_idx").uuid(), allocator)) {
      assertThat(bt.search(ScalarQuery.greaterOrEqual(0L)).getLongCardinality()).isEqualTo(rowIds.size());
      assertThat(bt.search(ScalarQuery.equalTo(6001L)).toArray()).containsExactly(rowIds.get(6001L));
      assertThat(bt.search(ScalarQuery.equalTo(57L)).toArray()).containsExactly(57L);
      // Built before the update, over fragment 1: a stable row id, not the address 1 << 32 | 1000.
      assertThat(bt.search(ScalarQuery.equalTo(4000L)).toArray()).containsExactly(4000L);
    }
  }

  @Test
  void aFailedOptimizeLeavesTheVersionAndNoFilesBehind() throws IOException {
    Dataset ds = write(null, 0, 6000, NO_NULLS, false).createIndex("v", PARAMS)
        .createIndex("id", IndexType.BTREE);
    write(ds, 6000, 3000, NO_NULLS, false);
    List<String> before = ds.store().list("_indices/").stream().map(o -> o.key()).sorted().toList();
    // The vector index is extended first; writing the BTree's data then fails.
    Dataset failing = Dataset.open(new FaultyObjectStore(dir.resolve("ds")).failKeys(Op.WRITE, "page_data", Fault.ioError("disk full")),
        allocator);
    org.assertj.core.api.Assertions.assertThatThrownBy(failing::optimizeIndices)
        .isInstanceOf(java.io.UncheckedIOException.class)
        .hasMessageStartingWith("Optimizing indices failed: ")
        .hasRootCauseMessage("disk full");
    Dataset now = Dataset.open(dir.resolve("ds"), allocator);
    assertThat(now.version()).isEqualTo(failing.version());
    assertThat(now.store().list("_indices/").stream().map(o -> o.key()).sorted().toList()).isEqualTo(before);
    assertThat(now.optimizeIndices().index("v_idx").outcome()).isEqualTo(OptimizedIndex.Outcome.MERGED);
  }
}
