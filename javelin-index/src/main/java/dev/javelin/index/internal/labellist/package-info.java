/**
 * Label list indices as Lance writes them: a bitmap index over the elements of a list column
 * ({@code bitmap_page_lookup.lance}, one row per distinct element with the rows whose list holds
 * it), answering {@code array_has_any} and {@code array_has_all} exactly.
 *
 * <p>Internal: not API, may change in any release.
 */
package dev.javelin.index.internal.labellist;
