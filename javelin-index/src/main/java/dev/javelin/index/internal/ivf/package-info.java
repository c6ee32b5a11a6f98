/**
 * IVF vector indices (IVF_PQ, IVF_FLAT, IVF_SQ): k-means partitions written once ({@link
 * dev.javelin.index.internal.ivf.IvfIndex}, {@link dev.javelin.index.internal.ivf.IvfBuilder}), what each kind
 * stores per row, their files, and search.
 *
 * <p><b>Internal:</b> public so that Javelin's other modules can use it, but not API: it may
 * change in any release, is left out of the javadoc, and engines (the CLI, the Spark connector)
 * must not import it; {@code ArchitectureTest} enforces that.
 */
package dev.javelin.index.internal.ivf;
