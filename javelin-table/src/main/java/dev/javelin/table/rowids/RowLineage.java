package dev.javelin.table.rowids;

import com.google.protobuf.ByteString;
import dev.javelin.table.Fragment;
import dev.javelin.table.proto.TableProtos;
import java.util.Arrays;

/**
 * The stable row ids and row versions (created-at and last-updated-at dataset versions) of rows
 * moved to new fragments, kept per destination in the order the rows are written there, so that
 * each new fragment carries its rows' old ids and versions (Lance keeps both across a compaction,
 * a clustering and a row-rewriting update). The one place such fragments' inline row-id and
 * version sequences are built.
 *
 * <p>A version sequence is written for the new fragments only if some moved row had one; a row
 * without a recorded version ({@link #NONE}) is then written at version 0. Holds 24 bytes per
 * moved row until its fragment is built. Not thread-safe.
 */
public final class RowLineage {
  /** A row version the source fragment does not record. */
  public static final long NONE = -1;

  private final long[][] ids;
  private final long[][] created;
  private final long[][] updated;
  private final int[] added;
  private final int[] taken;
  private boolean anyCreated;
  private boolean anyUpdated;

  /** A lineage of one destination, whose rows are handed out fragment by fragment in order. */
  public RowLineage() {
    this(new long[] {0});
  }

  /**
   * A lineage of {@code expected.length} destinations.
   *
   * @param expected per destination, how many rows it is expected to take (its initial room)
   */
  public RowLineage(long[] expected) {
    int m = expected.length;
    ids = new long[m][];
    created = new long[m][];
    updated = new long[m][];
    added = new int[m];
    taken = new int[m];
    for (int d = 0; d < m; d++) {
      int n = Math.max(Math.toIntExact(expected[d]), 16);
      ids[d] = new long[n];
      created[d] = new long[n];
      updated[d] = new long[n];
    }
  }

  /** Adds a row to destination 0. */
  public void add(long rowId, long createdAt, long updatedAt) {
    add(0, rowId, createdAt, updatedAt);
  }

  /**
   * Adds the next row of a destination.
   *
   * @param createdAt its created-at version, or {@link #NONE}
   * @param updatedAt its last-updated-at version, or {@link #NONE}
   */
  public void add(int destination, long rowId, long createdAt, long updatedAt) {
    int i = added[destination]++;
    if (i == ids[destination].length) {
      ids[destination] = Arrays.copyOf(ids[destination], i * 2);
      created[destination] = Arrays.copyOf(created[destination], i * 2);
      updated[destination] = Arrays.copyOf(updated[destination], i * 2);
    }
    ids[destination][i] = rowId;
    created[destination][i] = Math.max(0, createdAt);
    updated[destination][i] = Math.max(0, updatedAt);
    anyCreated |= createdAt >= 0;
    anyUpdated |= updatedAt >= 0;
  }

  /** The rows of a destination added but not yet handed to a fragment. */
  public long remaining(int destination) {
    return added[destination] - taken[destination];
  }

  /** {@link #next(int, Fragment)} for destination 0. */
  public Fragment next(Fragment f) {
    return next(0, f);
  }

  /**
   * The fragment with the ids and versions of the destination's next {@code f.physicalRows()}
   * rows as its inline row-id and version sequences.
   *
   * @throws IllegalStateException if the destination has fewer rows left
   */
  public Fragment next(int destination, Fragment f) {
    int n = Math.toIntExact(f.physicalRows());
    int from = taken[destination];
    if (n > added[destination] - from) {
      throw new IllegalStateException("Fragment " + f.id() + " has " + n + " rows but only "
          + (added[destination] - from) + " moved rows are left for it");
    }
    int to = from + n;
    TableProtos.DataFragment.Builder b = f.proto().toBuilder();
    b.setInlineRowIds(ByteString.copyFrom(
        RowIdSequence.ofValues(Arrays.copyOfRange(ids[destination], from, to)).toBytes()));
    if (anyCreated) {
      b.setInlineCreatedAtVersions(ByteString.copyFrom(
          RowVersionSequence.ofVersions(Arrays.copyOfRange(created[destination], from, to)).toBytes()));
    }
    if (anyUpdated) {
      b.setInlineLastUpdatedAtVersions(ByteString.copyFrom(
          RowVersionSequence.ofVersions(Arrays.copyOfRange(updated[destination], from, to)).toBytes()));
    }
    taken[destination] = to;
    return Fragment.fromProto(b.build());
  }
}
