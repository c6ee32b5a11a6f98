/**
 * What every Javelin module shares, at the bottom of the module graph: the root exception
 * {@link dev.javelin.common.JavelinException} and the mechanisms written once for all modules.
 */
package dev.javelin.common;
