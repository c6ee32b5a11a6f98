package dev.javelin.core.compaction;

import dev.javelin.index.BTreeIndex;
import dev.javelin.index.BTreeIndexBuilder;
import dev.javelin.index.IndexType;
import dev.javelin.index.RowAddressMap;
import dev.javelin.table.Manifest;
import dev.javelin.table.io.ObjectStore;
import dev.javelin.table.proto.TableProtos;
import dev.javelin.table.proto.TransactionProtos.Transaction.Rewrite.RewrittenIndex;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Remaps the indices covering rewritten fragments (as Lance's {@code IndexRemapper}): each is
 * copied under a new uuid with its row addresses passed through the rewrite's address map. Only
 * BTree and IVF_PQ indices can be remapped; the fragment reuse system index is never remapped.
 * Public because index settling ({@code Dataset.settleIndices()}) remaps through reordered
 * rewrites' row maps with the same code; not an API for applications.
 */
public final class IndexRemapper {
  static final String FRAG_REUSE_INDEX_NAME = "__lance_frag_reuse";

  private final List<String> written = new ArrayList<>();

  /** A remapper that has written nothing yet. */
  public IndexRemapper() {}

  /** The keys of the index files written so far (to delete if the commit fails). */
  public List<String> written() {
    return written;
  }

  /** The indices of {@code m} whose coverage includes one of {@code fragmentIds}. */
  static List<TableProtos.IndexMetadata> covering(Manifest m, Collection<Long> fragmentIds) {
    List<TableProtos.IndexMetadata> out = new ArrayList<>();
    for (TableProtos.IndexMetadata i : m.indices()) {
      if (FRAG_REUSE_INDEX_NAME.equals(i.getName())) {
        continue;
      }
      if (fragmentIds.stream().anyMatch(id -> DefaultCompactionPlanner.covers(i, id))) {
        out.add(i);
      }
    }
    return out;
  }

  /**
   * Refuses, before any work, a rewrite whose fragments an index Javelin cannot remap covers.
   *
   * @throws IndexRemapUnsupportedException naming the index
   */
  static void checkRemappable(Manifest m, Collection<Long> fragmentIds, String location) {
    for (TableProtos.IndexMetadata i : covering(m, fragmentIds)) {
      if (IndexType.fromDetailsTypeUrl(i.getIndexDetails().getTypeUrl()) == IndexType.OTHER) {
        throw new IndexRemapUnsupportedException("Index '" + i.getName() + "' covers fragments " + fragmentIds
            + ", which compaction would rewrite; Javelin can remap only BTree and IVF_PQ indices (column repacks "
            + "work, use CompactionScope.REPACK_COLUMNS): " + location);
      }
    }
  }

  /** Writes a remapped copy of every index of {@code indices} and says how to swap it in. */
  public List<RewrittenIndex> remap(ObjectStore store, dev.javelin.table.BasePaths bases,
      List<TableProtos.IndexMetadata> indices, RowAddressMap map, BufferAllocator allocator, String location) {
    List<RewrittenIndex> out = new ArrayList<>();
    for (TableProtos.IndexMetadata i : indices) {
      String oldUuid = dev.javelin.table.IndexUuids.toText(i.getUuid().getUuid());
      String newUuid = UUID.randomUUID().toString();
      String dir = BTreeIndex.directory(newUuid);
      // The old index may live under a shallow clone's source; the remapped one is this dataset's.
      ObjectStore from = bases.indexStore(store, i);
      try {
        // One case per index kind Javelin can remap (checkRemappable refused the others).
        switch (IndexType.fromDetailsTypeUrl(i.getIndexDetails().getTypeUrl())) {
          case BTREE:
            written.add(dir + "/page_data.lance");
            written.add(dir + "/page_lookup.lance");
            try (BTreeIndex index = BTreeIndex.open(from, oldUuid, allocator)) {
              index.remap(map, store, newUuid, BTreeIndexBuilder.Options.defaults());
            }
            break;
          case VECTOR:
            // Centroids and codebooks stay; only the row ids (and the codes of deleted rows) change.
            written.add(dir + "/index.idx");
            written.add(dir + "/auxiliary.idx");
            dev.javelin.index.ivf.IvfPqIndex.remap(from, store, oldUuid, newUuid, map, allocator);
            break;
          default:
            throw new IndexRemapUnsupportedException("Javelin cannot remap index '" + i.getName() + "': " + location);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Remapping index '" + i.getName() + "' failed: " + location, e);
      }
      out.add(RewrittenIndex.newBuilder()
          .setOldId(i.getUuid())
          .setNewId(TableProtos.UUID.newBuilder().setUuid(dev.javelin.table.IndexUuids.toBytes(newUuid)))
          .setNewIndexDetails(i.getIndexDetails())
          .setNewIndexVersion(i.getIndexVersion())
          .build());
    }
    return out;
  }
}
