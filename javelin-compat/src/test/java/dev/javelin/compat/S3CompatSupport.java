package dev.javelin.compat;

import static dev.javelin.compat.DatasetCompatSupport.batches;
import static dev.javelin.compat.DatasetCompatSupport.readAll;
import static dev.javelin.compat.DatasetCompatSupport.readerOf;

import dev.javelin.core.Dataset;
import dev.javelin.testing.S3MockServer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.ReadOptions;
import org.lance.ipc.ScanOptions;

/**
 * Datasets on S3Mock shared by Javelin and lance-core 7.0.0: one bucket per test class, one
 * prefix per dataset, both sides given the same Lance storage options. lance-core commits on
 * {@code s3://} with its conditional-put commit handler ({@code If-None-Match: *} on the manifest),
 * which S3Mock answers with 412 when the version exists; no commit handler option is needed.
 */
final class S3CompatSupport {
  private S3CompatSupport() {}

  static Map<String, String> options() {
    return S3MockServer.shared().storageOptions();
  }

  /** A fresh dataset URI in {@code bucket}. */
  static String newUri(String bucket) {
    return "s3://" + bucket + "/" + UUID.randomUUID() + "/ds";
  }

  static Dataset javelinOpen(String uri, BufferAllocator a) {
    return Dataset.builder(uri).storageOptions(options()).allocator(a).load();
  }

  static org.lance.Dataset lanceOpen(String uri, BufferAllocator a) {
    return org.lance.Dataset.open(a, uri, new ReadOptions.Builder().setStorageOptions(options()).build());
  }

  /** lance-core writes rows [start, start + rows) of {@link DatasetCompatSupport#SCHEMA} at {@code uri}. */
  static void lanceWrite(BufferAllocator a, String uri, org.lance.WriteParams.WriteMode mode, long start, int rows,
      int maxRowsPerFile) {
    lanceWrite(a, uri, options(), mode, start, rows, maxRowsPerFile);
  }

  /** lance-core writes rows [start, start + rows) at {@code uri} with these storage options. */
  static void lanceWrite(BufferAllocator a, String uri, Map<String, String> options,
      org.lance.WriteParams.WriteMode mode, long start, int rows, int maxRowsPerFile) {
    List<VectorSchemaRoot> data = batches(a, start, rows, 400);
    try (ArrowReader reader = readerOf(a, data)) {
      org.lance.Dataset.write().allocator(a).reader(reader).uri(uri).mode(mode).storageOptions(options)
          .maxRowsPerFile(maxRowsPerFile).execute().close();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
  }

  static List<List<String>> lanceScan(org.lance.Dataset lance, String filter) throws Exception {
    ScanOptions.Builder b = new ScanOptions.Builder().batchSize(700);
    if (filter != null) {
      b.filter(filter);
    }
    try (var scanner = lance.newScan(b.build())) {
      return readAll(scanner.scanBatches());
    }
  }

  static List<List<String>> javelinScan(Dataset ds, String filter) throws Exception {
    var b = ds.newScan().batchSize(1000);
    if (filter != null) {
      b.filter(filter);
    }
    return readAll(b.build());
  }

  /** Rows in id order (the first column), for answers whose order neither side promises. */
  static List<List<String>> sortedById(List<List<String>> rows) {
    List<List<String>> out = new ArrayList<>(rows);
    out.sort(Comparator.comparing(r -> Long.parseLong(r.get(0))));
    return out;
  }
}
