/**
 * Reading and writing Lance data files (file format 2.0 and 2.1) with Arrow Java: {@link
 * dev.javelin.format.LanceFileReader}, {@link dev.javelin.format.LanceFileWriter}, their options,
 * {@link dev.javelin.format.FileInfo}, gathers by row, and whole-file concat and zip.
 */
package dev.javelin.format;
