package dev.javelin.compat;

import static dev.javelin.compat.DatasetCompatSupport.assertSameRows;
import static dev.javelin.compat.DatasetCompatSupport.batches;
import static dev.javelin.compat.DatasetCompatSupport.expected;
import static dev.javelin.compat.DatasetCompatSupport.javelinScan;
import static dev.javelin.compat.DatasetCompatSupport.readAll;
import static dev.javelin.compat.DatasetCompatSupport.readerOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.table.FeatureFlags;
import dev.javelin.table.Fragment;
import dev.javelin.table.io.LocalObjectStore;
import dev.javelin.table.proto.TableProtos;
import dev.javelin.table.rowids.RowIdSequence;
import dev.javelin.table.rowids.RowVersionSequence;
import dev.javelin.table.rowids.U64Segment;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.ipc.ScanOptions;

/** Stable row ids (feature flag 2) both ways between Javelin and lance-core 7.0.0. */
class DatasetStableRowIdsCompatTest {
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

  private void lanceWrite(Path path, org.lance.WriteParams.WriteMode mode, long start, int rows) {
    List<VectorSchemaRoot> data = batches(allocator, start, rows, 400);
    try (ArrowReader reader = readerOf(allocator, data)) {
      org.lance.Dataset.write().allocator(allocator).reader(reader).uri(path.toString()).mode(mode)
          .maxRowsPerFile(900).enableStableRowIds(true).execute().close();
    } catch (Exception e) {
      throw new RuntimeException(e);
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
  }

  /**
   * The newest manifest's fragments, parsed from the file directly (Javelin's Table refuses
   * datasets with deletion files until it applies them; the sequences do not depend on them).
   */
  private static TableProtos.Manifest newestManifest(Path path) throws IOException {
    Path newest;
    try (Stream<Path> s = Files.list(path.resolve("_versions"))) {
      // V2 names count down: the smallest name is the newest version.
      newest = s.filter(p -> p.toString().endsWith(".manifest")).min(Path::compareTo).orElseThrow();
    }
    byte[] b = Files.readAllBytes(newest);
    ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    int pos = (int) bb.getLong(b.length - 16);
    int len = bb.getInt(pos);
    return TableProtos.Manifest.parseFrom(ByteBuffer.wrap(b, pos + 4, len));
  }

  /** lance-core's scan: for each live row, {_rowaddr, _rowid, created-at, last-updated-at} (versions -1 if absent). */
  private List<long[]> lanceRowIds(Path path, boolean withVersions) throws Exception {
    List<long[]> out = new ArrayList<>();
    List<String> cols = new ArrayList<>(List.of("id"));
    if (withVersions) {
      cols.add("_row_created_at_version");
      cols.add("_row_last_updated_at_version");
    }
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator);
        var scanner = lance.newScan(new ScanOptions.Builder().columns(cols).withRowId(true).withRowAddress(true)
            .build())) {
      // readAll closes the readers.
      ArrowReader lr = scanner.scanBatches();
      ArrowReader jr = ds.newScan().columns(cols).withRowId().withRowAddress().build();
      List<String> lanceNames = new ArrayList<>();
      lr.getVectorSchemaRoot().getSchema().getFields().forEach(f -> lanceNames.add(f.getName()));
      List<String> javelinNames = new ArrayList<>();
      jr.getVectorSchemaRoot().getSchema().getFields().forEach(f -> javelinNames.add(f.getName()));
      List<List<String>> lanceRows = readAll(lr);
      assertSameRows(readAll(jr), lanceRows);
      assertThat(javelinNames).isEqualTo(lanceNames)
          .containsExactly("id", "_row_created_at_version", "_row_last_updated_at_version", "_rowid", "_rowaddr");
    }
    // A deleted id: Javelin names it; lance-core leaves it out.
    Dataset last = ds;
    assertThatThrownBy(() -> last.takeRows(new long[] {1, 4}, List.of("id")))
        .isInstanceOf(dev.javelin.table.RowIdNotFoundException.class)
        .hasMessage("Row id 4 is deleted in version 8: " + ds.location());
  }

  @Test
  void idsVersionsAndTakesAgreeOnALanceDatasetWithAddedColumnsAndDeletes() throws Exception {
    Path path = dir.resolve("ds");
    lanceWrite(path, org.lance.WriteParams.WriteMode.CREATE, 0, 2000); // v1
    lanceWrite(path, org.lance.WriteParams.WriteMode.APPEND, 2000, 1000); // v2
    List<VectorSchemaRoot> more = batches(allocator, 3000, 100, 100);
    try {
      Dataset.open(path, allocator).append(more, WriteParams.defaults()); // v3
    } finally {
      more.forEach(VectorSchemaRoot::close);
    }
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.addColumns(new org.lance.schema.SqlExpressions.Builder().withExpression("w", "id * 3").build(),
          java.util.Optional.empty()); // v4
      lance.delete("id % 5 = 2 OR (id >= 900 AND id < 1800)"); // v5
    }
    assertSameAsLance(path, List.of("w", "id"));
    assertThat(lanceRowIds(path, true)).allSatisfy(r -> assertThat(r[3]).isEqualTo(4));
    Dataset ds = Dataset.open(path, allocator).delete("id = 2999 OR id = 3050"); // v6
    ds = ds.alterColumns(dev.javelin.core.ColumnAlteration.of("w").rename("w3")); // v7
    assertThat(ds.version()).isEqualTo(7);
    assertSameAsLance(path, List.of("w3", "id", "st"));
    assertThat(lanceRowIds(path, true)).filteredOn(r -> r[1] >= 3000).hasSize(79)
        .allSatisfy(r -> assertThat(r[2]).isEqualTo(3));
  }

  @Test
  void withoutStableRowIdsLanceAnswersVersionOneWhereJavelinRefuses() throws Exception {
    Path path = dir.resolve("plain");
    List<VectorSchemaRoot> data = batches(allocator, 0, 300, 300);
    Dataset ds;
    try {
      ds = Dataset.create(path, data, WriteParams.defaults(), allocator);
      ds = ds.append(data, WriteParams.defaults());
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
    // lance-core makes up version 1 for every row, even those version 2 wrote.
    List<long[]> lance = lanceRowIds(path, true);
    assertThat(lance).hasSize(600).allSatisfy(r -> {
      assertThat(r[2]).isEqualTo(1);
      assertThat(r[3]).isEqualTo(1);
      assertThat(r[1]).isEqualTo(r[0]);
    });
    Dataset plain = ds;
    assertThatThrownBy(() -> plain.newScan().withRowCreatedAtVersion().build())
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
