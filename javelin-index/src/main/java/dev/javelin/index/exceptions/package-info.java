/**
 * The exceptions of the index layer: index files that cannot be read or built, and index kinds
 * Javelin does not support.
 */
package dev.javelin.index.exceptions;
