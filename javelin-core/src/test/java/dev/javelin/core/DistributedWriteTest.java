package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.schema.LanceSchema;
import dev.javelin.io.LocalObjectStore;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DistributedWriteTest {
  @TempDir
  Path dir;
  @TestAllocator private BufferAllocator allocator;

  private VectorSchemaRoot ids(long from, int n) {
    BigIntVector id = new BigIntVector("id", allocator);
    for (int i = 0; i < n; i++) {
      id.setSafe(i, from + i);
    }
    VectorSchemaRoot r = VectorSchemaRoot.of(id);
    r.setRowCount(n);
    return r;
  }

  private static List<String> rows(Dataset ds, String... columns) throws IOException {
    List<String> out = new ArrayList<>();
    try (ArrowReader r = ds.newScan().columns(columns).build()) {
      while (r.loadNextBatch()) {
        VectorSchemaRoot root = r.getVectorSchemaRoot();
        for (int i = 0; i < root.getRowCount(); i++) {
          List<String> vs = new ArrayList<>();
          for (var v : root.getFieldVectors()) {
            vs.add(String.valueOf(v.getObject(i)));
          }
          out.add(String.join("|", vs));
        }
      }
    }
    return out;
  }

  private long dataFiles(Path p) throws IOException {
    try (Stream<Path> s = Files.list(p.resolve("data"))) {
      return s.count();
    }
  }

  @Test
  void workersWriteFragmentsTheCoordinatorCreatesThenAppends() throws IOException {
    Path p = dir.resolve("d");
    LocalObjectStore store = new LocalObjectStore(p);
    LanceSchema schema;
    List<DistributedWrite.Written> written = new ArrayList<>();
    try (VectorSchemaRoot a = ids(0, 10); VectorSchemaRoot b = ids(10, 5)) {
      schema = LanceSchema.fromArrow(a.getSchema());
      LanceSchema onWorker = DistributedWrite.schemaFromBytes(DistributedWrite.schemaBytes(schema));
      assertThat(onWorker).isEqualTo(schema);
      for (VectorSchemaRoot batch : List.of(a, b)) {
        try (DistributedWrite.FragmentSink sink = DistributedWrite.fragmentSink(store, onWorker,
            LanceFileVersion.V2_1, WriteParams.defaults())) {
          sink.write(batch);
          written.add(sink.finish());
        }
      }
    }
    Dataset ds = DistributedWrite.commitFragments(store, 0, schema, LanceFileVersion.V2_1, false, written, allocator);
    assertThat(ds.manifest().fragments()).hasSize(2);
    assertThat(ds.countRows()).isEqualTo(15);
    try (VectorSchemaRoot c = ids(100, 3);
        DistributedWrite.FragmentSink sink = DistributedWrite.fragmentSink(store, ds.schema(), ds.fileVersion(),
            WriteParams.defaults())) {
      sink.write(c);
      ds = DistributedWrite.commitFragments(store, ds.version(), null, ds.fileVersion(), false,
          List.of(sink.finish()), allocator);
    }
    assertThat(ds.countRows()).isEqualTo(18);
    assertThat(rows(ds, "id")).endsWith("100", "101", "102");
  }

  @Test
  void aSinkClosedUnfinishedDeletesItsFiles() throws IOException {
    Path p = dir.resolve("d");
    LocalObjectStore store = new LocalObjectStore(p);
    try (VectorSchemaRoot a = ids(0, 10);
        DistributedWrite.FragmentSink sink = DistributedWrite.fragmentSink(store,
            LanceSchema.fromArrow(a.getSchema()), LanceFileVersion.V2_1, WriteParams.builder().maxRowsPerFile(4)
                .build())) {
      sink.write(a);
    }
    assertThat(dataFiles(p)).isZero();
  }

  @Test
  void columnFilesPerFragmentCommitAsOneMerge() throws IOException {
    Path p = dir.resolve("d");
    List<VectorSchemaRoot> batches = List.of(ids(0, 10), ids(10, 10));
    Dataset ds;
    try {
      ds = Dataset.create(p, batches, WriteParams.builder().maxRowsPerFile(10).build(), allocator);
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
    ds = ds.delete("id = 3 OR id = 15");
    Schema out = new Schema(List.of(Field.nullable("twice", new ArrowType.Int(64, true))));
    LanceSchema added = DistributedWrite.newColumns(ds, out);
    List<DistributedWrite.Written> written = new ArrayList<>();
    for (var f : ds.manifest().fragments()) {
      written.add(DistributedWrite.writeColumnFile(ds, f.id(), added, List.of("id"), batch -> {
        BigIntVector in = (BigIntVector) batch.getVector("id");
        BigIntVector twice = new BigIntVector("twice", allocator);
        for (int i = 0; i < batch.getRowCount(); i++) {
          twice.setSafe(i, in.get(i) * 2);
        }
        VectorSchemaRoot r = VectorSchemaRoot.of(twice);
        r.setRowCount(batch.getRowCount());
        return r;
      }, 4));
    }
    Dataset after = DistributedWrite.commitColumns(ds, added, written);
    assertThat(after.versions().get(after.versions().size() - 1).operation()).isEqualTo("Merge");
    List<String> want = new ArrayList<>();
    for (String id : rows(ds, "id")) {
      want.add(id + "|" + Long.parseLong(id) * 2);
    }
    assertThat(rows(after, "id", "twice")).isEqualTo(want).hasSize(18);

    // A result without a file for some fragment commits nothing and deletes the files given.
    Dataset again = after;
    LanceSchema more = DistributedWrite.newColumns(again, new Schema(List.of(Field.nullable("x",
        new ArrowType.Int(64, true)))));
    long before = dataFiles(p);
    DistributedWrite.Written one = DistributedWrite.writeColumnFile(again, again.manifest().fragments().get(0).id(),
        more, List.of(), batch -> {
          BigIntVector x = new BigIntVector("x", allocator);
          x.allocateNew(batch.getRowCount());
          VectorSchemaRoot r = VectorSchemaRoot.of(x);
          r.setRowCount(batch.getRowCount());
          return r;
        }, 8);
    long fragment1 = again.manifest().fragments().get(1).id();
    assertThatThrownBy(() -> DistributedWrite.commitColumns(again, more, List.of(one)))
        .hasMessage("No new column file for fragment " + fragment1 + ": " + again.location());
    assertThat(dataFiles(p)).isEqualTo(before);
    assertThat(Dataset.open(p, allocator).version()).isEqualTo(again.version());
  }

  @Test
  void aFailingColumnFunctionDeletesWhatItWrote() throws IOException {
    Path p = dir.resolve("d");
    List<VectorSchemaRoot> batches = List.of(ids(0, 20));
    Dataset ds;
    try {
      ds = Dataset.create(p, batches, WriteParams.defaults(), allocator);
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
    LanceSchema added = DistributedWrite.newColumns(ds, new Schema(List.of(Field.nullable("y",
        new ArrowType.Int(64, true)))));
    int[] calls = {0};
    Dataset d = ds;
    assertThatThrownBy(() -> DistributedWrite.writeColumnFile(d, 0, added, List.of("id"), batch -> {
      if (++calls[0] == 3) {
        throw new IllegalStateException("boom");
      }
      BigIntVector y = new BigIntVector("y", allocator);
      y.allocateNew(batch.getRowCount());
      VectorSchemaRoot r = VectorSchemaRoot.of(y);
      r.setRowCount(batch.getRowCount());
      return r;
    }, 4)).hasMessage("boom");
    assertThat(dataFiles(p)).isEqualTo(1);
  }
}
