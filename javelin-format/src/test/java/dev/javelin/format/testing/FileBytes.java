package dev.javelin.format.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A Lance file's bytes, for tests that damage them: the footer decoded by code of its own (so a
 * test does not trust the reader it tests), and copies with fields patched, bytes flipped or the
 * end cut off.
 */
public final class FileBytes {
  /** The footer is the last 40 bytes: three u64 offsets, two u32 counts, two u16 versions, "LANC". */
  public static final int FOOTER = 40;
  public static final int COLUMN_METADATA_START = 0;
  public static final int CMO_TABLE_START = 8;
  public static final int GBO_TABLE_START = 16;
  public static final int NUM_GLOBAL_BUFFERS = 24;
  public static final int NUM_COLUMNS = 28;
  public static final int MAJOR = 32;
  public static final int MINOR = 34;
  public static final int MAGIC = 36;

  private final byte[] bytes;

  public FileBytes(byte[] bytes) {
    this.bytes = bytes.clone();
  }

  public static FileBytes read(Path path) {
    try {
      return new FileBytes(Files.readAllBytes(path));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public byte[] bytes() {
    return bytes.clone();
  }

  public int length() {
    return bytes.length;
  }

  private ByteBuffer le() {
    return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
  }

  private int footer() {
    return bytes.length - FOOTER;
  }

  /** A u64 footer field, e.g. {@link #CMO_TABLE_START}. */
  public long footerLong(int field) {
    return le().getLong(footer() + field);
  }

  /** A u32 footer field, e.g. {@link #NUM_COLUMNS}. */
  public int footerInt(int field) {
    return le().getInt(footer() + field);
  }

  /** (position, size) of entry {@code i} of the table at {@code tableStart}. */
  public long[] tableEntry(long tableStart, int i) {
    int at = Math.toIntExact(tableStart + 16L * i);
    return new long[] {le().getLong(at), le().getLong(at + 8)};
  }

  /** (position, size) of global buffer {@code i}. */
  public long[] globalBuffer(int i) {
    return tableEntry(footerLong(GBO_TABLE_START), i);
  }

  /** (position, size) of the metadata of column {@code i}. */
  public long[] columnMetadata(int i) {
    return tableEntry(footerLong(CMO_TABLE_START), i);
  }

  /** Where the metadata starts: global buffer 0, column metadata and the tables all lie after it. */
  public long metadataStart() {
    long start = Math.min(footerLong(COLUMN_METADATA_START),
        Math.min(footerLong(CMO_TABLE_START), footerLong(GBO_TABLE_START)));
    return Math.min(start, globalBuffer(0)[0]);
  }

  /** A copy with a u64 written at {@code position}. */
  public FileBytes withLong(long position, long value) {
    FileBytes out = new FileBytes(bytes);
    out.le().putLong(Math.toIntExact(position), value);
    return out;
  }

  /** A copy with a u32 written at {@code position}. */
  public FileBytes withInt(long position, int value) {
    FileBytes out = new FileBytes(bytes);
    out.le().putInt(Math.toIntExact(position), value);
    return out;
  }

  /** A copy with a u64 footer field replaced. */
  public FileBytes withFooterLong(int field, long value) {
    return withLong(footer() + field, value);
  }

  /** A copy with a u32 footer field replaced. */
  public FileBytes withFooterInt(int field, int value) {
    return withInt(footer() + field, value);
  }

  /** A copy whose footer names another version. */
  public FileBytes withVersion(int major, int minor) {
    FileBytes out = new FileBytes(bytes);
    out.le().putShort(footer() + MAJOR, (short) major).putShort(footer() + MINOR, (short) minor);
    return out;
  }

  /** A copy with {@code replacement} written over the bytes at {@code position}. */
  public FileBytes withBytes(long position, byte[] replacement) {
    FileBytes out = new FileBytes(bytes);
    System.arraycopy(replacement, 0, out.bytes, Math.toIntExact(position), replacement.length);
    return out;
  }

  /** A copy with the byte at {@code position} XORed with {@code mask} (non-zero). */
  public FileBytes flip(long position, int mask) {
    FileBytes out = new FileBytes(bytes);
    out.bytes[Math.toIntExact(position)] ^= (byte) mask;
    return out;
  }

  /** The first {@code length} bytes. */
  public FileBytes truncate(int length) {
    return new FileBytes(Arrays.copyOf(bytes, length));
  }

  /** Writes the bytes to {@code path}, replacing what is there; returns the path. */
  public Path writeTo(Path path) {
    try {
      Files.write(path, bytes);
      return path;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
