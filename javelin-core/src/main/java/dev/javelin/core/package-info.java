/**
 * Datasets: {@link dev.javelin.core.Dataset} opens, creates, scans, writes and maintains Lance
 * datasets; {@link dev.javelin.core.ScanBuilder} and {@link dev.javelin.core.VectorQuery} read them;
 * the result types report what an operation did.
 */
package dev.javelin.core;
