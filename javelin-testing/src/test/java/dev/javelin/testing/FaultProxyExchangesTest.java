package dev.javelin.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The proxy's record of what it passed on: each exchange with its Range header and body bytes, and the byte count. */
class FaultProxyExchangesTest {
  private static final byte[] BODY = "0123456789".repeat(100).getBytes(StandardCharsets.UTF_8);
  private HttpServer server;
  private FaultProxy proxy;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      String range = exchange.getRequestHeaders().getFirst("Range");
      // "bytes=a-b": the inclusive range of BODY, as a ranged GET answers
      byte[] out = BODY;
      if (range != null) {
        String[] ab = range.substring("bytes=".length()).split("-");
        int a = Integer.parseInt(ab[0]);
        int b = Integer.parseInt(ab[1]);
        out = Arrays.copyOfRange(BODY, a, b + 1);
      }
      boolean head = exchange.getRequestMethod().equals("HEAD");
      exchange.sendResponseHeaders(range != null ? 206 : 200, head ? -1 : out.length);
      try (OutputStream o = exchange.getResponseBody()) {
        if (!head) {
          o.write(out);
        }
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

  private int send(String method, String range) throws IOException {
    HttpURLConnection c = (HttpURLConnection) proxy.endpoint().resolve("/bucket/key?x=1").toURL().openConnection();
    c.setRequestMethod(method);
    if (range != null) {
      c.setRequestProperty("Range", range);
    }
    try (InputStream in = c.getInputStream()) {
      return in.readAllBytes().length;
    }
  }

  @Test
  void exchangesNameRangeStatusAndBytes() throws Exception {
    assertThat(send("GET", null)).isEqualTo(1000);
    assertThat(send("GET", "bytes=10-109")).isEqualTo(100);
    assertThat(send("HEAD", null)).isZero();

    List<FaultProxy.Exchange> got = proxy.exchanges();
    assertThat(got).extracting(FaultProxy.Exchange::method, FaultProxy.Exchange::target, FaultProxy.Exchange::range,
        FaultProxy.Exchange::status, FaultProxy.Exchange::responseBytes).containsExactly(
            tuple("GET", "/bucket/key?x=1", null, 200, 1000L),
            tuple("GET", "/bucket/key?x=1", "bytes=10-109", 206, 100L),
            tuple("HEAD", "/bucket/key?x=1", null, 200, 0L));
    // One request after the other: each answered after it arrived, and before the next arrived.
    for (int i = 0; i < got.size(); i++) {
      assertThat(got.get(i).answeredNanos()).isGreaterThanOrEqualTo(got.get(i).receivedNanos());
      if (i > 0) {
        assertThat(got.get(i).receivedNanos()).isGreaterThanOrEqualTo(got.get(i - 1).answeredNanos());
      }
    }
    assertThat(proxy.responseBytes()).isEqualTo(1100);
    assertThat(proxy.requests()).isEqualTo(3);
  }

  @Test
  void clearLogForgetsEntriesButNotCounts() throws Exception {
    send("GET", null);
    proxy.clearLog();
    assertThat(proxy.exchanges()).isEmpty();
    assertThat(proxy.log()).isEmpty();
    send("GET", "bytes=0-9");
    assertThat(proxy.exchanges()).hasSize(1);
    assertThat(proxy.log()).hasSize(1);
    assertThat(proxy.responseBytes()).isEqualTo(1010);
    assertThat(proxy.requests()).isEqualTo(2);
  }
}
