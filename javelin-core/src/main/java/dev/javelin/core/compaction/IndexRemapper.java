package dev.javelin.core.compaction;

import com.google.protobuf.Any;
import dev.javelin.core.exceptions.IndexRemapUnsupportedException;
import dev.javelin.index.IndexType;
import dev.javelin.index.RowAddressMap;
import dev.javelin.index.exceptions.UnsupportedIndexKindException;
import dev.javelin.core.internal.index.ZonedRebuild;
import dev.javelin.index.internal.bitmap.BitmapIndex;
import dev.javelin.index.internal.bitmap.BitmapIndexWriter;
import dev.javelin.index.internal.btree.BTreeIndex;
import dev.javelin.index.internal.btree.BTreeIndexBuilder;
import dev.javelin.index.internal.bloom.BloomFilterIndex;
import dev.javelin.index.internal.ivf.IvfPqIndex;
import dev.javelin.index.internal.labellist.LabelListIndex;
import dev.javelin.index.internal.ngram.NGramIndex;
import dev.javelin.index.internal.ngram.NGramWriter;
import dev.javelin.index.internal.zonemap.ZoneMapIndex;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.BasePaths;
import dev.javelin.table.IndexMetadata;
import dev.javelin.table.IndexUuids;
import dev.javelin.table.Manifest;
import dev.javelin.table.UnremappedIndices;
import dev.javelin.table.proto.TableProtos;
import dev.javelin.table.proto.TransactionProtos.Transaction.Rewrite.RewrittenIndex;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Keeps the indices covering rewritten fragments right (as Lance's {@code IndexRemapper}). BTree,
 * bitmap, label list, n-gram and IVF_PQ indices Javelin reads are remapped: copied under a new
 * uuid with their row addresses passed through the rewrite's address map. Zone maps and bloom
 * filters are remapped by building their zones again from the rewritten data (a
 * {@link ZoneRebuilder}), since a zone names a fragment and row offsets. A rewrite leaves each
 * of the other kinds as {@link #action} says, which is what keeps lance-core's answers right for
 * that kind (each choice proven in javelin-compat's {@code CompactionIndexKindsCompatTest};
 * docs/compaction-indices.md has the table):
 * <ul>
 *   <li>{@link Action#UNCOVER} (zone map, bloom filter, when the remapper has no rebuilder): the old
 *       fragments leave the index's fragment bitmap. lance-core then scans the new fragments with
 *       the filter, and applies the index's answers fragment by fragment to the fragments it
 *       covers, so its entries for the old (gone) fragments are never read.
 *   <li>{@link Action#RETIRE} (inverted/FTS, vector indices Javelin cannot read such as HNSW,
 *       and any kind Javelin does not know): the bitmap keeps the old ids as retired ids.
 *       lance-core searches these through a prefilter built from the bitmap, which treats the
 *       rows of covered fragments that are gone as deleted (as after a delete that removed a
 *       whole fragment); without those ids it would return the old rows and fail to take them.
 *       The new fragments are uncovered and searched without the index. This is also what
 *       lance-core's own compaction does with indices it cannot remap (zone maps, bloom filters).
 * </ul>
 * The fragment reuse system index is never remapped. Public because index settling
 * ({@code Dataset.settleIndices()}) remaps through reordered rewrites' row maps with the same
 * code; not an API for applications.
 */
public final class IndexRemapper {
  static final String FRAG_REUSE_INDEX_NAME = "__lance_frag_reuse";

  /** What a fragment rewrite does to an index covering its old fragments. */
  public enum Action {
    /** Copy it under a new uuid with the rows' new addresses; it covers the new fragments. */
    REMAP,
    /** Keep it, without the old fragments in its coverage. */
    UNCOVER,
    /** Keep it, its coverage naming the old fragments as retired ids. */
    RETIRE
  }

  /**
   * Writes the copy of a zone map or bloom filter for the fragments it covers after the rewrite
   * under a new directory (its zones are built again from the rewritten data).
   */
  @FunctionalInterface
  public interface ZoneRebuilder {
    /**
     * Writes the copy of {@code index} under {@code directory}.
     *
     * @return the keys of the files written
     */
    List<String> write(IndexMetadata index, String directory) throws IOException;
  }

  private final List<String> written = new ArrayList<>();
  private final ZoneRebuilder zones;

  /** A remapper that has written nothing yet and leaves zone maps and bloom filters uncovered. */
  public IndexRemapper() {
    this(null);
  }

  /**
   * A remapper that has written nothing yet and rebuilds zone maps and bloom filters with
   * {@code zones} (null: they are uncovered).
   */
  public IndexRemapper(ZoneRebuilder zones) {
    this.zones = zones;
  }

  /** The keys of the index files written so far (to delete if the commit fails). */
  public List<String> written() {
    return written;
  }

  /**
   * What a rewrite does to {@code index}, by its kind. A vector index is REMAP here but turns
   * RETIRE when its files are not an IVF_PQ index Javelin reads ({@link #tryRemap}); a zone map or
   * bloom filter is REMAP here but UNCOVER for a remapper without a {@link ZoneRebuilder}.
   */
  public static Action action(IndexMetadata index) {
    switch (detailsKind(index)) {
      case "BTreeIndexDetails":
      case "VectorIndexDetails":
      case "BitmapIndexDetails":
      case "LabelListIndexDetails":
      case "NGramIndexDetails":
      case "ZoneMapIndexDetails":
      case "BloomFilterIndexDetails":
        return Action.REMAP;
      default:
        return Action.RETIRE;
    }
  }

  // The index's details message name, e.g. BitmapIndexDetails (Lance names the kind by it; the
  // package differs between kinds and versions).
  private static String detailsKind(IndexMetadata index) {
    String url = index.details().typeUrl();
    return url.substring(url.lastIndexOf('.') + 1);
  }

  /** The indices of {@code m} whose coverage includes one of {@code fragmentIds}. */
  static List<IndexMetadata> covering(Manifest m, Collection<Long> fragmentIds) {
    List<IndexMetadata> out = new ArrayList<>();
    for (IndexMetadata i : m.indices()) {
      if (FRAG_REUSE_INDEX_NAME.equals(i.name())) {
        continue;
      }
      if (fragmentIds.stream().anyMatch(id -> DefaultCompactionPlanner.covers(i, id))) {
        out.add(i);
      }
    }
    return out;
  }

  /**
   * What a rewrite that defers remapping does with the indices covering {@code fragmentIds}
   * besides recording the fragment reuse index: lance-core 7.0.0 translates the coverage of every
   * index through it, but loads zone maps and bloom filters without translating their entries
   * (their zones name fragments and row offsets), so those would claim the new fragments with
   * the old fragments' zones and miss rows. They stop covering the old fragments instead.
   */
  static UnremappedIndices deferring(Manifest m, Collection<Long> fragmentIds) {
    Set<String> uncovered = new HashSet<>();
    for (IndexMetadata i : covering(m, fragmentIds)) {
      String kind = detailsKind(i);
      if (kind.equals("ZoneMapIndexDetails") || kind.equals("BloomFilterIndexDetails")) {
        uncovered.add(i.uuid());
      }
    }
    return new UnremappedIndices(uncovered, Set.of());
  }

  /**
   * Refuses a rewrite deferring the remap of an inverted or vector index covering
   * {@code fragmentIds}: lance-core 7.0.0 translates their coverage through the fragment reuse
   * index but then fails searching them (a vector search takes rows of the old fragments; a full
   * text search panics), and neither uncovering nor retiring them helps once a reuse index
   * translates every bitmap.
   *
   * @throws IndexRemapUnsupportedException naming the index
   */
  static void checkDeferrable(Manifest m, Collection<Long> fragmentIds, String location) {
    for (IndexMetadata i : covering(m, fragmentIds)) {
      String kind = detailsKind(i);
      if (kind.equals("VectorIndexDetails") || kind.equals("InvertedIndexDetails")) {
        throw new IndexRemapUnsupportedException("Index '" + i.name() + "' covers fragments " + fragmentIds
            + ", which compaction would rewrite; lance-core cannot search an inverted or vector index through a "
            + "fragment reuse index, so its remap cannot be deferred (compact with deferIndexRemap false): "
            + location);
      }
    }
  }

  /** What a rewrite did with the indices covering its old fragments. */
  record Outcome(List<RewrittenIndex> remapped, UnremappedIndices unremapped) {}

  /**
   * Remaps every index of {@code indices} Javelin can remap, and says what becomes of the others
   * ({@link #action}).
   */
  Outcome rewrite(ObjectStore store, BasePaths bases, List<IndexMetadata> indices, RowAddressMap map,
      BufferAllocator allocator, String location) {
    List<RewrittenIndex> remapped = new ArrayList<>();
    Set<String> uncovered = new HashSet<>();
    Set<String> retired = new HashSet<>();
    for (IndexMetadata i : indices) {
      switch (action(i)) {
        case UNCOVER:
          uncovered.add(i.uuid());
          break;
        case RETIRE:
          retired.add(i.uuid());
          break;
        default:
          if (zones == null && ZonedRebuild.applies(i)) {
            uncovered.add(i.uuid());
            break;
          }
          tryRemap(store, bases, i, map, allocator, location).ifPresentOrElse(remapped::add,
              () -> retired.add(i.uuid()));
      }
    }
    return new Outcome(remapped, new UnremappedIndices(uncovered, retired));
  }

  /**
   * Writes a remapped copy of {@code index} if it is a BTree, bitmap, label list, n-gram or an
   * IVF_PQ index Javelin reads;
   * empty for any other kind (nothing written).
   */
  public Optional<RewrittenIndex> tryRemap(ObjectStore store, BasePaths bases, IndexMetadata index, RowAddressMap map,
      BufferAllocator allocator, String location) {
    if (IndexType.fromDetailsTypeUrl(index.details().typeUrl()) == IndexType.VECTOR) {
      // Only the files tell an IVF_PQ from an HNSW or other IVF index (the details are empty).
      int before = written.size();
      try {
        return Optional.of(remap(store, bases, List.of(index), map, allocator, location).get(0));
      } catch (UnsupportedIndexKindException e) {
        written.subList(before, written.size()).clear(); // refused on reading, before writing
        return Optional.empty();
      }
    }
    if (action(index) != Action.REMAP || zones == null && ZonedRebuild.applies(index)) {
      return Optional.empty();
    }
    return Optional.of(remap(store, bases, List.of(index), map, allocator, location).get(0));
  }

  // Writes a remapped copy of every index of `indices` and says how to swap it in; an old index
  // may live under a shallow clone's source (`bases`), the remapped one is this dataset's.
  private List<RewrittenIndex> remap(ObjectStore store, BasePaths bases, List<IndexMetadata> indices,
      RowAddressMap map, BufferAllocator allocator, String location) {
    List<RewrittenIndex> out = new ArrayList<>();
    for (IndexMetadata i : indices) {
      String oldUuid = i.uuid();
      String newUuid = UUID.randomUUID().toString();
      String dir = BTreeIndex.directory(newUuid);
      // The old index may live under a shallow clone's source; the remapped one is this dataset's.
      ObjectStore from = bases.indexStore(store, i);
      try {
        // One case per index kind Javelin can remap (tryRemap keeps the others out).
        switch (IndexType.fromDetailsTypeUrl(i.details().typeUrl())) {
          case BTREE:
            written.add(dir + "/page_data.lance");
            written.add(dir + "/page_lookup.lance");
            try (BTreeIndex index = BTreeIndex.open(from, oldUuid, allocator)) {
              index.remap(map, store, newUuid, BTreeIndexBuilder.Options.defaults());
            }
            break;
          case VECTOR:
            // Centroids and codebooks stay; only the row ids (and the codes of deleted rows) change.
            // (The old files are read before any is written: an index of another kind writes none.)
            written.add(dir + "/index.idx");
            written.add(dir + "/auxiliary.idx");
            IvfPqIndex.remap(from, store, oldUuid, newUuid, map, allocator);
            break;
          case BITMAP:
            written.add(dir + "/" + BitmapIndex.FILE_NAME);
            BitmapIndexWriter.remap(from, BTreeIndex.directory(oldUuid), store, dir, map, Map.of(), List.of(), allocator);
            break;
          case LABEL_LIST:
            written.add(dir + "/" + BitmapIndex.FILE_NAME);
            LabelListIndex.remap(from, BTreeIndex.directory(oldUuid), store, dir, map, allocator);
            break;
          case NGRAM:
            written.add(dir + "/" + NGramIndex.FILE_NAME);
            NGramWriter.remap(from, BTreeIndex.directory(oldUuid), store, dir, map, allocator);
            break;
          case ZONEMAP:
          case BLOOM_FILTER:
            // Registered first: a rebuild that fails part way may leave its file behind.
            written.add(dir + "/" + (IndexType.fromDetailsTypeUrl(i.details().typeUrl()) == IndexType.ZONEMAP
                ? ZoneMapIndex.FILE_NAME : BloomFilterIndex.FILE_NAME));
            zones.write(i, dir);
            break;
          default:
            throw new IndexRemapUnsupportedException("Javelin cannot remap index '" + i.name() + "': " + location);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Remapping index '" + i.name() + "' failed: " + location, e);
      }
      out.add(RewrittenIndex.newBuilder()
          .setOldId(TableProtos.UUID.newBuilder().setUuid(IndexUuids.toBytes(oldUuid)))
          .setNewId(TableProtos.UUID.newBuilder().setUuid(IndexUuids.toBytes(newUuid)))
          .setNewIndexDetails(Any.newBuilder().setTypeUrl(i.details().typeUrl()).setValue(i.details().value()))
          .setNewIndexVersion(i.indexVersion().orElse(0))
          .build());
    }
    return out;
  }
}
