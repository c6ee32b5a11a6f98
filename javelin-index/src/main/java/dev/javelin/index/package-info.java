/**
 * Lance indices over a dataset's columns: the BTree scalar index and the IVF_PQ vector index,
 * their files under {@code _indices/{uuid}/}, queries that answer with row addresses, and the
 * remapping of row addresses when fragments are rewritten.
 */
package dev.javelin.index;
