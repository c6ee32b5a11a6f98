package dev.javelin.table;

import dev.javelin.io.ObjectStore;
import dev.javelin.table.exceptions.CorruptManifestException;
import dev.javelin.table.exceptions.TableErrors;
import dev.javelin.table.proto.TableProtos;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The base paths of a version (manifest field 18, reader feature 16): other locations its data
 * files, deletion files and indices may live under, by id. A shallow clone or a branch refers to
 * its source's files this way; a file without a base id lives under the dataset's own root.
 *
 * <p>A base that is a dataset root keeps files in the usual subdirectories ({@code data/},
 * {@code _deletions/}, {@code _indices/}); any other base is the files' directory itself.
 */
public final class BasePaths {
  static final BasePaths NONE = new BasePaths(List.of());

  /**
   * One base path: its id (what files name as their base id), an optional name (a branch's or
   * tag's), whether it is a dataset root, and its location.
   */
  public record BasePath(int id, Optional<String> name, boolean datasetRoot, String path) {}

  private final Map<Integer, BasePath> byId;
  private final Map<Integer, ObjectStore> stores = new ConcurrentHashMap<>();

  private BasePaths(List<TableProtos.BasePath> paths) {
    Map<Integer, BasePath> m = new TreeMap<>();
    for (TableProtos.BasePath p : paths) {
      m.put(p.getId(), new BasePath(p.getId(), p.hasName() ? Optional.of(p.getName()) : Optional.empty(),
          p.getIsDatasetRoot(), p.getPath()));
    }
    this.byId = Collections.unmodifiableMap(m);
  }

  static BasePaths of(List<TableProtos.BasePath> paths) {
    return paths.isEmpty() ? NONE : new BasePaths(paths);
  }

  /** The base paths by id, in id order. */
  public Map<Integer, BasePath> byId() {
    return byId;
  }

  /** The id a new base path gets: one above the highest, as Lance numbers them. */
  int nextId() {
    return byId.isEmpty() ? 0 : Collections.max(byId.keySet()) + 1;
  }

  /**
   * The store a file of base {@code id} is in; {@code own} when the file has no base id.
   *
   * @throws CorruptManifestException if the manifest has no base path of that id
   */
  ObjectStore store(ObjectStore own, Integer id, String file) {
    if (id == null) {
      return own;
    }
    return stores.computeIfAbsent(id, k -> own.resolve(base(own, k, file).path()));
  }

  /** The key of a file in its store: {@code dir + name} under a dataset root, else just the name. */
  String key(ObjectStore own, Integer id, String dir, String name) {
    if (id == null || base(own, id, name).datasetRoot()) {
      return dir + name;
    }
    return name;
  }

  private BasePath base(ObjectStore own, int id, String file) {
    BasePath p = byId.get(id);
    if (p == null) {
      throw TableErrors.corrupt(own.location(), file + " names base path id " + id + ", which the manifest does not list");
    }
    return p;
  }

  /**
   * The store holding an index's files ({@code own} for an index without a base id), under
   * {@code _indices/<uuid>/} there.
   *
   * @throws UnsupportedOperationException if the index's base is not a dataset root (its files
   *     would be directly under the base, which Javelin's index readers do not look for)
   */
  public ObjectStore indexStore(ObjectStore own, IndexMetadata index) {
    if (index.baseId().isEmpty()) {
      return own;
    }
    int id = index.baseId().getAsInt();
    String what = "Index " + index.name();
    if (!base(own, id, what).datasetRoot()) {
      throw new UnsupportedOperationException(what + " lives under base path " + id
          + ", which is not a dataset root; Javelin reads indices of dataset roots only: " + own.location());
    }
    return store(own, id, what);
  }
}
