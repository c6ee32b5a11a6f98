package dev.javelin.compat;

import static dev.javelin.compat.DatasetCompatSupport.assertSameRows;
import static dev.javelin.compat.DatasetCompatSupport.batches;
import static dev.javelin.compat.DatasetCompatSupport.expected;
import static dev.javelin.compat.S3CompatSupport.javelinOpen;
import static dev.javelin.compat.S3CompatSupport.javelinScan;
import static dev.javelin.compat.S3CompatSupport.lanceOpen;
import static dev.javelin.compat.S3CompatSupport.lanceScan;
import static dev.javelin.compat.S3CompatSupport.newUri;
import static dev.javelin.compat.S3CompatSupport.options;
import static dev.javelin.compat.S3CompatSupport.sortedById;
import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.index.IndexType;
import dev.javelin.testing.Readers;
import dev.javelin.testing.S3MockServer;
import dev.javelin.testing.TestAllocator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;

/**
 * Datasets Javelin writes on S3 (S3Mock) by {@code s3://} URI (create, append, delete, update, add
 * column, BTree index), read by lance-core 7.0.0 row by row and queried through Javelin's index.
 */
class S3JavelinToLanceCompatTest {
  static final String BUCKET = S3MockServer.shared().newBucket();
  static final List<String> FILTERS = List.of("id >= 500 AND id < 650", "id = 1000", "id < 40", "id IN (3, 333, 3777)",
      "id > 2100 AND x IS NULL", "id BETWEEN 200 AND 260 AND s IS NOT NULL");

  @TestAllocator BufferAllocator allocator;

  @Test
  void lanceReadsWhatJavelinWroteOnS3AndItsBTreeAnswersEqualJavelins() throws Exception {
    String uri = newUri(BUCKET);
    WriteParams params = WriteParams.builder().fileVersion(LanceFileVersion.V2_1).maxRowsPerFile(1000)
        .storageOptions(options()).build();
    List<VectorSchemaRoot> first = batches(allocator, 0, 2500, 600);
    List<VectorSchemaRoot> second = batches(allocator, 2500, 1300, 600);
    Dataset ds;
    try (ArrowReader reader = Readers.readerOf(allocator, DatasetCompatSupport.SCHEMA, first)) {
      ds = Dataset.create(uri, reader, params, allocator);
      ds = ds.append(second, params);
    } finally {
      first.forEach(VectorSchemaRoot::close);
      second.forEach(VectorSchemaRoot::close);
    }
    ds = ds.delete("id % 11 = 3");
    assertThat(ds.update("id < 100 OR id >= 3700", Map.of("s", "'updated'")).rowsUpdated()).isEqualTo(182);
    ds = javelinOpen(uri, allocator).addColumns(Map.of("y", "id * 2"));
    ds = ds.createIndex("id", IndexType.BTREE);
    assertThat(ds.version()).isEqualTo(6);

    List<List<String>> want = new ArrayList<>();
    for (List<String> r : expected(allocator, 0, 3800)) {
      long id = Long.parseLong(r.get(0));
      if (id % 11 != 3) {
        List<String> row = new ArrayList<>(r);
        if (id < 100 || id >= 3700) {
          row.set(2, "updated");
        }
        row.add(Long.toString(id * 2));
        want.add(row);
      }
    }
    assertSameRows(sortedById(javelinScan(ds, null)), want);
    try (org.lance.Dataset lance = lanceOpen(uri, allocator)) {
      assertThat(lance.version()).isEqualTo(6);
      assertThat(lance.listVersions()).hasSize(6);
      assertThat(lance.listIndexes()).containsExactly("id_idx");
      assertThat(lance.countRows()).isEqualTo(want.size());
      assertSameRows(sortedById(lanceScan(lance, null)), want);
      for (String f : FILTERS) {
        assertThat(ds.explain(f).usesIndex()).as(f).isTrue();
        List<List<String>> javelin = sortedById(javelinScan(ds, f));
        assertThat(javelin).as(f).isNotEmpty();
        assertSameRows(sortedById(lanceScan(lance, f)), javelin);
        assertThat(lance.countRows(f)).as(f).isEqualTo(javelin.size());
      }
    }
  }
}
