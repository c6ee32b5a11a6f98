/**
 * Zone maps as Lance writes them: {@code zonemap.lance}, the min, max, null and NaN counts of
 * each zone of rows of a fragment.
 *
 * <p>Internal: not API, may change in any release.
 */
package dev.javelin.index.internal.zonemap;
