package dev.javelin.table;

import dev.javelin.table.exceptions.TableErrors;
import dev.javelin.table.proto.TableProtos;
import dev.javelin.table.proto.TransactionProtos;
import dev.javelin.table.stablepartition.StablePartitionEntry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashSet;
import java.util.Set;
import org.roaringbitmap.RoaringBitmap;

/**
 * The cases where a CreateIndex conflicts with a committed operation depending on what both hold
 * (Lance's {@code check_create_index_txn}); the by-kind cases are in {@link ConflictRules}.
 */
final class CreateIndexConflicts {
  /** Lance's fragment reuse index, of which two concurrent versions cannot both be committed. */
  static final String FRAG_REUSE_INDEX_NAME = "__lance_frag_reuse";

  private CreateIndexConflicts() {}

  static boolean conflicts(Transaction mine, Transaction committed) {
    TransactionProtos.Transaction.CreateIndex op = mine.proto().getCreateIndex();
    switch (committed.kind()) {
      case CREATE_INDEX:
        return hasFragReuse(op) && committed.proto().getCreateIndex().getNewIndicesList().stream()
            .anyMatch(i -> i.getName().equals(FRAG_REUSE_INDEX_NAME));
      case REWRITE: {
        // The stable partition entry keeps its uuid, so removing or replacing it by uuid would
        // silently drop a transition a concurrent reordered rewrite added (whose Rewrite looks
        // like any other once committed): redo on the new version.
        if (touchesStablePartition(op)) {
          return true;
        }
        // Rows the new index covers may have moved; an index without a bitmap covers unknown ones.
        Set<Long> covered = new HashSet<>();
        for (TableProtos.IndexMetadata i : op.getNewIndicesList()) {
          if (i.getFragmentBitmap().isEmpty()) {
            return true;
          }
          for (int id : fragmentIds(i)) {
            covered.add(Integer.toUnsignedLong(id));
          }
        }
        TransactionProtos.Transaction.Rewrite rw = committed.proto().getRewrite();
        boolean moved = rw.getOldFragmentsList().stream().anyMatch(f -> covered.contains(f.getId()));
        for (TransactionProtos.Transaction.Rewrite.RewriteGroup g : rw.getGroupsList()) {
          moved |= g.getOldFragmentsList().stream().anyMatch(f -> covered.contains(f.getId()));
        }
        return moved;
      }
      case DATA_REPLACEMENT: {
        Set<Integer> indexed = new HashSet<>();
        op.getNewIndicesList().forEach(i -> indexed.addAll(i.getFieldsList()));
        return committed.proto().getDataReplacement().getReplacementsList().stream()
            .flatMap(r -> r.getNewFile().getFieldsList().stream()).anyMatch(indexed::contains);
      }
      default:
        return false;
    }
  }

  private static boolean touchesStablePartition(TransactionProtos.Transaction.CreateIndex op) {
    return op.getNewIndicesList().stream().anyMatch(i -> i.getName().equals(StablePartitionEntry.NAME))
        || op.getRemovedIndicesList().stream().anyMatch(i -> i.getName().equals(StablePartitionEntry.NAME));
  }

  private static boolean hasFragReuse(TransactionProtos.Transaction.CreateIndex op) {
    return op.getNewIndicesList().stream().anyMatch(i -> i.getName().equals(FRAG_REUSE_INDEX_NAME));
  }

  /** The fragment ids of an index's portable 32-bit roaring bitmap. */
  static RoaringBitmap fragmentIds(TableProtos.IndexMetadata index) {
    RoaringBitmap b = new RoaringBitmap();
    try {
      b.deserialize(ByteBuffer.wrap(index.getFragmentBitmap().toByteArray()).order(ByteOrder.LITTLE_ENDIAN));
    } catch (IOException | RuntimeException e) {
      throw TableErrors.corrupt("index " + index.getName(), "fragment_bitmap does not parse", e);
    }
    return b;
  }
}
