package dev.javelin.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.javelin.io.InputFile;
import dev.javelin.io.ObjectExistsException;
import dev.javelin.io.PositionOutputStream;
import dev.javelin.testing.FaultProxy;
import dev.javelin.testing.FaultProxy.Fault;
import dev.javelin.testing.FaultProxy.Request;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The store through a {@link FaultProxy}: 503s, 500s, connections reset or closed halfway through
 * a response are retried until the operation succeeds; faults that never stop fail it with an
 * IOException in bounded time, leaving no partial object and no upload.
 */
class S3FaultTest {
  private static final int PART = 5 << 20;
  private static final Predicate<Request> UPLOAD_PART =
      r -> r.method().equals("PUT") && r.target().contains("partNumber=");
  private static final Predicate<Request> CREATE_UPLOAD =
      r -> r.method().equals("POST") && r.target().endsWith("?uploads");
  private static final Predicate<Request> COMPLETE_UPLOAD =
      r -> r.method().equals("POST") && r.target().contains("uploadId=");
  private static String bucket;
  private static S3Client raw;
  private FaultProxy proxy;

  @BeforeAll
  static void setUp() {
    bucket = S3Fixtures.server().newBucket();
    raw = S3Fixtures.rawClient();
  }

  @AfterAll
  static void tearDown() {
    raw.close();
  }

  @BeforeEach
  void startProxy() throws IOException {
    proxy = FaultProxy.start(S3Fixtures.server().endpoint());
  }

  @AfterEach
  void stopProxy() {
    proxy.close();
  }

  private S3ObjectStore store(String... extra) {
    return S3Fixtures.store(bucket, proxy.endpoint(), extra);
  }

  private static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  @Test
  void readsSurviveErrorsResetsAndTruncatedBodies() throws Exception {
    byte[] data = random(1 << 20, 1);
    try (S3ObjectStore store = store()) {
      store.put("data/f.lance", data);
      proxy.inject(Fault.STATUS_500, 1, "HEAD")
          .inject(Fault.STATUS_503, 1, "GET")
          .inject(Fault.STATUS_500, 2, "GET")
          .inject(Fault.RESET, 2, "GET")
          .inject(Fault.TRUNCATE, 2, "GET");
      assertThat(store.read("data/f.lance")).isEqualTo(data);
      try (InputFile in = store.open("data/f.lance")) {
        for (int i = 0; i < 6; i++) {
          int at = i * 100_000;
          ByteBuffer b = in.read(at, 50_000);
          byte[] got = new byte[50_000];
          b.get(got);
          assertThat(got).isEqualTo(Arrays.copyOfRange(data, at, at + 50_000));
        }
      }
      assertThat(proxy.faultsInjected()).isEqualTo(8);
    }
  }

  @Test
  void listingsSurviveAnswersCutShort() throws Exception {
    try (S3ObjectStore store = store()) {
      for (int i = 0; i < 20; i++) {
        store.put("data/object-with-a-long-name-" + i + ".lance", new byte[] {(byte) i});
      }
      Predicate<Request> list = r -> r.method().equals("GET") && r.target().contains("list-type=2");
      // The chunked XML answer cut short is a parse error to the SDK, not an I/O error.
      proxy.inject(Fault.STATUS_503, 1, list).inject(Fault.TRUNCATE, 1, list).inject(Fault.RESET, 1, list);
      assertThat(store.list("data/")).hasSize(20);
      assertThat(proxy.faultsInjected()).isEqualTo(3);
    }
  }

  @Test
  void putsSurviveErrorsAndLostAnswers() throws Exception {
    byte[] data = random(200_000, 2);
    try (S3ObjectStore store = store()) {
      proxy.inject(Fault.STATUS_503, 1, "PUT")
          .inject(Fault.STATUS_500, 1, "PUT")
          .inject(Fault.RESET, 1, "PUT")
          .inject(Fault.TRUNCATE, 1, "PUT");
      store.put("data/p.lance", data);
      assertThat(proxy.faultsInjected()).isEqualTo(4);
      proxy.clear();
      assertThat(store.read("data/p.lance")).isEqualTo(data);
    }
  }

  @Test
  void putIfAbsentTellsALostAnswerFromALostRace() throws Exception {
    byte[] mine = random(5_000, 3);
    try (S3ObjectStore store = store()) {
      // The first attempt writes the object but its answer is lost; the retry finds the key taken,
      // by these very bytes: the commit succeeded.
      proxy.inject(Fault.RESET, 1, "PUT");
      store.putIfAbsent("_versions/1.manifest", mine);
      proxy.inject(Fault.STATUS_500, 2, "PUT").inject(Fault.TRUNCATE, 1, "PUT");
      store.putIfAbsent("_versions/2.manifest", mine);
      assertThat(proxy.faultsInjected()).isEqualTo(4);
      // Another writer's bytes under the key: a lost race, even after a lost answer.
      proxy.inject(Fault.STATUS_503, 1, "PUT");
      assertThatThrownBy(() -> store.putIfAbsent("_versions/1.manifest", random(5_000, 4)))
          .isInstanceOf(ObjectExistsException.class);
      proxy.clear();
      assertThat(store.read("_versions/1.manifest")).isEqualTo(mine);
      assertThat(store.read("_versions/2.manifest")).isEqualTo(mine);
    }
  }

  @Test
  void multipartUploadsSurviveFaultsOnEveryStep() throws Exception {
    byte[] data = random(2 * PART + 777, 5);
    try (S3ObjectStore store = store("javelin_s3_part_size", String.valueOf(PART))) {
      proxy.inject(Fault.STATUS_503, 1, CREATE_UPLOAD)
          .inject(Fault.STATUS_500, 2, UPLOAD_PART)
          .inject(Fault.RESET, 1, UPLOAD_PART)
          .inject(Fault.TRUNCATE, 1, UPLOAD_PART)
          .inject(Fault.TRUNCATE, 1, COMPLETE_UPLOAD); // completed, but the answer is cut short
      try (PositionOutputStream out = store.newOutputFile("data/m.lance").create()) {
        out.write(data);
      }
      assertThat(proxy.faultsInjected()).isEqualTo(6);
      proxy.clear();
      assertThat(store.read("data/m.lance")).isEqualTo(data);
      assertThat(S3Fixtures.uploads(raw, bucket, store.prefix())).isEmpty();
    }
  }

  @Test
  void unendingFaultsFailInBoundedTimeAndLeaveNothing() throws Exception {
    try (S3ObjectStore store = store("client_max_retries", "2", "timeout", "2s", "connect_timeout", "1s",
        "javelin_s3_part_size", String.valueOf(PART))) {
      store.put("data/read.lance", random(100_000, 6));
      assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
        proxy.always(Fault.STATUS_503, r -> r.method().equals("PUT"));
        assertThatThrownBy(() -> store.put("data/p.lance", new byte[10])).isInstanceOf(IOException.class)
            .hasMessageContaining("data/p.lance");
        assertThatThrownBy(() -> store.putIfAbsent("_versions/1.manifest", new byte[10]))
            .isInstanceOf(IOException.class).isNotInstanceOf(ObjectExistsException.class)
            .hasMessageContaining("_versions/1.manifest");
        proxy.clear().always(Fault.STATUS_500, UPLOAD_PART);
        assertThatThrownBy(() -> {
          try (PositionOutputStream out = store.newOutputFile("data/m.lance").create()) {
            out.write(random(PART + 1, 7));
          }
        }).isInstanceOf(IOException.class).hasMessageContaining("data/m.lance");
        proxy.clear().always(Fault.TRUNCATE, r -> r.method().equals("GET"));
        assertThatThrownBy(() -> store.read("data/read.lance")).isInstanceOf(IOException.class)
            .hasMessageContaining("data/read.lance");
        // A server that stops answering: each attempt times out.
        proxy.clear().latency(Duration.ofSeconds(4));
        assertThatThrownBy(() -> store.open("data/read.lance").length()).isInstanceOf(IOException.class)
            .hasMessageContaining("data/read.lance");
      });
      proxy.clear();
      assertThat(store.exists("data/p.lance")).isFalse();
      assertThat(store.exists("_versions/1.manifest")).isFalse();
      assertThat(store.exists("data/m.lance")).isFalse();
      assertThat(S3Fixtures.uploads(raw, bucket, store.prefix())).isEmpty();
    }
  }

  @Test
  void slowRequestsStillSucceed() throws Exception {
    byte[] data = random(50_000, 8);
    try (S3ObjectStore store = store()) {
      proxy.latency(Duration.ofMillis(100));
      store.put("a", data);
      assertThat(store.read("a")).isEqualTo(data);
      assertThat(proxy.requests()).isEqualTo(2); // PUT, GET (a whole read asks for no length first)
    }
  }
}
