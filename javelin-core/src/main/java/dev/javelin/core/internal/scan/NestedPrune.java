package dev.javelin.core.internal.scan;

import dev.javelin.format.schema.LanceField;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TypeLayout;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Rebuilds a vector read from a data file without the nested fields the dataset has dropped
 * since (Lance drops {@code a.b} by changing the schema only). Works on the vector's Arrow
 * buffers in pre-order, so any nesting is handled: the dropped subtrees' nodes and buffers are
 * left out and the rest is loaded, shared, into a vector of the dataset's field.
 */
final class NestedPrune {
  private NestedPrune() {}

  /** A new vector (the caller closes it) sharing {@code read}'s buffers minus the dropped ones. */
  static FieldVector prune(FieldVector read, LanceField file, LanceField want, BufferAllocator allocator) {
    Set<Integer> keep = new HashSet<>();
    want.flatten().forEach(f -> keep.add(f.id()));
    List<Boolean> kept = new ArrayList<>();
    List<Integer> bufferCounts = new ArrayList<>();
    walk(read.getField(), file, true, keep, kept, bufferCounts);
    VectorSchemaRoot target = VectorSchemaRoot.create(new Schema(List.of(want.toArrow())), allocator);
    VectorSchemaRoot source = new VectorSchemaRoot(List.of(read.getField()), List.of(read), read.getValueCount());
    // The source root wraps a vector the file reader owns: it is never closed here.
    try (ArrowRecordBatch all = new VectorUnloader(source).getRecordBatch()) {
      List<ArrowFieldNode> nodes = new ArrayList<>();
      List<ArrowBuf> buffers = new ArrayList<>();
      int b = 0;
      for (int i = 0; i < kept.size(); i++) {
        if (kept.get(i)) {
          nodes.add(all.getNodes().get(i));
          buffers.addAll(all.getBuffers().subList(b, b + bufferCounts.get(i)));
        }
        b += bufferCounts.get(i);
      }
      try (ArrowRecordBatch pruned = new ArrowRecordBatch(all.getLength(), nodes, buffers)) {
        new VectorLoader(target).load(pruned);
      }
      FieldVector out = target.getVector(0);
      // Detach the vector from its root so that closing it alone releases everything.
      return out;
    } catch (RuntimeException e) {
      target.close();
      throw e;
    }
  }

  // Pre-order over the Arrow field and the Lance field together; a fixed-size list's item has no
  // Lance field of its own and goes with its list.
  private static void walk(Field arrow, LanceField lance, boolean parentKept, Set<Integer> keep, List<Boolean> kept,
      List<Integer> bufferCounts) {
    boolean k = parentKept && (lance == null || keep.contains(lance.id()));
    kept.add(k);
    bufferCounts.add(TypeLayout.getTypeBufferCount(arrow.getType()));
    List<Field> kids = arrow.getChildren();
    for (int i = 0; i < kids.size(); i++) {
      LanceField lk = lance != null && lance.children().size() == kids.size() ? lance.children().get(i) : null;
      walk(kids.get(i), lk, k, keep, kept, bufferCounts);
    }
  }
}
