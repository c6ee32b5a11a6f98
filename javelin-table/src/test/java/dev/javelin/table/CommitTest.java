package dev.javelin.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.table.exceptions.CommitConflictException;
import dev.javelin.table.exceptions.CommitFailedException;
import dev.javelin.table.exceptions.CommitStateUnknownException;
import dev.javelin.table.exceptions.DatasetExistsException;
import dev.javelin.testing.FaultyObjectStore.Op;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class CommitTest extends TableTestBase {
  private boolean exists(Fragment f) throws Exception {
    return local.exists("data/" + f.files().get(0).path());
  }

  @Test
  void appendRebasesOverAConcurrentAppend() throws Exception {
    create(fragment(10));
    Fragment theirs = fragment(20);
    Fragment mine = fragment(30);
    // Another writer appends from version 1 just before our first put-if-absent.
    store.beforeNext(Op.PUT_IF_ABSENT, () -> {
      Table other = Table.at(local);
      other.newCommit(Transaction.append(1, List.of(theirs))).commit();
    });
    Manifest v3 = append(1, mine);
    assertThat(v3.version()).isEqualTo(3);
    assertThat(v3.fragments()).extracting(Fragment::physicalRows).containsExactly(10L, 20L, 30L);
    assertThat(v3.fragments()).extracting(Fragment::id).containsExactly(0L, 1L, 2L);
    assertThat(v3.inlineTransaction().get().readVersion()).isEqualTo(1);
    assertThat(store.calls(Op.PUT_IF_ABSENT)).isEqualTo(3); // create, our lost try, our win
    assertThat(exists(mine)).isTrue();
  }

  @Test
  void appendAfterAConcurrentOverwriteConflictsAndCleansUp() throws Exception {
    create(fragment(10));
    Fragment replacement = fragment(5);
    table.newCommit(Transaction.overwrite(1, SCHEMA, List.of(replacement))).commit();
    Fragment mine = fragment(30);
    assertThatThrownBy(() -> append(1, mine)).isInstanceOf(CommitConflictException.class)
        .hasMessage("This Append (read version 1) conflicts with the Overwrite committed as version 2: "
            + local.location())
        .satisfies(e -> assertThat(((CommitConflictException) e).conflictingVersion()).isEqualTo(2));
    assertThat(exists(mine)).isFalse();
    assertThat(table.latest().version()).isEqualTo(2);
    assertThat(local.list("_transactions/")).hasSize(2);
  }

  @Test
  void overwriteCommitsOverAConcurrentAppend() throws Exception {
    create(fragment(10));
    append(1, fragment(20));
    Manifest v3 = table.newCommit(Transaction.overwrite(1, SCHEMA, List.of(fragment(7)))).commit();
    assertThat(v3.version()).isEqualTo(3);
    assertThat(v3.countRows()).isEqualTo(7);
  }

  @Test
  void aVersionWithoutATransactionCannotBeCheckedAgainst() throws Exception {
    Manifest m = create(fragment(10));
    // Version 2 written by someone who recorded no transaction at all.
    Manifest bare = new Manifest(m.proto().toBuilder().setVersion(2).clearTransactionFile().build(), List.of(), null);
    replaceObject(ManifestNaming.V2.key(2), ManifestFiles.encode(bare));
    Fragment mine = fragment(1);
    assertThatThrownBy(() -> append(1, mine)).isInstanceOf(CommitConflictException.class)
        .hasMessage("Version 2 has no transaction to check this commit against: " + local.location());
    assertThat(exists(mine)).isFalse();
    // Reading from the newest version needs no check.
    assertThat(append(2, fragment(1)).version()).isEqualTo(3);
  }

  @Test
  void transactionFileIsUsedWhenNotInline() throws Exception {
    Manifest m = create(fragment(10));
    Transaction overwrite = Transaction.overwrite(1, SCHEMA, List.of());
    local.put("_transactions/" + overwrite.fileName(), overwrite.proto().toByteArray());
    Manifest v2 = new Manifest(m.proto().toBuilder().setVersion(2).setTransactionFile(overwrite.fileName()).build(),
        List.of(), null);
    replaceObject(ManifestNaming.V2.key(2), ManifestFiles.encode(v2));
    assertThatThrownBy(() -> append(1, fragment(1))).isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("conflicts with the Overwrite committed as version 2");
  }

  @Test
  void storeFailureLeavesFilesBecauseTheOutcomeIsUnknown() throws Exception {
    create(fragment(10));
    Fragment mine = fragment(3);
    store.failNext(Op.PUT_IF_ABSENT, 1, key -> new IOException("injected failure creating " + key));
    assertThatThrownBy(() -> append(1, mine)).isInstanceOf(CommitStateUnknownException.class)
        .hasMessage("Store failed while creating manifest " + ManifestNaming.V2.key(2)
            + "; the commit may or may not have landed: " + local.location());
    assertThat(exists(mine)).isTrue();
    assertThat(local.list("_transactions/")).hasSize(2);
  }

  @Test
  void exhaustedRetriesCleanUp() throws Exception {
    create(fragment(10));
    Fragment mine = fragment(3);
    store.failNext(Op.PUT_IF_ABSENT, 100, store.taken());
    assertThatThrownBy(() -> table.newCommit(Transaction.append(1, List.of(mine)))
            .cleanupOnFailure(keys(List.of(mine))).maxAttempts(4).backoff(0, 0).commit())
        .isInstanceOf(CommitFailedException.class)
        .hasMessage("Commit did not land after 4 attempts (other writers kept committing first): " + local.location());
    assertThat(exists(mine)).isFalse();
    assertThat(local.list("_transactions/")).hasSize(1);
    assertThat(table.latest().version()).isEqualTo(1);
  }

  @Test
  void createRefusesAnExistingDataset() throws Exception {
    create(fragment(10));
    Fragment mine = fragment(3);
    assertThatThrownBy(() -> create(mine)).isInstanceOf(DatasetExistsException.class)
        .hasMessage("A dataset already exists: " + local.location());
    assertThat(exists(mine)).isFalse();
  }

  @Test
  void appendFilesMustMatchTheDatasetFormat() throws Exception {
    create(fragment(10));
    Fragment v20 = Fragment.of(DataFile.of("x.lance", List.of(new int[] {0, 0}),
        dev.javelin.format.LanceFileVersion.V2_0, 1), 1);
    assertThatThrownBy(() -> append(1, v20)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Data file x.lance is format 2.0 but the dataset stores 2.1: " + local.location());
  }

  @Test
  void manyConcurrentAppendsAllLand() throws Exception {
    create(fragment(1));
    int writers = 8;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Manifest>> results = new ArrayList<>();
    try {
      for (int i = 0; i < writers; i++) {
        Fragment f = fragment(100 + i);
        results.add(pool.submit(() -> {
          start.await();
          return Table.at(local).newCommit(Transaction.append(1, List.of(f))).backoff(1, 20).commit();
        }));
      }
      start.countDown();
      for (Future<Manifest> r : results) {
        r.get();
      }
    } finally {
      pool.shutdownNow();
    }
    Manifest last = table.latest();
    assertThat(last.version()).isEqualTo(1 + writers);
    assertThat(last.fragments()).extracting(Fragment::id).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
    assertThat(last.fragments()).extracting(Fragment::physicalRows)
        .containsExactlyInAnyOrder(1L, 100L, 101L, 102L, 103L, 104L, 105L, 106L, 107L);
  }
}
