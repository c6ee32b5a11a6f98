package dev.javelin.table;

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
  static List<IndexMetadata> apply(List<IndexMetadata> existing, TransactionProtos.Transaction.CreateIndex op) {
    List<IndexMetadata> out = new ArrayList<>();
    for (IndexMetadata e : existing) {
      boolean renamed = op.getNewIndicesList().stream().anyMatch(n -> n.getName().equals(e.name()));
      boolean removed = op.getRemovedIndicesList().stream().anyMatch(r -> r.getUuid().equals(e.proto().getUuid()));
      if (!renamed && !removed) {
        out.add(e);
      }
    }
    out.addAll(IndexMetadata.fromProtos(op.getNewIndicesList()));
    return out;
  }
}
