package dev.javelin.cli.archfixture;

import dev.javelin.table.Manifest;

/**
 * A class that breaks the CLI's layout rule through a generated protobuf class it never imports
 * (it calls a method of one); {@code ArchitectureTest} proves the rule catches it.
 */
final class ReachesIntoProtos {
  private ReachesIntoProtos() {}

  static long version(Manifest m) {
    return m.proto().getVersion();
  }
}
