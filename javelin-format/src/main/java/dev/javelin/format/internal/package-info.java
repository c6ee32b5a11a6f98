/**
 * The machinery of the Lance file format behind {@link dev.javelin.format.LanceFileReader} and
 * {@link dev.javelin.format.LanceFileWriter}: the container, the encodings of each file version, and
 * the compression codecs.
 *
 * <p><b>Internal:</b> public so that Javelin's other modules can use it, but not API: it may
 * change in any release, is left out of the javadoc, and engines (the CLI, the Spark connector)
 * must not import it; {@code ArchitectureTest} enforces that.
 */
package dev.javelin.format.internal;
