package dev.javelin.table;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.schema.LanceSchema;
import dev.javelin.table.exceptions.TableErrors;
import dev.javelin.table.proto.TableProtos;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One version of a dataset: schema (with field ids), fragments, flags, config, the index entries
 * and the transaction that produced it. Immutable, over its protobuf, so whatever a newer writer
 * put there and Javelin does not interpret survives when Javelin builds the next version from it.
 *
 * <p>The section offsets ({@code index_section}, {@code transaction_section}) are a property of
 * the file, not of the version, so they are cleared here and recomputed when the file is written.
 */
public final class Manifest {
  /** What Javelin records as {@code writer_version.library}. */
  public static final String WRITER_LIBRARY = "javelin";
  /** What Javelin records as {@code writer_version.version}. */
  public static final String WRITER_VERSION = "0.1.0";

  private final TableProtos.Manifest proto;
  private final List<IndexMetadata> indices;
  private final Transaction transaction;
  private final List<Fragment> fragments;
  private final BasePaths basePaths;
  private volatile LanceSchema schema;

  Manifest(TableProtos.Manifest proto, List<IndexMetadata> indices, Transaction transaction) {
    this.proto = proto.toBuilder().clearIndexSection().clearTransactionSection().build();
    this.indices = List.copyOf(indices);
    this.transaction = transaction;
    this.basePaths = BasePaths.of(proto.getBasePathsList());
    List<Fragment> fs = new ArrayList<>();
    for (TableProtos.DataFragment f : proto.getFragmentsList()) {
      fs.add(Fragment.fromProto(f, basePaths));
    }
    this.fragments = Collections.unmodifiableList(fs);
  }

  public long version() {
    return proto.getVersion();
  }

  /** The schema, with Lance field ids. */
  public LanceSchema schema() {
    LanceSchema s = schema;
    if (s == null) {
      try {
        s = LanceSchema.fromProto(proto.getFieldsList(), proto.getSchemaMetadataMap());
      } catch (RuntimeException e) {
        throw TableErrors.corrupt("version " + version(), "Manifest schema is invalid (" + e.getMessage() + ")", e);
      }
      schema = s;
    }
    return s;
  }

  /** Fragments, in id order. */
  public List<Fragment> fragments() {
    return fragments;
  }

  /** When the version was committed, if recorded. */
  public Optional<Instant> timestamp() {
    if (!proto.hasTimestamp()) {
      return Optional.empty();
    }
    return Optional.of(Instant.ofEpochSecond(proto.getTimestamp().getSeconds(), proto.getTimestamp().getNanos()));
  }

  public long readerFeatureFlags() {
    return proto.getReaderFeatureFlags();
  }

  public long writerFeatureFlags() {
    return proto.getWriterFeatureFlags();
  }

  /** The highest fragment id ever handed out; empty before the first fragment. */
  public OptionalLong maxFragmentId() {
    return proto.hasMaxFragmentId() ? OptionalLong.of(Integer.toUnsignedLong(proto.getMaxFragmentId()))
        : OptionalLong.empty();
  }

  public long nextRowId() {
    return proto.getNextRowId();
  }

  /**
   * The file format version of the data files. Old manifests without {@code data_format} are
   * legacy (0.1) datasets, which Javelin does not read.
   */
  public LanceFileVersion fileVersion() {
    if (!proto.hasDataFormat()) {
      throw new UnsupportedOperationException("Dataset version " + version()
          + " has no data_format (a legacy 0.1 dataset), which Javelin does not read");
    }
    return LanceFileVersion.parse(proto.getDataFormat().getVersion());
  }

  public Map<String, String> config() {
    return proto.getConfigMap();
  }

  /** The library that wrote this version ("lance", "javelin", ...), empty if not recorded. */
  public String writerLibrary() {
    return proto.getWriterVersion().getLibrary();
  }

  /** The other locations this version's files may live under (a shallow clone's or branch's source). */
  public BasePaths basePaths() {
    return basePaths;
  }

  /** The branch this version belongs to; empty on the main branch. */
  public Optional<String> branch() {
    return proto.hasBranch() ? Optional.of(proto.getBranch()) : Optional.empty();
  }

  /** The index entries (an index may have several: its deltas), in manifest order. */
  public List<IndexMetadata> indices() {
    return indices;
  }

  /** The transaction recorded inline, if any (see {@link Table#transaction}). */
  public Optional<Transaction> inlineTransaction() {
    return Optional.ofNullable(transaction);
  }

  /** The name of the version's file under {@code _transactions/}, or empty. */
  public String transactionFile() {
    return proto.getTransactionFile();
  }

  /** Live rows: physical rows minus deleted ones, over every fragment. */
  public long countRows() {
    long n = 0;
    for (Fragment f : fragments) {
      n += f.liveRows();
    }
    return n;
  }

  /** The protobuf, without section offsets. */
  public TableProtos.Manifest proto() {
    return proto;
  }

  Manifest withInlineTransaction(Transaction t) {
    return new Manifest(proto, indices, Objects.requireNonNull(t));
  }

  @Override
  public String toString() {
    return "Manifest{version=" + version() + ", fragments=" + fragments.size() + "}";
  }
}
