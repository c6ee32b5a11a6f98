package dev.javelin.core.compaction;

import dev.javelin.common.Tasks;
import dev.javelin.io.ByteArrayInputFile;
import dev.javelin.io.InputFile;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.DataFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;

/**
 * Opens the data files a repack or binary copy reads. Such a task reads nearly every byte of its
 * sources, range after range; on a remote store each range would be a round trip, so sources
 * that together fit {@link #WHOLE_FETCH_BYTES} are fetched whole, all at once on the session's
 * I/O threads: one round trip for the lot. Larger sources are opened for ranged reads, with the
 * size the manifest records (no request for their length).
 */
final class SourceFiles {
  /** The most bytes of one task's sources held in memory at once: 64 MiB, less on a small heap. */
  static final long WHOLE_FETCH_BYTES = Math.min(64L << 20, Runtime.getRuntime().maxMemory() / 16);

  private SourceFiles() {}

  /**
   * The files a binary copy concatenates, in order; the caller closes them. On a store that copies
   * between its own objects they are opened for ranged reads: only their metadata is read, the
   * store copies their pages.
   */
  static List<InputFile> openForCopy(ObjectStore own, List<DataFile> files, ExecutorService io) throws IOException {
    return own.copiesServerSide() ? openRanged(own, files) : open(own, files, io);
  }

  /** The files, in order; the caller closes them. */
  static List<InputFile> open(ObjectStore own, List<DataFile> files, ExecutorService io) throws IOException {
    long total = 0;
    boolean sized = true;
    for (DataFile d : files) {
      sized &= d.fileSizeBytes() > 0;
      total += d.fileSizeBytes();
    }
    if (own.remote() && sized && total <= WHOLE_FETCH_BYTES && files.size() > 0) {
      return Tasks.foreach(files).executeWith(io).callerRuns()
          .run(d -> new ByteArrayInputFile(d.store(own).read(d.key(own)),
              d.store(own).location() + "/" + d.key(own)));
    }
    return openRanged(own, files);
  }

  private static List<InputFile> openRanged(ObjectStore own, List<DataFile> files) throws IOException {
    List<InputFile> in = new ArrayList<>();
    try {
      for (DataFile d : files) {
        in.add(d.store(own).open(d.key(own), d.fileSizeBytes()));
      }
      return in;
    } catch (IOException | RuntimeException e) {
      close(in, e);
      throw e;
    }
  }

  /** Closes every file; failures are added to {@code failure} if there is one, else the first is thrown. */
  static void close(List<InputFile> files, Exception failure) throws IOException {
    IOException first = null;
    for (InputFile f : files) {
      try {
        f.close();
      } catch (IOException e) {
        if (failure != null) {
          failure.addSuppressed(e);
        } else if (first == null) {
          first = e;
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
