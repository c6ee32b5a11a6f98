/**
 * Index upkeep at the dataset level: the indices a dataset holds, what fragments they cover, index
 * builds ({@link dev.javelin.core.internal.index.IndexBuild}, the kind-specific part of each kind
 * in an {@code IndexKind}), address translation after rewrites, and settling indices after a change.
 *
 * <p><b>Internal:</b> public so that Javelin's other modules can use it, but not API: it may
 * change in any release, is left out of the javadoc, and engines (the CLI, the Spark connector)
 * must not import it; {@code ArchitectureTest} enforces that.
 */
package dev.javelin.core.internal.index;
