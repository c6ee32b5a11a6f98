package dev.javelin.table;

import static dev.javelin.table.OperationKind.APPEND;
import static dev.javelin.table.OperationKind.CREATE_INDEX;
import static dev.javelin.table.OperationKind.OVERWRITE;
import static dev.javelin.table.OperationKind.RESTORE;
import static dev.javelin.table.OperationKind.UNKNOWN;
import static dev.javelin.table.OperationKind.UPDATE_CONFIG;
import static dev.javelin.table.OperationKind.UPDATE_MEM_WAL_STATE;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The one place that decides whether a transaction can commit on top of another one committed
 * after its read version. Follows Lance's rules ({@code TransactionRebase::check_txn}), so
 * Javelin and Lance writers agree about each other's commits.
 *
 * <p>Rows are "my" operation, columns the committed one. Only the operations Javelin can commit
 * have rows yet; adding one (Delete, Rewrite, ...) means adding its row here and its cases to
 * {@code ConflictRulesTest}.
 */
final class ConflictRules {
  /** What to do about one committed transaction. */
  enum Resolution {
    /** Build on top of it: it changes nothing this transaction depends on. */
    COMPATIBLE,
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
    // Indices name rows by address: only replacing the data, or moving rows the new index covers
    // (Rewrite) or rewriting its column (DataReplacement), invalidates it; those two are checked
    // below. Deletes and updates leave stale addresses that readers skip, as Lance allows.
    CONFLICTS.put(CREATE_INDEX, EnumSet.of(OVERWRITE, RESTORE, UPDATE_MEM_WAL_STATE, UNKNOWN));
  }

  private ConflictRules() {}

  static Resolution check(Transaction mine, Transaction committed) {
    Set<OperationKind> conflicts = CONFLICTS.get(mine.kind());
    if (conflicts == null) {
      throw new UnsupportedOperationException("Javelin cannot commit a " + mine.kind().displayName() + " yet");
    }
    if (conflicts.contains(committed.kind())) {
      return Resolution.CONFLICT;
    }
    if (mine.kind() == OVERWRITE && (committed.kind() == OVERWRITE || committed.kind() == UPDATE_CONFIG)
        && upsertKeysOverlap(mine, committed)) {
      return Resolution.CONFLICT;
    }
    if (mine.kind() == CREATE_INDEX && CreateIndexConflicts.conflicts(mine, committed)) {
      return Resolution.CONFLICT;
    }
    return Resolution.COMPATIBLE;
  }

  // Two writers setting the same config key would silently lose one value.
  private static boolean upsertKeysOverlap(Transaction mine, Transaction committed) {
    Set<String> mineKeys = mine.proto().getOverwrite().getConfigUpsertValuesMap().keySet();
    if (mineKeys.isEmpty()) {
      return false;
    }
    var theirs = committed.proto();
    Set<String> theirKeys = new java.util.HashSet<>();
    if (committed.kind() == OVERWRITE) {
      theirKeys.addAll(theirs.getOverwrite().getConfigUpsertValuesMap().keySet());
    } else {
      theirKeys.addAll(theirs.getUpdateConfig().getUpsertValuesMap().keySet());
      theirKeys.addAll(theirs.getUpdateConfig().getDeleteKeysList());
      theirs.getUpdateConfig().getConfigUpdates().getUpdateEntriesList().forEach(e -> theirKeys.add(e.getKey()));
    }
    return mineKeys.stream().anyMatch(theirKeys::contains);
  }
}
