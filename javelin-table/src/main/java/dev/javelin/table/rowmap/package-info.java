/**
 * Row maps: the files that say where each rewritten row moved to, so indices stay usable after a
 * reordered rewrite.
 */
package dev.javelin.table.rowmap;
