/**
 * The compressive encodings that Lance 2.1 writes by default, as pure codecs over primitive arrays and
 * little-endian {@link java.nio.ByteBuffer}s, byte-for-byte compatible with lance-core 7.0.0.
 *
 * <ul>
 *   <li>{@link dev.javelin.format.internal.compression.bitpack.FastLanes}: the FastLanes 1024-value bit-packing
 *       kernel (transposed {@code FL_ORDER} layout) for 8/16/32/64-bit lanes;</li>
 *   <li>{@link dev.javelin.format.internal.compression.bitpack.InlineBitpackingCodec}: the mini-block framing, one
 *       bit-width word in front of each 1024-value chunk;</li>
 *   <li>{@link dev.javelin.format.internal.compression.bitpack.OutOfLineBitpackingCodec}: one bit width for a whole
 *       buffer, kept in the encoding description, with a packed or raw tail;</li>
 *   <li>{@link dev.javelin.format.internal.compression.bitpack.RleCodec}: run values plus u8 run lengths;</li>
 *   <li>{@link dev.javelin.format.internal.compression.bitpack.ByteStreamSplitCodec}: bytes regrouped by position,
 *       chunk by chunk;</li>
 *   <li>{@link dev.javelin.format.internal.compression.bitpack.ConstantCodec}: one value repeated.</li>
 * </ul>
 *
 * <p>Values are handled as unsigned bit patterns: a Java {@code int} holds a u32/i32/f32 value's bits.
 * Decoders never trust their input: a malformed buffer (a bit width wider than the value, a buffer too
 * short or too long for the declared value count, runs that do not add up) raises
 * {@link java.lang.IllegalArgumentException} with a message saying what is wrong. Callers that know the
 * file, column and page wrap it into their own exception. Encoders raise the same exception for invalid
 * arguments (bad offsets, widths, or values that do not fit the requested bit width).
 *
 * <p>Nothing here allocates per value; decoders allocate at most a scratch array per call (per chunk for
 * mini-block chunks, per buffer otherwise).
 *
 * <p><b>Internal:</b> public so that Javelin's other modules can use it, but not API: it may
 * change in any release, is left out of the javadoc, and engines (the CLI, the Spark connector)
 * must not import it; {@code ArchitectureTest} enforces that.
 */
package dev.javelin.format.internal.compression.bitpack;

