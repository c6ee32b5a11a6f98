package dev.javelin.index.internal.ivf;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.javelin.common.Json;
import dev.javelin.format.LanceFileReader;
import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.WriteOptions;
import dev.javelin.index.DistanceType;
import dev.javelin.index.exceptions.UnsupportedIndexKindException;
import dev.javelin.index.exceptions.VectorIndexException;
import dev.javelin.index.proto.IndexProtos;
import dev.javelin.io.InputFile;
import dev.javelin.io.ObjectStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The two files of an IVF_PQ index (Lance's v3 layout) under {@code _indices/{uuid}/}.
 *
 * <ul>
 *   <li>{@code index.idx}: no rows ({@code __flat_marker: uint64}); metadata {@code lance:index}
 *       (type and distance), {@code lance:flat} (one empty string per partition) and
 *       {@code lance:ivf} naming global buffer 1, an IVF message with the centroid tensor.
 *   <li>{@code auxiliary.idx}: {@code _rowid: uint64, __pq_code: fixed_size_list<uint8, m>}, rows
 *       grouped by partition, and inside a partition the codes transposed (all rows' sub-vector 0
 *       codes, then sub-vector 1's, ...); global buffer 1 is an IVF message with each partition's
 *       first row and length, buffer 2 the {@code [256, dim]} codebook tensor.
 * </ul>
 */
final class IvfPqFiles {
  static final String INDEX_FILE = "index.idx";
  static final String AUX_FILE = "auxiliary.idx";
  static final String ROW_ID = "_rowid";
  static final String PQ_CODE = "__pq_code";
  private static final int BATCH = 8192;

  // The index kind in lance:index, e.g. "type":"IVF_HNSW_SQ" (a quote before: not distance_type).

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
    int p = model.numPartitions;
    String dist = model.distanceType.lanceName();
    // index.idx
    Schema indexSchema = new Schema(List.of(
        new Field("__flat_marker", FieldType.notNullable(new ArrowType.Int(64, false)), null)),
        indexMetadata(p, dist));
    IndexProtos.IVF.Builder ivf = IndexProtos.IVF.newBuilder()
        .setCentroidsTensor(tensor(model.centroids, p, model.dim))
        .setLoss(model.loss);
    for (int i = 0; i < p; i++) {
      ivf.addOffsets(0).addLengths(0);
    }
    try (LanceFileWriter w = LanceFileWriter.create(store.newOutputFile(dir + "/" + INDEX_FILE), indexSchema,
        WriteOptions.defaults())) {
      w.addGlobalBuffer(ByteBuffer.wrap(ivf.build().toByteArray()));
    }
    // auxiliary.idx
    int m = model.pq.m;
    Field item = new Field("item", FieldType.nullable(new ArrowType.Int(8, false)), null);
    Schema auxSchema = new Schema(List.of(
        new Field(ROW_ID, FieldType.nullable(new ArrowType.Int(64, false)), null),
        new Field(PQ_CODE, FieldType.nullable(new ArrowType.FixedSizeList(m)), List.of(item))),
        auxiliaryMetadata(dist, m, model.dim));
    IndexProtos.IVF.Builder layout = IndexProtos.IVF.newBuilder();
    for (int i = 0; i < p; i++) {
      layout.addOffsets(offsets[i]).addLengths(lengths[i]);
    }
    try (LanceFileWriter w = LanceFileWriter.create(store.newOutputFile(dir + "/" + AUX_FILE), auxSchema,
        WriteOptions.defaults());
        VectorSchemaRoot root = VectorSchemaRoot.create(auxSchema, allocator)) {
      w.addGlobalBuffer(ByteBuffer.wrap(layout.build().toByteArray()));
      w.addGlobalBuffer(ByteBuffer.wrap(tensor(model.pq.codebook, ProductQuantizer.CENTROIDS, model.dim)
          .toByteArray()));
      UInt8Vector ids = (UInt8Vector) root.getVector(0);
      FixedSizeListVector fsl = (FixedSizeListVector) root.getVector(1);
      for (int start = 0; start < rowIds.length; start += BATCH) {
        int n = Math.min(BATCH, rowIds.length - start);
        root.clear();
        ids.allocateNew(n);
        fsl.setInitialCapacity(n);
        fsl.allocateNew();
        UInt1Vector values = (UInt1Vector) fsl.getDataVector();
        for (int i = 0; i < n; i++) {
          ids.set(i, rowIds[start + i]);
          fsl.setNotNull(i);
        }
        for (int i = 0; i < n * m; i++) {
          values.setSafe(i, codes[start * m + i]);
        }
        values.setValueCount(n * m);
        root.setRowCount(n);
        w.write(root);
      }
    }
    return new long[] {size(store, dir + "/" + INDEX_FILE), size(store, dir + "/" + AUX_FILE)};
  }

  /**
   * index.idx's schema metadata: {@code lance:index} (type and distance), {@code lance:ivf} (the
   * IVF message's global buffer) and {@code lance:flat} (one empty string per partition).
   */
  static Map<String, String> indexMetadata(int partitions, String distance) {
    ObjectNode index = Json.object().put("type", "IVF_PQ").put("distance_type", distance);
    ArrayNode flat = Json.array();
    for (int i = 0; i < partitions; i++) {
      flat.add("");
    }
    Map<String, String> meta = new HashMap<>();
    meta.put("lance:index", Json.write(index));
    meta.put("lance:ivf", "1");
    meta.put("lance:flat", Json.write(flat));
    return meta;
  }

  /**
   * auxiliary.idx's schema metadata: the distance, {@code lance:ivf} (the partition layout's
   * global buffer) and {@code storage_metadata}, a list of one JSON string describing the PQ
   * storage (the codebook in global buffer 2, 8-bit codes, transposed), as Lance writes it.
   */
  static Map<String, String> auxiliaryMetadata(String distance, int subVectors, int dim) {
    ObjectNode storage = Json.object().put("codebook_position", 2).put("nbits", 8).put("num_sub_vectors", subVectors)
        .put("dimension", dim);
    storage.putArray("codebook_tensor");
    storage.put("transposed", true);
    Map<String, String> meta = new HashMap<>();
    meta.put("distance_type", distance);
    meta.put("lance:ivf", "1");
    meta.put("storage_metadata", Json.write(Json.array().add(Json.write(storage))));
    return meta;
  }

  private static long size(ObjectStore store, String key) throws IOException {
    try (InputFile in = store.open(key)) {
      return in.length();
    }
  }

  static IndexProtos.Tensor tensor(float[] values, int rows, int cols) {
    ByteBuffer b = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
    b.asFloatBuffer().put(values);
    return IndexProtos.Tensor.newBuilder().setDataType(IndexProtos.Tensor.DataType.FLOAT32)
        .addShape(rows).addShape(cols).setData(ByteString.copyFrom(b.array())).build();
  }

  static float[] floats(IndexProtos.Tensor t, String what) {
    if (t.getDataType() != IndexProtos.Tensor.DataType.FLOAT32) {
      throw new VectorIndexException(what + " is a " + t.getDataType() + " tensor; Javelin reads FLOAT32 only");
    }
    ByteBuffer b = t.getData().asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
    float[] out = new float[b.remaining() / 4];
    b.asFloatBuffer().get(out);
    return out;
  }

  /** Reads both files of the index in {@code dir}. */
  static Contents read(ObjectStore store, String dir, BufferAllocator allocator) throws IOException {
    String indexKey = dir + "/" + INDEX_FILE;
    String auxKey = dir + "/" + AUX_FILE;
    float[] centroids;
    DistanceType distance;
    double loss;
    try (LanceFileReader r = LanceFileReader.open(store.open(indexKey), allocator)) {
      Map<String, String> meta = r.lanceSchema().metadata();
      String type = meta.get("lance:index");
      JsonNode index = json(type, "lance:index", r.location());
      String kind = index.path("type").isTextual() ? index.get("type").textValue() : null;
      if (!"IVF_PQ".equals(kind)) {
        throw new UnsupportedIndexKindException(kind == null ? "unknown" : kind, "Index file " + r.location()
            + " is not an IVF_PQ index (lance:index=" + type + ")");
      }
      JsonNode dt = index.get("distance_type");
      distance = dt != null && dt.isTextual() ? DistanceType.fromName(dt.textValue()) : DistanceType.L2;
      IndexProtos.IVF ivf = ivf(r, meta);
      centroids = ivf.hasCentroidsTensor() ? floats(ivf.getCentroidsTensor(), "IVF centroids of " + r.location())
          : toArray(ivf.getCentroidsList());
      loss = ivf.hasLoss() ? ivf.getLoss() : 0;
    }
    try (LanceFileReader r = LanceFileReader.open(store.open(auxKey), allocator)) {
      Map<String, String> meta = r.lanceSchema().metadata();
      // A JSON list holding one JSON document per sub-index as a string (Lance's form), or the document.
      JsonNode storage = json(meta.get("storage_metadata"), "storage_metadata", r.location());
      if (storage.isArray() && storage.size() > 0 && storage.get(0).isTextual()) {
        storage = json(storage.get(0).textValue(), "storage_metadata", r.location());
      }
      int position = intOf(storage, "codebook_position", r.location());
      int m = intOf(storage, "num_sub_vectors", r.location());
      int bits = intOf(storage, "nbits", r.location());
      JsonNode transposed = storage.get("transposed");
      if (bits != 8) {
        throw new UnsupportedIndexKindException("IVF_PQ (" + bits + "-bit codes)", "Index file " + r.location()
            + " has " + bits + "-bit PQ codes; Javelin reads 8-bit codes only");
      }
      if (transposed == null || !transposed.isBoolean() || !transposed.booleanValue()) {
        throw new VectorIndexException("Index file " + r.location() + " stores PQ codes untransposed; "
            + "Javelin reads the transposed layout only");
      }
      IndexProtos.IVF layout = ivf(r, meta);
      IndexProtos.Tensor cb;
      try {
        cb = IndexProtos.Tensor.parseFrom(r.readGlobalBuffer(position));
      } catch (InvalidProtocolBufferException e) {
        throw new VectorIndexException("Codebook of " + r.location() + " is not a Tensor message", e);
      }
      float[] codebook = floats(cb, "PQ codebook of " + r.location());
      int dim = codebook.length / ProductQuantizer.CENTROIDS;
      if (dim == 0 || centroids.length % dim != 0 || dim % m != 0) {
        throw new VectorIndexException("Index " + dir + " has inconsistent shapes: " + centroids.length
            + " centroid values, " + codebook.length + " codebook values, " + m + " sub-vectors");
      }
      int p = layout.getOffsetsCount();
      long[] offsets = new long[p];
      int[] lengths = new int[p];
      for (int i = 0; i < p; i++) {
        offsets[i] = layout.getOffsets(i);
        lengths[i] = layout.getLengths(i);
      }
      if (p != centroids.length / dim) {
        throw new VectorIndexException("Index " + dir + " has " + centroids.length / dim + " centroids but "
            + p + " partitions in " + r.location());
      }
      int rows = (int) r.numRows();
      long[] rowIds = new long[rows];
      byte[] codes = new byte[rows * m];
      int at = 0;
      try (ArrowReader in = r.read(ReadOptions.builder().columns(List.of(ROW_ID, PQ_CODE)).batchSize(65536).build())) {
        while (in.loadNextBatch()) {
          VectorSchemaRoot b = in.getVectorSchemaRoot();
          int n = b.getRowCount();
          UInt8Vector ids = (UInt8Vector) b.getVector(0);
          FixedSizeListVector fsl = (FixedSizeListVector) b.getVector(1);
          for (int i = 0; i < n; i++) {
            rowIds[at + i] = ids.get(i);
          }
          fsl.getDataVector().getDataBuffer().getBytes(0, codes, at * m, n * m);
          at += n;
        }
      }
      boolean dot = distance == DistanceType.DOT;
      IvfPqModel model = new IvfPqModel(dim, centroids, new ProductQuantizer(dim, m, codebook, dot), distance, loss);
      return new Contents(model, offsets, lengths, rowIds, codes);
    }
  }

  private static IndexProtos.IVF ivf(LanceFileReader r, Map<String, String> meta) throws IOException {
    String pos = meta.get("lance:ivf");
    if (pos == null) {
      throw new VectorIndexException("Index file " + r.location() + " has no lance:ivf metadata");
    }
    try {
      return IndexProtos.IVF.parseFrom(r.readGlobalBuffer(Integer.parseInt(pos.trim())));
    } catch (InvalidProtocolBufferException | NumberFormatException e) {
      throw new VectorIndexException("IVF metadata of " + r.location() + " is not valid", e);
    }
  }

  // A JSON document of the files' schema metadata; absent means empty.
  private static JsonNode json(String text, String key, String location) {
    if (text == null || text.isBlank()) {
      return Json.object();
    }
    try {
      JsonNode n = Json.tree(text);
      // A document some writers store JSON-encoded once more, as a string.
      return n.isTextual() ? Json.tree(n.textValue()) : n;
    } catch (JsonProcessingException e) {
      throw new VectorIndexException("Index file " + location + " has " + key + " that is not JSON", e);
    }
  }

  private static int intOf(JsonNode n, String field, String location) {
    JsonNode v = n.get(field);
    if (v == null || !v.isIntegralNumber() || !v.canConvertToInt()) {
      throw new VectorIndexException("Index file " + location + " lacks " + field + " in storage_metadata");
    }
    return v.intValue();
  }

  private static float[] toArray(List<Float> list) {
    float[] out = new float[list.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = list.get(i);
    }
    return out;
  }

  static List<String> fileNames() {
    return new ArrayList<>(List.of(INDEX_FILE, AUX_FILE));
  }
}
