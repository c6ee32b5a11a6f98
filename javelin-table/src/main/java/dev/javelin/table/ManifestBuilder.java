package dev.javelin.table;

import com.google.protobuf.Timestamp;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.table.exceptions.TableErrors;
import dev.javelin.table.proto.TableProtos;
import dev.javelin.table.proto.TransactionProtos;
import dev.javelin.table.rowids.StableRowIds;
import dev.javelin.table.stablepartition.StablePartitionEntry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the next manifest from the newest committed one and a transaction: a pure function, so a
 * retried commit simply builds again on the newer manifest (this is the "rebase").
 */
public final class ManifestBuilder {
  private ManifestBuilder() {}

  /**
   * @param current the newest manifest, or null when creating the dataset
   * @param newFormat the data file version of a new or overwritten dataset (unused by an append)
   */
  static Manifest build(Transaction txn, Manifest current, long newVersion, LanceFileVersion newFormat,
      Instant now, String location) {
    return build(txn, current, newVersion, newFormat, now, location, false);
  }

  /**
   * @param newWithStableRowIds whether a new dataset (no {@code current}) gets stable row ids; an
   *     existing dataset keeps what its flags say
   */
  static Manifest build(Transaction txn, Manifest current, long newVersion, LanceFileVersion newFormat,
      Instant now, String location, boolean newWithStableRowIds) {
    TableProtos.Manifest.Builder m;
    List<IndexMetadata> indices;
    List<TableProtos.DataFragment> fragments = new ArrayList<>();
    long nextId;
    switch (txn.kind()) {
      case RESTORE:
        return restore(txn, newVersion, now, location);
      case CLONE:
        return shallowClone(txn, now, location);
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
      case DELETE: {
        if (current == null) {
          throw TableErrors.noDataset(location);
        }
        TransactionProtos.Transaction.Delete op = txn.proto().getDelete();
        m = current.proto().toBuilder();
        indices = current.indices();
        nextId = 0; // adds no fragments
        Map<Long, TableProtos.DataFragment> updated = new HashMap<>();
        op.getUpdatedFragmentsList().forEach(f -> updated.put(f.getId(), f));
        for (TableProtos.DataFragment f : current.proto().getFragmentsList()) {
          if (op.getDeletedFragmentIdsList().contains(f.getId())) {
            continue;
          }
          TableProtos.DataFragment next = updated.getOrDefault(f.getId(), f);
          // A fragment without live rows is dropped, whoever forgot to list it as deleted.
          if (next.hasDeletionFile() && next.getPhysicalRows() > 0
              && next.getDeletionFile().getNumDeletedRows() >= next.getPhysicalRows()) {
            continue;
          }
          fragments.add(next);
        }
        break;
      }
      case UPDATE: {
        if (current == null) {
          throw TableErrors.noDataset(location);
        }
        TransactionProtos.Transaction.Update op = txn.proto().getUpdate();
        m = current.proto().toBuilder();
        nextId = current.maxFragmentId().isPresent() ? current.maxFragmentId().getAsLong() + 1 : 0;
        Map<Long, TableProtos.DataFragment> updated = new HashMap<>();
        op.getUpdatedFragmentsList().forEach(f -> updated.put(f.getId(), f));
        for (TableProtos.DataFragment f : current.proto().getFragmentsList()) {
          if (op.getRemovedFragmentIdsList().contains(f.getId())) {
            continue;
          }
          TableProtos.DataFragment next = updated.getOrDefault(f.getId(), f);
          if (next != f) {
            checkFileVersions(Fragment.fromProto(next), current.fileVersion(), location);
            next = Overlay.stamp(next, newVersion); // an overlay update's new overlay
          }
          if (next.hasDeletionFile() && next.getPhysicalRows() > 0
              && next.getDeletionFile().getNumDeletedRows() >= next.getPhysicalRows()) {
            continue;
          }
          fragments.add(next);
        }
        for (Fragment f : txn.newFragments()) {
          checkFileVersions(f, current.fileVersion(), location);
        }
        indices = IndexBitmaps.pruneUpdated(current.indices(),
            op.getUpdatedFragmentsList().stream().map(TableProtos.DataFragment::getId).toList(),
            op.getFieldsModifiedList());
        break;
      }
      case MERGE: {
        if (current == null) {
          throw TableErrors.noDataset(location);
        }
        TransactionProtos.Transaction.Merge op = txn.proto().getMerge();
        m = current.proto().toBuilder();
        m.clearFields().clearSchemaMetadata();
        m.addAllFields(op.getSchemaList()).putAllSchemaMetadata(op.getSchemaMetadataMap());
        fragments.addAll(StableRowIds.merge(op.getFragmentsList(), current, newVersion, location));
        for (TableProtos.DataFragment f : op.getFragmentsList()) {
          checkFileVersions(Fragment.fromProto(f), current.fileVersion(), location);
        }
        indices = SchemaChanges.liveIndices(current.indices(), op.getSchemaList());
        nextId = 0;
        break;
      }
      case PROJECT: {
        if (current == null) {
          throw TableErrors.noDataset(location);
        }
        TransactionProtos.Transaction.Project op = txn.proto().getProject();
        m = current.proto().toBuilder();
        m.clearFields().addAllFields(op.getSchemaList());
        fragments.addAll(SchemaChanges.tombstone(current.proto().getFragmentsList(), op.getSchemaList()));
        indices = SchemaChanges.liveIndices(current.indices(), op.getSchemaList());
        nextId = 0;
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
      case RESERVE_FRAGMENTS: {
        if (current == null) {
          throw TableErrors.noDataset(location);
        }
        m = current.proto().toBuilder();
        indices = current.indices();
        fragments.addAll(current.proto().getFragmentsList());
        // The reserved ids are the next ones after the high-water mark, which now covers them.
        long first = current.maxFragmentId().isPresent() ? current.maxFragmentId().getAsLong() + 1 : 0;
        m.setMaxFragmentId((int) (first + txn.proto().getReserveFragments().getNumFragments() - 1));
        nextId = 0;
        break;
      }
      case REWRITE: {
        if (current == null) {
          throw TableErrors.noDataset(location);
        }
        m = current.proto().toBuilder();
        indices = FragmentReplacements.indicesAfterRewrite(txn, current, location);
        fragments.addAll(FragmentReplacements.rewrite(txn, current, location));
        nextId = 0;
        break;
      }
      case DATA_REPLACEMENT: {
        if (current == null) {
          throw TableErrors.noDataset(location);
        }
        m = current.proto().toBuilder();
        fragments.addAll(FragmentReplacements.replaceData(txn, current, location));
        indices = FragmentReplacements.indicesAfterReplacement(txn, current);
        nextId = 0;
        break;
      }
      case UPDATE_CONFIG: {
        if (current == null) {
          throw TableErrors.noDataset(location);
        }
        m = current.proto().toBuilder();
        applyConfig(m, txn.proto().getUpdateConfig(), location);
        indices = current.indices();
        fragments.addAll(current.proto().getFragmentsList());
        nextId = 0; // adds no fragment
        break;
      }
      default:
        throw new UnsupportedOperationException("Javelin cannot commit a " + txn.kind().displayName() + " yet");
    }
    StableRowIds.checkSupported(txn, current, location);
    boolean stableRowIds = current == null ? newWithStableRowIds : StableRowIds.enabled(current);
    long nextRowId = current == null ? 0 : current.nextRowId(); // an overwrite does not reuse ids
    for (Fragment f : txn.newFragments()) {
      TableProtos.DataFragment p = f.withId(nextId++).proto();
      if (stableRowIds) {
        long taken = StableRowIds.idsTaken(p);
        p = StableRowIds.assign(p, nextRowId, newVersion);
        nextRowId += taken;
        // Rows an update moved keep the version that created them (last updated: this one).
        if (txn.kind() == OperationKind.UPDATE && f.proto().getCreatedAtVersionSequenceCase()
            == TableProtos.DataFragment.CreatedAtVersionSequenceCase.INLINE_CREATED_AT_VERSIONS) {
          p = p.toBuilder().setInlineCreatedAtVersions(f.proto().getInlineCreatedAtVersions()).build();
        }
      }
      fragments.add(p);
    }
    if (stableRowIds) {
      m.setNextRowId(nextRowId).setReaderFeatureFlags(m.getReaderFeatureFlags() | FeatureFlags.STABLE_ROW_IDS);
    }
    // Fragments are kept in id order, as Lance does (a reserved id may land mid-list).
    fragments.sort(Comparator.comparingLong(TableProtos.DataFragment::getId));
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

  // Like Lance: the old manifest as it was (schema, fragments, indices, config, fragment id
  // high-water mark, writer), with a new version number, timestamp and transaction.
  private static Manifest restore(Transaction txn, long newVersion, Instant now, String location) {
    Manifest old = txn.restoredManifest();
    if (old == null) {
      throw new IllegalArgumentException("This Restore was not made by Transaction.restore: " + location);
    }
    TableProtos.Manifest.Builder m = old.proto().toBuilder()
        .setVersion(newVersion)
        .setTimestamp(Timestamp.newBuilder().setSeconds(now.getEpochSecond()).setNanos(now.getNano()))
        .setTransactionFile(txn.fileName());
    return new Manifest(m.build(), old.indices(), txn);
  }

  // Like Lance's Manifest::shallow_clone: the source's version as it is, under the source's
  // version number, with a new base path for the source's root, which every file that had no base
  // id (the source's own files) now names. Files the source itself refers to elsewhere keep their
  // base ids, and the source's base paths are kept.
  private static Manifest shallowClone(Transaction txn, Instant now, String location) {
    Manifest source = txn.clonedManifest();
    if (source == null) {
      throw new IllegalArgumentException("This Clone was not made by Transaction.shallowClone: " + location);
    }
    TransactionProtos.Transaction.Clone op = txn.proto().getClone();
    for (IndexMetadata i : source.indices()) {
      if (i.name().equals(StablePartitionEntry.NAME)) {
        throw TableErrors.cloneRefused(location, source.version(), "a " + StablePartitionEntry.NAME + " entry",
            "settle the indices");
      }
    }
    int baseId = source.basePaths().nextId();
    TableProtos.Manifest.Builder m = source.proto().toBuilder();
    for (TableProtos.DataFragment.Builder f : m.getFragmentsBuilderList()) {
      for (TableProtos.DataFile.Builder d : f.getFilesBuilderList()) {
        if (!d.hasBaseId()) {
          d.setBaseId(baseId);
        }
      }
      if (f.hasDeletionFile() && !f.getDeletionFile().hasBaseId()) {
        f.getDeletionFileBuilder().setBaseId(baseId);
      }
      if (f.getJavelinOverlaysCount() > 0) {
        throw TableErrors.cloneRefused(location, source.version(), "data overlays (fragment " + f.getId() + ")",
            "compact");
      }
    }
    TableProtos.BasePath.Builder base = TableProtos.BasePath.newBuilder()
        .setId(baseId).setIsDatasetRoot(true).setPath(op.getRefPath());
    if (op.hasRefName()) {
      base.setName(op.getRefName());
    }
    m.addBasePaths(base);
    if (op.hasBranchName()) {
      m.setBranch(op.getBranchName());
    } else {
      m.clearBranch();
    }
    List<IndexMetadata> indices = new ArrayList<>();
    for (IndexMetadata i : source.indices()) {
      indices.add(i.baseId().isPresent() ? i : i.toBuilder().baseId(baseId).build());
    }
    m.clearVersionAuxData()
        .clearTag()
        .setTimestamp(Timestamp.newBuilder().setSeconds(now.getEpochSecond()).setNanos(now.getNano()))
        .setTransactionFile(txn.fileName());
    applyFeatureFlags(m);
    return new Manifest(m.build(), indices, txn);
  }

  // Lance's UpdateConfig on the config map: the entries of config_updates (a replacing map first
  // clears it), then the deprecated upsert_values / delete_keys older writers used. Table, schema
  // and field metadata updates are Lance's too, but nothing in Javelin makes them yet.
  private static void applyConfig(TableProtos.Manifest.Builder m, TransactionProtos.Transaction.UpdateConfig op,
      String location) {
    if (op.hasTableMetadataUpdates() || op.hasSchemaMetadataUpdates() || op.getFieldMetadataUpdatesCount() > 0
        || op.getSchemaMetadataCount() > 0 || op.getFieldMetadataCount() > 0) {
      throw new UnsupportedOperationException(
          "Javelin cannot commit an UpdateConfig of table, schema or field metadata yet: " + location);
    }
    if (op.hasConfigUpdates()) {
      TransactionProtos.Transaction.UpdateMap updates = op.getConfigUpdates();
      if (updates.getReplace()) {
        m.clearConfig();
      }
      for (TransactionProtos.Transaction.UpdateMapEntry e : updates.getUpdateEntriesList()) {
        if (e.hasValue()) {
          m.putConfig(e.getKey(), e.getValue());
        } else {
          m.removeConfig(e.getKey());
        }
      }
    }
    m.putAllConfig(op.getUpsertValuesMap());
    op.getDeleteKeysList().forEach(m::removeConfig);
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
      if (f.getJavelinOverlaysCount() > 0) {
        reader |= FeatureFlags.OVERLAYS;
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
