/**
 * The exceptions of the table layer, all under {@link dev.javelin.table.exceptions.TableException}:
 * commit conflicts and failures, missing versions, tags and branches, corrupt manifests, unsupported
 * features.
 */
package dev.javelin.table.exceptions;
