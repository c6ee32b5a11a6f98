package dev.javelin.cli;

import dev.javelin.core.Dataset;
import dev.javelin.io.LocalObjectStore;
import dev.javelin.table.Table;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.apache.arrow.memory.BufferAllocator;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The dataset a command works on, and which version of it to read ({@code --as-of}). */
final class DatasetArgs {
  @Parameters(index = "0", paramLabel = "URI", description = "The dataset: a directory or file: URI.")
  String uri;

  @Option(names = "--as-of", paramLabel = "VERSION",
      description = "Read this version instead of the newest.")
  Long version;

  @Option(names = "--tag", paramLabel = "NAME", description = "Read the version this tag names.")
  String tag;

  @Option(names = "--branch", paramLabel = "NAME",
      description = "Use this branch (see 'javelin branch'; default: main). <URI>/tree/<NAME> works too.")
  String branch;

  /** Opens the dataset at the version asked for. */
  Dataset open(BufferAllocator allocator) {
    boolean otherScheme = otherScheme();
    requireDirectory();
    if (version != null && tag != null) {
      throw new InvalidInputException("--as-of and --tag cannot be used together");
    }
    if (branch != null && tag != null) {
      throw new InvalidInputException("--branch and --tag cannot be used together (a tag names its branch)");
    }
    if (branch != null) {
      Dataset ds = Dataset.open(uri, allocator).checkoutBranch(branch);
      return version != null && version != ds.version() ? ds.checkout(version) : ds;
    }
    // The version asked for is opened directly: a damaged newer manifest must not stand in the way.
    if (otherScheme || (version == null && tag == null)) {
      return Dataset.open(uri, allocator);
    }
    return version != null ? Dataset.open(uri, version, allocator) : Dataset.open(path(), tag, allocator);
  }

  private boolean otherScheme() {
    return uri.matches("^[a-zA-Z][a-zA-Z0-9+.-]+://.*") && !uri.startsWith("file:");
  }

  /** Fails with a one-line error if the URI is a local path that does not exist. */
  void requireDirectory() {
    if (!otherScheme() && !Files.exists(path())) {
      throw new InvalidInputException("No such dataset (the directory does not exist): " + uri);
    }
  }

  /** The dataset's versions as a whole, for commands that must not open the newest one first. */
  Table table() {
    requireDirectory();
    if (otherScheme()) {
      throw new InvalidInputException("Only local paths and file: URIs are supported so far: " + uri);
    }
    return Table.at(new LocalObjectStore(path()));
  }

  Path path() {
    return uri.startsWith("file:") ? Paths.get(URI.create(uri)) : Paths.get(uri);
  }
}
