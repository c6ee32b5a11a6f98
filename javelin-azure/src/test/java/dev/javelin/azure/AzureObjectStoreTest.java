package dev.javelin.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.StorageSharedKeyCredential;
import com.azure.storage.common.sas.AccountSasPermission;
import com.azure.storage.common.sas.AccountSasResourceType;
import com.azure.storage.common.sas.AccountSasService;
import com.azure.storage.common.sas.AccountSasSignatureValues;
import dev.javelin.io.ByteArrayInputFile;
import dev.javelin.io.InputFile;
import dev.javelin.io.ObjectExistsException;
import dev.javelin.io.ObjectInfo;
import dev.javelin.io.OutputFile;
import dev.javelin.io.PositionOutputStream;
import dev.javelin.io.RequestCounters;
import dev.javelin.io.RequestCounters.Kind;
import dev.javelin.io.StorageOptions;
import dev.javelin.testing.AzuriteServer;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What the contract does not cover: blocks, aborted writes, retries of cut downloads, counters, SAS. */
class AzureObjectStoreTest {
  private static final String CONTAINER = "store-tests";
  private static AzuriteServer azurite;

  @BeforeAll
  static void startAzurite() {
    azurite = AzuriteServer.shared();
    azurite.createContainer(CONTAINER);
  }

  private static String freshRoot() {
    return "az://" + CONTAINER + "/t-" + UUID.randomUUID();
  }

  private static AzureObjectStore open(String root, Map<String, String> extra, List<HttpPipelinePolicy> policies,
      int pageSize) {
    Map<String, String> options = new HashMap<>(azurite.storageOptions());
    options.putAll(extra);
    return AzureObjectStore.open(AzureConfig.of(URI.create(root), StorageOptions.of(options)), policies, pageSize);
  }

  private static AzureObjectStore open(Map<String, String> extra, HttpPipelinePolicy... policies) {
    return open(freshRoot(), extra, List.of(policies), 5000);
  }

  private static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static void writeInChunks(PositionOutputStream s, byte[] data, int chunk) throws IOException {
    for (int off = 0; off < data.length; off += chunk) {
      s.write(data, off, Math.min(chunk, data.length - off));
    }
  }

  @Test
  void aStreamedWriteStagesBlocksAndShowsNothingBeforeClose() throws Exception {
    byte[] data = random(10 * 65536 + 100, 1);
    try (AzureObjectStore store = open(Map.of("azure_block_size", "65536", "azure_upload_concurrency", "2"))) {
      OutputFile out = store.newOutputFile("data/f.lance");
      try (PositionOutputStream s = out.create()) {
        writeInChunks(s, data, 10_000);
        s.write(7);
        assertThat(s.position()).isEqualTo(data.length + 1);
        assertThat(store.exists("data/f.lance")).isFalse();
        assertThat(store.list("")).isEmpty();
      }
      byte[] expected = Arrays.copyOf(data, data.length + 1);
      expected[data.length] = 7;
      assertThat(store.read("data/f.lance")).isEqualTo(expected);
      RequestCounters r = store.requests();
      assertThat(r.count(Kind.PUT)).isEqualTo(11); // ten full blocks and the rest
      assertThat(r.bytes(Kind.PUT)).isEqualTo(expected.length);
      assertThat(r.count(Kind.MULTIPART)).isEqualTo(1); // the block list
    }
  }

  @Test
  void aSmallStreamedWriteIsOneUpload() throws Exception {
    try (AzureObjectStore store = open(Map.of("azure_block_size", "65536"))) {
      try (PositionOutputStream s = store.newOutputFile("small").create()) {
        writeInChunks(s, random(65536, 2), 1000);
      }
      assertThat(store.read("small")).isEqualTo(random(65536, 2));
      assertThat(store.requests().count(Kind.PUT)).isEqualTo(1);
      assertThat(store.requests().count(Kind.MULTIPART)).isZero();
    }
  }

  @Test
  void aFailedBlockUploadLeavesNoBlob() throws Exception {
    try (AzureObjectStore store = open(Map.of("azure_block_size", "65536", "client_max_retries", "0"),
        new FailBlocks(2))) {
      OutputFile out = store.newOutputFile("data/broken.lance");
      assertThatThrownBy(() -> {
        try (PositionOutputStream s = out.create()) {
          writeInChunks(s, random(8 * 65536, 3), 4096);
        }
      }).isInstanceOf(IOException.class).hasMessageContaining("failed to upload");
      assertThat(store.exists("data/broken.lance")).isFalse();
      assertThat(store.list("")).isEmpty();
      out.delete(); // the cleanup a failed writer does is harmless
      assertThat(store.requests().count(Kind.MULTIPART)).isZero();
    }
  }

  @Test
  void deletingAnOpenStreamAbortsIt() throws Exception {
    try (AzureObjectStore store = open(Map.of("azure_block_size", "65536"))) {
      OutputFile out = store.newOutputFile("data/aborted.lance");
      PositionOutputStream s = out.create();
      writeInChunks(s, random(3 * 65536 + 5, 4), 8192);
      out.delete();
      assertThatThrownBy(() -> s.write(1)).isInstanceOf(IOException.class)
          .hasMessage("Stream closed: " + store.location() + "/data/aborted.lance");
      s.close(); // commits nothing
      assertThat(store.exists("data/aborted.lance")).isFalse();
      assertThat(store.list("")).isEmpty();
      assertThat(store.requests().count(Kind.MULTIPART)).isZero();
    }
  }

  @Test
  void aStreamedWriteDoesNotReplaceAnExistingObject() throws Exception {
    try (AzureObjectStore store = open(Map.of("azure_block_size", "65536"))) {
      store.put("big", new byte[] {1});
      store.put("small", new byte[] {2});
      assertThatThrownBy(() -> {
        try (PositionOutputStream s = store.newOutputFile("big").create()) {
          s.write(random(3 * 65536, 5));
        }
      }).isInstanceOf(ObjectExistsException.class).hasMessage("Object already exists: " + store.location() + "/big");
      assertThatThrownBy(() -> {
        try (PositionOutputStream s = store.newOutputFile("small").create()) {
          s.write(3);
        }
      }).isInstanceOf(ObjectExistsException.class);
      assertThat(store.read("big")).containsExactly(1);
      assertThat(store.read("small")).containsExactly(2);
    }
  }

  @Test
  void exactlyOneOfManyClientsRacingForAKeyWins() throws Exception {
    String root = freshRoot();
    int writers = 12;
    List<AzureObjectStore> stores = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      for (int i = 0; i < writers; i++) {
        stores.add(open(root, Map.of(), List.of(), 5000)); // each its own client, as other processes are
      }
      for (int round = 0; round < 4; round++) {
        String key = "_versions/" + round + ".manifest";
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger wins = new AtomicInteger();
        AtomicInteger lost = new AtomicInteger();
        List<Future<Integer>> futures = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
          AzureObjectStore s = stores.get(i);
          byte[] body = ("writer " + i).repeat(500).getBytes(StandardCharsets.UTF_8);
          int id = i;
          futures.add(pool.submit(() -> {
            start.await();
            try {
              s.putIfAbsent(key, body);
              wins.incrementAndGet();
              return id;
            } catch (ObjectExistsException e) {
              lost.incrementAndGet();
              return -1;
            }
          }));
        }
        start.countDown();
        int winner = -1;
        for (Future<Integer> f : futures) {
          winner = Math.max(winner, f.get());
        }
        assertThat(wins.get()).as("round %d", round).isEqualTo(1);
        assertThat(lost.get()).isEqualTo(writers - 1);
        assertThat(stores.get(0).read(key)).isEqualTo(("writer " + winner).repeat(500).getBytes(StandardCharsets.UTF_8));
      }
    } finally {
      pool.shutdownNow();
      stores.forEach(AzureObjectStore::close);
    }
  }

  @Test
  void requestsAreCountedByKindWithTheirBytes() throws Exception {
    try (AzureObjectStore store = open(freshRoot(), Map.of(), List.of(), 100)) {
      RequestCounters r = store.requests();
      store.put("a", new byte[1000]);
      assertThat(r.count(Kind.PUT)).isEqualTo(1);
      assertThat(r.bytes(Kind.PUT)).isEqualTo(1000);
      assertThat(store.read("a")).hasSize(1000);
      assertThat(r.count(Kind.GET)).isEqualTo(1);
      assertThat(r.bytes(Kind.GET)).isEqualTo(1000);
      try (InputFile in = store.open("a")) {
        assertThat(in.length()).isEqualTo(1000);
        assertThat(in.length()).isEqualTo(1000);
        assertThat(in.lastModified()).isBetween(System.currentTimeMillis() - 600_000, System.currentTimeMillis() + 600_000);
        assertThat(in.blockSize()).isEqualTo(InputFile.REMOTE_BLOCK_SIZE);
      }
      assertThat(r.count(Kind.HEAD)).isEqualTo(1); // the properties, once
      assertThat(store.exists("a")).isTrue();
      assertThat(r.count(Kind.HEAD)).isEqualTo(2);

      List<String> keys = IntStream.range(0, 250).mapToObj(i -> "many/" + i).collect(Collectors.toList());
      ExecutorService pool = Executors.newFixedThreadPool(8);
      try {
        List<Future<?>> puts = new ArrayList<>();
        for (String k : keys) {
          puts.add(pool.submit(() -> {
            store.put(k, new byte[] {1});
            return null;
          }));
        }
        for (Future<?> f : puts) {
          f.get();
        }
      } finally {
        pool.shutdownNow();
      }
      long lists = r.count(Kind.LIST);
      assertThat(store.list("many/")).hasSize(250);
      assertThat(r.count(Kind.LIST) - lists).isEqualTo(3); // pages of 100
      long deletes = r.count(Kind.DELETE);
      List<String> all = new ArrayList<>(keys);
      all.add("never-written");
      store.deleteAll(all);
      assertThat(r.count(Kind.DELETE) - deletes).isEqualTo(251); // one each, the missing one too
      assertThat(store.list("many/")).isEmpty();
      store.delete("a");
      assertThat(r.count(Kind.DELETE) - deletes).isEqualTo(252);
      assertThat(r.toString()).isEqualTo("GET 1 (1000 bytes), PUT 251 (1250 bytes), HEAD 2, LIST 4, DELETE 252");
    }
  }

  @Test
  void deleteAllDeletesEachKeyOnceAndSkipsMissingOnes() throws Exception {
    try (AzureObjectStore store = open(Map.of())) {
      List<String> keys = IntStream.range(0, 600).mapToObj(i -> "k/" + i).collect(Collectors.toList());
      for (int i = 0; i < 600; i += 200) {
        store.put(keys.get(i), new byte[] {1});
      }
      store.deleteAll(keys);
      assertThat(store.requests().count(Kind.DELETE)).isEqualTo(600);
      assertThat(store.list("")).isEmpty();
    }
  }

  @Test
  void aDownloadCutMidwayIsResumedWhereItStopped() throws Exception {
    byte[] data = random(300_000, 6);
    CutBodies cut = new CutBodies(2, 50_000);
    try (AzureObjectStore store = open(Map.of(), cut)) {
      store.put("f", data);
      try (InputFile in = store.open("f")) {
        ByteBuffer b = in.read(10_000, 250_000);
        byte[] got = new byte[250_000];
        b.get(got);
        assertThat(got).isEqualTo(Arrays.copyOfRange(data, 10_000, 260_000));
      }
      assertThat(cut.cuts.get()).isEqualTo(2);
      assertThat(store.requests().count(Kind.GET)).isEqualTo(3); // two cut, then the rest
      assertThat(store.requests().bytes(Kind.GET)).isEqualTo(250_000 + 200_000 + 150_000);
    }
  }

  @Test
  void aWholeReadCutMidwayFallsBackToRangedReads() throws Exception {
    byte[] data = random(200_000, 7);
    CutBodies cut = new CutBodies(1, 1000);
    try (AzureObjectStore store = open(Map.of(), cut)) {
      store.put("f", data);
      assertThat(store.read("f")).isEqualTo(data);
      assertThat(cut.cuts.get()).isEqualTo(1);
    }
  }

  @Test
  void aDownloadThatKeepsFailingGivesUp() throws Exception {
    CutBodies cut = new CutBodies(1000, 0);
    try (AzureObjectStore store = open(Map.of("client_max_retries", "2"), cut)) {
      store.put("f", random(10_000, 8));
      try (InputFile in = store.open("f")) {
        assertThatThrownBy(() -> in.read(0, 10_000)).isInstanceOf(IOException.class)
            .hasMessageStartingWith("Could not read " + store.location() + "/f at byte 0: ");
      }
    }
  }

  @Test
  void concurrentReadsOfOneFileLearnItsLengthFromTheirResponses() throws Exception {
    byte[] data = random(1 << 20, 9);
    try (AzureObjectStore store = open(Map.of())) {
      store.put("f", data);
      try (InputFile in = store.open("f")) {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
          List<Future<?>> reads = new ArrayList<>();
          for (int i = 0; i < 32; i++) {
            int pos = i * 32768;
            reads.add(pool.submit(() -> {
              ByteBuffer b = in.read(pos, 32768);
              byte[] got = new byte[32768];
              b.get(got);
              assertThat(got).isEqualTo(Arrays.copyOfRange(data, pos, pos + 32768));
              return null;
            }));
          }
          for (Future<?> f : reads) {
            f.get();
          }
        } finally {
          pool.shutdownNow();
        }
        assertThat(in.length()).isEqualTo(data.length);
        assertThat(store.requests().count(Kind.HEAD)).isZero();
        assertThat(store.requests().count(Kind.GET)).isEqualTo(32);
      }
    }
  }

  @Test
  void aSasTokenSignsRequests() throws Exception {
    String sas = new BlobServiceClientBuilder().endpoint(azurite.blobEndpoint())
        .credential(new StorageSharedKeyCredential(AzuriteServer.ACCOUNT, AzuriteServer.KEY)).buildClient()
        .generateAccountSas(new AccountSasSignatureValues(OffsetDateTime.now().plusHours(1),
            AccountSasPermission.parse("rwdlac"), new AccountSasService().setBlobAccess(true),
            new AccountSasResourceType().setContainer(true).setObject(true)));
    Map<String, String> options = Map.of("account_name", AzuriteServer.ACCOUNT, "sas_token", "?" + sas,
        "endpoint", azurite.blobEndpoint());
    try (AzureObjectStore store = AzureObjectStore.open(
        AzureConfig.of(URI.create(freshRoot()), StorageOptions.of(options), Map.of()))) {
      store.putIfAbsent("x", new byte[] {4, 2});
      assertThat(store.read("x")).containsExactly(4, 2);
      assertThat(store.list("").stream().map(ObjectInfo::key)).containsExactly("x");
      store.deleteAll(List.of("x"));
      assertThat(store.exists("x")).isFalse();
    }
  }

  @Test
  void aMissingContainerIsAnErrorNotAnEmptyListing() throws Exception {
    try (AzureObjectStore store = open("az://no-such-container/p", Map.of(), List.of(), 5000)) {
      assertThatThrownBy(() -> store.list("")).isInstanceOf(IOException.class)
          .hasMessage("Could not list az://no-such-container/p/: Azure container 'no-such-container' does not exist"
              + " in account devstoreaccount1");
      assertThatThrownBy(() -> store.put("k", new byte[1])).isInstanceOf(IOException.class)
          .hasMessage("Could not write az://no-such-container/p/k: Azure container 'no-such-container' does not exist"
              + " in account devstoreaccount1");
    }
  }

  @Test
  void keysAreCheckedAndChildrenShareTheParentsCounters() throws Exception {
    try (AzureObjectStore store = open(Map.of())) {
      assertThatThrownBy(() -> store.put("", new byte[1])).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Invalid object key '' in " + store.location());
      assertThatThrownBy(() -> store.put("/abs", new byte[1])).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> store.put("a/../b", new byte[1])).isInstanceOf(IllegalArgumentException.class);
      AzureObjectStore child = store.child("tree/b1/");
      assertThat(child.location()).isEqualTo(store.location() + "/tree/b1");
      assertThat(child.prefix()).isEqualTo(store.prefix() + "tree/b1/");
      child.put("k", new byte[] {1});
      assertThat(store.requests().count(Kind.PUT)).isEqualTo(1);
      assertThat(child.requests()).isSameAs(store.requests());
      assertThat(store.list("tree/").get(0).key()).isEqualTo("tree/b1/k");
    }
  }
  @Test
  void copiedRangesOfItsOwnBlobsAreCopiedByTheService() throws Exception {
    byte[] source = random(3 << 20, 12);
    byte[] head = random(1000, 13);
    try (AzureObjectStore store = open(Map.of())) {
      store.put("source", source);
      InputFile in = store.open("source", source.length);
      // Written bytes, then a range of 2.5 MiB copied by the service; a short copy and a copy
      // from another kind of file are read and written.
      try (PositionOutputStream s = store.newOutputFile("copy").create()) {
        s.write(head);
        s.copy(in, 100, (5 << 20) / 2);
        s.copy(in, 7, 1000);
        s.copy(new ByteArrayInputFile(source), 0, 2 << 20);
        assertThat(s.position()).isEqualTo(head.length + (5 << 20) / 2 + 1000 + (2 << 20));
      }
      ByteBuffer expected = ByteBuffer.allocate(head.length + (5 << 20) / 2 + 1000 + (2 << 20));
      expected.put(head).put(source, 100, (5 << 20) / 2).put(source, 7, 1000).put(source, 0, 2 << 20);
      assertThat(store.read("copy")).isEqualTo(expected.array());
      assertThat(store.requests().count(Kind.COPY)).isEqualTo(1);
      assertThat(store.requests().bytes(Kind.COPY)).isEqualTo((5 << 20) / 2);
      assertThat(store.copiesServerSide()).isTrue();
    }
  }
}
