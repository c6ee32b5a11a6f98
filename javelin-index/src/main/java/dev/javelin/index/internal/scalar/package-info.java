/**
 * What the scalar index kinds beyond the BTree share (bitmap, zone map, bloom filter): values read
 * from Arrow vectors as comparable Java values, the search result, and zones of rows.
 *
 * <p>Internal: not API, may change in any release.
 */
package dev.javelin.index.internal.scalar;
