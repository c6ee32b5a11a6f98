package dev.javelin.format.internal.compression.bitpack;


/**
 * A page of values compressed into mini-block chunks, the shape of Lance's {@code MiniBlockCompressed}.
 *
 * <p>The codec writes one or more buffers (inline bitpacking and byte-stream-split one, RLE two: run
 * values and run lengths). Chunk {@code c} owns the next {@link #chunkBufferSize(int, int)} bytes of
 * each buffer, in chunk order. Every chunk but the last holds {@code 2^chunkLogNumValues(c)} values;
 * the last stores {@code 0} as its log and holds whatever remains of {@link #numValues()}. A mini-block
 * writer puts each chunk's slice of every buffer into the chunk, in buffer order.
 *
 * <p>Instances are immutable as far as this class goes; the arrays handed out are not copied, so
 * callers must not modify them.
 */
public final class MiniBlockChunks {
  private final byte[][] buffers;
  private final int[][] chunkBufferSizes;
  private final int[] chunkLogNumValues;
  private final long numValues;
  private final int[][] chunkBufferOffsets;
  private final long lastChunkValues;

  MiniBlockChunks(byte[][] buffers, int[][] chunkBufferSizes, int[] chunkLogNumValues, long numValues) {
    this.buffers = buffers;
    this.chunkBufferSizes = chunkBufferSizes;
    this.chunkLogNumValues = chunkLogNumValues;
    this.numValues = numValues;
    int n = chunkLogNumValues.length;
    this.chunkBufferOffsets = new int[n][];
    int[] next = new int[buffers.length];
    long before = 0;
    for (int c = 0; c < n; c++) {
      chunkBufferOffsets[c] = next.clone();
      for (int b = 0; b < buffers.length; b++) {
        next[b] += chunkBufferSizes[c][b];
      }
      if (c < n - 1) {
        before += 1L << chunkLogNumValues[c];
      }
    }
    this.lastChunkValues = numValues - before;
  }

  /** The number of values in the page. */
  public long numValues() {
    return numValues;
  }

  /** The number of buffers each chunk is cut from (0 for an empty page). */
  public int numBuffers() {
    return buffers.length;
  }

  /** Buffer {@code b}: the concatenation of every chunk's part of that buffer. */
  public byte[] buffer(int b) {
    return buffers[b];
  }

  /** The number of chunks. */
  public int numChunks() {
    return chunkLogNumValues.length;
  }

  /** The size in bytes of chunk {@code chunk}'s part of buffer {@code b}. */
  public int chunkBufferSize(int chunk, int b) {
    return chunkBufferSizes[chunk][b];
  }

  /** The byte offset of chunk {@code chunk}'s part of buffer {@code b} in {@link #buffer(int)}. */
  public int chunkBufferOffset(int chunk, int b) {
    return chunkBufferOffsets[chunk][b];
  }

  /** The log2 of the chunk's value count, or 0 for the last chunk (as Lance's chunk metadata stores it). */
  public int chunkLogNumValues(int chunk) {
    return chunkLogNumValues[chunk];
  }

  /** The number of values in chunk {@code chunk}. */
  public long chunkNumValues(int chunk) {
    return chunk < chunkLogNumValues.length - 1 ? 1L << chunkLogNumValues[chunk] : lastChunkValues;
  }
}
