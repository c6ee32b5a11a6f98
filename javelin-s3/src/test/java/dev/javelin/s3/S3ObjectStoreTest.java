package dev.javelin.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.io.ByteArrayInputFile;
import dev.javelin.io.InputFile;
import dev.javelin.io.ObjectInfo;
import dev.javelin.io.ObjectStore;
import dev.javelin.io.ObjectStores;
import dev.javelin.io.OutputFile;
import dev.javelin.io.PositionOutputStream;
import dev.javelin.io.RequestCounters.Kind;
import dev.javelin.io.StorageOptions;
import dev.javelin.testing.FaultProxy;
import dev.javelin.testing.FaultProxy.Fault;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** What the S3 store does beyond the contract: URIs, multipart uploads, temporary objects, counters. */
class S3ObjectStoreTest {
  private static final int PART = 5 << 20;
  private static String bucket;
  private static S3Client raw;

  @BeforeAll
  static void setUp() {
    bucket = S3Fixtures.server().newBucket();
    raw = S3Fixtures.rawClient();
  }

  @AfterAll
  static void tearDown() {
    raw.close();
  }

  private static URI endpoint() {
    return S3Fixtures.server().endpoint();
  }

  private static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  @Test
  void withoutCredentialsTheErrorSaysWhereTheyComeFrom() {
    Map<String, String> noKeys = new HashMap<>(S3Fixtures.options(S3Fixtures.server().endpoint()));
    noKeys.remove("aws_access_key_id");
    noKeys.remove("aws_secret_access_key");
    try (ObjectStore store = ObjectStores.open("s3://" + bucket + "/nokeys", StorageOptions.of(noKeys))) {
      assertThatThrownBy(() -> store.list(""))
          .isInstanceOf(IOException.class)
          .hasMessage("No AWS credentials for s3://" + bucket + "/nokeys/: give the storage options "
              + "aws_access_key_id and aws_secret_access_key, or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, "
              + "a profile or an instance role");
    }
  }

  @Test
  void theProviderOpensS3AndS3aUrisAsTheSameStore() throws Exception {
    assertThat(new S3ObjectStoreProvider().schemes()).isEqualTo(Set.of("s3", "s3a"));
    StorageOptions options = StorageOptions.of(S3Fixtures.options(endpoint()));
    try (ObjectStore s3 = ObjectStores.open("s3://" + bucket + "/same/table", options);
        ObjectStore s3a = ObjectStores.open("s3a://" + bucket + "/same/table/", options)) {
      assertThat(s3).isInstanceOf(S3ObjectStore.class);
      assertThat(((S3ObjectStore) s3a).bucket()).isEqualTo(bucket);
      assertThat(((S3ObjectStore) s3a).prefix()).isEqualTo("same/table/");
      assertThat(s3.location()).isEqualTo("s3://" + bucket + "/same/table");
      assertThat(s3a.location()).isEqualTo("s3a://" + bucket + "/same/table");
      s3.put("_versions/1.manifest", "m".getBytes(StandardCharsets.UTF_8));
      assertThat(s3a.read("_versions/1.manifest")).isEqualTo("m".getBytes(StandardCharsets.UTF_8));
      assertThat(s3a.list("").stream().map(ObjectInfo::key)).containsExactly("_versions/1.manifest");
    }
    try (ObjectStore whole = ObjectStores.open("s3://" + bucket, options)) {
      assertThat(((S3ObjectStore) whole).prefix()).isEmpty();
      assertThat(whole.location()).isEqualTo("s3://" + bucket);
      assertThat(whole.exists("same/table/_versions/1.manifest")).isTrue();
    }
  }

  @Test
  void aUriNeedsABucketAndOptionsAreCheckedOnOpen() {
    StorageOptions options = StorageOptions.of(S3Fixtures.options(endpoint()));
    assertThatThrownBy(() -> ObjectStores.open("s3:///no-bucket", options))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("An S3 URI names its bucket after the scheme (s3://bucket/path): s3:///no-bucket");
    assertThatThrownBy(() -> ObjectStores.open("s3://b/t", StorageOptions.of(Map.of(
        "aws_endpoint", endpoint().toString(), "aws_access_key_id", "k", "aws_secret_access_key", "s"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Storage option aws_endpoint is a plain http endpoint (" + endpoint() + "): set aws_allow_http"
            + " to true to allow unencrypted requests");
  }

  @Test
  void s3MockRefusesATakenKeyWithPreconditionFailed() {
    String key = "if-none-match/" + System.nanoTime();
    raw.putObject(r -> r.bucket(bucket).key(key).ifNoneMatch("*"), RequestBody.fromString("first"));
    assertThatThrownBy(() -> raw.putObject(r -> r.bucket(bucket).key(key).ifNoneMatch("*"),
        RequestBody.fromString("second")))
        .isInstanceOfSatisfying(S3Exception.class, e -> {
          assertThat(e.statusCode()).isEqualTo(412);
          assertThat(e.awsErrorDetails().errorCode()).isEqualTo("PreconditionFailed");
        });
    assertThat(raw.getObjectAsBytes(r -> r.bucket(bucket).key(key)).asUtf8String()).isEqualTo("first");
  }

  @Test
  void aLargeStreamIsUploadedInPartsWithFewInFlight() throws Exception {
    byte[] data = random(2 * PART + 1_234_567, 1);
    try (S3ObjectStore store = S3Fixtures.store(bucket, endpoint(), "javelin_s3_part_size", String.valueOf(PART),
        "javelin_s3_upload_concurrency", "2")) {
      try (PositionOutputStream out = store.newOutputFile("data/big.lance").create()) {
        Random sizes = new Random(2);
        int at = 0;
        while (at < data.length) {
          int n = Math.min(data.length - at, 1 + sizes.nextInt(300_000));
          out.write(data, at, n);
          at += n;
        }
        assertThat(out.position()).isEqualTo(data.length);
        assertThat(store.exists("data/big.lance")).as("not there before close").isFalse();
      }
      assertThat(store.read("data/big.lance")).isEqualTo(data);
      assertThat(store.requests().count(Kind.PUT)).isEqualTo(3);
      assertThat(store.requests().bytes(Kind.PUT)).isEqualTo(data.length);
      assertThat(store.requests().count(Kind.MULTIPART)).isEqualTo(2); // create, complete
      assertThat(store.listTemporary("")).isEmpty();
      assertThat(S3Fixtures.uploads(raw, bucket, store.prefix())).isEmpty();
    }
  }

  @Test
  void aFailedPartAbortsTheUploadAndLeavesNothing() throws Exception {
    try (FaultProxy proxy = FaultProxy.start(endpoint());
        S3ObjectStore store = S3Fixtures.store(bucket, proxy.endpoint(), "javelin_s3_part_size", String.valueOf(PART),
            "client_max_retries", "1")) {
      proxy.always(Fault.STATUS_500, r -> r.method().equals("PUT") && r.target().contains("partNumber=2"));
      byte[] data = random(3 * PART, 3);
      OutputFile file = store.newOutputFile("data/failed.lance");
      assertThatThrownBy(() -> {
        try (PositionOutputStream out = file.create()) {
          for (int i = 0; i < data.length; i += 65_536) {
            out.write(data, i, Math.min(65_536, data.length - i));
          }
        }
      }).isInstanceOf(IOException.class).hasMessageContaining("data/failed.lance");
      proxy.clear();
      assertThat(store.exists("data/failed.lance")).isFalse();
      assertThat(store.listTemporary("")).isEmpty();
      assertThat(S3Fixtures.uploads(raw, bucket, store.prefix())).isEmpty();
      assertThat(proxy.faultsInjected()).isEqualTo(2); // part 2 and its one retry
    }
  }

  @Test
  void deletingAnOutputFileBeforeCloseAbortsItsUpload() throws Exception {
    try (S3ObjectStore store = S3Fixtures.store(bucket, endpoint(), "javelin_s3_part_size", String.valueOf(PART))) {
      OutputFile file = store.newOutputFile("data/abandoned.lance");
      PositionOutputStream out = file.create();
      out.write(random(PART + 10, 4));
      assertThat(S3Fixtures.uploads(raw, bucket, store.prefix())).hasSize(1);
      file.delete();
      assertThat(S3Fixtures.uploads(raw, bucket, store.prefix())).isEmpty();
      assertThatThrownBy(() -> out.write(1)).isInstanceOf(IOException.class)
          .hasMessage("The upload of " + store.location() + "/data/abandoned.lance was aborted");
      assertThatThrownBy(out::close).isInstanceOf(IOException.class);
      assertThat(store.exists("data/abandoned.lance")).isFalse();
    }
  }

  @Test
  void anUnfinishedUploadIsATemporaryObjectThatDeleteAborts() throws Exception {
    try (S3ObjectStore store = S3Fixtures.store(bucket, endpoint(), "javelin_s3_part_size", String.valueOf(PART))) {
      Instant before = Instant.now().minusSeconds(60);
      PositionOutputStream killed = store.newOutputFile("data/killed.lance").create();
      killed.write(random(PART + 1, 5)); // a writer that dies here leaves the upload behind
      PositionOutputStream other = store.newOutputFile("tree/b/data/other.lance").create();
      other.write(random(PART + 1, 6));
      store.put("data/whole.lance", new byte[] {1});

      List<ObjectInfo> temporary = store.listTemporary("data/");
      assertThat(temporary).hasSize(1);
      ObjectInfo t = temporary.get(0);
      assertThat(t.key()).startsWith("data/killed.lance" + S3ObjectStore.UPLOAD_MARKER);
      assertThat(t.lastModified()).hasValueSatisfying(at -> assertThat(at).isAfter(before));
      assertThat(store.listTemporary("")).hasSize(2);
      assertThat(store.child("tree/b").listTemporary("").get(0).key())
          .startsWith("data/other.lance" + S3ObjectStore.UPLOAD_MARKER);
      assertThat(store.list("").stream().map(ObjectInfo::key)).containsExactly("data/whole.lance");

      store.delete(t.key()); // what a table's cleanup does with it
      store.delete(t.key()); // twice is no error
      assertThat(store.listTemporary("data/")).isEmpty();
      store.deleteAll(List.of(store.listTemporary("").get(0).key(), "data/whole.lance"));
      assertThat(store.listTemporary("")).isEmpty();
      assertThat(S3Fixtures.uploads(raw, bucket, store.prefix())).isEmpty();
      assertThat(store.list("")).isEmpty();
      assertThatThrownBy(killed::close).isInstanceOf(IOException.class);
      assertThat(store.exists("data/killed.lance")).isFalse();
    }
  }

  @Test
  void requestsAreCountedByKind() throws Exception {
    try (S3ObjectStore store = S3Fixtures.store(bucket, endpoint())) {
      byte[] data = random(10_000, 7);
      store.put("a", data);
      store.putIfAbsent("b", data);
      InputFile in = store.open("a");
      assertThat(store.requests().count(Kind.HEAD)).as("the length is asked for when needed").isZero();
      in.read(100, 1_000);
      in.read(5_000, 24);
      assertThat(in.length()).isEqualTo(10_000);
      assertThat(store.exists("nope")).isFalse();
      store.list("");
      ObjectStore child = store.child("sub");
      child.delete("x");
      store.deleteAll(List.of("a", "b"));
      assertThat(store.requests().count(Kind.PUT)).isEqualTo(2);
      assertThat(store.requests().bytes(Kind.PUT)).isEqualTo(20_000);
      assertThat(store.requests().count(Kind.HEAD)).isEqualTo(2); // one for the file, one for exists
      assertThat(store.requests().count(Kind.GET)).isEqualTo(2);
      assertThat(store.requests().bytes(Kind.GET)).isEqualTo(1_024);
      assertThat(store.requests().count(Kind.LIST)).isEqualTo(1);
      assertThat(store.requests().count(Kind.DELETE)).isEqualTo(2);
      assertThat(store.requests().count(Kind.MULTIPART)).isZero();
      assertThat(child.requests()).isSameAs(store.requests());
      assertThat(store.requests().total()).isEqualTo(9);
    }
  }

  @Test
  void deleteAllSendsBatchesOfAThousandKeys() throws Exception {
    try (S3ObjectStore store = S3Fixtures.store(bucket, endpoint())) {
      List<String> keys = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        store.put("d/" + i, new byte[] {(byte) i});
        keys.add("d/" + i);
      }
      for (int i = 0; i < 1_500; i++) {
        keys.add("missing/" + i); // a missing key is no error
      }
      store.deleteAll(keys);
      assertThat(store.requests().count(Kind.DELETE)).isEqualTo(2);
      assertThat(store.list("")).isEmpty();
    }
  }

  @Test
  void anOpenObjectIsReadByManyThreadsAtOnce() throws Exception {
    byte[] data = random(1 << 20, 8);
    try (S3ObjectStore store = S3Fixtures.store(bucket, endpoint())) {
      store.put("data/f.lance", data);
      Instant written = Instant.now();
      try (InputFile in = store.open("data/f.lance")) {
        assertThat(in.blockSize()).isEqualTo(InputFile.REMOTE_BLOCK_SIZE);
        assertThat(Math.abs(in.lastModified() - written.toEpochMilli())).isLessThan(60_000);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
          List<Future<Boolean>> reads = new ArrayList<>();
          for (int t = 0; t < 32; t++) {
            int at = t * 30_000;
            int len = 1 + t * 1_000;
            reads.add(pool.submit(() -> {
              ByteBuffer b = in.read(at, len);
              byte[] got = new byte[len];
              b.get(got);
              return Arrays.equals(got, Arrays.copyOfRange(data, at, at + len));
            }));
          }
          for (Future<Boolean> f : reads) {
            assertThat(f.get()).isTrue();
          }
        } finally {
          pool.shutdownNow();
        }
      }
      assertThat(store.requests().count(Kind.HEAD)).isEqualTo(1);
    }
  }

  @Test
  void aConflictingConditionalWriteIsTriedAgain() throws Exception {
    try (FaultProxy proxy = FaultProxy.start(endpoint());
        S3ObjectStore store = S3Fixtures.store(bucket, proxy.endpoint())) {
      proxy.inject(Fault.STATUS_409, 2, "PUT");
      store.putIfAbsent("_versions/1.manifest", new byte[] {1, 2, 3});
      assertThat(proxy.faultsInjected()).isEqualTo(2);
      assertThat(store.read("_versions/1.manifest")).containsExactly(1, 2, 3);
    }
  }

  @Test
  void closingTheStoreClosesItsClients() throws Exception {
    S3ObjectStore store = S3Fixtures.store(bucket, endpoint());
    store.put("k", new byte[] {1});
    ObjectStore child = store.child("c");
    child.close();
    assertThat(store.exists("k")).isTrue();
    store.close();
    store.close(); // twice is fine
    assertThatThrownBy(() -> store.exists("k")).isInstanceOf(RuntimeException.class);
  }
  @Test
  void copiedRangesOfItsOwnObjectsAreCopiedByS3WhereS3Can() throws Exception {
    StorageOptions options = StorageOptions.of(S3Fixtures.options(endpoint()));
    byte[] source = random(3 * PART, 7);
    byte[] head = random(PART / 5, 8);
    byte[] tail = random(1000, 9);
    try (ObjectStore store = ObjectStores.open("s3://" + bucket + "/copies", options)) {
      store.put("source", source);
      InputFile in = store.open("source");
      // Written bytes, then a copy of 13 MiB: topped up to one 5 MiB part, 8 MiB copied by S3;
      // a copy too small to be a part is read and written; a copy from another store likewise.
      long from = 3L * PART - (13 << 20);
      long before = store.requests().count(Kind.COPY);
      OutputFile out = store.newOutputFile("copy");
      try (PositionOutputStream s = out.create()) {
        s.write(head);
        s.copy(in, from, 13 << 20);
        s.copy(in, 5, 3 << 20);
        s.copy(new ByteArrayInputFile(source), 0, 6 << 20);
        s.write(tail);
        assertThat(s.position()).isEqualTo(head.length + (13 << 20) + (3 << 20) + (6 << 20) + tail.length);
      }
      assertThat(store.requests().count(Kind.COPY) - before).isEqualTo(1);
      ByteBuffer expected = ByteBuffer.allocate(head.length + (22 << 20) + tail.length);
      expected.put(head).put(source, (int) from, 13 << 20).put(source, 5, 3 << 20)
          .put(source, 0, 6 << 20).put(tail);
      assertThat(store.read("copy")).isEqualTo(expected.array());
      assertThat(store.copiesServerSide()).isTrue();
    }
  }
  @Test
  void aCopyThatFailsAbortsTheUpload() throws Exception {
    StorageOptions options = StorageOptions.of(S3Fixtures.options(endpoint()));
    try (ObjectStore store = ObjectStores.open("s3://" + bucket + "/copy-fails", options)) {
      store.put("source", random(3 * PART, 10));
      InputFile in = store.open("source", 3L * PART);
      store.delete("source");
      OutputFile out = store.newOutputFile("copy");
      assertThatThrownBy(() -> {
        try (PositionOutputStream s = out.create()) {
          s.write(random(PART, 11));
          s.copy(in, 0, 3L * PART);
        }
      }).isInstanceOf(IOException.class).hasMessageContaining("copy-fails/copy");
      assertThat(store.exists("copy")).isFalse();
      assertThat(store.listTemporary("")).isEmpty();
    }
  }
}
