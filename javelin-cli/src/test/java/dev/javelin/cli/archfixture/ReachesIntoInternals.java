package dev.javelin.cli.archfixture;

import dev.javelin.format.internal.v21.V21Encoding;

/** A class that breaks the CLI's layout rule; {@code ArchitectureTest} proves the rule catches it. */
final class ReachesIntoInternals {
  private ReachesIntoInternals() {}

  static String name() {
    return V21Encoding.class.getSimpleName();
  }
}
