/**
 * The exceptions of the file layer:
 * corrupt files, unsupported versions or encodings, missing columns, values a file cannot hold.
 */
package dev.javelin.format.exceptions;
