package dev.javelin.table;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.javelin.format.schema.LanceSchema;
import dev.javelin.table.proto.TableProtos;
import dev.javelin.table.proto.TransactionProtos;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * What one commit does: the version it read, a random uuid, and one operation. Immutable, over its
 * protobuf (so a transaction written by a newer Lance is carried and compared as it is).
 */
public final class Transaction {
  private final TransactionProtos.Transaction proto;

  private Transaction(TransactionProtos.Transaction proto) {
    this.proto = proto;
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
   * Adds {@code newIndices} and removes {@code removedIndices} (matched by uuid); an existing index
   * with the name of a new one is replaced, as in Lance. A drop is a CreateIndex with no new index.
   */
  public static Transaction createIndex(long readVersion, List<TableProtos.IndexMetadata> newIndices,
      List<TableProtos.IndexMetadata> removedIndices) {
    TransactionProtos.Transaction.CreateIndex op = TransactionProtos.Transaction.CreateIndex.newBuilder()
        .addAllNewIndices(newIndices).addAllRemovedIndices(removedIndices).build();
    return new Transaction(base(readVersion).setCreateIndex(op).build());
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

  /** The fragments an Append or Overwrite adds, in order. */
  public List<Fragment> newFragments() {
    List<Fragment> out = new ArrayList<>();
    switch (kind()) {
      case APPEND:
        proto.getAppend().getFragmentsList().forEach(f -> out.add(Fragment.fromProto(f)));
        break;
      case OVERWRITE:
        proto.getOverwrite().getFragmentsList().forEach(f -> out.add(Fragment.fromProto(f)));
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
