package dev.javelin.index.internal.scalar;

import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.WriteOptions;
import dev.javelin.io.ObjectStore;
import java.io.IOException;
import org.apache.arrow.vector.VectorSchemaRoot;

/** Writes the one file of a zoned index (zone map, bloom filter): a row per zone. */
public final class ZoneFiles {
  private ZoneFiles() {}

  /**
   * Writes {@code zones} (its row count set) to {@code path} in {@code store}.
   *
   * @return the file's size in bytes
   */
  public static long write(ObjectStore store, String path, VectorSchemaRoot zones) throws IOException {
    LanceFileWriter w = LanceFileWriter.create(store.newOutputFile(path), zones.getSchema(), WriteOptions.defaults());
    try (w) {
      if (zones.getRowCount() > 0) {
        w.write(zones);
      }
    }
    return w.fileSize();
  }
}
