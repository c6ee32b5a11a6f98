/**
 * Byte-level file access: {@link dev.javelin.format.io.InputFile} for positioned reads and {@link
 * dev.javelin.format.io.OutputFile} for streamed writes, with local and in-memory implementations.
 */
package dev.javelin.format.io;
