package dev.javelin.table.rowids;

import dev.javelin.io.InputFile;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.Fragment;
import dev.javelin.table.exceptions.TableErrors;
import dev.javelin.table.proto.TableProtos;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reads a fragment's row id sequence and version sequences, whether inline in the manifest or in
 * a region ({@code ExternalFile{path, offset, size}}, the path relative to the dataset root) of
 * another file. Lance 7.0.0 writes them inline; the external form is read the way Lance reads it.
 */
public final class FragmentRowIds {
  private FragmentRowIds() {}

  /**
   * The fragment's row ids, empty when the dataset has no stable row ids.
   *
   * @throws dev.javelin.table.exceptions.CorruptManifestException if the sequence does not decode, or its
   *     length is not the fragment's physical row count
   */
  public static Optional<RowIdSequence> rowIds(Fragment fragment, ObjectStore store) {
    TableProtos.DataFragment p = fragment.proto();
    byte[] bytes;
    switch (p.getRowIdSequenceCase()) {
      case INLINE_ROW_IDS:
        bytes = p.getInlineRowIds().toByteArray();
        break;
      case EXTERNAL_ROW_IDS:
        bytes = readExternal(store, p.getExternalRowIds(), fragment, "row ids");
        break;
      default:
        return Optional.empty();
    }
    RowIdSequence s = decode(bytes, RowIdSequence::parse, fragment, store, "row id sequence");
    checkLength(s.length(), fragment, store, "row id sequence");
    return Optional.of(s);
  }

  /** The version that created each row, empty when not recorded (datasets written before Lance tracked it). */
  public static Optional<RowVersionSequence> createdAt(Fragment fragment, ObjectStore store) {
    TableProtos.DataFragment p = fragment.proto();
    switch (p.getCreatedAtVersionSequenceCase()) {
      case INLINE_CREATED_AT_VERSIONS:
        return Optional.of(versions(p.getInlineCreatedAtVersions().toByteArray(), fragment, store, "created-at"));
      case EXTERNAL_CREATED_AT_VERSIONS:
        return Optional.of(versions(readExternal(store, p.getExternalCreatedAtVersions(), fragment, "created-at versions"),
            fragment, store, "created-at"));
      default:
        return Optional.empty();
    }
  }

  /** The version that last updated each row, empty when not recorded. */
  public static Optional<RowVersionSequence> lastUpdatedAt(Fragment fragment, ObjectStore store) {
    TableProtos.DataFragment p = fragment.proto();
    switch (p.getLastUpdatedAtVersionSequenceCase()) {
      case INLINE_LAST_UPDATED_AT_VERSIONS:
        return Optional.of(versions(p.getInlineLastUpdatedAtVersions().toByteArray(), fragment, store,
            "last-updated-at"));
      case EXTERNAL_LAST_UPDATED_AT_VERSIONS:
        return Optional.of(versions(readExternal(store, p.getExternalLastUpdatedAtVersions(), fragment,
            "last-updated-at versions"), fragment, store, "last-updated-at"));
      default:
        return Optional.empty();
    }
  }

  private static RowVersionSequence versions(byte[] bytes, Fragment fragment, ObjectStore store, String which) {
    RowVersionSequence s = decode(bytes, RowVersionSequence::parse, fragment, store, which + " version sequence");
    checkLength(s.length(), fragment, store, which + " version sequence");
    return s;
  }

  private static <T> T decode(byte[] bytes, Function<byte[], T> parser, Fragment fragment, ObjectStore store,
      String what) {
    try {
      return parser.apply(bytes);
    } catch (IllegalArgumentException e) {
      throw TableErrors.corrupt(store.location(), "Fragment " + fragment.id() + " has a bad " + what + " ("
          + e.getMessage() + ")", e);
    }
  }

  private static void checkLength(long length, Fragment fragment, ObjectStore store, String what) {
    if (length != fragment.physicalRows()) {
      throw TableErrors.corrupt(store.location(), "Fragment " + fragment.id() + " has a " + what + " of " + length
          + " rows but " + fragment.physicalRows() + " physical rows");
    }
  }

  private static byte[] readExternal(ObjectStore store, TableProtos.ExternalFile f, Fragment fragment, String what) {
    if (f.getSize() > Integer.MAX_VALUE || f.getOffset() < 0) {
      throw TableErrors.corrupt(store.location(), "Fragment " + fragment.id() + " has " + what + " in " + f.getPath()
          + " at offset " + Long.toUnsignedString(f.getOffset()) + ", size " + Long.toUnsignedString(f.getSize())
          + ", which cannot be read");
    }
    try (InputFile in = store.open(f.getPath())) {
      ByteBuffer b = in.read(f.getOffset(), (int) f.getSize());
      byte[] out = new byte[b.remaining()];
      b.get(out);
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException("Could not read the " + what + " of fragment " + fragment.id() + " from "
          + f.getPath() + ": " + store.location(), e);
    }
  }
}
