package dev.javelin.cli;

import dev.javelin.core.Dataset;
import dev.javelin.core.DatasetBuilder;
import dev.javelin.core.Session;
import dev.javelin.core.VersionInfo;
import dev.javelin.io.LocalObjectStore;
import dev.javelin.io.ObjectStores;
import dev.javelin.table.Table;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The dataset a command works on, which version of it to read ({@code --as-of}), and the storage
 * options of its URI (the command's {@code --storage-option}s).
 */
final class DatasetArgs {
  @Parameters(index = "0", paramLabel = "URI",
      description = "The dataset: a directory, file: URI, s3://bucket/path, az://container/path or "
          + "abfss://container@account.dfs.core.windows.net/path.")
  String uri;

  @Option(names = "--as-of", paramLabel = "VERSION",
      description = "Read this version instead of the newest.")
  Long version;

  @Option(names = "--tag", paramLabel = "NAME", description = "Read the version this tag names.")
  String tag;

  @Option(names = "--branch", paramLabel = "NAME",
      description = "Use this branch (see 'javelin branch'; default: main). <URI>/tree/<NAME> works too.")
  String branch;

  /** The command this is a mixin of, whose storage options apply. */
  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  /** Set when made by {@link BaseCommand#dataset(String)} instead of as a mixin. */
  Map<String, String> storageOptions;

  Map<String, String> storageOptions() {
    if (storageOptions != null) {
      return storageOptions;
    }
    if (mixee != null && mixee.userObject() instanceof BaseCommand c) {
      return c.storageOptions;
    }
    return Map.of();
  }

  /** Opens the dataset at the version asked for. */
  Dataset open(BufferAllocator allocator) {
    requireDirectory();
    if (version != null && tag != null) {
      throw new InvalidInputException("--as-of and --tag cannot be used together");
    }
    if (branch != null && tag != null) {
      throw new InvalidInputException("--branch and --tag cannot be used together (a tag names its branch)");
    }
    DatasetBuilder open = Dataset.builder(uri).storageOptions(storageOptions()).allocator(allocator);
    if (branch != null) {
      Dataset ds = open.load().checkoutBranch(branch);
      return version != null && version != ds.version() ? ds.checkout(version) : ds;
    }
    // The version asked for is opened directly: a damaged newer manifest must not stand in the way.
    if (version != null) {
      open.version(version);
    } else if (tag != null) {
      open.tag(tag);
    }
    return open.load();
  }

  private boolean remote() {
    return !ObjectStores.isLocal(uri);
  }

  /** Fails with a one-line error if the URI is a local path that does not exist. */
  void requireDirectory() {
    if (!remote() && !Files.exists(path())) {
      throw new InvalidInputException("No such dataset (the directory does not exist): " + uri);
    }
  }

  /** The dataset's versions as a whole, for commands that must not open the newest one first. */
  Table table() {
    requireDirectory();
    return Table.at(Session.defaultSession().store(uri, storageOptions()));
  }

  /** The dataset's versions, listed without opening the newest. */
  List<VersionInfo> versions() {
    requireDirectory();
    return Dataset.versions(uri, storageOptions());
  }

  Path path() {
    return LocalObjectStore.pathOf(uri);
  }
}
