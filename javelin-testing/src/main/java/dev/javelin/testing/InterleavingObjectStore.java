package dev.javelin.testing;

import dev.javelin.io.ObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A {@link FaultyObjectStore} that also runs hooks just before chosen calls: another writer's
 * commit (through its own store) right before this store's put-if-absent simulates a concurrent
 * writer winning the race. A hook runs on the calling thread, before the call is counted and
 * before any fault; it is taken off its queue before it runs, so a hook that calls this store
 * again does not run itself.
 */
public class InterleavingObjectStore extends FaultyObjectStore {
  private final Map<Op, Deque<Runnable>> next = new EnumMap<>(Op.class);
  private final List<KeyHook> keyHooks = new ArrayList<>();

  /** Interleaves calls on {@code delegate}. */
  public InterleavingObjectStore(ObjectStore delegate) {
    super(delegate);
  }

  /** Interleaves calls on a local store rooted at {@code root}. */
  public InterleavingObjectStore(Path root) {
    super(root);
  }

  /** Runs {@code hook} just before the next call of {@code op}; hooks queue up, one per call. */
  public synchronized InterleavingObjectStore beforeNext(Op op, Runnable hook) {
    next.computeIfAbsent(op, o -> new ArrayDeque<>()).add(hook);
    return this;
  }

  /**
   * Runs {@code hook} just before each of the next {@code times} calls of {@code op} whose key
   * contains a match of {@code regex}.
   */
  public synchronized InterleavingObjectStore before(Op op, String regex, int times, Runnable hook) {
    keyHooks.add(new KeyHook(op, Pattern.compile(regex), hook, times));
    return this;
  }

  @Override
  protected void beforeCall(Op op, String key) throws IOException {
    List<Runnable> run = new ArrayList<>();
    synchronized (this) {
      Deque<Runnable> queue = next.get(op);
      if (queue != null && !queue.isEmpty()) {
        run.add(queue.poll());
      }
      for (KeyHook h : keyHooks) {
        if (h.op == op && h.left > 0 && h.keys.matcher(key).find()) {
          h.left--;
          run.add(h.hook);
        }
      }
    }
    for (Runnable r : run) {
      r.run();
    }
    super.beforeCall(op, key);
  }

  private static final class KeyHook {
    final Op op;
    final Pattern keys;
    final Runnable hook;
    int left;

    KeyHook(Op op, Pattern keys, Runnable hook, int times) {
      this.op = op;
      this.keys = keys;
      this.hook = hook;
      this.left = times;
    }
  }
}
