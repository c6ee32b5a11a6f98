package dev.javelin.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.table.exceptions.CommitConflictException;
import java.util.List;
import org.junit.jupiter.api.Test;

class RestoreTest extends TableTestBase {
  private Manifest restore(Manifest old) {
    return table.newCommit(Transaction.restore(table.latest().version(), old)).commit();
  }

  @Test
  void restoreBringsBackAnOldVersionUnderANewNumber() throws Exception {
    Manifest v1 = create(fragment(10), fragment(5));
    append(1, fragment(7));
    Manifest v3 = table.newCommit(Transaction.overwrite(2, SCHEMA, List.of(fragment(3)))).commit();
    Manifest v4 = restore(table.load(1));
    assertThat(v4.version()).isEqualTo(4);
    assertThat(v4.fragments()).isEqualTo(v1.fragments());
    assertThat(v4.schema()).isEqualTo(v1.schema());
    assertThat(v4.maxFragmentId()).isEqualTo(v1.maxFragmentId());
    assertThat(v4.countRows()).isEqualTo(15);
    assertThat(v4.timestamp().get()).isAfterOrEqualTo(v3.timestamp().get());
    // The stored version is the same, and records the Restore inline and in _transactions/.
    Manifest stored = table.load(4);
    assertThat(stored.proto()).isEqualTo(v4.proto());
    Transaction txn = stored.inlineTransaction().orElseThrow();
    assertThat(txn.kind()).isEqualTo(OperationKind.RESTORE);
    assertThat(txn.restoreVersion()).isEqualTo(1);
    assertThat(txn.readVersion()).isEqualTo(3);
    assertThat(stored.transactionFile()).isEqualTo(txn.fileName());
    assertThat(local.exists("_transactions/" + txn.fileName())).isTrue();
    // Everything else is the old manifest's, as in Lance.
    assertThat(stored.proto().toBuilder().clearVersion().clearTimestamp().clearTransactionFile().build())
        .isEqualTo(v1.proto().toBuilder().clearVersion().clearTimestamp().clearTransactionFile().build());
    // Writing continues from the restored version.
    Manifest v5 = append(4, fragment(1));
    assertThat(v5.countRows()).isEqualTo(16);
    assertThat(table.load(3).countRows()).isEqualTo(3);
  }

  @Test
  void aRestoreWinsOverAConcurrentAppend() throws Exception {
    Manifest v1 = create(fragment(10));
    append(1, fragment(5));
    // Read at version 2, an append lands as 3 meanwhile: the restore still lands on top.
    Transaction restore = Transaction.restore(2, v1);
    append(2, fragment(1));
    Manifest v4 = table.newCommit(restore).commit();
    assertThat(v4.version()).isEqualTo(4);
    assertThat(v4.fragments()).isEqualTo(v1.fragments());
  }

  @Test
  void anAppendLosesToAConcurrentRestore() throws Exception {
    Manifest v1 = create(fragment(10));
    append(1, fragment(5));
    restore(v1);
    Fragment f = fragment(1);
    assertThatThrownBy(() -> append(2, f)).isInstanceOf(CommitConflictException.class)
        .hasMessage("This Append (read version 2) conflicts with the Restore committed as version 3: "
            + local.location());
    // The append's file is gone, the restore stands.
    assertThat(local.exists("data/" + f.files().get(0).path())).isFalse();
    assertThat(table.latest().fragments()).isEqualTo(v1.fragments());
  }

  @Test
  void restoreKeepsTheV1NamingScheme() throws Exception {
    table.newCommit(Transaction.overwrite(0, SCHEMA, List.of(fragment(10)))).naming(ManifestNaming.V1).commit();
    append(1, fragment(2));
    Manifest v3 = restore(table.load(1));
    assertThat(v3.version()).isEqualTo(3);
    assertThat(local.exists("_versions/3.manifest")).isTrue();
    assertThat(table.latest().countRows()).isEqualTo(10);
  }

  @Test
  void aRestoreReadFromStorageCannotBeRebuilt() throws Exception {
    Manifest v1 = create(fragment(10));
    Transaction parsed = Transaction.fromProto(Transaction.restore(1, v1).proto());
    assertThatThrownBy(() -> table.newCommit(parsed).commit()).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("This Restore was not made by Transaction.restore: " + local.location());
    assertThat(table.latest().version()).isEqualTo(1);
  }
}
