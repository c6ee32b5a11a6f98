package dev.javelin.testing;

import dev.javelin.io.InputFile;
import dev.javelin.io.LocalObjectStore;
import dev.javelin.io.ObjectInfo;
import dev.javelin.io.ObjectStore;
import dev.javelin.io.OutputFile;
import dev.javelin.io.RequestCounters;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * An ObjectStore that hands every operation to another store, for a test to override the one it
 * watches or breaks. It is not a {@link LocalObjectStore}, so code that special-cases local
 * stores (memory-mapped reads) sees a store of another kind, and {@link #remote} is true.
 *
 * <p>{@link #read}, {@link #open(String, long)} and {@link #deleteAll} are left to the
 * interface's defaults, which go through this store's {@link #open} and {@link #delete}: a
 * subclass that overrides those sees whole-object reads, opens of known length and batched
 * deletes too. {@link #child} and {@link #resolve} are the delegate's, without this store's
 * overrides.
 */
public class ForwardingObjectStore implements ObjectStore {
  private final ObjectStore delegate;

  /** Forwards to {@code delegate}. */
  public ForwardingObjectStore(ObjectStore delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  /** Forwards to a {@link LocalObjectStore} rooted at {@code root}. */
  public ForwardingObjectStore(Path root) {
    this(new LocalObjectStore(root));
  }

  /** The store this one forwards to. */
  public ObjectStore delegate() {
    return delegate;
  }

  @Override
  public String location() {
    return delegate.location();
  }

  /**
   * True whatever the delegate is: this store stands for one of another kind (see above), so the
   * code paths for remote stores run over local files.
   */
  @Override
  public boolean remote() {
    return true;
  }

  @Override
  public boolean copiesServerSide() {
    return delegate.copiesServerSide();
  }

  @Override
  public List<ObjectInfo> list(String prefix) throws IOException {
    return delegate.list(prefix);
  }

  @Override
  public List<ObjectInfo> listTemporary(String prefix) throws IOException {
    return delegate.listTemporary(prefix);
  }

  @Override
  public InputFile open(String key) throws IOException {
    return delegate.open(key);
  }

  @Override
  public void put(String key, byte[] data) throws IOException {
    delegate.put(key, data);
  }

  @Override
  public void putIfAbsent(String key, byte[] data) throws IOException {
    delegate.putIfAbsent(key, data);
  }

  @Override
  public OutputFile newOutputFile(String key) {
    return delegate.newOutputFile(key);
  }

  @Override
  public void delete(String key) throws IOException {
    delegate.delete(key);
  }

  @Override
  public boolean supportsConditionalPut() {
    return delegate.supportsConditionalPut();
  }

  @Override
  public boolean exists(String key) throws IOException {
    return delegate.exists(key);
  }

  @Override
  public ObjectStore child(String dir) {
    return delegate.child(dir);
  }

  /** The delegate's store at that location, without this store's overrides (as {@link #child}). */
  @Override
  public ObjectStore resolve(String location) {
    return delegate.resolve(location);
  }

  @Override
  public RequestCounters requests() {
    return delegate.requests();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
