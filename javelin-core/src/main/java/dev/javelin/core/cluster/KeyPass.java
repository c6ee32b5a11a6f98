package dev.javelin.core.cluster;

import dev.javelin.common.ProgressStage;
import dev.javelin.core.Dataset;
import dev.javelin.table.Fragment;
import java.io.IOException;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * A clustering's pass 1: the key columns and row addresses of the sources' live rows, read in
 * source order, and then each row's destination ({@link Destinations}). Holds a few words per
 * live row, the price of a global order.
 */
final class KeyPass {
  private final List<KeyColumn> keys;
  private final long[] addresses;

  private KeyPass(List<KeyColumn> keys, long[] addresses) {
    this.keys = keys;
    this.addresses = addresses;
  }

  /** Reads the keys of the sources' {@code expected} live rows (the count may turn out otherwise). */
  static KeyPass read(Dataset dataset, List<Fragment> sources, List<String> keyNames, List<KeyColumn.Kind> kinds,
      int expected, int batchSize, ProgressStage progress) throws IOException {
    List<KeyColumn> keys = new ArrayList<>();
    kinds.forEach(k -> keys.add(new KeyColumn(k, expected)));
    long[] addresses = new long[expected];
    int n = 0;
    try (ArrowReader r = dataset.newScan().columns(keyNames).withRowAddress().fragments(sources)
        .batchSize(batchSize).build()) {
      VectorSchemaRoot root = r.getVectorSchemaRoot();
      while (r.loadNextBatch()) {
        int rows = root.getRowCount();
        for (int j = 0; j < keys.size(); j++) {
          keys.get(j).append(root.getVector(j), rows);
        }
        UInt8Vector addr = (UInt8Vector) root.getVector(keys.size());
        if (n + rows > addresses.length) {
          addresses = Arrays.copyOf(addresses, Math.max(n + rows, addresses.length * 2));
        }
        // One bulk copy of the batch's addresses (never null) instead of a call per row.
        addr.getDataBuffer().nioBuffer(0, rows * 8).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer()
            .get(addresses, n, rows);
        n += rows;
        progress.advance(rows);
      }
    }
    return new KeyPass(n == 0 ? List.of() : keys, Arrays.copyOf(addresses, n));
  }

  /** The live rows' addresses, in source order. */
  long[] addresses() {
    return addresses;
  }

  /** Each live row's destination, in source order: the rows sorted by their keys along {@code curve}. */
  int[] destinations(Curve curve, long target) {
    // One key orders the rows by itself (any curve over one dimension is its order).
    if (keys.isEmpty()) {
      return new int[0];
    }
    if (keys.size() == 1) {
      return Destinations.inOrder(keys.get(0).order(), target);
    }
    List<KeyColumn.Ranked> ranked = new ArrayList<>();
    keys.forEach(k -> ranked.add(k.rank()));
    return Destinations.assign(ranked, curve, target);
  }
}
