/**
 * The exceptions of the dataset layer: invalid updates and schema changes, filter expressions that
 * do not parse or type-check, compaction and clustering refusals.
 */
package dev.javelin.core.exceptions;
