package dev.javelin.table;

import com.google.protobuf.ByteString;
import dev.javelin.table.proto.TableProtos;
import dev.javelin.table.rowids.RowIdSequence;
import dev.javelin.table.rowids.RowVersionSequence;
import java.util.EnumSet;
import java.util.Set;

/**
 * What a commit does for stable row ids (reader/writer feature flag 2): which operations may
 * commit on such a dataset, and the row ids and versions a new fragment gets.
 *
 * <p>Sequences are always written inline in the manifest. Lance 7.0.0 does the same: its
 * {@code assign_row_ids} never spills to an external file (a TODO in its source), and a new
 * fragment's sequence is one range, a few bytes whatever its row count.
 */
final class StableRowIds {
  /**
   * Operations that keep row ids right on a stable-row-id dataset. Others must carry or assign row
   * ids (and versions) for every fragment they write before they are added here.
   */
  static final Set<OperationKind> SUPPORTED = EnumSet.of(OperationKind.APPEND, OperationKind.OVERWRITE,
      // Compaction: a Rewrite's new fragments carry the moved rows' ids; the others move no rows.
      OperationKind.REWRITE, OperationKind.RESERVE_FRAGMENTS, OperationKind.DATA_REPLACEMENT);

  private StableRowIds() {}

  static boolean enabled(Manifest m) {
    return (m.readerFeatureFlags() & FeatureFlags.STABLE_ROW_IDS) != 0;
  }

  /**
   * @throws StableRowIdsUnsupportedException if {@code latest} has stable row ids and Javelin cannot
   *     commit this kind of operation on it yet
   */
  static void checkSupported(Transaction txn, Manifest latest, String location) {
    if (latest != null && enabled(latest) && !SUPPORTED.contains(txn.kind())) {
      throw TableErrors.stableRowIdsUnsupported(location, latest.version(), txn.kind());
    }
  }

  /**
   * A new fragment with row ids [nextRowId, nextRowId + rows) and, for every row, created-at and
   * last-updated-at the new version. A fragment that already has ids for all its rows keeps them; one
   * with ids for its first rows gets the next ids for the rest (as Lance fills a partial sequence).
   *
   * @return the fragment; its row count minus the ids it already had is how far next_row_id moves
   */
  static TableProtos.DataFragment assign(TableProtos.DataFragment f, long nextRowId, long version) {
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
  static long idsTaken(TableProtos.DataFragment before) {
    if (before.getRowIdSequenceCase() == TableProtos.DataFragment.RowIdSequenceCase.INLINE_ROW_IDS) {
      return before.getPhysicalRows() - RowIdSequence.parse(before.getInlineRowIds().toByteArray()).length();
    }
    return before.getPhysicalRows();
  }
}
