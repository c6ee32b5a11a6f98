/**
 * Compression codecs used by the 2.1 encodings (bit-packing, FSST, general-purpose block codecs);
 * nothing here knows a file version.
 *
 * <p><b>Internal:</b> public so that Javelin's other modules can use it, but not API: it may
 * change in any release, is left out of the javadoc, and engines (the CLI, the Spark connector)
 * must not import it; {@code ArchitectureTest} enforces that.
 */
package dev.javelin.format.internal.compression;
