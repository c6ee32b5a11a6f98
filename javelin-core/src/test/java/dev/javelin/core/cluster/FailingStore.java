package dev.javelin.core.cluster;

import dev.javelin.io.InputFile;
import dev.javelin.io.LocalObjectStore;
import dev.javelin.io.ObjectInfo;
import dev.javelin.io.ObjectStore;
import dev.javelin.io.OutputFile;
import dev.javelin.io.PositionOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A local store whose {@code failAt}-th new file cannot be created ("disk full"), or whose new
 * files with a key containing {@code failWrites} are created but cannot be written.
 */
public final class FailingStore implements ObjectStore {
  private final LocalObjectStore local;
  private final int failAt;
  private final String failWrites;
  int created;

  FailingStore(Path root, int failAt) {
    this.local = new LocalObjectStore(root);
    this.failAt = failAt;
    this.failWrites = null;
  }

  public FailingStore(Path root, String failWrites) {
    this.local = new LocalObjectStore(root);
    this.failAt = 0;
    this.failWrites = failWrites;
  }

  @Override
  public OutputFile newOutputFile(String key) {
    OutputFile out = local.newOutputFile(key);
    if (failWrites != null && key.contains(failWrites)) {
      return unwritable(out);
    }
    if (++created != failAt) {
      return out;
    }
    return new OutputFile() {
      @Override
      public String location() {
        return out.location();
      }

      @Override
      public PositionOutputStream create() throws IOException {
        throw new IOException("disk full");
      }

      @Override
      public void delete() throws IOException {
        out.delete();
      }
    };
  }

  // Created (so it exists and must be deleted on failure), but every write fails.
  private static OutputFile unwritable(OutputFile out) {
    return new OutputFile() {
      @Override
      public String location() {
        return out.location();
      }

      @Override
      public PositionOutputStream create() throws IOException {
        PositionOutputStream s = out.create();
        return new PositionOutputStream() {
          @Override
          public long position() {
            return s.position();
          }

          @Override
          public void write(int b) throws IOException {
            throw new IOException("disk full");
          }

          @Override
          public void write(byte[] b, int off, int len) throws IOException {
            throw new IOException("disk full");
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
    };
  }

  @Override
  public String location() {
    return local.location();
  }

  @Override
  public List<ObjectInfo> list(String prefix) throws IOException {
    return local.list(prefix);
  }

  @Override
  public InputFile open(String key) throws IOException {
    return local.open(key);
  }

  @Override
  public void put(String key, byte[] data) throws IOException {
    local.put(key, data);
  }

  @Override
  public void putIfAbsent(String key, byte[] data) throws IOException {
    local.putIfAbsent(key, data);
  }

  @Override
  public void delete(String key) throws IOException {
    local.delete(key);
  }

  @Override
  public boolean exists(String key) throws IOException {
    return local.exists(key);
  }
}
