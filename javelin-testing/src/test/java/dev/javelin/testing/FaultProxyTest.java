package dev.javelin.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.javelin.testing.FaultProxy.Fault;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The proxy in front of a small HTTP server: requests pass, and each fault does what it says. */
class FaultProxyTest {
  private static final byte[] BODY = "0123456789".repeat(1_000).getBytes(StandardCharsets.UTF_8);
  private HttpServer server;
  private final AtomicInteger served = new AtomicInteger();
  private FaultProxy proxy;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      served.incrementAndGet();
      byte[] in = exchange.getRequestBody().readAllBytes();
      byte[] out = exchange.getRequestMethod().equals("PUT") ? ("got " + in.length).getBytes(StandardCharsets.UTF_8)
          : BODY;
      exchange.sendResponseHeaders(200, out.length);
      try (OutputStream o = exchange.getResponseBody()) {
        o.write(out);
      }
    });
    server.start();
    proxy = FaultProxy.start(URI.create("http://127.0.0.1:" + server.getAddress().getPort()));
  }

  @AfterEach
  void stop() {
    proxy.close();
    server.stop(0);
  }

  private HttpURLConnection connect(String method) throws IOException {
    HttpURLConnection c = (HttpURLConnection) proxy.endpoint().resolve("/obj").toURL().openConnection();
    c.setRequestMethod(method);
    c.setConnectTimeout(5_000);
    c.setReadTimeout(10_000);
    return c;
  }

  private byte[] get() throws IOException {
    HttpURLConnection c = connect("GET");
    try (InputStream in = c.getInputStream()) {
      return in.readAllBytes();
    }
  }

  @Test
  void requestsPassBothWays() throws Exception {
    assertThat(get()).isEqualTo(BODY);
    HttpURLConnection put = connect("PUT");
    put.setDoOutput(true);
    put.setRequestProperty("Expect", "100-continue");
    put.setFixedLengthStreamingMode(3);
    try (OutputStream o = put.getOutputStream()) {
      o.write(new byte[] {1, 2, 3});
    }
    assertThat(put.getResponseCode()).isEqualTo(200);
    try (InputStream in = put.getInputStream()) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("got 3");
    }
    assertThat(proxy.requests()).isEqualTo(2);
    assertThat(proxy.faultsInjected()).isZero();
  }

  @Test
  void errorsAnswerWithoutPassingOnAndAreUsedUpInOrder() throws Exception {
    proxy.inject(Fault.STATUS_503, 1).inject(Fault.STATUS_500, 1, "GET").inject(Fault.STATUS_409, 1, "PUT");
    HttpURLConnection first = connect("GET");
    assertThat(first.getResponseCode()).isEqualTo(503);
    try (InputStream err = first.getErrorStream()) {
      assertThat(new String(err.readAllBytes(), StandardCharsets.UTF_8)).contains("<Code>SlowDown</Code>");
    }
    HttpURLConnection second = connect("GET");
    assertThat(second.getResponseCode()).isEqualTo(500);
    second.getErrorStream().close();
    assertThat(get()).isEqualTo(BODY);
    assertThat(served.get()).isEqualTo(1);
    assertThat(proxy.faultsInjected()).isEqualTo(2);
    assertThat(proxy.log()).containsExactly("GET /obj -> STATUS_503", "GET /obj -> STATUS_500", "GET /obj -> passed");
  }

  // One GET on a connection of its own, read to its end: what arrived, or the failure.
  private byte[] rawGet() throws IOException {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.endpoint().getPort())) {
      s.setSoTimeout(10_000);
      s.getOutputStream().write("GET /obj HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
          .getBytes(StandardCharsets.ISO_8859_1));
      return s.getInputStream().readAllBytes();
    }
  }

  @Test
  void aResetOrTruncatedResponseIsCutHalfway() throws Exception {
    byte[] whole = rawGet();
    assertThat(new String(whole, StandardCharsets.ISO_8859_1)).startsWith("HTTP/1.1 200").endsWith("0123456789");
    proxy.inject(Fault.TRUNCATE, 1).inject(Fault.RESET, 1);
    byte[] truncated = rawGet();
    assertThat(new String(truncated, StandardCharsets.ISO_8859_1)).startsWith("HTTP/1.1 200");
    assertThat(truncated.length).isLessThan(whole.length - BODY.length / 3);
    // A reset connection: the read fails (or, should the reset drop nothing yet, stops short).
    try {
      assertThat(rawGet().length).isLessThan(whole.length);
    } catch (SocketException e) {
      assertThat(e).hasMessageContaining("reset");
    }
    assertThat(served.get()).as("every request was passed on").isEqualTo(3);
    assertThat(get()).isEqualTo(BODY);
  }

  @Test
  void alwaysLastsUntilCleared() throws Exception {
    proxy.always(Fault.STATUS_503, r -> r.target().equals("/obj"));
    for (int i = 0; i < 3; i++) {
      HttpURLConnection c = connect("GET");
      assertThat(c.getResponseCode()).isEqualTo(503);
      c.getErrorStream().close();
    }
    proxy.clear();
    assertThat(get()).isEqualTo(BODY);
  }

  @Test
  void latencyDelaysEachRequest() throws Exception {
    proxy.latency(Duration.ofMillis(300));
    long start = System.nanoTime();
    assertThat(get()).isEqualTo(BODY);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
  }
}
