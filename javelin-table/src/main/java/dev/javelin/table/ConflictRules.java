package dev.javelin.table;

import static dev.javelin.table.OperationKind.APPEND;
import static dev.javelin.table.OperationKind.CREATE_INDEX;
import static dev.javelin.table.OperationKind.DATA_REPLACEMENT;
import static dev.javelin.table.OperationKind.DELETE;
import static dev.javelin.table.OperationKind.MERGE;
import static dev.javelin.table.OperationKind.OVERWRITE;
import static dev.javelin.table.OperationKind.PROJECT;
import static dev.javelin.table.OperationKind.RESERVE_FRAGMENTS;
import static dev.javelin.table.OperationKind.RESTORE;
import static dev.javelin.table.OperationKind.REWRITE;
import static dev.javelin.table.OperationKind.UNKNOWN;
import static dev.javelin.table.OperationKind.UPDATE;
import static dev.javelin.table.OperationKind.UPDATE_CONFIG;
import static dev.javelin.table.OperationKind.UPDATE_MEM_WAL_STATE;

import dev.javelin.table.deletion.Deletes;
import dev.javelin.table.proto.TableProtos;
import dev.javelin.table.proto.TransactionProtos;
import dev.javelin.table.stablepartition.StablePartition;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one place that decides whether a transaction can commit on top of another one committed
 * after its read version. Follows Lance's rules ({@code TransactionRebase::check_txn}), so
 * Javelin and Lance writers agree about each other's commits.
 *
 * <p>Rows are "my" operation, columns the committed one. Only the operations Javelin can commit
 * have rows yet; adding one (Rewrite, ...) means adding its row here and its cases to
 * {@code ConflictRulesTest}. A {@link Resolution#REBASE} is carried out by the commit's
 * {@link Commit.Rebase} step.
 */
public final class ConflictRules {
  /** What to do about one committed transaction. */
  public enum Resolution {
    /** Build on top of it: it changes nothing this transaction depends on. */
    COMPATIBLE,
    /**
     * It changed deletion files of fragments this transaction changes too: this transaction
     * must be rebased on it (deletion vectors merged, or for a reordered rewrite folded into its
     * destinations) before it can commit.
     */
    REBASE,
    /** This transaction cannot commit. */
    CONFLICT
  }

  private static final Map<OperationKind, Set<OperationKind>> CONFLICTS = new EnumMap<>(OperationKind.class);

  static {
    // An append adds rows under the schema it read: an overwrite or restore replaced that
    // schema and those fragments. Everything else keeps the appended fragments meaningful.
    CONFLICTS.put(APPEND, EnumSet.of(OVERWRITE, RESTORE, UPDATE_MEM_WAL_STATE, UNKNOWN));
    // An overwrite replaces everything, so it wins over whatever came in between, except a
    // concurrent change of the same config keys (checked below) and MemWAL state.
    CONFLICTS.put(OVERWRITE, EnumSet.of(UPDATE_MEM_WAL_STATE, UNKNOWN));
    // A restore replaces everything with an old version, so like an overwrite it wins over
    // whatever came in between; only MemWAL state must not be lost.
    CONFLICTS.put(RESTORE, EnumSet.of(UPDATE_MEM_WAL_STATE, UNKNOWN));
    // A delete names rows by address: whatever replaced the schema or fragments, or moved rows
    // (a merge), makes those addresses meaningless. Fragment-level cases are decided below.
    CONFLICTS.put(DELETE, EnumSet.of(OVERWRITE, RESTORE, UPDATE_MEM_WAL_STATE, MERGE, UNKNOWN));
    // A merge carries every fragment with its new files: anything that added, removed or
    // rewrote fragments or their files, or changed the schema, makes that list stale.
    CONFLICTS.put(MERGE, EnumSet.of(APPEND, DELETE, UPDATE, REWRITE, MERGE, DATA_REPLACEMENT, OVERWRITE, RESTORE,
        PROJECT, UPDATE_MEM_WAL_STATE, UNKNOWN));
    // A project carries only a schema computed from the one it read: only other schema changes
    // (and wholesale replacements) make it stale; fragments are taken from the newest manifest.
    CONFLICTS.put(PROJECT, EnumSet.of(MERGE, PROJECT, OVERWRITE, RESTORE, UPDATE_MEM_WAL_STATE, UNKNOWN));
    // Indices name rows by address: only replacing the data, or moving rows the new index covers
    // (Rewrite) or rewriting its column (DataReplacement), invalidates it; those two are checked
    // below. Deletes and updates leave stale addresses that readers skip, as Lance allows.
    CONFLICTS.put(CREATE_INDEX, EnumSet.of(OVERWRITE, RESTORE, UPDATE_MEM_WAL_STATE, UNKNOWN));
    // An update rewrites rows (or columns) of the fragments it read: a merge replaced every
    // fragment's file list, an overwrite or restore replaced the data. Appends, schema-only
    // projects and config changes leave its fragments alone; fragment-level cases are below.
    CONFLICTS.put(UPDATE, EnumSet.of(MERGE, OVERWRITE, RESTORE, UNKNOWN));
    // Compaction (Lance's check_rewrite_txn / check_reserve_fragments_txn /
    // check_data_replacement_txn). Reserving ids only loses to a wholesale replacement.
    CONFLICTS.put(RESERVE_FRAGMENTS, EnumSet.of(OVERWRITE, RESTORE, UNKNOWN));
    // A rewrite moves rows into new fragments: a merge carried the old fragments' files, a
    // wholesale replacement dropped them; fragment-level cases are decided below.
    CONFLICTS.put(REWRITE, EnumSet.of(MERGE, OVERWRITE, RESTORE, UNKNOWN));
    // A data replacement is applied to the fragments as they stand at commit, so most changes
    // of other columns or rows are kept; fragment and field cases are decided below.
    CONFLICTS.put(DATA_REPLACEMENT, EnumSet.of(OVERWRITE, RESTORE, UPDATE_MEM_WAL_STATE, UNKNOWN));
    // A config update changes only config keys: it loses to a concurrent change of a key it sets
    // or removes (checked below: another config update, or an overwrite's config upserts), as in
    // Lance's check_update_config_txn; any other change leaves its keys alone.
    CONFLICTS.put(UPDATE_CONFIG, EnumSet.of(UNKNOWN));
  }

  /**
   * A merge insert commits an Update (as Lance's does) marked by this transaction property, whose
   * value lists the ids of the fragments holding a row it matched or changed (its "read set").
   * Its rules are stricter than an update's, because its matches depend on rows it did not change.
   */
  public static final String MERGE_INSERT_READ = "javelin.merge_insert.read_fragments";

  // A merge insert (rows: mine, marked Update; columns: committed). It decided, per source key,
  // whether a target row had it: any commit that may have added a row with one of its keys
  // (Append, Update, Merge, a data-changing DataReplacement, Overwrite, Restore) makes that match
  // stale, and the merge is re-run on the newest version. Changes of fragments it read: a Rewrite
  // (compaction, clustering) moved the rows it matched, a repack changed the files of fragments
  // it rewrites: conflict. A Delete of them is a rebase, which fails if it deleted a row the
  // merge matched. Everything else (indices, config, schema-only changes) is compatible.
  private static final Set<OperationKind> MERGE_INSERT_CONFLICTS = EnumSet.of(APPEND, UPDATE, MERGE, OVERWRITE,
      RESTORE, UPDATE_MEM_WAL_STATE, UNKNOWN);

  private ConflictRules() {}

  /** Marks an Update as a merge insert that read (matched or changed rows of) these fragments. */
  public static Transaction markMergeInsert(Transaction update, Set<Long> readFragments) {
    StringBuilder ids = new StringBuilder();
    readFragments.stream().sorted().forEach(id -> ids.append(ids.length() == 0 ? "" : ",").append(id));
    return Transaction.fromProto(update.proto().toBuilder().putTransactionProperties(MERGE_INSERT_READ,
        ids.toString()).build());
  }

  /** Whether a transaction is a merge insert's (see {@link #MERGE_INSERT_READ}). */
  public static boolean isMergeInsert(Transaction t) {
    return t.kind() == UPDATE && t.proto().containsTransactionProperties(MERGE_INSERT_READ);
  }

  public static Resolution check(Transaction mine, Transaction committed) {
    Set<OperationKind> conflicts = CONFLICTS.get(mine.kind());
    if (conflicts == null) {
      throw new UnsupportedOperationException("Javelin cannot commit a " + mine.kind().displayName() + " yet");
    }
    if (conflicts.contains(committed.kind())) {
      return Resolution.CONFLICT;
    }
    if (isMergeInsert(mine)) {
      return checkMergeInsert(mine, committed);
    }
    if (mine.kind() == DELETE) {
      return checkDelete(mine, committed);
    }
    if (mine.kind() == UPDATE) {
      return checkUpdate(mine, committed);
    }
    if (mine.kind() == REWRITE) {
      return checkRewrite(mine, committed);
    }
    if (mine.kind() == DATA_REPLACEMENT) {
      return checkDataReplacement(mine, committed);
    }
    if ((mine.kind() == OVERWRITE || mine.kind() == UPDATE_CONFIG)
        && (committed.kind() == OVERWRITE || committed.kind() == UPDATE_CONFIG)
        && (configKeysConflict(mine, committed) || metadataConflict(mine, committed))) {
      return Resolution.CONFLICT;
    }
    if (mine.kind() == CREATE_INDEX && CreateIndexConflicts.conflicts(mine, committed)) {
      return Resolution.CONFLICT;
    }
    return Resolution.COMPATIBLE;
  }

  // A delete against changes of the same fragments (Lance's check_delete_txn): a data replacement
  // of one of them conflicts; a delete or update that only changed its deletion file is merged in
  // by a rebase; one that changed its data files, or an update that removed it, conflicts. A
  // concurrent delete that removed it deleted every row there, which a rebase drops from this
  // delete. A rewrite of one of them is a rebase too: a reordered one (a clustering) recorded a
  // row map the rebase follows the deleted rows through; an order-preserving one did not, and the
  // rebase reports the conflict (the stored transaction does not say which it was).
  private static Resolution checkDelete(Transaction mine, Transaction committed) {
    Map<Long, TableProtos.DataFragment> my = new HashMap<>();
    mine.proto().getDelete().getUpdatedFragmentsList().forEach(f -> my.put(f.getId(), f));
    Set<Long> touched = new HashSet<>(my.keySet());
    touched.addAll(mine.proto().getDelete().getDeletedFragmentIdsList());
    TransactionProtos.Transaction theirs = committed.proto();
    switch (committed.kind()) {
      case REWRITE: {
        Set<Long> old = new HashSet<>();
        theirs.getRewrite().getOldFragmentsList().forEach(f -> old.add(f.getId()));
        theirs.getRewrite().getGroupsList().forEach(g -> g.getOldFragmentsList().forEach(f -> old.add(f.getId())));
        return old.stream().anyMatch(touched::contains) ? Resolution.REBASE : Resolution.COMPATIBLE;
      }
      case DATA_REPLACEMENT: {
        boolean overlap = theirs.getDataReplacement().getReplacementsList().stream()
            .anyMatch(r -> touched.contains(r.getFragmentId()));
        // Values moved between files (a column repack) keep every row where it was: the
        // deletion vectors merge onto the fragment as it now stands.
        return !overlap ? Resolution.COMPATIBLE : committed.dataChange() ? Resolution.CONFLICT : Resolution.REBASE;
      }
      case DELETE: {
        // A delete changes deletion files only, so any overlap merges.
        var d = theirs.getDelete();
        boolean overlap = d.getUpdatedFragmentsList().stream().anyMatch(f -> touched.contains(f.getId()))
            || d.getDeletedFragmentIdsList().stream().anyMatch(touched::contains);
        return overlap ? Resolution.REBASE : Resolution.COMPATIBLE;
      }
      case UPDATE: {
        var u = theirs.getUpdate();
        if (u.getRemovedFragmentIdsList().stream().anyMatch(touched::contains)) {
          return Resolution.CONFLICT; // its rows were rewritten into other fragments
        }
        Resolution r = Resolution.COMPATIBLE;
        for (TableProtos.DataFragment f : u.getUpdatedFragmentsList()) {
          if (!touched.contains(f.getId())) {
            continue;
          }
          TableProtos.DataFragment read = my.get(f.getId());
          if (read == null || !sameData(read, f)) {
            return Resolution.CONFLICT;
          }
          r = Resolution.REBASE;
        }
        return r;
      }
      default:
        return Resolution.COMPATIBLE;
    }
  }

  // An update against changes of the same fragments (Lance's check_update_txn): a rewrite or
  // data replacement of one of them conflicts. A delete or update that changed only the deletion
  // file of a fragment whose rows this update moved (REWRITE_ROWS) is merged by a rebase, which
  // fails if both changed the same rows; one that changed its data files or removed it conflicts.
  // A fragment this update emptied, or one whose columns it rewrote (REWRITE_COLUMNS, which
  // records no affected rows), conflicts with any change.
  private static Resolution checkUpdate(Transaction mine, Transaction committed) {
    TransactionProtos.Transaction.Update me = mine.proto().getUpdate();
    Map<Long, TableProtos.DataFragment> my = new HashMap<>();
    me.getUpdatedFragmentsList().forEach(f -> my.put(f.getId(), f));
    Set<Long> touched = new HashSet<>(my.keySet());
    touched.addAll(me.getRemovedFragmentIdsList());
    boolean rowLevel = me.getUpdateMode() == TransactionProtos.Transaction.UpdateMode.REWRITE_ROWS;
    TransactionProtos.Transaction theirs = committed.proto();
    List<TableProtos.DataFragment> theirUpdated;
    List<Long> theirRemoved;
    switch (committed.kind()) {
      case REWRITE: {
        Set<Long> old = new HashSet<>();
        theirs.getRewrite().getOldFragmentsList().forEach(f -> old.add(f.getId()));
        theirs.getRewrite().getGroupsList().forEach(g -> g.getOldFragmentsList().forEach(f -> old.add(f.getId())));
        return old.stream().anyMatch(touched::contains) ? Resolution.CONFLICT : Resolution.COMPATIBLE;
      }
      case DATA_REPLACEMENT:
        return theirs.getDataReplacement().getReplacementsList().stream()
            .anyMatch(r -> touched.contains(r.getFragmentId())) ? Resolution.CONFLICT : Resolution.COMPATIBLE;
      case DELETE:
        theirUpdated = theirs.getDelete().getUpdatedFragmentsList();
        theirRemoved = theirs.getDelete().getDeletedFragmentIdsList();
        break;
      case UPDATE:
        theirUpdated = theirs.getUpdate().getUpdatedFragmentsList();
        theirRemoved = theirs.getUpdate().getRemovedFragmentIdsList();
        break;
      default:
        return Resolution.COMPATIBLE;
    }
    if (theirRemoved.stream().anyMatch(touched::contains)) {
      return Resolution.CONFLICT;
    }
    Resolution r = Resolution.COMPATIBLE;
    for (TableProtos.DataFragment f : theirUpdated) {
      if (!touched.contains(f.getId())) {
        continue;
      }
      TableProtos.DataFragment read = my.get(f.getId());
      if (!rowLevel || read == null || !sameData(read, f)) {
        return Resolution.CONFLICT;
      }
      r = Resolution.REBASE;
    }
    return r;
  }

  // A rewrite against changes of the fragments it rewrites: any change to their rows or files
  // (delete, update, rewrite, data replacement) would be lost, and an index built over them would
  // point at rows that moved (Javelin does not remap indices yet). A reordered rewrite (one made
  // here, carrying its stable partition) folds deletions of its sources into its destinations
  // through the row map: a Delete, or a row-rewriting Update that changed only deletion files
  // (its moved rows' new copies are in fragments of its own), of sources only is a REBASE.
  private static Resolution checkRewrite(Transaction mine, Transaction committed) {
    Set<Long> old = rewrittenIds(mine);
    TransactionProtos.Transaction theirs = committed.proto();
    switch (committed.kind()) {
      case DELETE: {
        var d = theirs.getDelete();
        Set<Long> hit = new HashSet<>();
        d.getUpdatedFragmentsList().forEach(f -> hit.add(f.getId()));
        hit.addAll(d.getDeletedFragmentIdsList());
        hit.retainAll(old);
        return hit.isEmpty() ? Resolution.COMPATIBLE : foldable(mine, hit) ? Resolution.REBASE : Resolution.CONFLICT;
      }
      case UPDATE: {
        var u = theirs.getUpdate();
        Set<Long> hit = new HashSet<>();
        u.getUpdatedFragmentsList().forEach(f -> hit.add(f.getId()));
        hit.addAll(u.getRemovedFragmentIdsList());
        hit.retainAll(old);
        if (hit.isEmpty()) {
          return Resolution.COMPATIBLE;
        }
        if (u.getUpdateMode() != TransactionProtos.Transaction.UpdateMode.REWRITE_ROWS || !foldable(mine, hit)) {
          return Resolution.CONFLICT;
        }
        Map<Long, TableProtos.DataFragment> read = new HashMap<>();
        mine.proto().getRewrite().getGroupsList().forEach(g -> g.getOldFragmentsList().forEach(f -> read.put(f.getId(), f)));
        for (TableProtos.DataFragment f : u.getUpdatedFragmentsList()) {
          TableProtos.DataFragment r = read.get(f.getId());
          if (hit.contains(f.getId()) && (r == null || !sameData(r, f))) {
            return Resolution.CONFLICT; // values changed, not just rows deleted
          }
        }
        return Resolution.REBASE;
      }
      case REWRITE:
        return rewrittenIds(committed).stream().anyMatch(old::contains) ? Resolution.CONFLICT : Resolution.COMPATIBLE;
      case DATA_REPLACEMENT:
        return theirs.getDataReplacement().getReplacementsList().stream()
            .anyMatch(r -> old.contains(r.getFragmentId())) ? Resolution.CONFLICT : Resolution.COMPATIBLE;
      case CREATE_INDEX:
        for (TableProtos.IndexMetadata i : theirs.getCreateIndex().getNewIndicesList()) {
          if (i.getFragmentBitmap().isEmpty()) {
            return Resolution.CONFLICT; // coverage unknown
          }
          var covered = IndexMetadata.fromProto(i).fragmentBitmap();
          if (old.stream().anyMatch(id -> covered.contains(id.intValue()))) {
            return Resolution.CONFLICT;
          }
        }
        return Resolution.COMPATIBLE;
      default:
        return Resolution.COMPATIBLE;
    }
  }

  private static Resolution checkMergeInsert(Transaction mine, Transaction committed) {
    if (MERGE_INSERT_CONFLICTS.contains(committed.kind())) {
      return Resolution.CONFLICT;
    }
    Set<Long> read = new HashSet<>();
    String listed = mine.proto().getTransactionPropertiesOrThrow(MERGE_INSERT_READ);
    for (String id : listed.isEmpty() ? new String[0] : listed.split(",")) {
      read.add(Long.parseLong(id));
    }
    TransactionProtos.Transaction theirs = committed.proto();
    switch (committed.kind()) {
      case DELETE: {
        var d = theirs.getDelete();
        boolean overlap = d.getUpdatedFragmentsList().stream().anyMatch(f -> read.contains(f.getId()))
            || d.getDeletedFragmentIdsList().stream().anyMatch(read::contains);
        return overlap ? Resolution.REBASE : Resolution.COMPATIBLE;
      }
      case REWRITE:
        return rewrittenIds(committed).stream().anyMatch(read::contains) ? Resolution.CONFLICT
            : Resolution.COMPATIBLE;
      case DATA_REPLACEMENT:
        if (committed.dataChange()) {
          return Resolution.CONFLICT; // may have changed keys anywhere
        }
        return theirs.getDataReplacement().getReplacementsList().stream()
            .anyMatch(r -> read.contains(r.getFragmentId())) ? Resolution.CONFLICT : Resolution.COMPATIBLE;
      default:
        return Resolution.COMPATIBLE;
    }
  }

  // Whether a committed change left a fragment's values as this transaction read them: the same
  // data files and the same overlays (an overlay update changes values without touching files).
  private static boolean sameData(TableProtos.DataFragment read, TableProtos.DataFragment theirs) {
    return read.getFilesList().equals(theirs.getFilesList())
        && read.getJavelinOverlaysList().equals(theirs.getJavelinOverlaysList());
  }

  // Whether a reordered rewrite can fold changes of these fragments: all are its sources.
  private static boolean foldable(Transaction rewrite, Set<Long> changed) {
    StablePartition sp = rewrite.stablePartition();
    return sp != null && sp.sourceIds().containsAll(changed);
  }

  private static Set<Long> rewrittenIds(Transaction rewrite) {
    Set<Long> old = new HashSet<>();
    var op = rewrite.proto().getRewrite();
    op.getOldFragmentsList().forEach(f -> old.add(f.getId()));
    op.getGroupsList().forEach(g -> g.getOldFragmentsList().forEach(f -> old.add(f.getId())));
    return old;
  }

  // A data replacement against changes of the fragments and fields it replaces. It is applied to
  // the fragment as it stands at commit, so a change of other columns, a delete of some rows or a
  // drop of an unmoved column is kept; a change of a moved column's values (update, replacement),
  // a rewrite or a removal of the fragment, or a drop of a moved column makes it conflict. An
  // index build conflicts only when the replacement changes values of a field it indexes.
  private static Resolution checkDataReplacement(Transaction mine, Transaction committed) {
    Map<Long, Set<Integer>> moved = new HashMap<>();
    for (var r : mine.proto().getDataReplacement().getReplacementsList()) {
      Set<Integer> f = moved.computeIfAbsent(r.getFragmentId(), k -> new HashSet<>());
      r.getNewFile().getFieldsList().stream().filter(x -> x >= 0).forEach(f::add);
    }
    Set<Integer> allMoved = new HashSet<>();
    moved.values().forEach(allMoved::addAll);
    TransactionProtos.Transaction theirs = committed.proto();
    switch (committed.kind()) {
      case DELETE:
        return theirs.getDelete().getDeletedFragmentIdsList().stream().anyMatch(moved::containsKey)
            ? Resolution.CONFLICT : Resolution.COMPATIBLE;
      case UPDATE: {
        var u = theirs.getUpdate();
        if (u.getRemovedFragmentIdsList().stream().anyMatch(moved::containsKey)) {
          return Resolution.CONFLICT;
        }
        for (TableProtos.DataFragment f : u.getUpdatedFragmentsList()) {
          Set<Integer> mineHere = moved.get(f.getId());
          if (mineHere == null) {
            continue;
          }
          // An update that does not say which fields it changed may have changed any.
          if (u.getFieldsModifiedCount() == 0 || u.getFieldsModifiedList().stream().anyMatch(mineHere::contains)) {
            return Resolution.CONFLICT;
          }
        }
        return Resolution.COMPATIBLE;
      }
      case REWRITE:
        return rewrittenIds(committed).stream().anyMatch(moved::containsKey) ? Resolution.CONFLICT : Resolution.COMPATIBLE;
      case DATA_REPLACEMENT:
        for (var r : theirs.getDataReplacement().getReplacementsList()) {
          Set<Integer> mineHere = moved.get(r.getFragmentId());
          if (mineHere != null && r.getNewFile().getFieldsList().stream().anyMatch(mineHere::contains)) {
            return Resolution.CONFLICT;
          }
        }
        return Resolution.COMPATIBLE;
      case PROJECT: {
        Set<Integer> live = new HashSet<>();
        theirs.getProject().getSchemaList().forEach(f -> live.add(f.getId()));
        return live.containsAll(allMoved) ? Resolution.COMPATIBLE : Resolution.CONFLICT;
      }
      case CREATE_INDEX:
        if (!mine.dataChange()) {
          return Resolution.COMPATIBLE; // the values an index covers are the same
        }
        return theirs.getCreateIndex().getNewIndicesList().stream()
            .anyMatch(i -> i.getFieldsList().stream().anyMatch(allMoved::contains))
            ? Resolution.CONFLICT : Resolution.COMPATIBLE;
      default:
        return Resolution.COMPATIBLE;
    }
  }

  // Two writers changing the same config key would silently lose one change (Lance's
  // upsert_key_conflict): a key one sets that the other sets or removes. Two removals of a key
  // agree, so they do not conflict.
  private static boolean configKeysConflict(Transaction mine, Transaction committed) {
    Set<String> myUpserts = configKeys(mine, true);
    Set<String> theirUpserts = configKeys(committed, true);
    Set<String> myDeletes = configKeys(mine, false);
    Set<String> theirDeletes = configKeys(committed, false);
    return myUpserts.stream().anyMatch(k -> theirUpserts.contains(k) || theirDeletes.contains(k))
        || theirUpserts.stream().anyMatch(myDeletes::contains);
  }

  // The config keys an Overwrite or UpdateConfig sets (upserts) or removes (!upserts), from the
  // current fields and the deprecated ones older writers used.
  private static Set<String> configKeys(Transaction t, boolean upserts) {
    Set<String> keys = new HashSet<>();
    if (t.kind() == OVERWRITE) {
      if (upserts) {
        keys.addAll(t.proto().getOverwrite().getConfigUpsertValuesMap().keySet());
      }
      return keys;
    }
    TransactionProtos.Transaction.UpdateConfig op = t.proto().getUpdateConfig();
    op.getConfigUpdates().getUpdateEntriesList().stream().filter(e -> e.hasValue() == upserts)
        .forEach(e -> keys.add(e.getKey()));
    keys.addAll(upserts ? op.getUpsertValuesMap().keySet() : op.getDeleteKeysList());
    return keys;
  }

  // Lance's check_update_config_txn for the metadata parts of an UpdateConfig (which Javelin
  // does not make, but reads): schema or field metadata changes lose to any overwrite, and to a
  // concurrent change of the schema metadata or of the same field's metadata.
  private static boolean metadataConflict(Transaction mine, Transaction committed) {
    if (mine.kind() != UPDATE_CONFIG) {
      return false;
    }
    TransactionProtos.Transaction.UpdateConfig me = mine.proto().getUpdateConfig();
    if (committed.kind() == OVERWRITE) {
      return me.hasSchemaMetadataUpdates() || me.getFieldMetadataUpdatesCount() > 0;
    }
    TransactionProtos.Transaction.UpdateConfig theirs = committed.proto().getUpdateConfig();
    return me.hasSchemaMetadataUpdates() && theirs.hasSchemaMetadataUpdates()
        || me.getFieldMetadataUpdatesMap().keySet().stream().anyMatch(theirs::containsFieldMetadataUpdates);
  }
}
