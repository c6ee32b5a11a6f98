package dev.javelin.index.internal.ivf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.javelin.common.Json;
import dev.javelin.index.DistanceType;
import dev.javelin.index.exceptions.UnsupportedIndexKindException;
import dev.javelin.index.exceptions.VectorIndexException;
import dev.javelin.index.proto.IndexProtos;
import dev.javelin.io.ObjectStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The files of an IVF_PQ index ({@link IvfFiles}' layout): the record column is
 * {@code __pq_code: fixed_size_list<uint8, m>}, inside a partition the codes transposed (all rows'
 * sub-vector 0 codes, then sub-vector 1's, ...); global buffer 2 of auxiliary.idx is the
 * {@code [256, dim]} codebook tensor.
 */
final class IvfPqFiles {
  static final String KIND = "IVF_PQ";
  static final IvfFiles.Column PQ_CODE = new IvfFiles.Column("__pq_code", new ArrowType.Int(8, false), 1, true);

  private IvfPqFiles() {}

  /** What {@link #read} loads: the model, the partition layout, and the rows. */
  record Contents(IvfPqModel model, long[] offsets, int[] lengths, long[] rowIds, byte[] codes) {}

  /**
   * Writes both files. {@code rowIds} and {@code codes} are grouped by partition as
   * {@code offsets}/{@code lengths} say, codes already transposed per partition.
   *
   * @return the sizes in bytes of index.idx and auxiliary.idx
   */
  static long[] write(ObjectStore store, String dir, IvfPqModel model, long[] offsets, int[] lengths, long[] rowIds,
      byte[] codes, BufferAllocator allocator) throws IOException {
    IvfFiles.writeHeader(store, dir, KIND, model.distanceType, model.centroids, model.dim, model.loss);
    writeAux(store, dir, model, offsets, lengths, rowIds, codes, allocator);
    return IvfFiles.sizes(store, dir);
  }

  /** Writes auxiliary.idx (see {@link #write}). */
  static void writeAux(ObjectStore store, String dir, IvfPqModel model, long[] offsets, int[] lengths,
      long[] rowIds, byte[] codes, BufferAllocator allocator) throws IOException {
    ByteBuffer codebook = ByteBuffer.wrap(IvfFiles.tensor(model.pq.codebook, ProductQuantizer.CENTROIDS, model.dim)
        .toByteArray());
    IvfFiles.writeAux(store, dir, model.distanceType, PQ_CODE, model.pq.m, offsets, lengths, rowIds, codes,
        storage(model.pq.m, model.dim), List.of(codebook), allocator);
  }

  /** index.idx's schema metadata (see {@link IvfFiles#indexMetadata}). */
  static Map<String, String> indexMetadata(int partitions, String distance) {
    return IvfFiles.indexMetadata(KIND, partitions, distance);
  }

  /** auxiliary.idx's schema metadata, the PQ storage document as Lance writes it. */
  static Map<String, String> auxiliaryMetadata(String distance, int subVectors, int dim) {
    return IvfFiles.auxMetadata(distance, storage(subVectors, dim));
  }

  // The PQ storage: the codebook in global buffer 2, 8-bit codes, transposed.
  private static String storage(int subVectors, int dim) {
    ObjectNode storage = Json.object().put("codebook_position", 2).put("nbits", 8).put("num_sub_vectors", subVectors)
        .put("dimension", dim);
    storage.putArray("codebook_tensor");
    storage.put("transposed", true);
    return Json.write(storage);
  }

  /** Reads both files of the index in {@code dir}. */
  static Contents read(ObjectStore store, String dir, BufferAllocator allocator) throws IOException {
    IvfFiles.Header header = IvfFiles.readHeader(store, dir, allocator);
    if (!KIND.equals(header.kind())) {
      throw new UnsupportedIndexKindException(header.kind(), "Index file " + dir + "/" + IvfFiles.INDEX_FILE
          + " is not an IVF_PQ index (" + header.kind() + ")");
    }
    return read(store, dir, header, allocator);
  }

  /** Reads auxiliary.idx of the IVF_PQ index in {@code dir} whose index.idx says {@code header}. */
  static Contents read(ObjectStore store, String dir, IvfFiles.Header header, BufferAllocator allocator)
      throws IOException {
    String location = dir + "/" + IvfFiles.AUX_FILE;
    float[] centroids = header.centroids();
    IvfFiles.Aux aux = IvfFiles.readAux(store, dir, PQ_CODE, storage -> {
      int bits = IvfFiles.intOf(storage, "nbits", location);
      if (bits != 8) {
        throw new UnsupportedIndexKindException("IVF_PQ (" + bits + "-bit codes)", "Index file " + location
            + " has " + bits + "-bit PQ codes; Javelin reads 8-bit codes only");
      }
      JsonNode transposed = storage.get("transposed");
      if (transposed == null || !transposed.isBoolean() || !transposed.booleanValue()) {
        throw new VectorIndexException("Index file " + location + " stores PQ codes untransposed; "
            + "Javelin reads the transposed layout only");
      }
      return IvfFiles.intOf(storage, "codebook_position", location);
    }, allocator);
    int m = IvfFiles.intOf(aux.storage(), "num_sub_vectors", location);
    IndexProtos.Tensor cb;
    try {
      cb = IndexProtos.Tensor.parseFrom(aux.extra());
    } catch (InvalidProtocolBufferException e) {
      throw new VectorIndexException("Codebook of " + location + " is not a Tensor message", e);
    }
    float[] codebook = IvfFiles.floats(cb, "PQ codebook of " + location);
    int dim = codebook.length / ProductQuantizer.CENTROIDS;
    if (dim == 0 || centroids.length % dim != 0 || dim % m != 0 || aux.width() != m) {
      throw new VectorIndexException("Index " + dir + " has inconsistent shapes: " + centroids.length
          + " centroid values, " + codebook.length + " codebook values, " + m + " sub-vectors");
    }
    int p = aux.offsets().length;
    if (p != centroids.length / dim) {
      throw new VectorIndexException("Index " + dir + " has " + centroids.length / dim + " centroids but "
          + p + " partitions in " + location);
    }
    DistanceType distance = header.distance();
    boolean dot = distance == DistanceType.DOT;
    IvfPqModel model = new IvfPqModel(dim, centroids, new ProductQuantizer(dim, m, codebook, dot), distance,
        header.loss());
    return new Contents(model, aux.offsets(), aux.lengths(), aux.rowIds(), aux.records());
  }
}
