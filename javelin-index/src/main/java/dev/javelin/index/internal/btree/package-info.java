/**
 * The BTree scalar index: pages of sorted keys with row addresses, its builder, and the queries it
 * answers.
 *
 * <p><b>Internal:</b> public so that Javelin's other modules can use it, but not API: it may
 * change in any release, is left out of the javadoc, and engines (the CLI, the Spark connector)
 * must not import it; {@code ArchitectureTest} enforces that.
 */
package dev.javelin.index.internal.btree;
