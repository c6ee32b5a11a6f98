/**
 * What the file versions share: the encoding strategy that picks a version's encoder, buffer
 * layouts, and page decoding helpers.
 *
 * <p><b>Internal:</b> public so that Javelin's other modules can use it, but not API: it may
 * change in any release, is left out of the javadoc, and engines (the CLI, the Spark connector)
 * must not import it; {@code ArchitectureTest} enforces that.
 */
package dev.javelin.format.internal.encoding;
