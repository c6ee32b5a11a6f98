/**
 * Bloom filter indices as Lance writes them: {@code bloomfilter.lance}, a split block bloom
 * filter (the Parquet kind, xxHash64 of each value's little-endian bytes) per zone of rows.
 *
 * <p>Internal: not API, may change in any release.
 */
package dev.javelin.index.internal.bloom;
