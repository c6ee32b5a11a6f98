package dev.javelin.index.internal.ivf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.javelin.common.Json;
import dev.javelin.common.ThreadPools;
import dev.javelin.index.DistanceType;
import dev.javelin.index.exceptions.UnsupportedIndexKindException;
import dev.javelin.index.exceptions.VectorIndexException;
import dev.javelin.io.ObjectStore;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * An open IVF_SQ index ({@link IvfIndex}): each row stored as one byte per dimension, the
 * (normalised for cosine) vector scaled from Lance's bounds, one range {@code [start, end]} for
 * every dimension, to 0..255, in auxiliary.idx's {@code __sq_code: fixed_size_list<uint8, dim>}
 * column; storage document {@code {"dim", "num_bits": 8, "bounds": {"start", "end"}}}. As in
 * Lance, the query is scaled the same way and the distance computed between the codes (squared L2
 * for L2 and cosine, {@code 1 - a·b} for DOT), then scaled back by {@code (end - start)^2 / 255^2}.
 */
public final class IvfSqIndex extends IvfIndex {
  static final String KIND = "IVF_SQ";
  static final IvfFiles.Column SQ_CODE = new IvfFiles.Column("__sq_code", new ArrowType.Int(8, false), 1, true);
  private final ScalarQuantizer sq;
  // Row-major, partition by partition as rowIds.
  private final byte[] codes;

  private IvfSqIndex(IvfFiles.Header header, IvfFiles.Aux aux, ScalarQuantizer sq, ThreadPools pools) {
    super(aux.width(), header.centroids(), header.distance(), aux.offsets(), aux.lengths(), aux.rowIds(), pools);
    this.sq = sq;
    this.codes = aux.records();
  }

  static IvfSqIndex open(ObjectStore store, String dir, IvfFiles.Header header, BufferAllocator allocator,
      ThreadPools pools) throws IOException {
    IvfFiles.Aux aux = read(store, dir, header, allocator);
    return new IvfSqIndex(header, aux, quantizer(aux.storage(), dir), pools);
  }

  /** Reads auxiliary.idx, checking its shapes against index.idx's centroids. */
  static IvfFiles.Aux read(ObjectStore store, String dir, IvfFiles.Header header, BufferAllocator allocator)
      throws IOException {
    IvfFiles.Aux aux = IvfFiles.readAux(store, dir, SQ_CODE, storage -> -1, allocator);
    IvfFlatIndex.checkShapes(dir, header, aux);
    return aux;
  }

  /** The quantizer the storage document of auxiliary.idx of the index in {@code dir} describes. */
  static ScalarQuantizer storage(ObjectStore store, String dir, BufferAllocator allocator) throws IOException {
    IvfFiles.Header header = IvfFiles.readHeader(store, dir, allocator);
    return quantizer(read(store, dir, header, allocator).storage(), dir);
  }

  static ScalarQuantizer quantizer(JsonNode storage, String dir) {
    int bits = IvfFiles.intOf(storage, "num_bits", dir + "/" + IvfFiles.AUX_FILE);
    if (bits != 8) {
      throw new UnsupportedIndexKindException("IVF_SQ (" + bits + "-bit codes)", "Index " + dir + " has " + bits
          + "-bit SQ codes; Javelin reads 8-bit codes only");
    }
    JsonNode bounds = storage.path("bounds");
    JsonNode start = bounds.get("start");
    JsonNode end = bounds.get("end");
    if (start == null || !start.isNumber() || end == null || !end.isNumber()) {
      throw new VectorIndexException("Index " + dir + " has no SQ bounds in storage_metadata: " + storage);
    }
    return new ScalarQuantizer(start.doubleValue(), end.doubleValue());
  }

  /** The storage document of auxiliary.idx. */
  static String storage(int dim, ScalarQuantizer sq) {
    ObjectNode doc = Json.object().put("dim", dim).put("num_bits", 8);
    doc.putObject("bounds").put("start", sq.start()).put("end", sq.end());
    return Json.write(doc);
  }

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public boolean approximate() {
    return true;
  }

  @Override
  Object prepare(float[] q, int k, int ef) {
    byte[] code = new byte[dim];
    sq.encode(q, 0, dim, code, 0);
    return code;
  }

  @Override
  NearestRows scan(Object query, long[] probed, float[] probedDist, AtomicInteger next, int k,
      LongPredicate accept) {
    byte[] q = (byte[]) query;
    NearestRows top = new NearestRows(k);
    float[] dist = SCRATCH.get();
    if (dist.length < maxLength) {
      dist = new float[maxLength];
      SCRATCH.set(dist);
    }
    float scale = sq.distanceScale();
    boolean dot = distanceType == DistanceType.DOT;
    for (int at = next.getAndIncrement(); at < probed.length; at = next.getAndIncrement()) {
      int c = (int) probed[at];
      int n = lengths[c];
      int base = (int) offsets[c];
      if (dot) {
        for (int i = 0; i < n; i++) {
          dist[i] = (1f - ScalarQuantizer.dot(q, codes, (base + i) * dim, dim)) * scale;
        }
      } else {
        for (int i = 0; i < n; i++) {
          dist[i] = ScalarQuantizer.l2(q, codes, (base + i) * dim, dim) * scale;
        }
      }
      offerAll(dist, base, n, top, accept);
    }
    return top;
  }

  // Per-thread distances of a partition's rows.
  private static final ThreadLocal<float[]> SCRATCH = ThreadLocal.withInitial(() -> new float[0]);
}
