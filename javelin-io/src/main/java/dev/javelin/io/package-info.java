/**
 * Files and object stores: {@link dev.javelin.io.InputFile} for positioned reads, {@link
 * dev.javelin.io.OutputFile} for streamed writes, and {@link dev.javelin.io.ObjectStore}, the seam a
 * dataset lives behind (listing, reads, put-if-absent for commits), with the local-directory store.
 */
package dev.javelin.io;
