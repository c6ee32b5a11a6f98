package dev.javelin.table.rowids;

import com.google.protobuf.ByteString;
import dev.javelin.table.FeatureFlags;
import dev.javelin.table.Fragment;
import dev.javelin.table.Manifest;
import dev.javelin.table.OperationKind;
import dev.javelin.table.Transaction;
import dev.javelin.table.exceptions.StableRowIdsUnsupportedException;
import dev.javelin.table.exceptions.TableErrors;
import dev.javelin.table.proto.TableProtos;
import dev.javelin.table.rowids.RowIdSequence;
import dev.javelin.table.rowids.RowVersionSequence;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a commit does for stable row ids (reader/writer feature flag 2): which operations may
 * commit on such a dataset, and the row ids and versions a new fragment gets.
 *
 * <p>Sequences are always written inline in the manifest. Lance 7.0.0 does the same: its
 * {@code assign_row_ids} never spills to an external file (a TODO in its source), and a new
 * fragment's sequence is one range, a few bytes whatever its row count.
 */
public final class StableRowIds {
  /**
   * Operations that keep row ids right on a stable-row-id dataset. Others must carry or assign row
   * ids (and versions) for every fragment they write before they are added here.
   *
   * <ul>
   *   <li>Append, Overwrite: new fragments get new ids and versions ({@link #assign}).
   *   <li>Delete: the updated fragments are the old ones with a new deletion file; sequences stay
   *       indexed by physical row and are masked on read. As in Lance, no version changes.
   *   <li>Merge (add columns): every fragment keeps its ids and gains a data file aligned with its
   *       physical rows; as lance-core 7.0.0 does, every row of a fragment whose data files changed
   *       is last updated at the new version, and an all-null column (no file) moves nothing
   *       ({@link #merge}).
   *   <li>Project (drop/alter columns), CreateIndex, UpdateConfig: fragments are untouched.
   *   <li>Restore: the old manifest as it was, next_row_id included (ids assigned after it may be
   *       handed out again, exactly as Lance does).
   * </ul>
   */
  static final Set<OperationKind> SUPPORTED = EnumSet.of(OperationKind.APPEND, OperationKind.OVERWRITE,
      OperationKind.DELETE, OperationKind.MERGE, OperationKind.PROJECT, OperationKind.RESTORE,
      OperationKind.CREATE_INDEX, OperationKind.UPDATE_CONFIG, OperationKind.UPDATE,
      // Compaction: a Rewrite's new fragments carry the moved rows' ids; the others move no rows.
      OperationKind.REWRITE, OperationKind.RESERVE_FRAGMENTS, OperationKind.DATA_REPLACEMENT);

  private StableRowIds() {}

  public static boolean enabled(Manifest m) {
    return (m.readerFeatureFlags() & FeatureFlags.STABLE_ROW_IDS) != 0;
  }

  /**
   * @throws StableRowIdsUnsupportedException if {@code latest} has stable row ids and Javelin cannot
   *     commit this kind of operation on it yet
   */
  public static void checkSupported(Transaction txn, Manifest latest, String location) {
    if (latest != null && enabled(latest) && !SUPPORTED.contains(txn.kind())) {
      throw TableErrors.stableRowIdsUnsupported(location, latest.version(), txn.kind());
    }
  }

  /**
   * The fragments a Merge commits as {@code newVersion}. A Merge replaces the fragment list
   * wholesale: on a stable-row-id dataset every fragment must still carry the row ids (and
   * versions) it had, or rows would lose their ids; those whose data files changed get
   * last-updated-at {@code newVersion} for every row (lance-core 7.0.0 does so on add columns).
   *
   * @throws IllegalArgumentException naming the first fragment whose sequences changed
   */
  public static List<TableProtos.DataFragment> merge(List<TableProtos.DataFragment> merged, Manifest current,
      long newVersion, String location) {
    if (current == null || !enabled(current)) {
      return merged;
    }
    List<TableProtos.DataFragment> out = new ArrayList<>();
    Map<Long, TableProtos.DataFragment> before = new HashMap<>();
    current.proto().getFragmentsList().forEach(f -> before.put(f.getId(), f));
    for (TableProtos.DataFragment f : merged) {
      TableProtos.DataFragment old = before.get(f.getId());
      boolean same = old != null && f.getPhysicalRows() == old.getPhysicalRows()
          && sequences(f).equals(sequences(old));
      if (!same) {
        throw new IllegalArgumentException("Merge fragment " + f.getId() + " does not keep the row ids and versions"
            + " of version " + current.version() + ", which has stable row ids: " + location);
      }
      if (!f.getFilesList().equals(old.getFilesList()) && f.getPhysicalRows() > 0) {
        f = f.toBuilder().setInlineLastUpdatedAtVersions(ByteString.copyFrom(
            RowVersionSequence.uniform(f.getPhysicalRows(), newVersion).toBytes())).build();
      }
      out.add(f);
    }
    return out;
  }

  // The fragment's sequence fields (inline or external), for comparison.
  private static List<Object> sequences(TableProtos.DataFragment f) {
    return List.of(f.getRowIdSequenceCase(), f.getInlineRowIds(), f.getExternalRowIds(),
        f.getCreatedAtVersionSequenceCase(), f.getInlineCreatedAtVersions(), f.getExternalCreatedAtVersions(),
        f.getLastUpdatedAtVersionSequenceCase(), f.getInlineLastUpdatedAtVersions(),
        f.getExternalLastUpdatedAtVersions());
  }

  /**
   * A new fragment with row ids [nextRowId, nextRowId + rows) and, for every row, created-at and
   * last-updated-at the new version. A fragment that already has ids for all its rows keeps them; one
   * with ids for its first rows gets the next ids for the rest (as Lance fills a partial sequence).
   *
   * @return the fragment; its row count minus the ids it already had is how far next_row_id moves
   */
  public static TableProtos.DataFragment assign(TableProtos.DataFragment f, long nextRowId, long version) {
    long rows = f.getPhysicalRows();
    TableProtos.DataFragment.Builder b = f.toBuilder();
    RowIdSequence ids;
    if (f.getRowIdSequenceCase() == TableProtos.DataFragment.RowIdSequenceCase.INLINE_ROW_IDS) {
      RowIdSequence had = RowIdSequence.parse(f.getInlineRowIds().toByteArray());
      if (had.length() > rows) {
        throw new IllegalArgumentException("Fragment has " + had.length() + " row ids but " + rows + " rows");
      }
      if (had.length() == rows) {
        ids = had;
      } else {
        long[] all = new long[Math.toIntExact(rows)];
        System.arraycopy(had.toArray(), 0, all, 0, (int) had.length());
        for (int i = (int) had.length(); i < all.length; i++) {
          all[i] = nextRowId + (i - had.length());
        }
        ids = RowIdSequence.ofValues(all);
      }
    } else {
      ids = RowIdSequence.range(nextRowId, nextRowId + rows);
    }
    b.setInlineRowIds(ByteString.copyFrom(ids.toBytes()));
    if (rows > 0) {
      // Lance records no version sequence for an empty fragment.
      ByteString versions = ByteString.copyFrom(RowVersionSequence.uniform(rows, version).toBytes());
      b.setInlineCreatedAtVersions(versions).setInlineLastUpdatedAtVersions(versions);
    }
    return b.build();
  }

  /** How many new ids {@link #assign} took for this fragment. */
  public static long idsTaken(TableProtos.DataFragment before) {
    if (before.getRowIdSequenceCase() == TableProtos.DataFragment.RowIdSequenceCase.INLINE_ROW_IDS) {
      return before.getPhysicalRows() - RowIdSequence.parse(before.getInlineRowIds().toByteArray()).length();
    }
    return before.getPhysicalRows();
  }
}
