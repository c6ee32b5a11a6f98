package dev.javelin.compat;

import static dev.javelin.compat.DatasetCompatSupport.assertSameRows;
import static dev.javelin.compat.DatasetCompatSupport.batches;
import static dev.javelin.compat.DatasetCompatSupport.expected;
import static dev.javelin.compat.S3CompatSupport.javelinScan;
import static dev.javelin.compat.S3CompatSupport.lanceScan;
import static dev.javelin.compat.S3CompatSupport.lanceWrite;
import static dev.javelin.compat.S3CompatSupport.sortedById;
import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.testing.AzuriteServer;
import dev.javelin.testing.Readers;
import dev.javelin.testing.TestAllocator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.lance.ReadOptions;

/**
 * Datasets on Azure Blob Storage (Azurite) shared by Javelin and lance-core 7.0.0 with the same
 * storage options, by {@code az://} URI: each reads what the other wrote, row by row, and each
 * appends to the other's dataset.
 */
class AzureCompatTest {
  static final String CONTAINER = "compat" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

  static {
    AzuriteServer.shared().createContainer(CONTAINER);
  }

  @TestAllocator BufferAllocator allocator;

  static Map<String, String> options() {
    return AzuriteServer.shared().storageOptions();
  }

  static String newUri() {
    return "az://" + CONTAINER + "/" + UUID.randomUUID() + "/ds";
  }

  org.lance.Dataset lanceOpen(String uri) {
    return org.lance.Dataset.open(allocator, uri, new ReadOptions.Builder().setStorageOptions(options()).build());
  }

  @Test
  void javelinReadsAndAppendsToWhatLanceWroteOnAzure() throws Exception {
    String uri = newUri();
    lanceWrite(allocator, uri, options(), org.lance.WriteParams.WriteMode.CREATE, 0, 1500, 500);
    Dataset ds = Dataset.builder(uri).storageOptions(options()).allocator(allocator).load();
    assertThat(ds.manifest().fragments()).hasSize(3);
    assertSameRows(sortedById(javelinScan(ds, null)), expected(allocator, 0, 1500));
    assertSameRows(sortedById(javelinScan(ds, "id >= 700 AND id < 720")), expected(allocator, 700, 20));

    List<VectorSchemaRoot> more = batches(allocator, 1500, 300, 300);
    try {
      ds = ds.append(more, WriteParams.defaults()).delete("id < 100");
    } finally {
      more.forEach(VectorSchemaRoot::close);
    }
    try (org.lance.Dataset lance = lanceOpen(uri)) {
      assertThat(lance.version()).isEqualTo(ds.version());
      assertSameRows(sortedById(lanceScan(lance, null)), expected(allocator, 100, 1700));
    }
  }

  @Test
  void lanceReadsAndAppendsToWhatJavelinWroteOnAzure() throws Exception {
    String uri = newUri();
    List<VectorSchemaRoot> first = batches(allocator, 0, 2000, 500);
    Dataset ds;
    try (ArrowReader reader = Readers.readerOf(allocator, DatasetCompatSupport.SCHEMA, first)) {
      ds = Dataset.create(uri, reader, WriteParams.builder().fileVersion(LanceFileVersion.V2_1).maxRowsPerFile(800)
          .storageOptions(options()).build(), allocator);
    } finally {
      first.forEach(VectorSchemaRoot::close);
    }
    ds = ds.delete("id % 7 = 0");
    List<List<String>> want = new ArrayList<>();
    for (List<String> r : expected(allocator, 0, 2000)) {
      if (Long.parseLong(r.get(0)) % 7 != 0) {
        want.add(r);
      }
    }
    try (org.lance.Dataset lance = lanceOpen(uri)) {
      assertThat(lance.version()).isEqualTo(2);
      assertSameRows(sortedById(lanceScan(lance, null)), want);
      assertThat(lance.countRows("id < 70")).isEqualTo(60);
    }
    lanceWrite(allocator, uri, options(), org.lance.WriteParams.WriteMode.APPEND, 2000, 200, 500);
    want.addAll(expected(allocator, 2000, 200));
    Dataset after = Dataset.builder(uri).storageOptions(options()).allocator(allocator).load();
    assertThat(after.version()).isEqualTo(3);
    assertSameRows(sortedById(javelinScan(after, null)), want);
  }
}
