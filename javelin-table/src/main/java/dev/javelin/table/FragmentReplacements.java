package dev.javelin.table;

import dev.javelin.table.proto.TableProtos;
import dev.javelin.table.proto.TransactionProtos;
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
   * The fragment reuse system index is kept as it is.
   *
   * @throws IllegalStateException if another index covers a replaced fragment (its row addresses
   *     would point at rows that are gone)
   * @throws IllegalArgumentException if a rewritten index is not there, is named twice, or a group
   *     is partly covered
   */
  static List<TableProtos.IndexMetadata> indicesAfterRewrite(Transaction txn, Manifest current, String location) {
    TransactionProtos.Transaction.Rewrite op = txn.proto().getRewrite();
    List<TransactionProtos.Transaction.Rewrite.RewriteGroup> groups = new ArrayList<>(op.getGroupsList());
    if (op.getOldFragmentsCount() > 0 || op.getNewFragmentsCount() > 0) {
      groups.add(TransactionProtos.Transaction.Rewrite.RewriteGroup.newBuilder()
          .addAllOldFragments(op.getOldFragmentsList()).addAllNewFragments(op.getNewFragmentsList()).build());
    }
    Map<com.google.protobuf.ByteString, TransactionProtos.Transaction.Rewrite.RewrittenIndex> byOld =
        new LinkedHashMap<>();
    for (var r : op.getRewrittenIndicesList()) {
      if (byOld.put(r.getOldId().getUuid(), r) != null) {
        throw new IllegalArgumentException("A Rewrite remaps index " + r.getOldId().getUuid().toStringUtf8()
            + " twice: " + location);
      }
    }
    Set<Long> removed = new HashSet<>();
    groups.forEach(g -> g.getOldFragmentsList().forEach(f -> removed.add(f.getId())));
    List<TableProtos.IndexMetadata> out = new ArrayList<>();
    for (TableProtos.IndexMetadata i : current.indices()) {
      var r = byOld.remove(i.getUuid().getUuid());
      TableProtos.IndexMetadata fragReuse = txn.fragReuseIndex();
      if (fragReuse != null && i.getName().equals(fragReuse.getName())) {
        continue; // replaced by the new one, added last
      }
      if (r == null) {
        // With a fragment reuse index, indices keep covering the old fragments (remap deferred).
        if (fragReuse == null && !CreateIndexConflicts.FRAG_REUSE_INDEX_NAME.equals(i.getName())
            && IndexBitmaps.covering(List.of(i), removed) != null) {
          throw new IllegalStateException("Index '" + i.getName() + "' covers fragments this Rewrite replaces "
              + "but the Rewrite does not remap it: " + location);
        }
        out.add(i);
        continue;
      }
      RoaringBitmap b = IndexBitmaps.read(i);
      for (var g : groups) {
        long covered = g.getOldFragmentsList().stream().filter(f -> b.contains((int) f.getId())).count();
        if (covered == 0) {
          continue;
        }
        if (covered != g.getOldFragmentsCount()) {
          throw new IllegalArgumentException("A Rewrite group mixes fragments index '" + i.getName()
              + "' covers with ones it does not: " + location);
        }
        g.getOldFragmentsList().forEach(f -> b.remove((int) f.getId()));
        g.getNewFragmentsList().forEach(f -> b.add((int) f.getId()));
      }
      // Fields Javelin does not know (newer Lance records the index's files and sizes there)
      // describe the old index's files, not the remapped copy's: they are dropped.
      TableProtos.IndexMetadata.Builder nb = i.toBuilder().setUuid(r.getNewId()).setFragmentBitmap(IndexBitmaps.write(b))
          .setUnknownFields(com.google.protobuf.UnknownFieldSet.getDefaultInstance());
      if (r.hasNewIndexDetails()) {
        nb.setIndexDetails(r.getNewIndexDetails());
        nb.setIndexVersion((int) r.getNewIndexVersion());
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
    return out;
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
  static List<TableProtos.IndexMetadata> indicesAfterReplacement(Transaction txn, Manifest current) {
    if (!txn.dataChange()) {
      return current.indices();
    }
    List<TableProtos.IndexMetadata> out = new ArrayList<>();
    for (TableProtos.IndexMetadata i : current.indices()) {
      Set<Long> stale = new HashSet<>();
      for (var r : txn.proto().getDataReplacement().getReplacementsList()) {
        if (r.getNewFile().getFieldsList().stream().anyMatch(i.getFieldsList()::contains)) {
          stale.add(r.getFragmentId());
        }
      }
      out.add(stale.isEmpty() ? i : IndexBitmaps.without(i, stale));
    }
    return out;
  }
}
