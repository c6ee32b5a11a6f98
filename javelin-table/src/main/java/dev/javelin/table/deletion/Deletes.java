package dev.javelin.table.deletion;

import dev.javelin.io.ObjectStore;
import dev.javelin.table.DeletionFile;
import dev.javelin.table.Fragment;
import dev.javelin.table.exceptions.TableErrors;
import java.io.IOException;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.roaringbitmap.RoaringBitmap;

/**
 * The rows a fragment's deletion file deletes, checked against the fragment. (The Delete operation
 * itself is javelin-core's; this is what every reader and writer needs of it.)
 */
public final class Deletes {

  private Deletes() {}

  /** The deleted rows of a fragment (empty if it has no deletion file). */
  public static RoaringBitmap deletedRows(ObjectStore store, Fragment fragment, BufferAllocator allocator)
      throws IOException {
    Optional<DeletionFile> file = fragment.deletionFile();
    if (file.isEmpty()) {
      return new RoaringBitmap();
    }
    RoaringBitmap rows = DeletionFiles.read(store, fragment.id(), file.get(), allocator);
    if (!rows.isEmpty() && Integer.toUnsignedLong(rows.last()) >= fragment.physicalRows()) {
      throw TableErrors.corrupt(store.location() + "/" + file.get().key(fragment.id()), "Deletion file deletes row "
          + Integer.toUnsignedLong(rows.last()) + " of fragment " + fragment.id() + ", which has "
          + fragment.physicalRows() + " rows");
    }
    return rows;
  }
}
