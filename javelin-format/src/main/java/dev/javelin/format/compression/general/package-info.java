/**
 * General-purpose buffer compression (ZSTD, LZ4 through aircompressor) framed as Lance frames it,
 * for Lance's {@code General} compressive encoding and 2.0's compressed buffers. See
 * {@link dev.javelin.format.compression.general.GeneralCodec}.
 */
package dev.javelin.format.compression.general;
