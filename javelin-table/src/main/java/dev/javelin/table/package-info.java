/**
 * The table layer: manifests, fragments, data and deletion files, transactions, and {@link
 * dev.javelin.table.Table}, which commits them with optimistic concurrency; tags, branches and cleanup.
 */
package dev.javelin.table;
