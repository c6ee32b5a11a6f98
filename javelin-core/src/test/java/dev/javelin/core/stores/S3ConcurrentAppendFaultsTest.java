package dev.javelin.core.stores;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.core.Session;
import dev.javelin.core.VersionInfo;
import dev.javelin.core.WriteParams;
import dev.javelin.testing.FaultProxy.Fault;
import dev.javelin.testing.FaultProxy;
import dev.javelin.testing.MixedBatches;
import dev.javelin.testing.Readers;
import dev.javelin.testing.S3MockServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Four writers appending to one S3 dataset at once, through a {@link FaultProxy} that delays every
 * request and answers some with 503: no commit is lost or doubled, and the versions run on without
 * a gap.
 */
class S3ConcurrentAppendFaultsTest {
  private static final String BUCKET = S3MockServer.shared().newBucket();
  private static final int WRITERS = 4;
  private static final int APPENDS = 5;
  private static final int ROWS = 50;
  private final String uri = "s3://" + BUCKET + "/concurrent-" + UUID.randomUUID() + "/ds";
  private FaultProxy proxy;
  private Session session;

  @BeforeEach
  void start() throws Exception {
    // S3Mock checks a conditional write's condition without a lock: the proxy makes it atomic, as S3's.
    proxy = FaultProxy.start(S3MockServer.shared().endpoint()).serializeConditionalWrites();
    session = Session.builder().build();
  }

  @AfterEach
  void stop() {
    session.close();
    proxy.close();
  }

  private Map<String, String> options() {
    return S3MockServer.shared().storageOptions(proxy.endpoint());
  }

  private WriteParams params() {
    return WriteParams.builder().storageOptions(options()).build();
  }

  @Test
  void concurrentAppendsThroughSlowFlakyRequestsAllLandOnce() throws Exception {
    try (VectorSchemaRoot first = MixedBatches.batch(session.allocator(), 0, ROWS);
        ArrowReader r = Readers.readerOf(session.allocator(), first)) {
      Dataset.create(uri, r, params(), session);
    }
    AtomicInteger n = new AtomicInteger();
    proxy.latency(Duration.ofMillis(15)).always(Fault.STATUS_503, req -> n.incrementAndGet() % 9 == 0);
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    List<Future<?>> writers = new ArrayList<>();
    try {
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        writers.add(pool.submit(() -> {
          Dataset ds = Dataset.builder(uri).storageOptions(options()).session(session).load();
          for (int a = 0; a < APPENDS; a++) {
            long start = ROWS * (1 + writer * APPENDS + a);
            try (VectorSchemaRoot batch = MixedBatches.batch(session.allocator(), start, ROWS)) {
              ds = ds.append(List.of(batch), params());
            }
          }
          return null;
        }));
      }
      for (Future<?> f : writers) {
        f.get(90, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(proxy.faultsInjected()).isPositive();
    proxy.clear();
    Dataset latest = Dataset.builder(uri).storageOptions(options()).session(session).load();
    int commits = 1 + WRITERS * APPENDS;
    assertThat(latest.version()).isEqualTo(commits);
    assertThat(Dataset.versions(uri, options())).extracting(VersionInfo::version)
        .containsExactlyElementsOf(LongStream.rangeClosed(1, commits).boxed().toList());
    List<Long> ids = StoreDatasetContract.ids(latest, null);
    assertThat(ids).hasSize(ROWS * commits)
        .containsExactlyInAnyOrderElementsOf(LongStream.range(0, (long) ROWS * commits).boxed().toList());
    assertThat(latest.manifest().fragments()).hasSize(commits);
  }
}
