/**
 * Deletion files (Arrow IPC row lists and Roaring bitmaps): reading, writing and merging the rows a
 * fragment has deleted.
 */
package dev.javelin.table.deletion;
