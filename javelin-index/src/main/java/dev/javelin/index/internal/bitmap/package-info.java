/**
 * Bitmap scalar indices as Lance writes them: {@code bitmap_page_lookup.lance}, one row per
 * distinct value (nulls included) with the serialized set of the rows holding it.
 *
 * <p>Internal: not API, may change in any release.
 */
package dev.javelin.index.internal.bitmap;
