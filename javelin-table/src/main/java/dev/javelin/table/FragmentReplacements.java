package dev.javelin.table;

import com.google.protobuf.ByteString;
import dev.javelin.table.exceptions.CommitConflictException;
import dev.javelin.table.exceptions.ConcurrentRewriteException;
import dev.javelin.table.proto.TableProtos;
import dev.javelin.table.proto.TransactionProtos;
import dev.javelin.table.rowids.StableRowIds;
import dev.javelin.table.stablepartition.StablePartition;
import dev.javelin.table.stablepartition.StablePartitionEntry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.roaringbitmap.RoaringBitmap;

/**
 * How compaction's operations change the fragments of the newest manifest: a Rewrite replaces
 * groups of fragments by new ones, a DataReplacement gives fragments new data files.
 */
final class FragmentReplacements {
  private FragmentReplacements() {}

  /**
   * The fragments after a Rewrite: each group's new fragments take the place of its first old one.
   *
   * @throws CommitConflictException if an old fragment is no longer there
   * @throws IllegalStateException if an index covers an old fragment (Javelin cannot remap it)
   */
  static List<TableProtos.DataFragment> rewrite(Transaction txn, Manifest current, String location) {
    TransactionProtos.Transaction.Rewrite op = txn.proto().getRewrite();
    List<TransactionProtos.Transaction.Rewrite.RewriteGroup> groups = new ArrayList<>(op.getGroupsList());
    if (op.getOldFragmentsCount() > 0 || op.getNewFragmentsCount() > 0) {
      groups.add(TransactionProtos.Transaction.Rewrite.RewriteGroup.newBuilder()
          .addAllOldFragments(op.getOldFragmentsList()).addAllNewFragments(op.getNewFragmentsList()).build());
    }
    Map<Long, TableProtos.DataFragment> byId = new LinkedHashMap<>();
    current.proto().getFragmentsList().forEach(f -> byId.put(f.getId(), f));
    Map<Long, List<TableProtos.DataFragment>> insertAt = new HashMap<>();
    Set<Long> removed = new HashSet<>();
    boolean stable = StableRowIds.enabled(current);
    for (var g : groups) {
      if (g.getOldFragmentsCount() == 0) {
        throw new IllegalArgumentException("A Rewrite group without old fragments: " + location);
      }
      for (TableProtos.DataFragment f : g.getOldFragmentsList()) {
        if (!byId.containsKey(f.getId())) {
          throw new CommitConflictException("Fragment " + f.getId() + " to rewrite is not in version "
              + current.version() + " any more: " + location, current.version());
        }
        removed.add(f.getId());
      }
      for (TableProtos.DataFragment f : g.getNewFragmentsList()) {
        if (stable && f.getRowIdSequenceCase() == TableProtos.DataFragment.RowIdSequenceCase.ROWIDSEQUENCE_NOT_SET) {
          throw new IllegalArgumentException("New fragment " + f.getId() + " of a Rewrite carries no row ids but "
              + "the dataset has stable row ids: " + location);
        }
      }
      // Fragments written under the read schema keep no column a concurrent drop removed.
      insertAt.put(g.getOldFragments(0).getId(),
          SchemaChanges.tombstone(g.getNewFragmentsList(), current.proto().getFieldsList()));
    }
    List<TableProtos.DataFragment> out = new ArrayList<>();
    for (TableProtos.DataFragment f : byId.values()) {
      List<TableProtos.DataFragment> ins = insertAt.get(f.getId());
      if (ins != null) {
        out.addAll(ins);
      }
      if (!removed.contains(f.getId())) {
        out.add(f);
      }
    }
    return out;
  }

  /**
   * The indices after a Rewrite, as Lance's {@code handle_rewrite_indices}: each rewritten index
   * takes its new uuid (and details and version when given), and its coverage loses each group's
   * old fragments and gains the new ones. A group must be wholly covered or not covered at all.
   * Indices the Rewrite does not remap lose the old fragments or keep them as retired ids, as its
   * {@link UnremappedIndices} say. With stable row ids, indices hold stable row ids, which the
   * rewrite keeps, so every index it does not name keeps its files and its coverage follows the
   * groups as a rewritten one's does (as lance-core 7.0.0, which names none there).
   * System indices are kept as they are. A reordered Rewrite (with a {@link StablePartition})
   * skips bitmap maintenance for its reordered groups and installs its stable partition entry.
   *
   * @throws IllegalStateException if another index covers a replaced fragment (its row addresses
   *     would point at rows that are gone)
   * @throws IllegalArgumentException if a rewritten index is not there, is named twice, or a group
   *     is partly covered, or a group mixes reordered and order-preserving fragments
   * @throws ConcurrentRewriteException if a reordered Rewrite's entry was built on another entry
   */
  static List<IndexMetadata> indicesAfterRewrite(Transaction txn, Manifest current, String location) {
    TransactionProtos.Transaction.Rewrite op = txn.proto().getRewrite();
    List<TransactionProtos.Transaction.Rewrite.RewriteGroup> groups = new ArrayList<>(op.getGroupsList());
    if (op.getOldFragmentsCount() > 0 || op.getNewFragmentsCount() > 0) {
      groups.add(TransactionProtos.Transaction.Rewrite.RewriteGroup.newBuilder()
          .addAllOldFragments(op.getOldFragmentsList()).addAllNewFragments(op.getNewFragmentsList()).build());
    }
    Map<ByteString, TransactionProtos.Transaction.Rewrite.RewrittenIndex> byOld =
        new LinkedHashMap<>();
    for (var r : op.getRewrittenIndicesList()) {
      if (byOld.put(r.getOldId().getUuid(), r) != null) {
        throw new IllegalArgumentException("A Rewrite remaps index " + r.getOldId().getUuid().toStringUtf8()
            + " twice: " + location);
      }
    }
    StablePartition sp = txn.stablePartition();
    if (sp != null) {
      groups = ordinaryGroups(groups, sp, current, location);
    }
    Set<Long> removed = new HashSet<>();
    groups.forEach(g -> g.getOldFragmentsList().forEach(f -> removed.add(f.getId())));
    boolean stable = StableRowIds.enabled(current);
    Set<ByteString> uncovered = uuidBytes(txn.unremapped().uncovered());
    Set<ByteString> retired = uuidBytes(txn.unremapped().retired());
    List<IndexMetadata> out = new ArrayList<>();
    for (IndexMetadata i : current.indices()) {
      var r = byOld.remove(i.uuidBytes());
      IndexMetadata fragReuse = txn.fragReuseIndex();
      if (fragReuse != null && i.name().equals(fragReuse.name())) {
        continue; // replaced by the new one, added last
      }
      if (sp != null && i.name().equals(StablePartitionEntry.NAME)) {
        continue; // replaced by the new one, added last
      }
      if (r == null && stable && fragReuse == null && !isSystem(i)) {
        // Indices of a dataset with stable row ids hold stable row ids, which the rewrite keeps:
        // their files stay, their coverage follows the rows (as lance-core 7.0.0 does).
        out.add(i.toBuilder().fragmentBitmap(rewrittenCoverage(i, groups, location)).build());
        continue;
      }
      if (r == null) {
        if (uncovered.contains(i.uuidBytes())) {
          out.add(IndexBitmaps.without(i, removed));
          continue;
        }
        // With a fragment reuse index, indices keep covering the old fragments (remap deferred);
        // a retired index keeps their ids. System indices' bitmaps are provenance, not coverage.
        if (fragReuse == null && !isSystem(i) && !retired.contains(i.uuidBytes())
            && IndexBitmaps.covering(List.of(i), removed) != null) {
          throw new IllegalStateException("Index '" + i.name() + "' covers fragments this Rewrite replaces "
              + "but the Rewrite does not remap it: " + location);
        }
        out.add(i);
        continue;
      }
      RoaringBitmap b = rewrittenCoverage(i, groups, location);
      IndexMetadata.Builder nb = i.renewed(r.getNewId()).fragmentBitmap(b);
      if (r.hasNewIndexDetails()) {
        nb.details(r.getNewIndexDetails());
        nb.indexVersion((int) r.getNewIndexVersion());
      }
      out.add(nb.build());
    }
    if (!byOld.isEmpty()) {
      throw new IllegalArgumentException("A Rewrite remaps an index that is not in version " + current.version()
          + ": " + location);
    }
    if (txn.fragReuseIndex() != null) {
      out.add(txn.fragReuseIndex());
    }
    if (sp != null) {
      out.add(sp.entryAt(current.version() + 1));
    }
    return out;
  }

  // The stored (16-byte) form of text uuids.
  private static Set<ByteString> uuidBytes(Set<String> uuids) {
    Set<ByteString> out = new HashSet<>();
    uuids.forEach(u -> out.add(IndexUuids.toBytes(u)));
    return out;
  }

  /**
   * The coverage of {@code i} after {@code groups}: a group it covers wholly is replaced by the
   * group's new fragments; one it does not cover stays out.
   *
   * @throws IllegalArgumentException if it covers a group partly (the new fragments would hold
   *     rows it does not)
   */
  private static RoaringBitmap rewrittenCoverage(IndexMetadata i,
      List<TransactionProtos.Transaction.Rewrite.RewriteGroup> groups, String location) {
    RoaringBitmap b = i.fragmentBitmap();
    for (var g : groups) {
      long covered = g.getOldFragmentsList().stream().filter(f -> b.contains((int) f.getId())).count();
      if (covered == 0) {
        continue;
      }
      if (covered != g.getOldFragmentsCount()) {
        throw new IllegalArgumentException("A Rewrite group mixes fragments index '" + i.name()
            + "' covers with ones it does not: " + location);
      }
      g.getOldFragmentsList().forEach(f -> b.remove((int) f.getId()));
      g.getNewFragmentsList().forEach(f -> b.add((int) f.getId()));
    }
    return b;
  }

  /** Whether an index is a system index ({@code __lance_*}), whose bitmap does not mean coverage. */
  static boolean isSystem(IndexMetadata i) {
    return i.isSystem();
  }

  /**
   * The groups of a reordered Rewrite that preserve row order, after checking the reordered ones:
   * a group's old fragments are all sources of the stable partition or none is; every source is
   * replaced, and the reordered groups' new fragments are exactly the destinations; the newest
   * manifest's entry is the one the stable partition was appended onto. Reordered groups leave
   * every index bitmap as it is (retired source ids stay: readers skip them, so they degrade to
   * scans instead of reading moved rows at old addresses).
   */
  private static List<TransactionProtos.Transaction.Rewrite.RewriteGroup> ordinaryGroups(
      List<TransactionProtos.Transaction.Rewrite.RewriteGroup> groups, StablePartition sp, Manifest current,
      String location) {
    IndexMetadata entry = StablePartitionEntry.find(current).orElse(null);
    if (!StablePartition.sameBase(sp, entry)) {
      throw new ConcurrentRewriteException("A concurrent reordered rewrite replaced the " + StablePartitionEntry.NAME
          + " entry this one was built on (" + sp.baseEntryVersion().orElse("none") + "; version " + current.version()
          + " has " + (entry == null ? "none" : StablePartitionEntry.uuid(entry) + "@" + entry.datasetVersion())
          + "): rebuild the reordered rewrite on the newest version and retry: " + location, current.version());
    }
    Set<Long> sources = sp.sourceIds();
    Set<Long> replaced = new HashSet<>();
    Set<Long> written = new HashSet<>();
    List<TransactionProtos.Transaction.Rewrite.RewriteGroup> ordinary = new ArrayList<>();
    for (var g : groups) {
      long reordered = g.getOldFragmentsList().stream().filter(f -> sources.contains(f.getId())).count();
      if (reordered == 0) {
        ordinary.add(g);
        continue;
      }
      if (reordered != g.getOldFragmentsCount()) {
        throw new IllegalArgumentException("A Rewrite group mixes fragments the stable partition reorders with "
            + "ones it does not: " + g.getOldFragmentsList().stream().map(TableProtos.DataFragment::getId).toList()
            + ": " + location);
      }
      g.getOldFragmentsList().forEach(f -> replaced.add(f.getId()));
      g.getNewFragmentsList().forEach(f -> written.add(f.getId()));
    }
    Set<Long> present = new HashSet<>(sources);
    present.removeAll(sp.goneSources()); // removed concurrently, their rows folded into deletions
    if (!replaced.equals(present)) {
      throw new IllegalArgumentException("The stable partition's sources " + present + " are not the fragments its "
          + "groups replace " + replaced + ": " + location);
    }
    Set<Long> destinations = new HashSet<>(sp.transition().destinations());
    if (!written.equals(destinations)) {
      throw new IllegalArgumentException("The stable partition's destinations " + destinations + " are not the "
          + "fragments its groups write " + written + ": " + location);
    }
    return ordinary;
  }

  /**
   * The fragments after a DataReplacement, applied in order to the fragments as they stand now:
   * the new file's fields are tombstoned in the fragment's other files, a file this leaves with no
   * field of the schema is removed, and the new file is added last.
   *
   * @throws CommitConflictException if a fragment is no longer there
   */
  static List<TableProtos.DataFragment> replaceData(Transaction txn, Manifest current, String location) {
    Set<Integer> live = new HashSet<>();
    current.proto().getFieldsList().forEach(f -> live.add(f.getId()));
    Map<Long, TableProtos.DataFragment> byId = new LinkedHashMap<>();
    current.proto().getFragmentsList().forEach(f -> byId.put(f.getId(), f));
    for (var r : txn.proto().getDataReplacement().getReplacementsList()) {
      TableProtos.DataFragment f = byId.get(r.getFragmentId());
      if (f == null) {
        throw new CommitConflictException("Fragment " + r.getFragmentId() + " to replace data of is not in version "
            + current.version() + " any more: " + location, current.version());
      }
      Set<Integer> moved = new HashSet<>(r.getNewFile().getFieldsList());
      moved.remove(DataFile.TOMBSTONE);
      TableProtos.DataFragment.Builder b = f.toBuilder().clearFiles();
      for (TableProtos.DataFile d : f.getFilesList()) {
        TableProtos.DataFile.Builder db = d.toBuilder();
        boolean touched = false;
        boolean anyLive = false;
        for (int i = 0; i < d.getFieldsCount(); i++) {
          int id = d.getFields(i);
          if (moved.contains(id)) {
            db.setFields(i, DataFile.TOMBSTONE);
            touched = true;
          } else if (live.contains(id)) {
            anyLive = true;
          }
        }
        if (!touched || anyLive) {
          b.addFiles(db);
        }
      }
      b.addFiles(r.getNewFile());
      // New values for every row end the overlays of those fields; moved values keep them.
      byId.put(f.getId(), txn.dataChange() ? Overlay.withoutFields(b.build(), moved) : b.build());
    }
    return new ArrayList<>(byId.values());
  }

  /**
   * Indices after a DataReplacement: one that changes values takes the replaced fragments out of
   * the coverage of indices on the replaced fields; one that does not keeps every index as it is.
   */
  static List<IndexMetadata> indicesAfterReplacement(Transaction txn, Manifest current) {
    if (!txn.dataChange()) {
      return current.indices();
    }
    List<IndexMetadata> out = new ArrayList<>();
    for (IndexMetadata i : current.indices()) {
      Set<Long> stale = new HashSet<>();
      for (var r : txn.proto().getDataReplacement().getReplacementsList()) {
        if (r.getNewFile().getFieldsList().stream().anyMatch(i.fields()::contains)) {
          stale.add(r.getFragmentId());
        }
      }
      out.add(stale.isEmpty() ? i : IndexBitmaps.without(i, stale));
    }
    return out;
  }
}
