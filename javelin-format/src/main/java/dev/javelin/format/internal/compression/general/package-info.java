/**
 * General-purpose buffer compression (ZSTD, LZ4 through aircompressor) framed as Lance frames it,
 * for Lance's {@code General} compressive encoding and 2.0's compressed buffers. See
 * {@link dev.javelin.format.internal.compression.general.GeneralCodec}.
 *
 * <p><b>Internal:</b> public so that Javelin's other modules can use it, but not API: it may
 * change in any release, is left out of the javadoc, and engines (the CLI, the Spark connector)
 * must not import it; {@code ArchitectureTest} enforces that.
 */
package dev.javelin.format.internal.compression.general;

