package dev.javelin.cli;

import dev.javelin.core.Dataset;
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
    boolean otherScheme = uri.matches("^[a-zA-Z][a-zA-Z0-9+.-]+://.*") && !uri.startsWith("file:");
    if (!otherScheme && !Files.exists(path())) {
      throw new InvalidInputException("No such dataset (the directory does not exist): " + uri);
    }
    if (version != null && tag != null) {
      throw new InvalidInputException("--as-of and --tag cannot be used together");
    }
    if (branch != null && tag != null) {
      throw new InvalidInputException("--branch and --tag cannot be used together (a tag names its branch)");
    }
    Dataset ds = Dataset.open(uri, allocator);
    if (branch != null) {
      ds = ds.checkoutBranch(branch);
    }
    if (version != null && version != ds.version()) {
      ds = ds.checkout(version);
    }
    if (tag != null) {
      ds = ds.checkout(tag);
    }
    return ds;
  }

  Path path() {
    return uri.startsWith("file:") ? Paths.get(java.net.URI.create(uri)) : Paths.get(uri);
  }
}
