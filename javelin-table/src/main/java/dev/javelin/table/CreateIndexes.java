package dev.javelin.table;

import dev.javelin.table.proto.TableProtos;
import dev.javelin.table.proto.TransactionProtos;
import java.util.ArrayList;
import java.util.List;

/** How a CreateIndex changes a manifest's index list (Lance's {@code build_manifest} rule). */
final class CreateIndexes {
  private CreateIndexes() {}

  /**
   * Keeps each existing index unless a new index has its name or it is removed by uuid, then adds
   * the new ones. Matching by name makes a rebuilt index replace the old one even when the commit
   * was rebased over another CreateIndex.
   */
  static List<TableProtos.IndexMetadata> apply(List<TableProtos.IndexMetadata> existing,
      TransactionProtos.Transaction.CreateIndex op) {
    List<TableProtos.IndexMetadata> out = new ArrayList<>();
    for (TableProtos.IndexMetadata e : existing) {
      boolean renamed = op.getNewIndicesList().stream().anyMatch(n -> n.getName().equals(e.getName()));
      boolean removed = op.getRemovedIndicesList().stream().anyMatch(r -> r.getUuid().equals(e.getUuid()));
      if (!renamed && !removed) {
        out.add(e);
      }
    }
    out.addAll(op.getNewIndicesList());
    return out;
  }
}
