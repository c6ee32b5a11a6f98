package dev.javelin.core.internal.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import dev.javelin.common.ProgressListener;
import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.core.exceptions.IndexExistsException;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.schema.LanceField;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.Fragment;
import dev.javelin.table.IndexMetadata;
import dev.javelin.table.Manifest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.RoaringBitmap;

/** The build template with a kind of its own: what IndexBuild does for every kind, and the ids the rows get. */
class IndexBuildTest {
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

  // Rows 0..999 (id = row number, v = 10 * id), 300 per fragment.
  private Dataset create(boolean stableRowIds) {
    Schema schema = new Schema(List.of(new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
        Field.nullable("v", new ArrowType.Int(64, true))));
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      root.allocateNew();
      for (int i = 0; i < 1000; i++) {
        ((BigIntVector) root.getVector("id")).setSafe(i, i);
        ((BigIntVector) root.getVector("v")).setSafe(i, 10L * i);
      }
      root.setRowCount(1000);
      return Dataset.create(dir.resolve("d"), List.of(root), WriteParams.builder().fileVersion(LanceFileVersion.V2_1)
          .maxRowsPerFile(300).enableStableRowIds(stableRowIds).build(), allocator);
    }
  }

  /**
   * A kind of index of its own: per pass, the (value, id) pairs it was given; it writes one file
   * holding the number of rows and records it. {@code failWrite} makes it fail after writing.
   */
  static final class Recording implements IndexKind {
    final List<Map<Long, Long>> passes = new ArrayList<>();
    boolean failWrite;

    @Override
    public LanceField field(Dataset ds, String column) {
      return ds.fields(List.of(column)).get(0);
    }

    @Override
    public List<String> fileNames() {
      return List.of("rows.bin");
    }

    @Override
    public IndexKind.Builder create(Dataset ds, LanceField field, BufferAllocator allocator) {
      return new IndexKind.Builder() {
        Map<Long, Long> pass;

        @Override
        public int passes() {
          return 2;
        }

        @Override
        public void startPass(int p) {
          assertThat(p).isEqualTo(passes.size());
          pass = new TreeMap<>();
          passes.add(pass);
        }

        @Override
        public void add(FieldVector values, long[] ids, int n) {
          for (int i = 0; i < n; i++) {
            pass.put(ids[i], ((BigIntVector) values).get(i));
          }
        }

        @Override
        public List<IndexMetadata.IndexFile> write(ObjectStore store, String directory) throws IOException {
          byte[] bytes = ByteBuffer.allocate(8).putLong(pass.size()).array();
          store.put(directory + "/rows.bin", bytes);
          if (failWrite) {
            throw new IOException("disk full");
          }
          return List.of(new IndexMetadata.IndexFile("rows.bin", bytes.length));
        }

        @Override
        public void describe(IndexMetadata.Builder entry) {
          entry.details(new IndexMetadata.Details("/test.RecordingDetails", ByteString.copyFromUtf8("r")))
              .indexVersion(3);
        }

        @Override
        public long rowsAdded() {
          return pass.size();
        }

        @Override
        public long rowsDropped() {
          return 0;
        }
      };
    }

    @Override
    public Extension extend(Dataset ds, List<IndexMetadata> entries, LanceField field, List<Fragment> fresh,
        BufferAllocator allocator) {
      throw new UnsupportedOperationException("not extended here");
    }
  }

  @Test
  void aKindGetsEveryLiveRowWithItsAddressAndItsEntryIsCommitted() throws IOException {
    Dataset ds = create(false).delete("id >= 290 AND id < 310");
    Recording kind = new Recording();
    Manifest m = IndexBuild.create(ds, ds.table(), "v", kind, null, false, ProgressListener.NONE, allocator);
    assertThat(m.version()).isEqualTo(ds.version() + 1);
    // Both passes get the 980 live rows, each under its row address.
    assertThat(kind.passes).hasSize(2);
    assertThat(kind.passes.get(1)).isEqualTo(kind.passes.get(0)).hasSize(980);
    kind.passes.get(0).forEach((id, v) -> {
      long row = v / 10;
      assertThat(id).isEqualTo((row / 300) << 32 | row % 300);
    });
    assertThat(kind.passes.get(0)).doesNotContainValue(3000L);
    IndexMetadata entry = m.indices().get(0);
    assertThat(entry.name()).isEqualTo("v_idx");
    assertThat(entry.fields()).containsExactly(ds.fields(List.of("v")).get(0).id());
    assertThat(entry.datasetVersion()).isEqualTo(ds.version());
    assertThat(entry.fragmentBitmap()).isEqualTo(RoaringBitmap.bitmapOf(0, 1, 2, 3));
    assertThat(entry.details()).isEqualTo(new IndexMetadata.Details("/test.RecordingDetails",
        ByteString.copyFromUtf8("r")));
    assertThat(entry.indexVersion()).hasValue(3);
    assertThat(entry.createdAt()).isPresent();
    assertThat(entry.files()).containsExactly(new IndexMetadata.IndexFile("rows.bin", 8));
    assertThat(ByteBuffer.wrap(ds.store().read("_indices/" + entry.uuid() + "/rows.bin")).getLong()).isEqualTo(980);
  }

  @Test
  void withStableRowIdsAKindGetsTheRowIds() throws IOException {
    Dataset ds = create(true);
    // The updated rows move to a new fragment and keep their row ids (their row numbers here).
    Dataset updated = ds.update("id < 5", Map.of("v", "v + 1")).dataset();
    Recording kind = new Recording();
    IndexBuild.create(updated, updated.table(), "id", kind, "by_id", false, ProgressListener.NONE, allocator);
    Map<Long, Long> rows = kind.passes.get(0);
    assertThat(rows).hasSize(1000);
    rows.forEach((id, value) -> assertThat(id).isEqualTo(value));
    assertThat(updated.manifest().fragments().get(0).liveRows()).isEqualTo(295);
  }

  @Test
  void theNameRulesAreTheSameForEveryKind() {
    Dataset ds = create(false);
    Manifest first = IndexBuild.create(ds, ds.table(), "v", new Recording(), null, false, ProgressListener.NONE,
        allocator);
    Dataset v2 = ds.at(first);
    assertThatThrownBy(() -> IndexBuild.create(v2, v2.table(), "v", new Recording(), null, false,
        ProgressListener.NONE, allocator))
        .isInstanceOf(IndexExistsException.class)
        .hasMessage("Index 'v_idx' already exists: " + ds.location());
    Manifest replaced = IndexBuild.create(v2, v2.table(), "v", new Recording(), null, true, ProgressListener.NONE,
        allocator);
    assertThat(replaced.indices()).hasSize(1);
    assertThat(replaced.indices().get(0).sameUuid(first.indices().get(0))).isFalse();
  }

  @Test
  void aFailedBuildCommitsNothingAndDeletesWhatItWrote() throws IOException {
    Dataset ds = create(false);
    Recording kind = new Recording();
    kind.failWrite = true;
    assertThatThrownBy(() -> IndexBuild.create(ds, ds.table(), "v", kind, null, false, ProgressListener.NONE,
        allocator))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessage("Creating index 'v_idx' failed: " + ds.location())
        .hasRootCauseMessage("disk full");
    assertThat(ds.checkoutLatest().version()).isEqualTo(ds.version());
    assertThat(ds.store().list("_indices/")).isEmpty();
  }
}
