package dev.javelin.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A real S3 API server for tests: Adobe's S3Mock, run from its executable jar in a child JVM (so
 * Spring Boot stays off the test's class path), once per test JVM on a free port of 127.0.0.1,
 * with its files in a temporary directory, and stopped when the test JVM exits (and, should that
 * JVM be killed, when the pipe to the child closes). It checks no signatures: any credentials do.
 *
 * <p>S3Mock answers {@code If-None-Match: *} with 412 when the key exists, but checks and then
 * writes without a lock, so two racing conditional PUTs may both succeed, where S3 lets exactly
 * one. {@link #endpoint()} is therefore a {@link FaultProxy} in front of it that passes conditional
 * writes on one at a time ({@link FaultProxy#serializeConditionalWrites}); {@link #serverEndpoint()}
 * is S3Mock itself.
 *
 * <p>The jar's path comes from the system property {@value #JAR_PROPERTY}, which a module's pom
 * sets for Surefire after copying {@code com.adobe.testing:s3mock:<version>:jar:exec} with the
 * maven-dependency-plugin's {@code copy} goal (see javelin-s3's pom). Without it, or when the
 * server does not come up, {@link #shared()} fails with a message saying why: tests that need S3
 * fail rather than skip.
 *
 * <pre>{@code
 * S3MockServer s3 = S3MockServer.shared();
 * String bucket = s3.newBucket();
 * ObjectStore store = ObjectStores.open("s3://" + bucket + "/t", StorageOptions.of(s3.storageOptions()));
 * }</pre>
 */
public final class S3MockServer {
  /** The system property naming S3Mock's executable jar. */
  public static final String JAR_PROPERTY = "javelin.s3mock.jar";
  /** How long the server may take to start (a loaded two-core machine takes tens of seconds). */
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
  private static final AtomicInteger BUCKETS = new AtomicInteger();
  private static S3MockServer shared;
  private static IllegalStateException failed;

  private final Process process;
  private final Path dir;
  private final int port;
  private FaultProxy front;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private S3MockServer(Process process, Path dir, int port) {
    this.process = process;
    this.dir = dir;
    this.port = port;
  }

  /**
   * The server of this JVM, started on first use (which takes some seconds).
   *
   * @throws IllegalStateException if it cannot be started, saying why
   */
  public static synchronized S3MockServer shared() {
    if (failed != null) {
      throw new IllegalStateException("S3Mock could not be started earlier in this JVM: " + failed.getMessage(),
          failed);
    }
    if (shared == null) {
      try {
        shared = start();
      } catch (RuntimeException e) {
        failed = e instanceof IllegalStateException ? (IllegalStateException) e
            : new IllegalStateException(e.getMessage(), e);
        throw e;
      }
    }
    return shared;
  }

  private static S3MockServer start() {
    String jar = System.getProperty(JAR_PROPERTY);
    if (jar == null || jar.isBlank()) {
      throw new IllegalStateException("S3MockServer needs the system property " + JAR_PROPERTY
          + ": the path of com.adobe.testing:s3mock's exec jar (copied by the maven-dependency-plugin; see"
          + " javelin-s3's pom for the configuration to reuse)");
    }
    if (!Files.isRegularFile(Paths.get(jar))) {
      throw new IllegalStateException("S3Mock's jar is not there: " + jar + " (system property " + JAR_PROPERTY
          + "); run the build through Maven so that the dependency plugin copies it");
    }
    // The free port may be taken by someone else before S3Mock binds it: then S3Mock exits, and
    // another port is tried.
    ExitedEarly last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      try {
        return start(jar);
      } catch (ExitedEarly e) {
        last = e;
      }
    }
    throw last;
  }

  /** S3Mock exited before it answered (a port clash, most likely, or a broken jar). */
  private static final class ExitedEarly extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    ExitedEarly(String message) {
      super(message);
    }
  }

  private static S3MockServer start(String jar) {
    Path dir;
    int port;
    try {
      dir = Files.createTempDirectory("javelin-s3mock");
      port = freePort();
    } catch (IOException e) {
      throw new UncheckedIOException("Could not prepare S3Mock's directory and port", e);
    }
    Path log = dir.resolve("s3mock.log");
    List<String> command = new ArrayList<>(List.of(
        // A shell between us and the server kills it when our end of its stdin closes: when this
        // JVM exits, however it exits, so that no server outlives the tests.
        "sh", "-c", "\"$0\" \"$@\" </dev/null & child=$!; read ignored; kill $child; wait $child",
        Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "-jar", jar,
        "--com.adobe.testing.s3mock.httpPort=" + port,
        "--http.port=" + port,
        "--server.port=0",
        "--server.address=127.0.0.1",
        "--com.adobe.testing.s3mock.store.root=" + dir.resolve("root"),
        "--spring.main.banner-mode=off",
        "--logging.level.root=WARN"));
    Process process;
    try {
      process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    } catch (IOException e) {
      throw new IllegalStateException("Could not start S3Mock (" + String.join(" ", command) + ")", e);
    }
    S3MockServer server = new S3MockServer(process, dir, port);
    Thread hook = new Thread(server::stop, "s3mock-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      server.awaitStarted(log);
    } catch (RuntimeException e) {
      server.stop();
      Runtime.getRuntime().removeShutdownHook(hook);
      throw e;
    }
    try {
      server.front = FaultProxy.start(server.serverEndpoint()).serializeConditionalWrites();
    } catch (IOException e) {
      throw new UncheckedIOException("Could not start the proxy in front of S3Mock", e);
    }
    return server;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      s.setReuseAddress(true);
      return s.getLocalPort();
    }
  }

  private void awaitStarted(Path log) {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new ExitedEarly("S3Mock exited with status " + process.exitValue() + " before it"
            + " answered on port " + port + "; its log:\n" + tail(log));
      }
      try {
        HttpResponse<Void> r = http.send(HttpRequest.newBuilder(serverEndpoint()).timeout(Duration.ofSeconds(2)).GET()
            .build(), HttpResponse.BodyHandlers.discarding());
        if (r.statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while waiting for S3Mock to start", e);
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while waiting for S3Mock to start", e);
      }
    }
    throw new IllegalStateException("S3Mock did not answer on port " + port + " within " + START_TIMEOUT.toSeconds()
        + " s; its log:\n" + tail(log));
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  private void stop() {
    if (front != null) {
      front.close();
    }
    try (OutputStream stdin = process.getOutputStream()) {
      stdin.write('\n'); // the shell kills the server and waits for it
    } catch (IOException e) {
      // the shell is gone already
    }
    try {
      if (!process.waitFor(15, TimeUnit.SECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a temporary directory: the system cleans it at worst
    }
  }

  /**
   * The plain http endpoint to point clients at, {@code http://127.0.0.1:<port>}: S3Mock behind a
   * proxy that makes its conditional writes atomic.
   */
  public URI endpoint() {
    return front.endpoint();
  }

  /** S3Mock's own endpoint, without the proxy. */
  public URI serverEndpoint() {
    return URI.create("http://127.0.0.1:" + port);
  }

  /** An access key id (any is accepted). */
  public String accessKeyId() {
    return "javelin-test";
  }

  /** A secret access key (any is accepted). */
  public String secretAccessKey() {
    return "javelin-test-secret";
  }

  /** The region the server says it is in. */
  public String region() {
    return "us-east-1";
  }

  /**
   * Lance's storage options for a store on this server (endpoint, region, credentials and
   * {@code aws_allow_http}), which {@code dev.javelin.io.StorageOptions.of} takes as they are.
   */
  public Map<String, String> storageOptions() {
    return storageOptions(endpoint());
  }

  /** The same options with another endpoint in front of this server (a {@link FaultProxy}). */
  public Map<String, String> storageOptions(URI endpoint) {
    return Map.of("aws_endpoint", endpoint.toString(), "aws_region", region(), "aws_access_key_id", accessKeyId(),
        "aws_secret_access_key", secretAccessKey(), "aws_allow_http", "true");
  }

  /** Creates a bucket of a new name (lower case, unique in this JVM) and returns the name. */
  public String newBucket() {
    return createBucket("javelin-" + BUCKETS.incrementAndGet() + "-"
        + UUID.randomUUID().toString().substring(0, 8).toLowerCase(Locale.ROOT));
  }

  /**
   * Creates a bucket (nothing if it exists) and returns its name.
   *
   * @throws IllegalStateException if the server refuses
   */
  public String createBucket(String name) {
    try {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(endpoint().resolve("/" + name))
          .timeout(Duration.ofSeconds(30)).PUT(HttpRequest.BodyPublishers.noBody()).build(),
          HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200 && !r.body().contains("BucketAlreadyOwnedByYou")) {
        throw new IllegalStateException("S3Mock would not create bucket " + name + ": " + r.statusCode() + " "
            + r.body());
      }
      return name;
    } catch (IOException e) {
      throw new UncheckedIOException("Could not create bucket " + name + " on S3Mock at " + endpoint(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while creating bucket " + name, e);
    }
  }

  @Override
  public String toString() {
    return "S3Mock at " + endpoint();
  }
}
