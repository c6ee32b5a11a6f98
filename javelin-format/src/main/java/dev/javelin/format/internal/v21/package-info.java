/**
 * Lance file format 2.1 (structural encodings): mini-block and full-zip pages, repetition and
 * definition levels, and the compressive encodings.
 *
 * <p><b>Internal:</b> public so that Javelin's other modules can use it, but not API: it may
 * change in any release, is left out of the javadoc, and engines (the CLI, the Spark connector)
 * must not import it; {@code ArchitectureTest} enforces that.
 */
package dev.javelin.format.internal.v21;
