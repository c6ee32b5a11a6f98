/**
 * Stable row ids: the row-id and row-version sequences of each fragment, and their encodings.
 */
package dev.javelin.table.rowids;
