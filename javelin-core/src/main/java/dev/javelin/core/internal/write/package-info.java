/**
 * Writes: fragments from Arrow batches, not-null and schema checks, the row and column rewrites of
 * {@code update}, schema evolution, and the scan behind {@code delete}.
 *
 * <p><b>Internal:</b> public so that Javelin's other modules can use it, but not API: it may
 * change in any release, is left out of the javadoc, and engines (the CLI, the Spark connector)
 * must not import it; {@code ArchitectureTest} enforces that.
 */
package dev.javelin.core.internal.write;
