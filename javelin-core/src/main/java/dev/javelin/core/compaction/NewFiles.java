package dev.javelin.core.compaction;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.WriteOptions;
import dev.javelin.format.schema.LanceSchema;
import dev.javelin.io.ObjectStore;
import dev.javelin.io.PendingFiles;
import dev.javelin.table.DataFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/** Creates data files under {@code data/} and remembers them, so a failure can delete them all. */
final class NewFiles {
  private final ObjectStore store;
  private final LanceFileVersion version;
  private final PendingFiles keys;
  private final List<LanceFileWriter> open = new ArrayList<>();

  NewFiles(ObjectStore store, LanceFileVersion version) {
    this.store = store;
    this.version = version;
    this.keys = new PendingFiles(store);
  }

  /** A writer of a new file; {@link #finish} it. Its name is {@code writer.location()}'s last part. */
  Writer create(LanceSchema schema) throws IOException {
    return create(schema, 0);
  }

  /**
   * As {@link #create(LanceSchema)}, for about {@code expectedRows} rows (0: unknown): the writer
   * sizes its page buffers once from it (see {@link WriteOptions#expectedRows()}).
   */
  Writer create(LanceSchema schema, long expectedRows) throws IOException {
    String name = UUID.randomUUID() + ".lance";
    String key = "data/" + name;
    keys.add(key);
    LanceFileWriter w = LanceFileWriter.create(store.newOutputFile(key), schema,
        WriteOptions.builder().version(version).expectedRows(Math.max(0, expectedRows)).build());
    open.add(w);
    return new Writer(name, w);
  }

  /**
   * Closes the file and describes it; field ids not in {@code live} (nested fields the schema
   * dropped but the copied column still has) are recorded as tombstones.
   */
  DataFile finish(Writer w, Set<Integer> live) throws IOException {
    w.writer.close();
    open.remove(w.writer);
    long size = w.writer.fileSize();
    List<int[]> fields = new ArrayList<>();
    for (int[] fc : w.writer.fieldColumnIndices()) {
      fields.add(new int[] {live.contains(fc[0]) ? fc[0] : DataFile.TOMBSTONE, fc[1]});
    }
    return DataFile.of(w.name, fields, version, size);
  }

  /** Remembers a key written by other means (a binary copy), so {@link #deleteAll} removes it. */
  void track(String key) {
    keys.add(key);
  }

  List<String> keys() {
    return keys.keys();
  }

  /** Aborts open writers and deletes every file created. */
  void deleteAll() {
    open.forEach(LanceFileWriter::abort);
    open.clear();
    keys.close();
  }

  /** One file being written. */
  static final class Writer {
    final String name;
    final LanceFileWriter writer;

    Writer(String name, LanceFileWriter writer) {
      this.name = name;
      this.writer = writer;
    }
  }
}
