package dev.javelin.table.deletion;

import dev.javelin.io.ObjectStore;
import dev.javelin.io.PendingFiles;
import dev.javelin.table.Commit;
import dev.javelin.table.DeletionFile;
import dev.javelin.table.Fragment;
import dev.javelin.table.Transaction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.arrow.memory.BufferAllocator;
import org.roaringbitmap.RoaringBitmap;

/**
 * Merges newly deleted rows into a fragment's deletion vector: the one place a Delete, a
 * row-rewriting Update and their rebases over concurrent commits unite two vectors and either
 * write the union as the fragment's new deletion file or drop a fragment left without live rows.
 */
public final class DeletionMerge {

  private DeletionMerge() {}

  /**
   * Writes {@code existing} united with {@code rows} as the fragment's new deletion file.
   *
   * @param existing the rows the fragment has deleted already (its current deletion vector)
   * @param rows the rows to delete now
   * @param version the read version the deletion file is named after
   * @param written where the new file's key is recorded (deleted with it if the commit fails)
   * @return the fragment with its new deletion file, or empty if no live row is left (the fragment
   *     is to be removed; nothing is written)
   */
  public static Optional<Fragment> merge(ObjectStore store, Fragment fragment, RoaringBitmap existing,
      RoaringBitmap rows, long version, PendingFiles written, BufferAllocator allocator) throws IOException {
    RoaringBitmap merged = RoaringBitmap.or(existing, rows);
    if (merged.getLongCardinality() >= fragment.physicalRows()) {
      return Optional.empty();
    }
    DeletionFile file = DeletionFiles.write(store, fragment.id(), version, merged, allocator);
    written.add(file.key(fragment.id()));
    return Optional.of(withDeletions(fragment, file));
  }

  /** The first offset both vectors hold (a row deleted twice), if any. */
  public static OptionalLong firstShared(RoaringBitmap a, RoaringBitmap b) {
    if (!RoaringBitmap.intersects(a, b)) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(Integer.toUnsignedLong(RoaringBitmap.and(a, b).first()));
  }

  /** What a rebase that writes deletion files does: builds the rebased transaction. */
  @FunctionalInterface
  public interface RebaseBody {
    /**
     * @param written where the keys of the files written for the rebase are recorded
     * @param superseded where the keys of files of the earlier attempt that the rebase no longer
     *     uses are put
     * @return the rebased transaction
     */
    Transaction rebase(PendingFiles written, List<String> superseded) throws IOException;
  }

  /**
   * Runs a rebase that writes deletion files: the files {@code body} writes are handed to the
   * commit with the transaction it returns (the commit deletes them if it fails), and deleted now
   * if it fails itself.
   *
   * @param failure the message of the {@link UncheckedIOException} an I/O failure is thrown as
   */
  public static Commit.Rebased rebase(ObjectStore store, String failure, RebaseBody body) {
    List<String> superseded = new ArrayList<>();
    try (PendingFiles written = new PendingFiles(store)) {
      Transaction rebased = body.rebase(written, superseded);
      written.commit();
      return new Commit.Rebased(rebased, written.keys(), superseded);
    } catch (IOException e) {
      throw new UncheckedIOException(failure, e);
    }
  }

  /** The fragment with {@code file} as its deletion file. */
  static Fragment withDeletions(Fragment f, DeletionFile file) {
    return Fragment.fromProto(f.proto().toBuilder().setDeletionFile(file.proto()).build());
  }
}
