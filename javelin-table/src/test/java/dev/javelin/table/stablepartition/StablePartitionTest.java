package dev.javelin.table.stablepartition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.table.Cleanup;
import dev.javelin.table.CleanupPolicy;
import dev.javelin.table.Commit;
import dev.javelin.table.Fragment;
import dev.javelin.table.IndexMetadata;
import dev.javelin.table.Manifest;
import dev.javelin.table.OperationKind;
import dev.javelin.table.TableTestBase;
import dev.javelin.table.Transaction;
import dev.javelin.table.exceptions.CommitConflictException;
import dev.javelin.table.exceptions.ConcurrentRewriteException;
import dev.javelin.table.exceptions.CorruptManifestException;
import dev.javelin.table.rowmap.RowMapReader;
import dev.javelin.table.rowmap.RowMapSummary;
import dev.javelin.table.rowmap.RowMapWriter;
import dev.javelin.testing.TestAllocator;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

/** The stable partition entry, the reordered Rewrite's commit path, conservation and cleanup. */
class StablePartitionTest extends TableTestBase {
  @TestAllocator BufferAllocator allocator;

  /** A row map dealing the sources' live rows round-robin over destinations; deleted rows null. */
  String rowMap(List<StablePartitionTransition.Source> sources, int destinations) throws Exception {
    try (RowMapWriter w = RowMapWriter.create(store, destinations, LanceFileVersion.V2_1, allocator)) {
      int next = 0;
      for (StablePartitionTransition.Source s : sources) {
        for (long i = 0; i < s.physicalRows(); i++) {
          if (i < s.deletedRows()) {
            w.appendDeleted();
          } else {
            w.append(next++ % destinations);
          }
        }
      }
      w.finish();
      return w.path();
    }
  }

  static StablePartitionTransition.Source source(long id, long rows, long deleted) {
    return new StablePartitionTransition.Source(id, rows, deleted);
  }

  static long[] ids(IndexMetadata i) {
    return i.fragmentBitmap().stream().mapToLong(x -> x).toArray();
  }

  Manifest createIndexed(int fragments) throws Exception {
    Fragment[] fs = new Fragment[fragments];
    for (int i = 0; i < fragments; i++) {
      fs[i] = fragment(10);
    }
    Manifest v = create(fs);
    RoaringBitmap all = new RoaringBitmap();
    v.fragments().forEach(f -> all.add((int) f.id()));
    IndexMetadata idx = IndexMetadata.builder().uuid(UUID.randomUUID().toString())
        .name("id_idx").fields(List.of(0)).datasetVersion(v.version()).fragmentBitmap(all).build();
    return table.newCommit(Transaction.createIndex(v.version(), List.of(idx), List.of())).commit();
  }

  /** Everything one reordered rewrite of {@code sources} into two destinations of the given sizes needs. */
  final class Reorder {
    final Manifest read;
    final List<Fragment> olds;
    final List<Fragment> news = new ArrayList<>();
    final StablePartitionTransition transition;
    final RowMapSummary summary;
    StablePartition sp;

    Reorder(Manifest read, List<Long> sourceIds) throws Exception {
      Manifest reserved = table.newCommit(Transaction.reserveFragments(read.version(), 2)).commit();
      this.read = reserved;
      olds = reserved.fragments().stream().filter(f -> sourceIds.contains(f.id())).toList();
      List<StablePartitionTransition.Source> sources = olds.stream().map(StablePartitionTransition.Source::of).toList();
      long live = sources.stream().mapToLong(StablePartitionTransition.Source::liveRows).sum();
      long first = reserved.maxFragmentId().getAsLong() - 1;
      news.add(fragment((live + 1) / 2).withId(first));
      news.add(fragment(live / 2).withId(first + 1));
      String path = rowMap(sources, 2);
      try (RowMapReader r = RowMapReader.open(store, path, allocator)) {
        summary = r.summary();
      }
      transition = new StablePartitionTransition(reserved.version(), sources, List.of(first, first + 1), path);
      StablePartitionValidator.validate(transition, summary, news);
      sp = StablePartition.appendTo(reserved, transition, store);
    }

    Commit commit() {
      List<String> files = new ArrayList<>(keys(news));
      files.addAll(sp.writtenFiles());
      return table.newCommit(Transaction.reorderedRewrite(read.version(), List.of(olds), List.of(news), sp))
          .cleanupOnFailure(files).backoff(0, 0);
    }
  }

  @Test
  void reorderedRewriteKeepsIndexBitmapsAndInstallsTheEntry() throws Exception {
    Manifest v = createIndexed(3); // fragments 0, 1, 2; index over all three
    Reorder r = new Reorder(v, List.of(0L, 1L));
    Manifest after = r.commit().commit();

    assertThat(after.fragments().stream().map(Fragment::id)).containsExactly(2L, 3L, 4L);
    IndexMetadata idx = after.indices().stream().filter(i -> i.name().equals("id_idx")).findFirst()
        .orElseThrow();
    assertThat(ids(idx)).containsExactly(0, 1, 2); // retired ids kept: readers skip them and scan
    IndexMetadata entry = StablePartitionEntry.find(after).orElseThrow();
    // The commit stamps the version it lands in: the entry's identity for concurrent rewrites.
    assertThat(entry).isEqualTo(r.sp.entry().toBuilder().datasetVersion(after.version()).build());
    assertThat(ids(entry)).containsExactly(0, 1);
    // One live field, which lance-core 7.0.0 needs to tolerate the entry.
    assertThat(entry.fields()).containsExactly(after.proto().getFields(0).getId());
    assertThat(entry.details().typeUrl()).isEqualTo("/lance.table.StablePartitionDetails");
    assertThat(StablePartitionEntry.transitions(table.latest(), store)).containsExactly(r.transition);
    assertThat(r.transition.sources()).containsExactly(source(0, 10, 0), source(1, 10, 0));
    assertThat(r.transition.firstPosition(1)).isEqualTo(10);

    // What is stored is an ordinary Rewrite: nothing of the stable partition is serialized.
    Transaction stored = table.transaction(table.latest()).orElseThrow();
    assertThat(stored.kind()).isEqualTo(OperationKind.REWRITE);
    assertThat(stored.stablePartition()).isNull();
    assertThat(stored.proto().getRewrite().getRewrittenIndicesCount()).isZero();
  }

  @Test
  void anOrdinaryRewriteOfIndexedFragmentsIsStillRefused() throws Exception {
    Manifest v = createIndexed(2);
    Reorder r = new Reorder(v, List.of(0L, 1L));
    Transaction plain = Transaction.rewrite(r.read.version(), List.of(r.olds), List.of(r.news));
    assertThatThrownBy(() -> table.newCommit(plain).commit()).isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Index 'id_idx' covers fragments this Rewrite replaces");
  }

  @Test
  void aGroupMixingReorderedAndOrderPreservingFragmentsIsRejected() throws Exception {
    Manifest v = createIndexed(3);
    Reorder r = new Reorder(v, List.of(0L, 1L));
    List<Fragment> olds = new ArrayList<>(r.olds);
    olds.add(r.read.fragments().get(2));
    Transaction t = Transaction.reorderedRewrite(r.read.version(), List.of(olds), List.of(r.news), r.sp);
    assertThatThrownBy(() -> table.newCommit(t).commit()).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("A Rewrite group mixes fragments the stable partition reorders with ones it does not: [0, 1, 2]: "
            + table.location());
    assertThat(table.latest().version()).isEqualTo(r.read.version());
  }

  @Test
  void destinationsMustBeTheReorderedGroupsNewFragments() throws Exception {
    Manifest v = createIndexed(2);
    Reorder r = new Reorder(v, List.of(0L, 1L));
    Transaction t = Transaction.reorderedRewrite(r.read.version(), List.of(r.olds), List.of(r.news.subList(0, 1)),
        r.sp);
    assertThatThrownBy(() -> table.newCommit(t).commit()).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("The stable partition's destinations [2, 3] are not the fragments its groups write [2]: "
            + table.location());
  }

  @Test
  void aStaleEntryIsRejectedAndTheRebuiltRewriteCommits() throws Exception {
    Manifest v = createIndexed(4);
    Reorder first = new Reorder(v, List.of(0L, 1L));
    Reorder second = new Reorder(first.read, List.of(2L, 3L)); // built on the same (absent) entry
    Manifest v1 = first.commit().commit();
    String firstEntry = StablePartitionEntry.find(v1).orElseThrow().uuid() + "@"
        + v1.version();

    Commit stale = second.commit();
    assertThatThrownBy(stale::commit).isInstanceOf(ConcurrentRewriteException.class)
        .isInstanceOf(CommitConflictException.class)
        .hasMessage("A concurrent reordered rewrite replaced the __lance_stable_partition entry this one was built on "
            + "(none; version " + v1.version() + " has " + firstEntry + "): rebuild the reordered rewrite on the newest "
            + "version and retry: " + table.location());
    assertThat(table.latest().version()).isEqualTo(v1.version());
    assertThat(local.exists("data/" + second.news.get(0).files().get(0).path())).isFalse(); // cleaned up

    // Rebuilt on the newest version, it commits and the entry holds both transitions.
    second.sp = StablePartition.appendTo(v1, second.transition, store);
    assertThat(second.sp.baseEntryVersion()).contains(firstEntry);
    for (Fragment f : second.news) {
      local.put("data/" + f.files().get(0).path(), new byte[1]);
    }
    Manifest v2 = table.newCommit(Transaction.reorderedRewrite(v1.version(), List.of(second.olds),
        List.of(second.news), second.sp)).commit();
    assertThat(StablePartitionEntry.transitions(v2, store)).containsExactly(first.transition, second.transition);
    assertThat(ids(StablePartitionEntry.find(v2).orElseThrow())).containsExactly(0, 1, 2, 3);
    // The entry keeps its uuid (its directory holds the row maps); its version tells the states apart.
    assertThat(StablePartitionEntry.find(v2).orElseThrow().uuid())
        .isEqualTo(StablePartitionEntry.find(v1).orElseThrow().uuid());
    assertThat(StablePartitionEntry.find(v2).orElseThrow().datasetVersion()).isEqualTo(v2.version());
  }

  @Test
  void anOrdinaryRewriteAfterAReorderKeepsTheEntry() throws Exception {
    Manifest v = createIndexed(3);
    Manifest reordered = new Reorder(v, List.of(0L, 1L)).commit().commit();
    // Compact the two destinations (not indexed) into one: the entry's retired ids are untouched.
    Manifest reserved = table.newCommit(Transaction.reserveFragments(reordered.version(), 1)).commit();
    List<Fragment> olds = reserved.fragments().stream().filter(f -> f.id() >= 3).toList();
    Fragment merged = fragment(20).withId(reserved.maxFragmentId().getAsLong());
    Manifest after = table.newCommit(Transaction.rewrite(reserved.version(), List.of(olds), List.of(List.of(merged))))
        .commit();
    assertThat(StablePartitionEntry.find(after)).isEqualTo(StablePartitionEntry.find(reordered));
  }

  @Test
  void detailsRoundTripInlineAndSpilled() throws Exception {
    StablePartitionTransition small = new StablePartitionTransition(3, List.of(source(0, 10, 2), source(5, 7, 0)),
        List.of(8L, 9L), "_indices/a/row_map.lance");
    IndexMetadata inline = StablePartitionEntry.append(null, small, 3, store, java.util.UUID.randomUUID().toString(), 0);
    assertThat(StablePartitionEntry.writtenFile(inline)).isEmpty();
    assertThat(StablePartitionEntry.transitions(inline, store)).containsExactly(small);
    assertThat(inline.datasetVersion()).isEqualTo(3);

    // ~30000 digests serialize past 200 KiB.
    List<StablePartitionTransition.Source> many = new ArrayList<>();
    for (int i = 0; i < 30_000; i++) {
      many.add(source(100 + i, 1_000_000, i));
    }
    StablePartitionTransition big = new StablePartitionTransition(4, many, List.of(200_000L),
        "_indices/b/row_map.lance");
    IndexMetadata spilled = StablePartitionEntry.append(inline, big, 4, store, java.util.UUID.randomUUID().toString(), 0);
    String uuid = spilled.uuid();
    assertThat(uuid).isEqualTo(inline.uuid()); // stable for the entry's life
    String detailsFile = StablePartitionEntry.writtenFile(spilled).orElseThrow();
    assertThat(detailsFile).startsWith("_indices/" + uuid + "/details-").endsWith(".binpb");
    assertThat(local.exists(detailsFile)).isTrue();
    assertThat(spilled.fields()).containsExactly(0);
    assertThat(spilled.indexVersion()).isPresent();
    assertThat(spilled.details().value().size()).isLessThan(1000);
    assertThat(StablePartitionEntry.transitions(spilled, store)).containsExactly(small, big);
    assertThat(spilled.fragmentBitmap().getCardinality()).isEqualTo(30_002);

    // Appending onto a spilled entry reads the spilled details.
    IndexMetadata third = StablePartitionEntry.append(spilled, small, 5, store, java.util.UUID.randomUUID().toString(), 0);
    assertThat(StablePartitionEntry.transitions(third, store)).containsExactly(small, big, small);
  }

  @Test
  void detailsJustBelowTheThresholdStayInline() throws Exception {
    // Find the largest transition that stays inline: the threshold is exact.
    List<StablePartitionTransition.Source> sources = new ArrayList<>();
    IndexMetadata e = null;
    for (int i = 0; ; i++) {
      sources.add(source(i, 1, 0));
      if (i % 1000 != 0) {
        continue;
      }
      StablePartitionTransition t = new StablePartitionTransition(1, sources, List.of(1L), "_indices/c/row_map.lance");
      IndexMetadata next = StablePartitionEntry.append(null, t, 1, store, java.util.UUID.randomUUID().toString(), 0);
      if (StablePartitionEntry.writtenFile(next).isPresent()) {
        break;
      }
      e = next;
    }
    assertThat(e.details().value().size()).isLessThan(StablePartitionEntry.SPILL_BYTES);
  }

  @Test
  void corruptDetailsAreReported() {
    IndexMetadata bad = IndexMetadata.builder().name(StablePartitionEntry.NAME)
        .details(new IndexMetadata.Details(StablePartitionEntry.TYPE_URL,
            com.google.protobuf.ByteString.copyFromUtf8("\u00ff\u00ff\u00ff"))).build();
    assertThatThrownBy(() -> StablePartitionEntry.transitions(bad, store)).isInstanceOf(CorruptManifestException.class)
        .hasMessage("Stable partition details do not parse: index __lance_stable_partition");
    IndexMetadata other = bad.toBuilder().details("/x.Y").build();
    assertThatThrownBy(() -> StablePartitionEntry.transitions(other, store))
        .isInstanceOf(CorruptManifestException.class)
        .hasMessage("Details type is '/x.Y', not '/lance.table.StablePartitionDetails': index __lance_stable_partition");
  }

  // --- Conservation ---

  StablePartitionTransition transition(List<StablePartitionTransition.Source> sources, List<Long> dests)
      throws Exception {
    return new StablePartitionTransition(1, sources, dests, rowMap(sources, dests.size()));
  }

  RowMapSummary summary(StablePartitionTransition t) throws Exception {
    try (RowMapReader r = RowMapReader.open(store, t.rowMapPath(), allocator)) {
      return r.summary();
    }
  }

  @Test
  void conservationAcceptsABalancedRewrite() throws Exception {
    StablePartitionTransition t = transition(List.of(source(0, 10, 3), source(1, 5, 0)), List.of(7L, 8L));
    RowMapSummary summary = summary(t);
    // 15 physical rows, 12 live (3 deleted), labelled 6 and 6: what the two destinations hold.
    assertThat(summary.rows()).isEqualTo(15);
    assertThat(summary.labeled()).isEqualTo(12);
    assertThat(summary.destinationRows(0)).isEqualTo(6);
    assertThat(summary.destinationRows(1)).isEqualTo(6);
    assertThatCode(() -> StablePartitionValidator.validate(t, summary,
        List.of(fragment(6).withId(7), fragment(6).withId(8)))).doesNotThrowAnyException();
  }

  @Test
  void conservationRejectsADestinationCountOtherThanTheRowMaps() throws Exception {
    StablePartitionTransition t = transition(List.of(source(0, 10, 0)), List.of(7L, 8L));
    StablePartitionTransition three = new StablePartitionTransition(1, t.sources(), List.of(7L, 8L, 9L),
        t.rowMapPath());
    assertThatThrownBy(() -> StablePartitionValidator.validate(three, summary(t),
        List.of(fragment(5).withId(7), fragment(5).withId(8), fragment(0).withId(9))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("The row map names 2 destinations but the transition has 3: " + t.rowMapPath());
  }

  @Test
  void conservationRejectsADestinationWhoseRowsAreNotItsLabelTotal() throws Exception {
    StablePartitionTransition t = transition(List.of(source(0, 10, 0)), List.of(7L, 8L));
    assertThatThrownBy(() -> StablePartitionValidator.validate(t, summary(t),
        List.of(fragment(5).withId(7), fragment(6).withId(8))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Destination 1 (fragment 8) has 6 physical rows but the row map labels 5 rows to it: "
            + t.rowMapPath());
  }

  @Test
  void conservationRejectsARowMapNotCoveringTheSourcesPhysicalRows() throws Exception {
    StablePartitionTransition t = transition(List.of(source(0, 10, 0)), List.of(7L));
    StablePartitionTransition wider = new StablePartitionTransition(1, List.of(source(0, 12, 2)), List.of(7L),
        t.rowMapPath());
    assertThatThrownBy(() -> StablePartitionValidator.validate(wider, summary(t), List.of(fragment(10).withId(7))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("The row map has 10 rows but the sources have 12 physical rows: " + t.rowMapPath());
  }

  @Test
  void conservationRejectsLabeledRowsOtherThanTheSourcesLiveRows() throws Exception {
    StablePartitionTransition t = transition(List.of(source(0, 10, 0)), List.of(7L));
    StablePartitionTransition deleted = new StablePartitionTransition(1, List.of(source(0, 10, 4)), List.of(7L),
        t.rowMapPath());
    assertThatThrownBy(() -> StablePartitionValidator.validate(deleted, summary(t), List.of(fragment(10).withId(7))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("The row map labels 10 rows but the sources have 6 live rows: " + t.rowMapPath());
  }

  // --- Cleanup ---

  @Test
  void cleanupKeepsRowMapsAKeptVersionReferencesAndRemovesThemAfterward() throws Exception {
    Manifest v = createIndexed(4);
    Reorder first = new Reorder(v, List.of(0L, 1L));
    Manifest v1 = first.commit().commit();
    String orphan = rowMap(List.of(source(9, 3, 0)), 1); // written by a rewrite that never committed
    Reorder second = new Reorder(v1, List.of(2L, 3L));
    Manifest v2 = second.commit().commit();
    String map1 = first.transition.rowMapPath();
    String map2 = second.transition.rowMapPath();

    // Only the newest version kept: its entry still references both row maps.
    Cleanup.run(table, CleanupPolicy.builder().retainVersions(1).deleteUnverified(true).build());
    assertThat(local.exists(map1)).isTrue();
    assertThat(local.exists(map2)).isTrue();
    assertThat(local.exists(orphan)).isFalse();
    assertThat(StablePartitionEntry.transitions(table.latest(), store)).hasSize(2);

    // Drop the entry: once no kept version references them, the row maps go.
    IndexMetadata entry = StablePartitionEntry.find(v2).orElseThrow();
    Manifest dropped = table.newCommit(Transaction.createIndex(v2.version(), List.of(), List.of(entry))).commit();
    assertThat(StablePartitionEntry.find(dropped)).isEmpty();
    Cleanup.run(table, CleanupPolicy.builder().retainVersions(1).build());
    assertThat(local.exists(map1)).isFalse();
    assertThat(local.exists(map2)).isFalse();
    assertThat(local.list("_indices/").stream().map(o -> o.key()).filter(k -> k.contains("row_map")))
        .isEmpty();
  }

  @Test
  void cleanupKeepsSpilledDetailsOfAKeptEntry() throws Exception {
    Manifest v = createIndexed(2);
    Reorder r = new Reorder(v, List.of(0L, 1L));
    List<StablePartitionTransition.Source> many = new ArrayList<>();
    for (int i = 0; i < 30_000; i++) {
      many.add(source(1000 + i, 1, 0));
    }
    // A large earlier history makes the new entry spill.
    IndexMetadata history = StablePartitionEntry.append(null,
        new StablePartitionTransition(1, many, List.of(999L), r.transition.rowMapPath()), 1, store, java.util.UUID.randomUUID().toString(), 0);
    IndexMetadata entry = StablePartitionEntry.append(history, r.transition, r.read.version(), store, java.util.UUID.randomUUID().toString(), 0);
    Optional<String> spilled = StablePartitionEntry.writtenFile(entry);
    assertThat(spilled).isPresent();
    Manifest withEntry = table.newCommit(Transaction.createIndex(r.read.version(), List.of(entry), List.of()))
        .commit();
    Cleanup.run(table, CleanupPolicy.builder().retainVersions(1).deleteUnverified(true).build());
    assertThat(local.exists(spilled.get())).isTrue();
    assertThat(local.exists(r.transition.rowMapPath())).isTrue();
    // The history entry's own spill was never committed, but it lies in the entry's directory,
    // which is kept whole while a kept version names the entry (as lance-core's cleanup does).
    assertThat(StablePartitionEntry.writtenFile(history).orElseThrow())
        .startsWith(StablePartitionEntry.directory(StablePartitionEntry.uuid(entry)) + "/");
    assertThat(StablePartitionEntry.transitions(withEntry, store)).hasSize(2);
  }
}
