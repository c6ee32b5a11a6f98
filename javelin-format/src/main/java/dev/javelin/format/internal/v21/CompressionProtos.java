package dev.javelin.format.internal.v21;

import com.google.protobuf.ByteString;
import dev.javelin.format.proto.Encodings21.BufferCompression;
import dev.javelin.format.proto.Encodings21.CompressionScheme;
import dev.javelin.format.proto.Encodings21.CompressiveEncoding;
import dev.javelin.format.proto.Encodings21.Fsst;
import dev.javelin.format.proto.Encodings21.General;
import dev.javelin.format.proto.Encodings21.InlineBitpacking;
import dev.javelin.format.proto.Encodings21.OutOfLineBitpacking;
import dev.javelin.format.proto.Encodings21.Rle;

/** Builders for the compressive encodings the 2.1 writer records, shaped as lance-core 7.0.0 writes them. */
final class CompressionProtos {
  private CompressionProtos() {}

  static CompressiveEncoding inlineBitpacking(int bits) {
    return CompressiveEncoding.newBuilder()
        .setInlineBitpacking(InlineBitpacking.newBuilder().setUncompressedBitsPerValue(bits))
        .build();
  }

  static CompressiveEncoding outOfLineBitpacking(int bits, int width) {
    return CompressiveEncoding.newBuilder()
        .setOutOfLineBitpacking(OutOfLineBitpacking.newBuilder()
            .setUncompressedBitsPerValue(bits)
            .setValues(Protos21.flat(width)))
        .build();
  }

  static CompressiveEncoding rle(int bits) {
    return CompressiveEncoding.newBuilder()
        .setRle(Rle.newBuilder().setValues(Protos21.flat(bits)).setRunLengths(Protos21.flat(8)))
        .build();
  }

  static CompressiveEncoding fsst(byte[] symbolTable, CompressiveEncoding values) {
    return CompressiveEncoding.newBuilder()
        .setFsst(Fsst.newBuilder().setSymbolTable(ByteString.copyFrom(symbolTable)).setValues(values))
        .build();
  }

  /** Each value compressed on its own with zstd (level 0: zstd's default), as Lance writes it. */
  /** LZ4 over a block, as format 2.2 compresses mini-block dictionaries (no level, as Lance writes it). */
  static CompressiveEncoding lz4(CompressiveEncoding values) {
    return CompressiveEncoding.newBuilder()
        .setGeneral(General.newBuilder()
            .setCompression(BufferCompression.newBuilder().setScheme(CompressionScheme.COMPRESSION_ALGORITHM_LZ4))
            .setValues(values))
        .build();
  }

  static CompressiveEncoding zstd(CompressiveEncoding values) {
    return CompressiveEncoding.newBuilder()
        .setGeneral(General.newBuilder()
            .setCompression(BufferCompression.newBuilder()
                .setScheme(CompressionScheme.COMPRESSION_ALGORITHM_ZSTD)
                .setLevel(0))
            .setValues(values))
        .build();
  }
}
