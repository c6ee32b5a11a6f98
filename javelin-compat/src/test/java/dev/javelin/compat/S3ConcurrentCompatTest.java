package dev.javelin.compat;

import static dev.javelin.compat.DatasetCompatSupport.assertSameRows;
import static dev.javelin.compat.DatasetCompatSupport.batches;
import static dev.javelin.compat.DatasetCompatSupport.expected;
import static dev.javelin.compat.S3CompatSupport.javelinOpen;
import static dev.javelin.compat.S3CompatSupport.javelinScan;
import static dev.javelin.compat.S3CompatSupport.lanceOpen;
import static dev.javelin.compat.S3CompatSupport.lanceScan;
import static dev.javelin.compat.S3CompatSupport.lanceWrite;
import static dev.javelin.compat.S3CompatSupport.newUri;
import static dev.javelin.compat.S3CompatSupport.options;
import static dev.javelin.compat.S3CompatSupport.sortedById;
import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.core.VersionInfo;
import dev.javelin.core.WriteParams;
import dev.javelin.testing.FaultProxy;
import dev.javelin.testing.S3MockServer;
import dev.javelin.testing.TestAllocator;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.LongStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

/**
 * Javelin and lance-core 7.0.0 (through JNI, in this JVM) appending to one S3 (S3Mock) dataset at
 * once, each in its own threads: every commit is a conditional put of the next manifest, so a loser
 * rebases over the winner's transaction and tries the next version. Nothing may be lost or doubled.
 */
class S3ConcurrentCompatTest {
  static final String BUCKET = S3MockServer.shared().newBucket();
  static final int WRITERS_PER_SIDE = 2;
  static final int APPENDS_PER_WRITER = 4;
  static final int ROWS = 50;
  /** The names of versions 2 and 3's manifests (V2 naming: u64::MAX - version, 20 digits). */
  static final String MANIFEST_2 = Long.toUnsignedString(-1L - 2) + ".manifest";
  static final String MANIFEST_3 = Long.toUnsignedString(-1L - 3) + ".manifest";

  @TestAllocator BufferAllocator allocator;

  @Test
  void concurrentJavelinAndLanceAppendsOnS3LoseNothing() throws Exception {
    String uri = newUri(BUCKET);
    lanceWrite(allocator, uri, org.lance.WriteParams.WriteMode.CREATE, 0, ROWS, 1000);
    int writers = 2 * WRITERS_PER_SIDE;
    CyclicBarrier start = new CyclicBarrier(writers);
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    List<Future<?>> done = new ArrayList<>();
    try {
      for (int w = 0; w < writers; w++) {
        boolean lance = w % 2 == 0;
        int writer = w;
        done.add(pool.submit(() -> {
          start.await();
          for (int k = 0; k < APPENDS_PER_WRITER; k++) {
            long first = (long) ROWS * (1 + writer * APPENDS_PER_WRITER + k);
            if (lance) {
              lanceWrite(allocator, uri, org.lance.WriteParams.WriteMode.APPEND, first, ROWS, 1000);
            } else {
              // A stale reader each time: opened before the others' commits land.
              Dataset ds = javelinOpen(uri, allocator);
              List<VectorSchemaRoot> data = batches(allocator, first, ROWS, ROWS);
              try {
                ds.append(data, WriteParams.builder().storageOptions(options()).build());
              } finally {
                data.forEach(VectorSchemaRoot::close);
              }
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get(5, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
    int commits = writers * APPENDS_PER_WRITER;
    int total = ROWS * (1 + commits);
    List<List<String>> want = expected(allocator, 0, total);
    Dataset ds = javelinOpen(uri, allocator);
    assertThat(ds.version()).isEqualTo(1 + commits);
    assertThat(ds.versions()).extracting(VersionInfo::version)
        .containsExactlyElementsOf(LongStream.rangeClosed(1, 1 + commits).boxed().toList());
    assertThat(ds.versions()).extracting(VersionInfo::rowCount)
        .containsExactlyElementsOf(LongStream.rangeClosed(1, 1 + commits).map(v -> v * ROWS).boxed().toList());
    assertThat(ds.manifest().fragments()).hasSize(1 + commits);
    assertSameRows(sortedById(javelinScan(ds, null)), want);
    try (org.lance.Dataset lance = lanceOpen(uri, allocator)) {
      assertThat(lance.version()).isEqualTo(1 + commits);
      assertThat(lance.listVersions()).hasSize(1 + commits);
      assertSameRows(sortedById(lanceScan(lance, null)), want);
    }
  }

  /**
   * The moment lance-core PUTs the manifest of version 2, Javelin commits version 2 first: lance-core's
   * conditional put must get 412 from S3Mock and its commit rebase to version 3. A plain put would
   * overwrite Javelin's manifest and lose its rows.
   */
  @Test
  void lanceCommitsByConditionalPutOnS3AndRebasesWhenItsVersionIsTaken() throws Exception {
    String uri = newUri(BUCKET);
    lanceWrite(allocator, uri, org.lance.WriteParams.WriteMode.CREATE, 0, ROWS, 1000);
    AtomicBoolean raced = new AtomicBoolean();
    AtomicReference<Throwable> raceFailure = new AtomicReference<>();
    S3MockServer s3 = S3MockServer.shared();
    try (FaultProxy proxy = FaultProxy.start(s3.endpoint())) {
      proxy.always(FaultProxy.Fault.STATUS_500, r -> {
        if (r.method().equals("PUT") && r.target().contains("/_versions/" + MANIFEST_2)
            && raced.compareAndSet(false, true)) {
          try {
            Dataset ds = javelinOpen(uri, allocator);
            assertThat(ds.version()).isEqualTo(1);
            List<VectorSchemaRoot> data = batches(allocator, ROWS, ROWS, ROWS);
            try {
              assertThat(ds.append(data, WriteParams.builder().storageOptions(options()).build()).version())
                  .isEqualTo(2);
            } finally {
              data.forEach(VectorSchemaRoot::close);
            }
          } catch (Throwable t) {
            raceFailure.set(t);
          }
        }
        return false;
      });
      lanceWrite(allocator, uri, s3.storageOptions(proxy.endpoint()), org.lance.WriteParams.WriteMode.APPEND,
          2L * ROWS, ROWS, 1000);
      assertThat(raced).isTrue();
      assertThat(raceFailure.get()).isNull();
      assertThat(manifestPuts(proxy)).containsExactly(MANIFEST_2, MANIFEST_3);
    }
    Dataset ds = javelinOpen(uri, allocator);
    assertThat(ds.version()).isEqualTo(3);
    assertThat(LongStream.rangeClosed(1, 3).mapToObj(v -> ds.checkout(v).manifest().writerLibrary()))
        .containsExactly("lance", "javelin", "lance");
    assertSameRows(sortedById(javelinScan(ds, null)), expected(allocator, 0, 3 * ROWS));
    try (org.lance.Dataset lance = lanceOpen(uri, allocator)) {
      assertThat(lance.version()).isEqualTo(3);
      assertSameRows(sortedById(lanceScan(lance, null)), expected(allocator, 0, 3 * ROWS));
    }
  }

  /** The other way round: lance-core commits version 2 while Javelin's manifest PUT is on its way. */
  @Test
  void javelinRebasesOverALanceCommitThatTakesItsVersionOnS3() throws Exception {
    String uri = newUri(BUCKET);
    lanceWrite(allocator, uri, org.lance.WriteParams.WriteMode.CREATE, 0, ROWS, 1000);
    AtomicBoolean raced = new AtomicBoolean();
    AtomicReference<Throwable> raceFailure = new AtomicReference<>();
    S3MockServer s3 = S3MockServer.shared();
    Dataset appended;
    try (FaultProxy proxy = FaultProxy.start(s3.endpoint())) {
      proxy.always(FaultProxy.Fault.STATUS_500, r -> {
        if (r.method().equals("PUT") && r.target().contains("/_versions/" + MANIFEST_2)
            && raced.compareAndSet(false, true)) {
          try {
            lanceWrite(allocator, uri, org.lance.WriteParams.WriteMode.APPEND, ROWS, ROWS, 1000);
          } catch (Throwable t) {
            raceFailure.set(t);
          }
        }
        return false;
      });
      Dataset stale = Dataset.builder(uri).storageOptions(s3.storageOptions(proxy.endpoint())).allocator(allocator)
          .version(1).load();
      List<VectorSchemaRoot> data = batches(allocator, 2L * ROWS, ROWS, ROWS);
      try {
        appended = stale.append(data,
            WriteParams.builder().storageOptions(s3.storageOptions(proxy.endpoint())).build());
      } finally {
        data.forEach(VectorSchemaRoot::close);
      }
      assertThat(raced).isTrue();
      assertThat(raceFailure.get()).isNull();
      assertThat(manifestPuts(proxy)).containsExactly(MANIFEST_2, MANIFEST_3);
    }
    assertThat(appended.version()).isEqualTo(3);
    Dataset ds = javelinOpen(uri, allocator);
    assertThat(LongStream.rangeClosed(1, 3).mapToObj(v -> ds.checkout(v).manifest().writerLibrary()))
        .containsExactly("lance", "lance", "javelin");
    assertSameRows(sortedById(javelinScan(ds, null)), expected(allocator, 0, 3 * ROWS));
    try (org.lance.Dataset lance = lanceOpen(uri, allocator)) {
      assertThat(lance.version()).isEqualTo(3);
      assertSameRows(sortedById(lanceScan(lance, null)), expected(allocator, 0, 3 * ROWS));
    }
  }

  /** The manifests PUT through {@code proxy}, by name, in order. */
  private static List<String> manifestPuts(FaultProxy proxy) {
    List<String> out = new ArrayList<>();
    for (String l : proxy.log()) {
      int at = l.indexOf("/_versions/");
      if (l.startsWith("PUT ") && at >= 0 && l.contains(".manifest -> ")) {
        out.add(l.substring(at + "/_versions/".length(), l.indexOf(" -> ")));
      }
    }
    return out;
  }
}
