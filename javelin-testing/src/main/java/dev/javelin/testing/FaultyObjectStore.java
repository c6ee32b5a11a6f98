package dev.javelin.testing;

import dev.javelin.io.InputFile;
import dev.javelin.io.ObjectExistsException;
import dev.javelin.io.ObjectInfo;
import dev.javelin.io.ObjectStore;
import dev.javelin.io.OutputFile;
import dev.javelin.io.PositionOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A store that fails chosen calls and counts every call, around a real store: the n-th call of an
 * operation, the next n calls, every call on a key matching a pattern, or every call until
 * {@link #heal}. Tests use it to reach the error paths of writers and commits.
 *
 * <p>Faults and counts are per {@link Op}. Calls are counted (from 1) before faults are looked at,
 * so a failed call counts too. Thread-safe: writers may call it from several threads.
 */
public class FaultyObjectStore extends ForwardingObjectStore {
  /** The operations a fault, a count or (in {@link InterleavingObjectStore}) a hook applies to. */
  public enum Op {
    /** {@link ObjectStore#list}; the key is the prefix. */
    LIST,
    /** {@link ObjectStore#listTemporary}; the key is the prefix. */
    LIST_TEMPORARY,
    /** {@link ObjectStore#open}, and so {@link ObjectStore#read}. */
    OPEN,
    /** {@link ObjectStore#put}. */
    PUT,
    /** {@link ObjectStore#putIfAbsent}: the commit seam. */
    PUT_IF_ABSENT,
    /**
     * {@link ObjectStore#newOutputFile}: counted when the file is asked for; a fault makes the
     * file's {@link OutputFile#create} throw (newOutputFile itself throws nothing), so the file is
     * never created.
     */
    CREATE,
    /**
     * A write to the stream of a file from {@link ObjectStore#newOutputFile}: the file exists but
     * the write fails, as on a full disk.
     */
    WRITE,
    /** {@link ObjectStore#delete}, and so {@link ObjectStore#deleteQuietly}. */
    DELETE,
    /** {@link ObjectStore#exists}. */
    EXISTS
  }

  /** The exception a failing call throws, made from the key (or prefix) of the call. */
  @FunctionalInterface
  public interface Fault {
    /** The exception to throw for a call on {@code key}. */
    IOException exception(String key);

    /** Fails with {@code new IOException(message)}. */
    static Fault ioError(String message) {
      return key -> new IOException(message);
    }
  }

  private final Map<Op, Integer> calls = new EnumMap<>(Op.class);
  private final List<Rule> rules = new ArrayList<>();

  /** Fails calls on {@code delegate}. */
  public FaultyObjectStore(ObjectStore delegate) {
    super(delegate);
  }

  /** Fails calls on a local store rooted at {@code root}. */
  public FaultyObjectStore(Path root) {
    super(root);
  }

  /** The fault "the key is taken": put-if-absent loses the race without writing. */
  public Fault taken() {
    return key -> new ObjectExistsException(location(), key);
  }

  /** The {@code n}-th call of {@code op} from now (1: the next one) fails with {@code fault}. */
  public synchronized FaultyObjectStore failNth(Op op, int n, Fault fault) {
    checkPositive(n);
    long at = count(op) + n;
    rules.add(new Rule(op, null, at, at, fault));
    return this;
  }

  /** The next {@code n} calls of {@code op} fail with {@code fault}. */
  public synchronized FaultyObjectStore failNext(Op op, int n, Fault fault) {
    checkPositive(n);
    long from = count(op) + 1;
    rules.add(new Rule(op, null, from, from + n - 1, fault));
    return this;
  }

  /** Every call of {@code op} whose key contains a match of {@code regex} fails with {@code fault}. */
  public synchronized FaultyObjectStore failKeys(Op op, String regex, Fault fault) {
    rules.add(new Rule(op, Pattern.compile(regex), 1, Long.MAX_VALUE, fault));
    return this;
  }

  /** Every call of {@code op} from now on fails with {@code fault}, until {@link #heal}. */
  public synchronized FaultyObjectStore failAll(Op op, Fault fault) {
    rules.add(new Rule(op, null, 1, Long.MAX_VALUE, fault));
    return this;
  }

  /** Removes every fault; the counts stay. */
  public synchronized FaultyObjectStore heal() {
    rules.clear();
    return this;
  }

  /** How many calls of {@code op} this store has seen, failed ones included. */
  public synchronized int calls(Op op) {
    return count(op);
  }

  /**
   * Runs before every call: counts it and throws the fault of the first rule that applies.
   * Subclasses may run more (see {@link InterleavingObjectStore}) and then call this.
   */
  protected void beforeCall(Op op, String key) throws IOException {
    Fault fault = null;
    synchronized (this) {
      int n = count(op) + 1;
      calls.put(op, n);
      for (Rule r : rules) {
        if (r.applies(op, n, key)) {
          fault = r.fault;
          break;
        }
      }
    }
    if (fault != null) {
      throw fault.exception(key);
    }
  }

  @Override
  public List<ObjectInfo> list(String prefix) throws IOException {
    beforeCall(Op.LIST, prefix);
    return super.list(prefix);
  }

  @Override
  public List<ObjectInfo> listTemporary(String prefix) throws IOException {
    beforeCall(Op.LIST_TEMPORARY, prefix);
    return super.listTemporary(prefix);
  }

  @Override
  public InputFile open(String key) throws IOException {
    beforeCall(Op.OPEN, key);
    return super.open(key);
  }

  @Override
  public void put(String key, byte[] data) throws IOException {
    beforeCall(Op.PUT, key);
    super.put(key, data);
  }

  @Override
  public void putIfAbsent(String key, byte[] data) throws IOException {
    beforeCall(Op.PUT_IF_ABSENT, key);
    super.putIfAbsent(key, data);
  }

  @Override
  public OutputFile newOutputFile(String key) {
    OutputFile out = super.newOutputFile(key);
    IOException failure;
    try {
      beforeCall(Op.CREATE, key);
      failure = null;
    } catch (IOException e) {
      failure = e;
    }
    return new FaultyOutputFile(out, key, failure);
  }

  @Override
  public void delete(String key) throws IOException {
    beforeCall(Op.DELETE, key);
    super.delete(key);
  }

  @Override
  public boolean exists(String key) throws IOException {
    beforeCall(Op.EXISTS, key);
    return super.exists(key);
  }

  private int count(Op op) {
    return calls.getOrDefault(op, 0);
  }

  private static void checkPositive(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("n must be at least 1: " + n);
    }
  }

  private record Rule(Op op, Pattern keys, long from, long to, Fault fault) {
    boolean applies(Op callOp, long n, String key) {
      return op == callOp && n >= from && n <= to && (keys == null || keys.matcher(key).find());
    }
  }

  /** A file whose create fails with {@code failure} if set, and whose stream asks before every write. */
  private final class FaultyOutputFile implements OutputFile {
    private final OutputFile out;
    private final String key;
    private final IOException failure;

    FaultyOutputFile(OutputFile out, String key, IOException failure) {
      this.out = out;
      this.key = key;
      this.failure = failure;
    }

    @Override
    public String location() {
      return out.location();
    }

    @Override
    public PositionOutputStream create() throws IOException {
      if (failure != null) {
        throw failure;
      }
      PositionOutputStream s = out.create();
      return new PositionOutputStream() {
        @Override
        public long position() {
          return s.position();
        }

        @Override
        public void write(int b) throws IOException {
          beforeCall(Op.WRITE, key);
          s.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          beforeCall(Op.WRITE, key);
          s.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
          s.flush();
        }

        @Override
        public void close() throws IOException {
          s.close();
        }
      };
    }

    @Override
    public void delete() throws IOException {
      out.delete();
    }
  }
}
