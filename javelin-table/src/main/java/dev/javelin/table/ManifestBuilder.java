package dev.javelin.table;

import com.google.protobuf.Timestamp;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.table.proto.TableProtos;
import dev.javelin.table.proto.TransactionProtos;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the next manifest from the newest committed one and a transaction: a pure function, so a
 * retried commit simply builds again on the newer manifest (this is the "rebase").
 */
final class ManifestBuilder {
  private ManifestBuilder() {}

  /**
   * @param current the newest manifest, or null when creating the dataset
   * @param newFormat the data file version of a new or overwritten dataset (unused by an append)
   */
  static Manifest build(Transaction txn, Manifest current, long newVersion, LanceFileVersion newFormat,
      Instant now, String location) {
    TableProtos.Manifest.Builder m;
    List<TableProtos.IndexMetadata> indices;
    List<TableProtos.DataFragment> fragments = new ArrayList<>();
    long nextId;
    switch (txn.kind()) {
      case APPEND: {
        if (current == null) {
          throw TableErrors.noDataset(location);
        }
        m = current.proto().toBuilder();
        indices = current.indices();
        fragments.addAll(current.proto().getFragmentsList());
        nextId = current.maxFragmentId().isPresent() ? current.maxFragmentId().getAsLong() + 1 : 0;
        LanceFileVersion format = current.fileVersion();
        for (Fragment f : txn.newFragments()) {
          checkFileVersions(f, format, location);
        }
        break;
      }
      case OVERWRITE: {
        TransactionProtos.Transaction.Overwrite op = txn.proto().getOverwrite();
        // Config, table metadata, base paths and branch belong to the dataset, not its data.
        m = current == null ? TableProtos.Manifest.newBuilder() : current.proto().toBuilder();
        m.clearFragments().clearFields().clearSchemaMetadata().clearMaxFragmentId();
        m.addAllFields(op.getSchemaList()).putAllSchemaMetadata(op.getSchemaMetadataMap());
        m.putAllConfig(op.getConfigUpsertValuesMap());
        m.setDataFormat(TableProtos.Manifest.DataStorageFormat.newBuilder()
            .setFileFormat("lance").setVersion(newFormat.toString()));
        indices = List.of(); // every index covered data that is gone
        nextId = 0;
        for (Fragment f : txn.newFragments()) {
          checkFileVersions(f, newFormat, location);
        }
        break;
      }
      case CREATE_INDEX: {
        if (current == null) {
          throw TableErrors.noDataset(location);
        }
        m = current.proto().toBuilder();
        fragments.addAll(current.proto().getFragmentsList());
        nextId = 0; // adds no fragment
        indices = CreateIndexes.apply(current.indices(), txn.proto().getCreateIndex());
        break;
      }
      default:
        throw new UnsupportedOperationException("Javelin cannot commit a " + txn.kind().displayName() + " yet");
    }
    if (current != null && (current.readerFeatureFlags() & FeatureFlags.STABLE_ROW_IDS) != 0
        && !txn.newFragments().isEmpty()) {
      // Checked before writing too; this guards the invariant if flags change under a retry.
      throw TableErrors.cannotWrite(location, current.version(), FeatureFlags.STABLE_ROW_IDS);
    }
    for (Fragment f : txn.newFragments()) {
      fragments.add(f.withId(nextId++).proto());
    }
    m.clearFragments().addAllFragments(fragments);
    long maxId = -1;
    for (TableProtos.DataFragment f : fragments) {
      maxId = Math.max(maxId, f.getId());
    }
    // The high-water mark never goes down, except that an overwrite starts the numbering again.
    if (maxId >= 0 && (!m.hasMaxFragmentId() || maxId > Integer.toUnsignedLong(m.getMaxFragmentId()))) {
      m.setMaxFragmentId((int) maxId);
    }
    m.setVersion(newVersion)
        .clearVersionAuxData()
        .clearTag()
        .setTimestamp(Timestamp.newBuilder().setSeconds(now.getEpochSecond()).setNanos(now.getNano()))
        .setWriterVersion(TableProtos.Manifest.WriterVersion.newBuilder()
            .setLibrary(Manifest.WRITER_LIBRARY).setVersion(Manifest.WRITER_VERSION))
        .setTransactionFile(txn.fileName());
    applyFeatureFlags(m);
    return new Manifest(m.build(), indices, txn);
  }

  // Lance refuses a manifest whose data files mix file versions.
  private static void checkFileVersions(Fragment f, LanceFileVersion format, String location) {
    for (DataFile d : f.files()) {
      if (d.fileMajorVersion() != format.major() || d.fileMinorVersion() != format.minor()) {
        throw new IllegalArgumentException("Data file " + d.path() + " is format " + d.fileMajorVersion() + "."
            + d.fileMinorVersion() + " but the dataset stores " + format + ": " + location);
      }
    }
  }

  // Flags follow from what the manifest holds, as Lance recomputes them on every commit.
  private static void applyFeatureFlags(TableProtos.Manifest.Builder m) {
    long reader = m.getReaderFeatureFlags() & FeatureFlags.STABLE_ROW_IDS;
    for (TableProtos.DataFragment f : m.getFragmentsList()) {
      if (f.hasDeletionFile()) {
        reader |= FeatureFlags.DELETION_FILES;
      }
    }
    if (m.getBasePathsCount() > 0) {
      reader |= FeatureFlags.BASE_PATHS;
    }
    long writer = reader;
    if (m.getConfigCount() > 0) {
      writer |= FeatureFlags.TABLE_CONFIG;
    }
    m.setReaderFeatureFlags(reader).setWriterFeatureFlags(writer);
  }
}
