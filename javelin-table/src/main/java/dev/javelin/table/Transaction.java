package dev.javelin.table;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.javelin.format.schema.LanceSchema;
import dev.javelin.table.deletion.Deletes;
import dev.javelin.table.exceptions.ConcurrentRewriteException;
import dev.javelin.table.exceptions.TableErrors;
import dev.javelin.table.proto.TransactionProtos;
import dev.javelin.table.stablepartition.StablePartition;
import dev.javelin.table.stablepartition.StablePartitionFold;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * What one commit does: the version it read, a random uuid, and one operation. Immutable, over its
 * protobuf (so a transaction written by a newer Lance is carried and compared as it is).
 */
public final class Transaction {
  private final TransactionProtos.Transaction proto;
  // The manifest a Restore brings back, when this process made the Restore (not part of the
  // protobuf, which names only the version; never compared).
  private final Manifest restored;

  private Transaction(TransactionProtos.Transaction proto) {
    this(proto, null);
  }

  // The fragment reuse index a deferred-remap Rewrite installs (as Lance's in-memory Rewrite; not
  // part of the protobuf, never compared).
  private final IndexMetadata fragReuseIndex;

  private Transaction(TransactionProtos.Transaction proto, Manifest restored) {
    this(proto, restored, null);
  }

  // The stable partition a reordered Rewrite installs (in memory only, as fragReuseIndex).
  private final StablePartition stablePartition;

  private Transaction(TransactionProtos.Transaction proto, Manifest restored, IndexMetadata fragReuse) {
    this(proto, restored, fragReuse, null);
  }

  private Transaction(TransactionProtos.Transaction proto, Manifest restored, IndexMetadata fragReuse,
      StablePartition stablePartition) {
    this(proto, restored, fragReuse, stablePartition, UnremappedIndices.NONE);
  }

  // What a Rewrite made in this process does with the indices it does not remap (in memory only,
  // as fragReuseIndex).
  private final UnremappedIndices unremapped;

  private Transaction(TransactionProtos.Transaction proto, Manifest restored, IndexMetadata fragReuse,
      StablePartition stablePartition, UnremappedIndices unremapped) {
    this.proto = proto;
    this.restored = restored;
    this.fragReuseIndex = fragReuse;
    this.stablePartition = stablePartition;
    this.unremapped = unremapped;
  }

  /**
   * A reordered Rewrite: the groups whose old fragments are {@code sp}'s transition sources move
   * rows between fragments (a stable partition), so every index keeps its coverage of those
   * sources unchanged (retired ids) and {@code sp}'s {@code __lance_stable_partition} entry is
   * installed. Serialized, it is an ordinary Rewrite: {@code sp} stays in memory, and a Rewrite
   * read back from storage has none. Other groups are ordinary (order-preserving) ones.
   *
   * @throws ConcurrentRewriteException at commit, if the newest entry is not the one {@code sp}
   *     was appended onto
   */
  public static Transaction reorderedRewrite(long readVersion, List<List<Fragment>> oldGroups,
      List<List<Fragment>> newGroups, StablePartition sp) {
    return new Transaction(rewrite(readVersion, oldGroups, newGroups).proto, null, null, Objects.requireNonNull(sp));
  }

  // A reordered Rewrite rebuilt by a rebase (StablePartitionFold): its new proto, the same or an
  // updated stable partition.
  public static Transaction reordered(TransactionProtos.Transaction proto, StablePartition sp) {
    return new Transaction(Objects.requireNonNull(proto), null, null, Objects.requireNonNull(sp));
  }

  /** The stable partition of a reordered Rewrite made in this process, or null. */
  public StablePartition stablePartition() {
    return stablePartition;
  }

  /**
   * A Rewrite that defers index remapping: indices keep their coverage of the old fragments, and
   * {@code fragReuseIndex} (the {@code __lance_frag_reuse} system index, replacing any older one)
   * records how rows moved so readers and a later remap can translate old addresses.
   */
  public static Transaction rewriteDeferringIndexRemap(long readVersion, List<List<Fragment>> oldGroups,
      List<List<Fragment>> newGroups, IndexMetadata fragReuseIndex) {
    return rewriteDeferringIndexRemap(readVersion, oldGroups, newGroups, fragReuseIndex, UnremappedIndices.NONE);
  }

  /**
   * A Rewrite that defers index remapping, except that the indices {@code unremapped} names
   * (ones a reader could not translate through {@code fragReuseIndex}) stop covering, or retire,
   * the old fragments instead.
   */
  public static Transaction rewriteDeferringIndexRemap(long readVersion, List<List<Fragment>> oldGroups,
      List<List<Fragment>> newGroups, IndexMetadata fragReuseIndex, UnremappedIndices unremapped) {
    return new Transaction(rewrite(readVersion, oldGroups, newGroups).proto, null,
        Objects.requireNonNull(fragReuseIndex), null, Objects.requireNonNull(unremapped));
  }

  /** What a Rewrite made in this process does with the indices it does not remap. */
  UnremappedIndices unremapped() {
    return unremapped;
  }

  /** The fragment reuse index a deferred-remap Rewrite made in this process installs, or null. */
  IndexMetadata fragReuseIndex() {
    return fragReuseIndex;
  }

  public static Transaction fromProto(TransactionProtos.Transaction proto) {
    return new Transaction(Objects.requireNonNull(proto));
  }

  static Transaction parse(byte[] bytes, String file) {
    try {
      return new Transaction(TransactionProtos.Transaction.parseFrom(bytes));
    } catch (InvalidProtocolBufferException e) {
      throw TableErrors.corrupt(file, "Transaction does not parse", e);
    }
  }

  /** Adds fragments (ids unassigned: the commit numbers them after the newest manifest's). */
  public static Transaction append(long readVersion, List<Fragment> fragments) {
    TransactionProtos.Transaction.Append.Builder op = TransactionProtos.Transaction.Append.newBuilder();
    for (Fragment f : fragments) {
      op.addFragments(f.withId(0).proto());
    }
    return new Transaction(base(readVersion).setAppend(op).build());
  }

  /** Replaces the schema and every fragment (read version 0 creates a dataset). */
  public static Transaction overwrite(long readVersion, LanceSchema schema, List<Fragment> fragments) {
    TransactionProtos.Transaction.Overwrite.Builder op = TransactionProtos.Transaction.Overwrite.newBuilder();
    for (Fragment f : fragments) {
      op.addFragments(f.withId(0).proto());
    }
    op.addAllSchema(schema.toProto().getFieldsList());
    op.putAllSchemaMetadata(schema.toProto().getMetadataMap());
    return new Transaction(base(readVersion).setOverwrite(op).build());
  }

  /**
   * Makes an old version the newest again: the next version is {@code old}'s content under a new
   * number, as Lance's Restore does.
   *
   * @param readVersion the newest version when the restore starts (as Lance records it)
   * @param old the version to bring back
   */
  public static Transaction restore(long readVersion, Manifest old) {
    TransactionProtos.Transaction.Restore op = TransactionProtos.Transaction.Restore.newBuilder()
        .setVersion(old.version()).build();
    return new Transaction(base(readVersion).setRestore(op).build(), old);
  }

  /** The version a Restore brings back. */
  public long restoreVersion() {
    if (kind() != OperationKind.RESTORE) {
      throw new IllegalStateException("Not a Restore: " + this);
    }
    return proto.getRestore().getVersion();
  }

  // The manifest a Restore made here brings back (null for one read from storage).
  Manifest restoredManifest() {
    return restored;
  }

  /**
   * A shallow clone of {@code source} (Lance's Clone with {@code is_shallow}), committed as the
   * first version of a new dataset or branch: the source's schema, fragments, indices and config
   * under the source's version number, every file the source holds itself referred to through a
   * new base path ({@code sourcePath}, a dataset root) instead of copied.
   *
   * @param refName the source's branch (or what it is known by there), or null
   * @param branchName the new dataset's branch name, or null for a dataset of its own
   */
  public static Transaction shallowClone(Manifest source, String sourcePath, String refName, String branchName) {
    TransactionProtos.Transaction.Clone.Builder op = TransactionProtos.Transaction.Clone.newBuilder()
        .setIsShallow(true).setRefVersion(source.version()).setRefPath(sourcePath);
    if (refName != null) {
      op.setRefName(refName);
    }
    if (branchName != null) {
      op.setBranchName(branchName);
    }
    return new Transaction(base(source.version()).setClone(op).build(), source);
  }

  // The manifest a Clone made here copies (null for one read from storage).
  Manifest clonedManifest() {
    return restored;
  }

  /**
   * Deletes rows: {@code updated} are the touched fragments with their new deletion files,
   * {@code deletedFragmentIds} the fragments whose every row is now deleted (dropped from the
   * manifest). {@code predicate} is recorded for readers of the history (empty if none).
   */
  public static Transaction delete(long readVersion, List<Fragment> updated, List<Long> deletedFragmentIds,
      String predicate) {
    TransactionProtos.Transaction.Delete.Builder op = TransactionProtos.Transaction.Delete.newBuilder()
        .addAllDeletedFragmentIds(deletedFragmentIds)
        .setPredicate(predicate == null ? "" : predicate);
    updated.forEach(f -> op.addUpdatedFragments(f.proto()));
    return new Transaction(base(readVersion).setDelete(op).build());
  }

  /**
   * Updates rows. In {@code REWRITE_ROWS} mode (what Lance's update does) the updated rows are
   * written to {@code newFragments} (ids unassigned) and deleted from the {@code updated}
   * fragments' deletion files, fragments left without live rows listed in {@code removedFragmentIds};
   * {@code fieldsForPreservingFragBitmap} are the assigned fields' ids. In {@code REWRITE_COLUMNS}
   * mode each {@code updated} fragment carries a new data file for the rewritten fields (their old
   * slots tombstoned) and {@code fieldsModified} lists those fields.
   */
  public static Transaction update(long readVersion, List<Fragment> updated, List<Long> removedFragmentIds,
      List<Fragment> newFragments, List<Integer> fieldsModified, List<Integer> fieldsForPreservingFragBitmap,
      TransactionProtos.Transaction.UpdateMode mode) {
    TransactionProtos.Transaction.Update.Builder op = TransactionProtos.Transaction.Update.newBuilder()
        .addAllRemovedFragmentIds(removedFragmentIds)
        .addAllFieldsModified(fieldsModified)
        .addAllFieldsForPreservingFragBitmap(fieldsForPreservingFragBitmap)
        .setUpdateMode(mode);
    updated.forEach(f -> op.addUpdatedFragments(f.proto()));
    newFragments.forEach(f -> op.addNewFragments(f.withId(0).proto()));
    return new Transaction(base(readVersion).setUpdate(op).build());
  }

  /**
   * Updates values through data overlays (Javelin's extension, mode {@code JAVELIN_OVERLAY}):
   * each {@code updated} fragment is the one read plus one new, uncommitted {@link Overlay}
   * (the commit stamps its version). {@code fieldsModified} are the overlaid fields, whose
   * indices stop covering the updated fragments, as after any update of those fields.
   */
  public static Transaction overlayUpdate(long readVersion, List<Fragment> updated, List<Integer> fieldsModified) {
    return update(readVersion, updated, List.of(), List.of(), fieldsModified, List.of(),
        TransactionProtos.Transaction.UpdateMode.JAVELIN_OVERLAY);
  }

  /**
   * Replaces the schema and every fragment with the given ones (fragment ids kept): what adding
   * columns commits, each fragment carrying its new data file.
   */
  public static Transaction merge(long readVersion, LanceSchema schema, List<Fragment> fragments) {
    TransactionProtos.Transaction.Merge.Builder op = TransactionProtos.Transaction.Merge.newBuilder();
    for (Fragment f : fragments) {
      op.addFragments(f.proto());
    }
    op.addAllSchema(schema.toProto().getFieldsList());
    op.putAllSchemaMetadata(schema.toProto().getMetadataMap());
    return new Transaction(base(readVersion).setMerge(op).build());
  }

  /**
   * Replaces the schema only (dropped, renamed or re-nulled columns); the data files stay, fields
   * no longer in the schema are tombstoned when the manifest is built.
   */
  public static Transaction project(long readVersion, LanceSchema schema) {
    return new Transaction(base(readVersion).setProject(TransactionProtos.Transaction.Project.newBuilder()
        .addAllSchema(schema.toProto().getFieldsList())).build());
  }

  /**
   * Adds {@code newIndices} and removes {@code removedIndices} (matched by uuid); an existing index
   * with the name of a new one is replaced, as in Lance. A drop is a CreateIndex with no new index.
   */
  public static Transaction createIndex(long readVersion, List<IndexMetadata> newIndices,
      List<IndexMetadata> removedIndices) {
    TransactionProtos.Transaction.CreateIndex op = TransactionProtos.Transaction.CreateIndex.newBuilder()
        .addAllNewIndices(IndexMetadata.toProtos(newIndices))
        .addAllRemovedIndices(IndexMetadata.toProtos(removedIndices)).build();
    return new Transaction(base(readVersion).setCreateIndex(op).build());
  }

  /**
   * Reserves {@code count} fragment ids (the next after the newest manifest's high-water mark) for
   * fragments a later commit adds, as compaction does before its Rewrite.
   */
  public static Transaction reserveFragments(long readVersion, int count) {
    if (count < 1) {
      throw new IllegalArgumentException("Reserve at least one fragment id: " + count);
    }
    return new Transaction(base(readVersion).setReserveFragments(
        TransactionProtos.Transaction.ReserveFragments.newBuilder().setNumFragments(count)).build());
  }

  /**
   * Replaces groups of fragments by new fragments holding the same rows (compaction).
   * {@code oldGroups.get(i)} is replaced by {@code newGroups.get(i)}, whose fragments carry their
   * (reserved) ids; the new fragments take the place of the group's first old one.
   */
  public static Transaction rewrite(long readVersion, List<List<Fragment>> oldGroups, List<List<Fragment>> newGroups) {
    return rewrite(readVersion, oldGroups, newGroups, List.of());
  }

  /**
   * A Rewrite that also swaps indices remapped to the new fragments ({@code rewritten_indices}:
   * old uuid, new uuid, new details and version). Each rewritten index's coverage moves from a
   * group's old fragments to its new ones.
   */
  public static Transaction rewrite(long readVersion, List<List<Fragment>> oldGroups, List<List<Fragment>> newGroups,
      List<TransactionProtos.Transaction.Rewrite.RewrittenIndex> rewrittenIndices) {
    if (oldGroups.size() != newGroups.size()) {
      throw new IllegalArgumentException("Rewrite has " + oldGroups.size() + " old groups but " + newGroups.size()
          + " new ones");
    }
    TransactionProtos.Transaction.Rewrite.Builder op = TransactionProtos.Transaction.Rewrite.newBuilder();
    for (int i = 0; i < oldGroups.size(); i++) {
      TransactionProtos.Transaction.Rewrite.RewriteGroup.Builder g =
          TransactionProtos.Transaction.Rewrite.RewriteGroup.newBuilder();
      oldGroups.get(i).forEach(f -> g.addOldFragments(f.proto()));
      newGroups.get(i).forEach(f -> g.addNewFragments(f.proto()));
      op.addGroups(g);
    }
    op.addAllRewrittenIndices(rewrittenIndices);
    return new Transaction(base(readVersion).setRewrite(op).build());
  }

  /**
   * A Rewrite that swaps the remapped indices in, and stops covering (or retires) the old
   * fragments in the indices {@code unremapped} names. Serialized, it is an ordinary Rewrite:
   * {@code unremapped} stays in memory (lance-core builds no manifest from another's Rewrite).
   */
  public static Transaction rewrite(long readVersion, List<List<Fragment>> oldGroups, List<List<Fragment>> newGroups,
      List<TransactionProtos.Transaction.Rewrite.RewrittenIndex> rewrittenIndices, UnremappedIndices unremapped) {
    return new Transaction(rewrite(readVersion, oldGroups, newGroups, rewrittenIndices).proto, null, null, null,
        Objects.requireNonNull(unremapped));
  }

  /**
   * Gives fragments new data files: {@code newFiles.get(i)} goes to fragment
   * {@code fragmentIds.get(i)} (several files for one fragment apply in order), and the fields it
   * lists are tombstoned in that fragment's other files. {@code dataChange} false says the new
   * files hold the values the old ones held (a column repack): index coverage is kept.
   */
  public static Transaction dataReplacement(long readVersion, List<Long> fragmentIds, List<DataFile> newFiles,
      boolean dataChange) {
    if (fragmentIds.size() != newFiles.size()) {
      throw new IllegalArgumentException("DataReplacement has " + fragmentIds.size() + " fragment ids but "
          + newFiles.size() + " files");
    }
    TransactionProtos.Transaction.DataReplacement.Builder op =
        TransactionProtos.Transaction.DataReplacement.newBuilder().setDataChange(dataChange);
    for (int i = 0; i < fragmentIds.size(); i++) {
      op.addReplacements(TransactionProtos.Transaction.DataReplacementGroup.newBuilder()
          .setFragmentId(fragmentIds.get(i)).setNewFile(newFiles.get(i).proto()));
    }
    return new Transaction(base(readVersion).setDataReplacement(op).build());
  }

  /**
   * Sets the {@code upserts} and removes the {@code deletes} keys of the dataset's config map,
   * nothing else, as lance-core's {@code Dataset.updateConfig} / {@code deleteConfigKeys} write
   * it: one {@code config_updates} map (a removal is an entry without a value), merged into the
   * config, entries in key order.
   *
   * @throws IllegalArgumentException if nothing changes or a key is both set and removed
   */
  public static Transaction updateConfig(long readVersion, Map<String, String> upserts, Set<String> deletes) {
    if (upserts.isEmpty() && deletes.isEmpty()) {
      throw new IllegalArgumentException("A config update sets or removes at least one key");
    }
    TreeMap<String, String> entries = new TreeMap<>(upserts);
    for (String key : deletes) {
      if (entries.containsKey(key)) {
        throw new IllegalArgumentException("Config key '" + key + "' is both set and removed");
      }
      entries.put(key, null);
    }
    TransactionProtos.Transaction.UpdateMap.Builder map = TransactionProtos.Transaction.UpdateMap.newBuilder();
    entries.forEach((key, value) -> {
      TransactionProtos.Transaction.UpdateMapEntry.Builder e =
          TransactionProtos.Transaction.UpdateMapEntry.newBuilder().setKey(key);
      if (value != null) {
        e.setValue(value);
      }
      map.addUpdateEntries(e);
    });
    return new Transaction(base(readVersion).setUpdateConfig(
        TransactionProtos.Transaction.UpdateConfig.newBuilder().setConfigUpdates(map)).build());
  }

  /**
   * Whether a DataReplacement changes values (true when the field is absent, as transactions
   * written before it existed meant).
   */
  public boolean dataChange() {
    if (kind() != OperationKind.DATA_REPLACEMENT) {
      throw new IllegalStateException("Not a DataReplacement: " + this);
    }
    TransactionProtos.Transaction.DataReplacement op = proto.getDataReplacement();
    return !op.hasDataChange() || op.getDataChange();
  }

  private static TransactionProtos.Transaction.Builder base(long readVersion) {
    return TransactionProtos.Transaction.newBuilder()
        .setReadVersion(readVersion)
        .setUuid(UUID.randomUUID().toString());
  }

  public long readVersion() {
    return proto.getReadVersion();
  }

  public String uuid() {
    return proto.getUuid();
  }

  public OperationKind kind() {
    return OperationKind.of(proto.getOperationCase());
  }

  /** The name of its file under {@code _transactions/}: {@code {read_version}-{uuid}.txn}. */
  public String fileName() {
    return readVersion() + "-" + uuid() + ".txn";
  }

  /** The fragments an Append, Overwrite or Update adds, in order. */
  public List<Fragment> newFragments() {
    List<Fragment> out = new ArrayList<>();
    switch (kind()) {
      case APPEND:
        proto.getAppend().getFragmentsList().forEach(f -> out.add(Fragment.fromProto(f)));
        break;
      case OVERWRITE:
        proto.getOverwrite().getFragmentsList().forEach(f -> out.add(Fragment.fromProto(f)));
        break;
      case UPDATE:
        proto.getUpdate().getNewFragmentsList().forEach(f -> out.add(Fragment.fromProto(f)));
        break;
      default:
        break;
    }
    return out;
  }

  public TransactionProtos.Transaction proto() {
    return proto;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Transaction && ((Transaction) o).proto.equals(proto);
  }

  @Override
  public int hashCode() {
    return proto.hashCode();
  }

  @Override
  public String toString() {
    return kind().displayName() + "{read_version=" + readVersion() + ", uuid=" + uuid() + "}";
  }
}
