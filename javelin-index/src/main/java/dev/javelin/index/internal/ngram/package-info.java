/**
 * N-gram indices as Lance writes them: {@code ngram_postings.lance}, one row per trigram token
 * (u32) with the serialized set of rows whose text holds it, for substring filters (the rows found
 * are checked again).
 *
 * <p>Internal: not API, may change in any release.
 */
package dev.javelin.index.internal.ngram;
