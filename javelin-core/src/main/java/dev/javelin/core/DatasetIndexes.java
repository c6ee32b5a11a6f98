package dev.javelin.core;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import dev.javelin.format.LanceFileReader;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.schema.LanceField;
import dev.javelin.index.BTreeIndex;
import dev.javelin.index.BTreeIndexBuilder;
import dev.javelin.index.IndexType;
import dev.javelin.table.Fragment;
import dev.javelin.table.Manifest;
import dev.javelin.table.Table;
import dev.javelin.table.Transaction;
import dev.javelin.table.proto.TableProtos;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.roaringbitmap.RoaringBitmap;

/** Creating, listing and dropping a dataset's indices (each change is a CreateIndex commit). */
final class DatasetIndexes {
  private DatasetIndexes() {}

  /**
   * Builds a BTree over {@code column} from every row of every fragment and commits it.
   *
   * @param name the index name, or null for Lance's default {@code {column}_idx}
   * @param replace whether an index of the same name may be replaced
   */
  static Manifest create(Dataset ds, Table table, String column, IndexType type, String name, boolean replace,
      BufferAllocator allocator) {
    if (type == IndexType.VECTOR) {
      return VectorIndexBuild.create(ds, table, column, null, name, replace, allocator);
    }
    if (type != IndexType.BTREE) {
      throw new UnsupportedOperationException("Javelin cannot build " + type + " indices yet: " + ds.location());
    }
    LanceField field = ds.fields(List.of(column)).get(0);
    String indexName = name == null ? column + "_idx" : name;
    Manifest m = ds.manifest();
    List<TableProtos.IndexMetadata> removed = new ArrayList<>();
    for (TableProtos.IndexMetadata existing : m.indices()) {
      if (existing.getName().equals(indexName)) {
        if (!replace) {
          throw new IllegalArgumentException("Index '" + indexName + "' already exists: " + ds.location());
        }
        removed.add(existing);
      }
    }
    String uuid = UUID.randomUUID().toString();
    String dir = BTreeIndex.directory(uuid);
    List<String> written = List.of(dir + "/page_data.lance", dir + "/page_lookup.lance");
    boolean committed = false;
    try {
      RoaringBitmap covered = new RoaringBitmap();
      try (BTreeIndexBuilder b = new BTreeIndexBuilder(field.toArrow(), BTreeIndexBuilder.Options.defaults(),
          allocator)) {
        for (Fragment f : m.fragments()) {
          addFragment(ds, f, field, b, allocator);
          covered.add((int) f.id());
        }
        b.finish(ds.store(), dir);
      }
      TableProtos.IndexMetadata meta = TableProtos.IndexMetadata.newBuilder()
          .setUuid(TableProtos.UUID.newBuilder().setUuid(uuidBytes(uuid)))
          .addFields(field.id())
          .setName(indexName)
          .setDatasetVersion(m.version())
          .setFragmentBitmap(serialize(covered))
          .setIndexDetails(Any.newBuilder().setTypeUrl(IndexType.BTREE_DETAILS_TYPE_URL))
          .setIndexVersion(0)
          .setCreatedAt(System.currentTimeMillis())
          .build();
      Transaction txn = Transaction.createIndex(m.version(), List.of(meta), removed);
      committed = true;
      return table.newCommit(txn).cleanupOnFailure(written).commit();
    } catch (IOException e) {
      throw new UncheckedIOException("Creating index '" + indexName + "' failed: " + ds.location(), e);
    } finally {
      if (!committed) {
        for (String k : written) {
          try {
            ds.store().delete(k);
          } catch (IOException | RuntimeException ignored) {
            // best effort; the original failure is what matters
          }
        }
      }
    }
  }

  // Row address = fragment id << 32 | row offset in the fragment (deleted rows included for now).
  private static void addFragment(Dataset ds, Fragment f, LanceField field, BTreeIndexBuilder b,
      BufferAllocator allocator) throws IOException {
    FragmentFiles.Part part = FragmentFiles.plan(f, List.of(field), ds.location()).get(0);
    try (LanceFileReader r = FragmentFiles.open(ds.store(), part, allocator);
        ArrowReader in = r.read(ReadOptions.builder()
            .columns(FragmentFiles.columnNames(r, part, ds.location())).build())) {
      long offset = 0;
      long[] addresses = new long[0];
      while (in.loadNextBatch()) {
        VectorSchemaRoot batch = in.getVectorSchemaRoot();
        int n = batch.getRowCount();
        if (addresses.length < n) {
          addresses = new long[n];
        }
        for (int i = 0; i < n; i++) {
          addresses[i] = (f.id() << 32) | (offset + i);
        }
        FieldVector values = batch.getVector(0);
        b.add(values, addresses, 0, n);
        offset += n;
      }
    }
  }

  /** Drops the index named {@code name}. */
  static Manifest drop(Dataset ds, Table table, String name) {
    for (TableProtos.IndexMetadata existing : ds.manifest().indices()) {
      if (existing.getName().equals(name)) {
        return table.newCommit(Transaction.createIndex(ds.version(), List.of(), List.of(existing))).commit();
      }
    }
    throw new IllegalArgumentException("Index '" + name + "' does not exist: " + ds.location());
  }

  static List<IndexInfo> list(Dataset ds) {
    List<IndexInfo> out = new ArrayList<>();
    for (TableProtos.IndexMetadata i : ds.manifest().indices()) {
      List<String> fields = new ArrayList<>();
      for (int id : i.getFieldsList()) {
        String fieldName = "#" + id;
        for (LanceField f : ds.schema().flatten()) {
          if (f.id() == id) {
            fieldName = f.name();
          }
        }
        fields.add(fieldName);
      }
      Set<Long> fragments = new LinkedHashSet<>();
      if (!i.getFragmentBitmap().isEmpty()) {
        RoaringBitmap b = new RoaringBitmap();
        try {
          b.deserialize(i.getFragmentBitmap().asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN));
        } catch (IOException e) {
          throw new UncheckedIOException("Index '" + i.getName() + "' has a bad fragment_bitmap: " + ds.location(), e);
        }
        for (int id : b) {
          fragments.add(Integer.toUnsignedLong(id));
        }
      }
      out.add(new IndexInfo(i.getName(), uuidString(i.getUuid().getUuid()),
          IndexType.fromDetailsTypeUrl(i.getIndexDetails().getTypeUrl()), List.copyOf(fields), fragments,
          i.getDatasetVersion()));
    }
    return out;
  }

  private static ByteString serialize(RoaringBitmap b) {
    b.runOptimize();
    ByteBuffer buf = ByteBuffer.allocate(b.serializedSizeInBytes()).order(ByteOrder.LITTLE_ENDIAN);
    b.serialize(buf);
    return ByteString.copyFrom(buf.array());
  }

  // The 16 bytes of a UUID, most significant first (as Rust's Uuid::as_bytes).
  private static ByteString uuidBytes(String uuid) {
    UUID u = UUID.fromString(uuid);
    return ByteString.copyFrom(ByteBuffer.allocate(16).putLong(u.getMostSignificantBits())
        .putLong(u.getLeastSignificantBits()).array());
  }

  static String uuidString(ByteString bytes) {
    ByteBuffer b = bytes.asReadOnlyByteBuffer();
    return new UUID(b.getLong(), b.getLong()).toString();
  }
}
