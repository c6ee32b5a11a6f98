package dev.javelin.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Azurite, Microsoft's Azure Storage emulator, run as a blob service on a free loopback port for
 * tests that need a real Azure endpoint (javelin-azure's store, javelin-compat's Lance interop).
 * {@link #shared()} starts one per JVM, stopped when the JVM exits.
 *
 * <p>It runs {@code azurite-blob} from {@code $JAVELIN_AZURITE_HOME} (an npm prefix holding
 * {@code node_modules/.bin/azurite-blob}, or the executable itself), else from
 * {@code ~/.cache/javelin/azurite}, installing Azurite {@value #VERSION} there with npm first if
 * it is missing (CI pre-installs it). If Azurite cannot be installed or started, it fails with
 * the reason: a test that needs Azure must not pass by skipping.
 */
public final class AzuriteServer implements AutoCloseable {
  /** The Azurite release used, as .ci/run installs it. */
  public static final String VERSION = "3.37.0";
  /** Azurite's well-known account. */
  public static final String ACCOUNT = "devstoreaccount1";
  /** Azurite's well-known account key (published with the emulator, not a secret). */
  public static final String KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration INSTALL_TIMEOUT = Duration.ofMinutes(10);
  private static AzuriteServer shared;

  private final Process process;
  private final Path location;
  private final Path log;
  private final int port;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  private AzuriteServer(Process process, Path location, Path log, int port) {
    this.process = process;
    this.location = location;
    this.log = log;
    this.port = port;
  }

  /** The JVM's Azurite, started on first use and stopped when the JVM exits. */
  public static synchronized AzuriteServer shared() {
    if (shared == null) {
      AzuriteServer s = start();
      Runtime.getRuntime().addShutdownHook(new Thread(s::close, "azurite-stop"));
      shared = s;
    }
    return shared;
  }

  /**
   * A new Azurite, with its own empty data directory, on a free port; the caller closes it.
   *
   * @throws IllegalStateException if Azurite cannot be installed or does not start
   */
  public static AzuriteServer start() {
    Path exe = executable();
    IllegalStateException last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      try {
        return launch(exe, freePort());
      } catch (IllegalStateException e) {
        last = e; // most likely the port was taken between probing and binding: try another
      }
    }
    throw last;
  }

  private static AzuriteServer launch(Path exe, int port) {
    Path location;
    try {
      location = Files.createTempDirectory("javelin-azurite-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Path log = location.resolve("azurite.log");
    Path data = location.resolve("data");
    List<String> command = List.of(exe.toString(), "--blobHost", "127.0.0.1", "--blobPort", Integer.toString(port),
        "--location", data.toString(), "--silent", "--skipApiVersionCheck", "--loose", "--disableTelemetry");
    Process process;
    try {
      Files.createDirectories(data);
      process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    } catch (IOException e) {
      deleteTree(location);
      throw new IllegalStateException("Could not run Azurite (" + exe + "): " + e.getMessage(), e);
    }
    AzuriteServer server = new AzuriteServer(process, location, log, port);
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (true) {
      if (!process.isAlive()) {
        String out = server.logTail();
        server.close();
        throw new IllegalStateException("Azurite exited with status " + process.exitValue() + " before listening on port "
            + port + ": " + String.join(" ", command) + "\n" + out);
      }
      if (listening(port) && server.logTail().contains("successfully listens")) {
        return server;
      }
      if (System.nanoTime() > deadline) {
        String out = server.logTail();
        server.close();
        throw new IllegalStateException("Azurite did not listen on port " + port + " within "
            + START_TIMEOUT.toSeconds() + " s: " + String.join(" ", command) + "\n" + out);
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        server.close();
        throw new IllegalStateException("Interrupted while starting Azurite", e);
      }
    }
  }

  /** Where {@code azurite-blob} is, installing it first when it is missing. */
  public static Path executable() {
    String home = System.getenv("JAVELIN_AZURITE_HOME");
    Path prefix = home != null && !home.isBlank() ? Paths.get(home)
        : Paths.get(System.getProperty("user.home"), ".cache", "javelin", "azurite");
    if (Files.isRegularFile(prefix) && Files.isExecutable(prefix)) {
      return prefix;
    }
    Path direct = prefix.resolve("azurite-blob");
    if (Files.isExecutable(direct)) {
      return direct;
    }
    Path exe = prefix.resolve("node_modules").resolve(".bin").resolve("azurite-blob");
    if (Files.isExecutable(exe)) {
      return exe;
    }
    install(prefix, exe);
    return exe;
  }

  /** npm install --prefix {@code prefix} azurite@VERSION, once, under a lock other JVMs respect. */
  private static void install(Path prefix, Path exe) {
    try {
      Files.createDirectories(prefix);
      try (FileChannel ch = FileChannel.open(prefix.resolve(".install.lock"), StandardOpenOption.CREATE,
          StandardOpenOption.WRITE); FileLock lock = ch.lock()) {
        if (Files.isExecutable(exe)) {
          return; // another JVM installed it while we waited
        }
        Path log = prefix.resolve("install.log");
        List<String> command = List.of("npm", "install", "--prefix", prefix.toString(), "--no-audit", "--no-fund",
            "--loglevel=error", "azurite@" + VERSION);
        Process p;
        try {
          p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException e) {
          throw new IllegalStateException("Azurite is not installed at " + exe + " and npm could not be run to install it"
              + " (" + e.getMessage() + "): install Node.js and npm, or set JAVELIN_AZURITE_HOME to an npm prefix"
              + " where azurite@" + VERSION + " is installed", e);
        }
        if (!p.waitFor(INSTALL_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
          p.destroyForcibly();
          throw new IllegalStateException("npm install azurite@" + VERSION + " did not finish within "
              + INSTALL_TIMEOUT.toMinutes() + " minutes (log: " + log + ")");
        }
        if (p.exitValue() != 0 || !Files.isExecutable(exe)) {
          throw new IllegalStateException("npm install azurite@" + VERSION + " into " + prefix + " failed with status "
              + p.exitValue() + ":\n" + tail(log));
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("Could not install Azurite into " + prefix + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while installing Azurite", e);
    }
  }

  /** The loopback port the blob service listens on. */
  public int port() {
    return port;
  }

  /** The service URL without the account, as {@code AZURITE_BLOB_STORAGE_URL} takes it. */
  public String url() {
    return "http://127.0.0.1:" + port;
  }

  /** The blob endpoint of the account, {@code http://127.0.0.1:PORT/devstoreaccount1}. */
  public String blobEndpoint() {
    return url() + "/" + ACCOUNT;
  }

  /**
   * Lance's storage options for this emulator (account, key, endpoint, plain HTTP allowed): with
   * them an {@code az://container/path} URI opens a store here, in Javelin and in lance-core alike
   * (whose {@code azure_storage_use_emulator} would ignore the endpoint and its random port).
   */
  public Map<String, String> storageOptions() {
    return Map.of(
        "azure_storage_account_name", ACCOUNT,
        "azure_storage_account_key", KEY,
        "azure_storage_endpoint", blobEndpoint(),
        "allow_http", "true");
  }

  /** Creates a container; one that exists already is fine. */
  public void createContainer(String name) {
    int status = send("PUT", "/" + name, "restype=container");
    if (status != 201 && status != 409) {
      throw new IllegalStateException("Azurite answered " + status + " to creating container " + name);
    }
  }

  /** Deletes a container and everything in it; a missing one is fine. */
  public void deleteContainer(String name) {
    int status = send("DELETE", "/" + name, "restype=container");
    if (status != 202 && status != 404) {
      throw new IllegalStateException("Azurite answered " + status + " to deleting container " + name);
    }
  }

  /** Sends a bodiless request signed with the account's shared key; returns the status. */
  private int send(String method, String path, String query) {
    String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
    String version = "2021-08-06";
    StringBuilder canonicalQuery = new StringBuilder();
    for (String p : query.split("&")) {
      int eq = p.indexOf('=');
      canonicalQuery.append('\n').append(p.substring(0, eq).toLowerCase(Locale.ROOT)).append(':').append(p.substring(eq + 1));
    }
    String toSign = method + "\n\n\n\n\n\n\n\n\n\n\n\n"
        + "x-ms-date:" + date + "\n" + "x-ms-version:" + version + "\n"
        + "/" + ACCOUNT + "/" + ACCOUNT + path + canonicalQuery;
    String signature;
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(Base64.getDecoder().decode(KEY), "HmacSHA256"));
      signature = Base64.getEncoder().encodeToString(mac.doFinal(toSign.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
    HttpRequest request = HttpRequest.newBuilder(URI.create(blobEndpoint() + path + "?" + query))
        .method(method, HttpRequest.BodyPublishers.noBody())
        .header("x-ms-date", date)
        .header("x-ms-version", version)
        .header("Authorization", "SharedKey " + ACCOUNT + ":" + signature)
        .timeout(Duration.ofSeconds(30))
        .build();
    try {
      return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      throw new UncheckedIOException("Azurite did not answer " + method + " " + path + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted", e);
    }
  }

  /** Stops Azurite and deletes its data. */
  @Override
  public void close() {
    process.descendants().forEach(ProcessHandle::destroy);
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
    deleteTree(location);
  }

  private String logTail() {
    return tail(log);
  }

  private static String tail(Path file) {
    try {
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "(no output)";
    }
  }

  private static boolean listening(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("No free port for Azurite", e);
    }
  }

  private static void deleteTree(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    List<Path> paths = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(root)) {
      walk.sorted(Comparator.reverseOrder()).forEach(paths::add);
    } catch (IOException e) {
      return;
    }
    for (Path p : paths) {
      try {
        Files.deleteIfExists(p);
      } catch (IOException e) {
        // best effort: a temp directory
      }
    }
  }
}
