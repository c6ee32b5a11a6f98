package dev.javelin.testing;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * An HTTP/1.1 proxy on a free port of 127.0.0.1 in front of one server, for tests of how a client
 * bears a bad network: it can delay every request, answer the next requests with a 503 (S3's
 * {@code SlowDown}), a 500 ({@code InternalError}) or a 409 ({@code ConditionalRequestConflict})
 * without passing them on, or pass a request on
 * and then reset the connection, or close it, halfway through the response (a truncated body).
 * Faults are queued with a count (or forever) and, optionally, only for the requests a predicate
 * picks (by method and path), and are used up in order.
 *
 * <p>It reads each request and response whole before passing it on (so it suits test objects of a
 * few megabytes), answers {@code Expect: 100-continue} itself, and keeps connections alive as the
 * two ends do. Only loopback addresses are involved; {@link #close} stops it.
 */
public final class FaultProxy implements AutoCloseable {
  /** What to do to a request. */
  public enum Fault {
    /** Answer 500 InternalError without passing the request on. */
    STATUS_500,
    /** Answer 503 SlowDown without passing the request on. */
    STATUS_503,
    /** Answer 409 ConditionalRequestConflict (S3's answer to racing conditional writes) without passing it on. */
    STATUS_409,
    /** Pass the request on, then send half the response and reset the connection (TCP RST). */
    RESET,
    /** Pass the request on, then send half the response and close the connection. */
    TRUNCATE
  }

  /** A request as the proxy saw it, for a fault's predicate. */
  public static final class Request {
    private final String method;
    private final String target;

    Request(String method, String target) {
      this.method = method;
      this.target = target;
    }

    /** GET, PUT, POST, HEAD, DELETE... */
    public String method() {
      return method;
    }

    /** The path and query, as sent ({@code /bucket/key?partNumber=1&uploadId=...}). */
    public String target() {
      return target;
    }

    @Override
    public String toString() {
      return method + " " + target;
    }
  }

  /**
   * A request passed on and answered, as the proxy saw it: method, target, its {@code Range}
   * header (null without one), the status, how many body bytes went back to the client, and when
   * ({@link System#nanoTime}) the request had arrived whole and its response had been sent. For
   * counting requests by kind (ranged GET, whole GET, LIST, HEAD, PUT...), bytes per operation, and
   * how many requests a client had in flight at once.
   */
  public record Exchange(String method, String target, String range, int status, long responseBytes,
      long receivedNanos, long answeredNanos) {}

  private static final class Rule {
    final Fault fault;
    final AtomicInteger remaining;
    final Predicate<Request> which;

    Rule(Fault fault, int times, Predicate<Request> which) {
      this.fault = fault;
      this.remaining = new AtomicInteger(times);
      this.which = which;
    }

    boolean take(Request r) {
      if (!which.test(r)) {
        return false;
      }
      if (remaining.get() == Integer.MAX_VALUE) {
        return true;
      }
      return remaining.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0;
    }
  }

  private final InetSocketAddress upstream;
  private final ServerSocket server;
  private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "fault-proxy");
    t.setDaemon(true);
    return t;
  });
  private final List<Rule> rules = new CopyOnWriteArrayList<>();
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong faults = new AtomicLong();
  private final List<String> log = new CopyOnWriteArrayList<>();
  private final Queue<Exchange> exchanges = new ConcurrentLinkedQueue<>();
  private final AtomicLong responseBytes = new AtomicLong();
  private final ReentrantLock conditionalWrites = new ReentrantLock();
  private volatile boolean serializeConditionalWrites;
  private volatile long latencyMillis;
  private volatile boolean closed;

  private FaultProxy(InetSocketAddress upstream) throws IOException {
    this.upstream = upstream;
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    threads.execute(this::accept);
  }

  /** A proxy in front of the server at {@code endpoint} ({@code http://host:port}). */
  public static FaultProxy start(URI endpoint) throws IOException {
    return new FaultProxy(new InetSocketAddress(endpoint.getHost(), endpoint.getPort()));
  }

  /** The proxy's endpoint, {@code http://127.0.0.1:<port>}, to point the client at. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getLocalPort());
  }

  /** Delays every request by {@code latency} before passing it on (zero: none). */
  public FaultProxy latency(Duration latency) {
    this.latencyMillis = latency.toMillis();
    return this;
  }

  /** The next {@code times} requests get {@code fault}. */
  public FaultProxy inject(Fault fault, int times) {
    return inject(fault, times, r -> true);
  }

  /** The next {@code times} requests of {@code method} get {@code fault}. */
  public FaultProxy inject(Fault fault, int times, String method) {
    return inject(fault, times, r -> r.method().equalsIgnoreCase(method));
  }

  /** The next {@code times} requests that {@code which} picks get {@code fault}. */
  public FaultProxy inject(Fault fault, int times, Predicate<Request> which) {
    if (times < 1) {
      throw new IllegalArgumentException("times must be at least 1: " + times);
    }
    rules.add(new Rule(fault, times, which));
    return this;
  }

  /** Every request that {@code which} picks gets {@code fault}, until {@link #clear}. */
  public FaultProxy always(Fault fault, Predicate<Request> which) {
    return inject(fault, Integer.MAX_VALUE, which);
  }

  /**
   * Passes conditional writes (a PUT or POST with {@code If-None-Match} or {@code If-Match}) on one
   * at a time, each with its answer, for a server that checks the condition and then writes
   * without a lock (S3Mock does): the check and the write are then atomic, as on S3.
   */
  public FaultProxy serializeConditionalWrites() {
    this.serializeConditionalWrites = true;
    return this;
  }

  /** No more faults and no latency. */
  public FaultProxy clear() {
    rules.clear();
    latencyMillis = 0;
    return this;
  }

  /** The requests received so far. */
  public long requests() {
    return requests.get();
  }

  /** The faults injected so far. */
  public long faultsInjected() {
    return faults.get();
  }

  /** Each request received so far, as {@code "METHOD target -> what happened"}. */
  public List<String> log() {
    return List.copyOf(log);
  }

  /** The body bytes of the responses sent back to clients so far (a cut-short body counts what was sent). */
  public long responseBytes() {
    return responseBytes.get();
  }

  /** Each request passed on and answered since the start or the last {@link #clearLog}, in the order answered. */
  public List<Exchange> exchanges() {
    return List.copyOf(exchanges);
  }

  /**
   * Forgets {@link #log} and {@link #exchanges} (the counters keep counting), so that a long run
   * of requests does not keep every entry.
   */
  public FaultProxy clearLog() {
    log.clear();
    exchanges.clear();
    return this;
  }

  @Override
  public void close() {
    closed = true;
    try {
      server.close();
    } catch (IOException e) {
      // closing anyway
    }
    for (Socket s : open) {
      closeQuietly(s);
    }
    threads.shutdownNow();
  }

  private void accept() {
    while (!closed) {
      Socket client;
      try {
        client = server.accept();
      } catch (IOException e) {
        return; // closed
      }
      open.add(client);
      threads.execute(() -> serve(client));
    }
  }

  // One client connection: requests in turn, each passed on over one upstream connection.
  private void serve(Socket client) {
    Socket up = null;
    InputStream upIn = null;
    try {
      client.setTcpNoDelay(true);
      InputStream in = new BufferedInputStream(client.getInputStream());
      OutputStream out = client.getOutputStream();
      while (!closed) {
        Message req = readHead(in);
        if (req == null) {
          return;
        }
        if (req.header("expect").map(v -> v.equalsIgnoreCase("100-continue")).orElse(false)) {
          req.removeHeader("expect");
          out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
          out.flush();
        }
        req.body = readBody(in, req, false);
        requests.incrementAndGet();
        long received = System.nanoTime();
        String[] line = req.startLine.split(" ", 3);
        Request request = new Request(line[0], line.length > 1 ? line[1] : "");
        long delay = latencyMillis;
        if (delay > 0) {
          Thread.sleep(delay);
        }
        Fault fault = null;
        for (Rule r : rules) {
          if (r.take(request)) {
            fault = r.fault;
            break;
          }
        }
        log.add(request + " -> " + (fault == null ? "passed" : fault));
        if (fault != null) {
          faults.incrementAndGet();
        }
        if (fault == Fault.STATUS_500 || fault == Fault.STATUS_503 || fault == Fault.STATUS_409) {
          writeError(out, request, fault == Fault.STATUS_500 ? 500 : fault == Fault.STATUS_503 ? 503 : 409);
          if (req.closes()) {
            return;
          }
          continue;
        }
        boolean conditional = serializeConditionalWrites
            && (request.method().equals("PUT") || request.method().equals("POST"))
            && (req.header("if-none-match").isPresent() || req.header("if-match").isPresent());
        if (conditional) {
          conditionalWrites.lock();
        }
        Message resp = null;
        try {
          // A kept-alive upstream connection the server has closed meanwhile is opened again.
          for (int attempt = 0; resp == null && attempt < 2; attempt++) {
            boolean reused = up != null;
            if (up == null) {
              up = connectUpstream();
              upIn = new BufferedInputStream(up.getInputStream());
            }
            try {
              req.writeTo(up.getOutputStream());
              resp = readHead(upIn);
              while (resp != null && resp.status() >= 100 && resp.status() < 200) {
                resp = readHead(upIn); // an interim answer of the server's own: drop it
              }
            } catch (IOException e) {
              if (!reused) {
                throw e;
              }
            }
            if (resp == null) {
              open.remove(up);
              closeQuietly(up);
              up = null;
              if (!reused) {
                break;
              }
            }
          }
          if (resp == null) {
            throw new EOFException("The server closed the connection without answering " + request);
          }
          boolean noBody = request.method().equals("HEAD") || resp.status() == 204 || resp.status() == 304;
          resp.body = noBody ? new byte[0] : readBody(upIn, resp, true);
        } finally {
          if (conditional) {
            conditionalWrites.unlock();
          }
        }
        boolean upstreamCloses = resp.closes() || resp.readToEnd;
        if (upstreamCloses) {
          open.remove(up);
          closeQuietly(up);
          up = null;
        }
        if (fault == Fault.RESET || fault == Fault.TRUNCATE) {
          byte[] head = resp.headBytes();
          if (resp.body.length > 0) {
            out.write(head);
            out.write(resp.body, 0, resp.body.length / 2);
            responseBytes.addAndGet(resp.body.length / 2);
          } else {
            out.write(head, 0, head.length / 2);
          }
          out.flush();
          if (fault == Fault.RESET) {
            client.setSoLinger(true, 0);
          }
          return;
        }
        // Counted before the client can see the answer, so that a caller that has its answer
        // finds the exchange recorded.
        responseBytes.addAndGet(resp.body.length);
        exchanges.add(new Exchange(request.method(), request.target(), req.header("range").orElse(null),
            resp.status(), resp.body.length, received, System.nanoTime()));
        resp.writeTo(out);
        if (req.closes() || upstreamCloses) {
          return;
        }
      }
    } catch (IOException e) {
      // either end went away: drop the connection
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      open.remove(client);
      closeQuietly(client);
      if (up != null) {
        open.remove(up);
        closeQuietly(up);
      }
    }
  }

  private Socket connectUpstream() throws IOException {
    Socket s = new Socket();
    s.connect(upstream, 5_000);
    s.setTcpNoDelay(true);
    open.add(s);
    return s;
  }

  private static void writeError(OutputStream out, Request request, int status) throws IOException {
    String code = status == 503 ? "SlowDown" : status == 409 ? "ConditionalRequestConflict" : "InternalError";
    String text = status == 503 ? "Please reduce your request rate."
        : status == 409 ? "A conflicting operation occurred. Please try again." : "We encountered an internal error.";
    byte[] body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>" + code + "</Code><Message>" + text
        + "</Message><RequestId>fault-proxy</RequestId></Error>").getBytes(StandardCharsets.UTF_8);
    boolean head = request.method().equals("HEAD");
    String reason = status == 503 ? "Service Unavailable" : status == 409 ? "Conflict" : "Internal Server Error";
    String h = "HTTP/1.1 " + status + " " + reason + "\r\nContent-Type: application/xml\r\nContent-Length: "
        + (head ? 0 : body.length) + "\r\n\r\n";
    out.write(h.getBytes(StandardCharsets.ISO_8859_1));
    if (!head) {
      out.write(body);
    }
    out.flush();
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // nothing to do
    }
  }

  /** A request or response: its start line, headers and body (raw, chunked if it came chunked). */
  private static final class Message {
    final String startLine;
    final List<String[]> headers = new ArrayList<>();
    byte[] body = new byte[0];
    /** The body ran to the end of the connection (no length given). */
    boolean readToEnd;

    Message(String startLine) {
      this.startLine = startLine;
    }

    Optional<String> header(String name) {
      for (String[] h : headers) {
        if (h[0].equalsIgnoreCase(name)) {
          return Optional.of(h[1]);
        }
      }
      return Optional.empty();
    }

    void removeHeader(String name) {
      headers.removeIf(h -> h[0].equalsIgnoreCase(name));
    }

    int status() {
      String[] parts = startLine.split(" ", 3);
      try {
        return Integer.parseInt(parts[1]);
      } catch (RuntimeException e) {
        return 0;
      }
    }

    boolean closes() {
      return header("connection").map(v -> v.toLowerCase(Locale.ROOT).contains("close")).orElse(false);
    }

    byte[] headBytes() {
      StringBuilder b = new StringBuilder(startLine).append("\r\n");
      for (String[] h : headers) {
        b.append(h[0]).append(": ").append(h[1]).append("\r\n");
      }
      return b.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    void writeTo(OutputStream out) throws IOException {
      out.write(headBytes());
      out.write(body);
      out.flush();
    }
  }

  // The start line and headers, or null at the end of the stream before any byte.
  private static Message readHead(InputStream in) throws IOException {
    String start = readLine(in);
    if (start == null) {
      return null;
    }
    while (start.isEmpty()) {
      start = readLine(in);
      if (start == null) {
        return null;
      }
    }
    Message m = new Message(start);
    while (true) {
      String line = readLine(in);
      if (line == null) {
        throw new EOFException("Headers cut short");
      }
      if (line.isEmpty()) {
        return m;
      }
      int colon = line.indexOf(':');
      if (colon > 0) {
        m.headers.add(new String[] {line.substring(0, colon).trim(), line.substring(colon + 1).trim()});
      }
    }
  }

  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    int c;
    while ((c = in.read()) >= 0) {
      if (c == '\n') {
        byte[] bytes = b.toByteArray();
        int len = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
        return new String(bytes, 0, len, StandardCharsets.ISO_8859_1);
      }
      b.write(c);
    }
    if (b.size() == 0) {
      return null;
    }
    throw new EOFException("Line cut short");
  }

  private static byte[] readBody(InputStream in, Message m, boolean response) throws IOException {
    if (m.header("transfer-encoding").map(v -> v.toLowerCase(Locale.ROOT).contains("chunked")).orElse(false)) {
      ByteArrayOutputStream raw = new ByteArrayOutputStream();
      while (true) {
        String size = readLine(in);
        if (size == null) {
          throw new EOFException("Chunked body cut short");
        }
        raw.write((size + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        int semi = size.indexOf(';');
        int n = Integer.parseInt((semi < 0 ? size : size.substring(0, semi)).trim(), 16);
        if (n == 0) {
          // trailers, up to an empty line
          String t;
          while ((t = readLine(in)) != null && !t.isEmpty()) {
            raw.write((t + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
          }
          raw.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
          return raw.toByteArray();
        }
        raw.write(in.readNBytes(n));
        String crlf = readLine(in);
        if (crlf == null) {
          throw new EOFException("Chunk cut short");
        }
        raw.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
      }
    }
    Optional<String> length = m.header("content-length");
    if (length.isPresent()) {
      int n = Integer.parseInt(length.get().trim());
      byte[] body = in.readNBytes(n);
      if (body.length < n) {
        throw new EOFException("Body cut short: " + body.length + " of " + n + " bytes");
      }
      return body;
    }
    if (response) {
      m.readToEnd = true;
      try {
        return in.readAllBytes();
      } catch (SocketException e) {
        throw new EOFException("Body cut short: " + e.getMessage());
      }
    }
    return new byte[0];
  }
}
