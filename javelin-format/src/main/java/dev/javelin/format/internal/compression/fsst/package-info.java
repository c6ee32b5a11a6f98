/**
 * FSST (Fast Static Symbol Table) string compression, byte-compatible with Lance's {@code Fsst}
 * compressive encoding.
 *
 * <p>{@link dev.javelin.format.internal.compression.fsst.FsstSymbolTable} parses and writes the 2312-byte
 * table Lance keeps in {@code lance.encodings21.Fsst.symbol_table};
 * {@link dev.javelin.format.internal.compression.fsst.FsstDecoder} expands compressed values (Variable data:
 * offsets and bytes, or one value at a time for full-zip pages);
 * {@link dev.javelin.format.internal.compression.fsst.FsstEncoder} trains a table and compresses values.
 * Values travel as {@link dev.javelin.format.internal.compression.fsst.BinaryValues}: Arrow-style offsets
 * and bytes. Nothing here depends on a file version; the 2.1 reader and writer wire it in.
 *
 * <p><b>Internal:</b> public so that Javelin's other modules can use it, but not API: it may
 * change in any release, is left out of the javadoc, and engines (the CLI, the Spark connector)
 * must not import it; {@code ArchitectureTest} enforces that.
 */
package dev.javelin.format.internal.compression.fsst;

