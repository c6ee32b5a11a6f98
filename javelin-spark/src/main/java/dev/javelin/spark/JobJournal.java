package dev.javelin.spark;

import dev.javelin.core.Session;
import dev.javelin.io.InputFile;
import dev.javelin.io.LocalObjectStore;
import dev.javelin.io.ObjectInfo;
import dev.javelin.io.ObjectStore;
import dev.javelin.io.OutputFile;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Knows every file a Spark job wrote, even files of task attempts whose result never reached the
 * driver (a killed executor, a lost result): before a worker creates a file it records the key
 * in an empty marker object under {@code _javelin_jobs/<job>/files/}. After the job the driver
 * deletes every recorded file that no committed result references, then the markers. Files of
 * other writers are never touched, since only this job's markers are read.
 *
 * <p>A failed job's other tasks may still be running when the driver hears of the failure, so
 * each attempt also marks its start and end, and the driver first closes the journal (an
 * attempt starting after that writes nothing), then waits for every started attempt to end
 * (bounded: an executor that died never marks its end) before it deletes anything.
 *
 * <p>The journal carries the dataset's URI and storage options, so each side (driver, executor)
 * opens the store itself, through the default session's stores (one client per bucket and
 * options in each JVM): a local directory or any object store.
 */
final class JobJournal implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(JobJournal.class);
  static final String ROOT = "_javelin_jobs/";

  private final String uri;
  private final Map<String, String> storage;
  private final String jobId;

  JobJournal(String uri, Map<String, String> storage) {
    this.uri = uri;
    this.storage = Map.copyOf(storage);
    this.jobId = UUID.randomUUID().toString();
  }

  String uri() {
    return uri;
  }

  /** The storage options the dataset's store is opened with. */
  Map<String, String> storage() {
    return storage;
  }

  private static final long WAIT_MILLIS = 60_000;

  private String prefix() {
    return ROOT + jobId + "/files/";
  }

  private String attempts() {
    return ROOT + jobId + "/attempts/";
  }

  private String closed() {
    return ROOT + jobId + "/closed";
  }

  /**
   * Marks a task attempt's start (its end when closed).
   *
   * @throws IllegalStateException if the driver has closed the journal (the job is over)
   */
  AutoCloseable attempt(org.apache.spark.TaskContext ctx) {
    ObjectStore store = store();
    String name = attempts() + (ctx == null ? UUID.randomUUID().toString()
        : ctx.stageId() + "." + ctx.stageAttemptNumber() + "." + ctx.partitionId() + "." + ctx.attemptNumber()
        + "." + ctx.taskAttemptId());
    try {
      store.put(name + ".start", new byte[0]);
      if (store.exists(closed())) {
        store.put(name + ".end", new byte[0]);
        throw new IllegalStateException("Spark job " + jobId + " on " + uri + " is over; this attempt writes nothing");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot mark a task attempt in the job journal: " + uri, e);
    }
    return () -> store.put(name + ".end", new byte[0]);
  }

  /**
   * The dataset's store, unwrapped (driver side: reads and commits), the default session's (not
   * to be closed).
   *
   * @throws dev.javelin.io.UnsupportedStoreException if no store on the class path opens the URI's scheme
   * @throws IllegalArgumentException if the URI or a storage option is malformed
   */
  ObjectStore store() {
    return Session.defaultSession().store(uri, storage);
  }

  /** The dataset's store, recording every file created through it (worker side). */
  ObjectStore recordingStore() {
    ObjectStore inner = store();
    String prefix = prefix();
    return new ObjectStore() {
      @Override
      public String location() {
        return inner.location();
      }

      @Override
      public List<ObjectInfo> list(String p) throws IOException {
        return inner.list(p);
      }

      @Override
      public InputFile open(String key) throws IOException {
        return inner.open(key);
      }

      @Override
      public byte[] read(String key) throws IOException {
        return inner.read(key);
      }

      @Override
      public void put(String key, byte[] data) throws IOException {
        inner.put(prefix + key, new byte[0]);
        inner.put(key, data);
      }

      @Override
      public void putIfAbsent(String key, byte[] data) throws IOException {
        inner.put(prefix + key, new byte[0]);
        inner.putIfAbsent(key, data);
      }

      @Override
      public OutputFile newOutputFile(String key) {
        try {
          inner.put(prefix + key, new byte[0]);
        } catch (IOException e) {
          throw new UncheckedIOException("Cannot record " + key + " in the job journal: " + uri, e);
        }
        return inner.newOutputFile(key);
      }

      @Override
      public void delete(String key) throws IOException {
        inner.delete(key);
      }

      @Override
      public void deleteAll(Collection<String> keys) throws IOException {
        inner.deleteAll(keys);
      }

      @Override
      public boolean exists(String key) throws IOException {
        return inner.exists(key);
      }
    };
  }

  /**
   * Deletes every file the job recorded that is not in {@code keep}, then the journal.
   *
   * @return the keys deleted
   */
  List<String> reconcile(Collection<String> keep) {
    Set<String> kept = new HashSet<>(keep);
    List<String> deleted = new ArrayList<>();
    try {
      ObjectStore store = store();
      store.put(closed(), new byte[0]);
      awaitAttempts(store);
      for (ObjectInfo o : store.list(prefix())) {
        String key = o.key().substring(prefix().length());
        if (!kept.contains(key)) {
          deleted.add(key);
        }
      }
      // The files before the journal that records them.
      store.deleteAll(deleted);
      List<String> journal = new ArrayList<>();
      for (ObjectInfo o : store.list(ROOT + jobId + "/")) {
        journal.add(o.key());
      }
      store.deleteAll(journal);
      if (store instanceof LocalObjectStore local) {
        // A local store leaves the emptied directories behind.
        deleteEmptyDirs(local.root().resolve(ROOT));
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("Could not reconcile the files of Spark job " + jobId + " in " + uri, e);
    }
    return deleted;
  }

  // Until every attempt that started has ended, or the wait's bound.
  private void awaitAttempts(ObjectStore store) throws IOException {
    long deadline = System.currentTimeMillis() + WAIT_MILLIS;
    while (true) {
      Set<String> starts = new HashSet<>();
      Set<String> ends = new HashSet<>();
      for (ObjectInfo o : store.list(attempts())) {
        String k = o.key();
        if (k.endsWith(".start")) {
          starts.add(k.substring(0, k.length() - 6));
        } else if (k.endsWith(".end")) {
          ends.add(k.substring(0, k.length() - 4));
        }
      }
      starts.removeAll(ends);
      if (starts.isEmpty()) {
        return;
      }
      if (System.currentTimeMillis() > deadline) {
        LOG.warn("Task attempts of Spark job " + jobId + " on " + uri + " never ended (a lost executor?): "
            + starts + "; files they write later are not cleaned up");
        return;
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static void deleteEmptyDirs(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (var s = Files.list(dir)) {
      for (Path p : s.toList()) {
        deleteEmptyDirs(p);
      }
    }
    try (var s = Files.list(dir)) {
      if (s.findAny().isEmpty()) {
        Files.delete(dir);
      }
    }
  }
}
