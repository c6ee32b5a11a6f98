package dev.javelin.table;

import com.google.protobuf.UnknownFieldSet;
import dev.javelin.table.proto.TableProtos;

/** Index entries derived from others. */
public final class IndexEntries {
  private IndexEntries() {}

  /**
   * An entry for a new index made from {@code old} (remapped, merged with new rows) under
   * {@code newUuid}, to be completed by the caller. Its files are this dataset's own, so the base
   * id (a shallow clone's source) goes; so do the fields Javelin does not know, which newer Lance
   * uses to record the old index's files and sizes.
   */
  public static TableProtos.IndexMetadata.Builder renewed(TableProtos.IndexMetadata old, TableProtos.UUID newUuid) {
    return old.toBuilder()
        .setUnknownFields(UnknownFieldSet.getDefaultInstance())
        .clearBaseId()
        .setUuid(newUuid);
  }
}
