/**
 * Object stores: the {@link dev.javelin.table.io.ObjectStore} seam a table lives behind (with
 * put-if-absent for commits) and the local-directory store.
 */
package dev.javelin.table.io;
