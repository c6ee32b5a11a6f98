package dev.javelin.compat;

import static dev.javelin.compat.DatasetCompatSupport.assertSameRows;
import static dev.javelin.compat.DatasetCompatSupport.batch;
import static dev.javelin.compat.DatasetCompatSupport.batches;
import static dev.javelin.compat.DatasetCompatSupport.expected;
import static dev.javelin.compat.DatasetCompatSupport.javelinScan;
import static dev.javelin.compat.DatasetCompatSupport.readAll;
import static dev.javelin.compat.DatasetCompatSupport.readerOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.table.exceptions.CommitConflictException;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.FragmentMetadata;
import org.lance.FragmentOperation;
import org.lance.ipc.ScanOptions;

/**
 * Stale writers on both sides: each must find the other's transaction for the versions it missed
 * and rebase (append over append) or refuse (append over overwrite).
 */
class DatasetConcurrentCompatTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private Dataset javelinCreate(Path path, long start, int rows) {
    List<VectorSchemaRoot> data = batches(allocator, start, rows, 500);
    try {
      return Dataset.create(path, data, WriteParams.builder().fileVersion(LanceFileVersion.V2_0).build(), allocator);
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
  }

  private Dataset javelinAppend(Dataset ds, long start, int rows) {
    List<VectorSchemaRoot> data = batches(allocator, start, rows, 500);
    try {
      return ds.append(data, WriteParams.defaults());
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
  }

  private void lanceWrite(Path path, org.lance.WriteParams.WriteMode mode, long start, int rows) throws Exception {
    List<VectorSchemaRoot> data = batches(allocator, start, rows, 500);
    try (ArrowReader reader = readerOf(allocator, data)) {
      org.lance.Dataset.write().allocator(allocator).reader(reader).uri(path.toString()).mode(mode)
          .dataStorageVersion("2.0").execute().close();
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
  }

  private static List<List<String>> sortedById(List<List<String>> rows) {
    List<List<String>> out = new ArrayList<>(rows);
    out.sort(Comparator.comparing(r -> Long.parseLong(r.get(0))));
    return out;
  }

  @Test
  void staleLanceAppendRebasesOverJavelinAppend() throws Exception {
    Path path = dir.resolve("ds");
    Dataset v1 = javelinCreate(path, 0, 300);
    // lance-core writes its fragment files while reading version 1 ...
    List<FragmentMetadata> frags;
    try (VectorSchemaRoot root = batch(allocator, 300, 200)) {
      frags = org.lance.Fragment.create(path.toString(), allocator, root,
          new org.lance.WriteParams.Builder().withDataStorageVersion("2.0").build());
    }
    // ... Javelin commits version 2 meanwhile ...
    javelinAppend(v1, 500, 100);
    // ... and lance-core commits with read version 1: it must read Javelin's transaction.
    try (org.lance.Dataset lance = org.lance.Dataset.commit(allocator, path.toString(),
        new FragmentOperation.Append(frags), Optional.of(1L))) {
      assertThat(lance.version()).isEqualTo(3);
      assertThat(lance.countRows()).isEqualTo(600);
      try (var scanner = lance.newScan(new ScanOptions.Builder().build())) {
        assertSameRows(sortedById(readAll(scanner.scanBatches())), expected(allocator, 0, 600));
      }
    }
    Dataset latest = Dataset.open(path, allocator);
    assertThat(latest.version()).isEqualTo(3);
    assertSameRows(sortedById(javelinScan(latest)), expected(allocator, 0, 600));
  }

  @Test
  void staleJavelinAppendRebasesOverLanceAppend() throws Exception {
    Path path = dir.resolve("ds");
    Dataset v1 = javelinCreate(path, 0, 300);
    lanceWrite(path, org.lance.WriteParams.WriteMode.APPEND, 300, 200);
    Dataset v3 = javelinAppend(v1, 500, 100);
    assertThat(v3.version()).isEqualTo(3);
    assertThat(v3.manifest().fragments()).extracting(f -> f.id()).containsExactly(0L, 1L, 2L);
    assertSameRows(javelinScan(v3), expected(allocator, 0, 600));
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.countRows()).isEqualTo(600);
    }
  }

  @Test
  void staleJavelinAppendConflictsWithLanceOverwrite() throws Exception {
    Path path = dir.resolve("ds");
    Dataset v1 = javelinCreate(path, 0, 300);
    lanceWrite(path, org.lance.WriteParams.WriteMode.OVERWRITE, 1000, 50);
    long files = java.nio.file.Files.list(path.resolve("data")).count();
    assertThatThrownBy(() -> javelinAppend(v1, 500, 100)).isInstanceOf(CommitConflictException.class)
        .hasMessage("This Append (read version 1) conflicts with the Overwrite committed as version 2: "
            + path.toAbsolutePath());
    assertThat(java.nio.file.Files.list(path.resolve("data")).count()).isEqualTo(files);
    assertSameRows(javelinScan(Dataset.open(path, allocator)), expected(allocator, 1000, 50));
  }
}
