/**
 * Stable partition transitions: the manifest entries that let a reordered rewrite keep its indices,
 * their validation and their folding into later versions.
 */
package dev.javelin.table.stablepartition;
