package dev.javelin.core;

import dev.javelin.index.IndexType;
import java.util.List;
import java.util.Set;

/**
 * One index of a dataset version, as its manifest lists it.
 *
 * @param name the index name (unique in a version)
 * @param uuid its files are under {@code _indices/{uuid}/}
 * @param type what kind of index the details say it is
 * @param fields the top-level names of the indexed fields, in order
 * @param fragments the ids of the fragments it covers (rows of other fragments are not in it)
 * @param datasetVersion the version it was built at
 * @param throughRowMaps ids of live fragments it also answers for through reordered rewrites (it
 *     covered all their sources; the rewrites' row maps translate its row addresses)
 */
public record IndexInfo(String name, String uuid, IndexType type, List<String> fields, Set<Long> fragments,
    long datasetVersion, Set<Long> throughRowMaps) {
  /** An index answering only for the fragments of its own bitmap. */
  public IndexInfo(String name, String uuid, IndexType type, List<String> fields, Set<Long> fragments,
      long datasetVersion) {
    this(name, uuid, type, fields, fragments, datasetVersion, Set.of());
  }
}
