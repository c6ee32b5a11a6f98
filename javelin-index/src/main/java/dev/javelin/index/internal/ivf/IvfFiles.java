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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The two files every IVF index without a graph has (Lance's v3 layout) under
 * {@code _indices/{uuid}/}, whatever its sub-index stores per row:
 *
 * <ul>
 *   <li>{@code index.idx}: no rows ({@code __flat_marker: uint64}); metadata {@code lance:index}
 *       (kind and distance), {@code lance:flat} (one empty string per partition) and
 *       {@code lance:ivf} naming global buffer 1, an IVF message with the centroid tensor.
 *   <li>{@code auxiliary.idx}: {@code _rowid: uint64} and one {@code fixed_size_list} column of
 *       the sub-index's per-row record (PQ codes, the vectors themselves, SQ codes), rows grouped
 *       by partition; global buffer 1 is an IVF message with each partition's first row and
 *       length; {@code storage_metadata} is a list of one JSON document describing the storage,
 *       and further global buffers hold what that document names (the PQ codebook).
 * </ul>
 *
 * Records are handled as raw little-endian bytes, {@code bytesPerRow} a row, so that the
 * partition bookkeeping (grouping, carrying rows over, remapping) is written once for all kinds.
 */
final class IvfFiles {
  static final String INDEX_FILE = "index.idx";
  static final String AUX_FILE = "auxiliary.idx";
  static final String ROW_ID = "_rowid";
  private static final int BATCH = 8192;

  private IvfFiles() {}

  /**
   * What index.idx says: the kind as Lance names it, the distance, the centroids (row-major,
   * {@code dim} values each; dim 0 when the tensor does not give its shape) and k-means loss.
   */
  record Header(String kind, DistanceType distance, float[] centroids, int dim, double loss) {}

  /**
   * What auxiliary.idx holds: the storage document, the partition layout, row ids and records
   * ({@code bytesPerRow} each, in file order), the record column's list width, and the global
   * buffer the storage document names (null when none is asked for).
   */
  record Aux(JsonNode storage, long[] offsets, int[] lengths, long[] rowIds, byte[] records, int width,
      ByteBuffer extra) {}

  /** The record column: its name, element type and element width in bytes, and whether the list is nullable. */
  record Column(String name, ArrowType element, int elementBytes, boolean nullable) {
    Field field(int width) {
      Field item = new Field("item", FieldType.nullable(element), null);
      FieldType type = nullable ? FieldType.nullable(new ArrowType.FixedSizeList(width))
          : FieldType.notNullable(new ArrowType.FixedSizeList(width));
      return new Field(name, type, List.of(item));
    }
  }

  /** The kind index.idx of the index in {@code dir} names (e.g. {@code IVF_FLAT}). */
  static Header readHeader(ObjectStore store, String dir, BufferAllocator allocator) throws IOException {
    try (LanceFileReader r = LanceFileReader.open(store.open(dir + "/" + INDEX_FILE), allocator)) {
      Map<String, String> meta = r.lanceSchema().metadata();
      String type = meta.get("lance:index");
      JsonNode index = json(type, "lance:index", r.location());
      String kind = index.path("type").isTextual() ? index.get("type").textValue() : null;
      if (kind == null) {
        throw new UnsupportedIndexKindException("unknown", "Index file " + r.location()
            + " does not name its kind (lance:index=" + type + ")");
      }
      JsonNode dt = index.get("distance_type");
      DistanceType distance = dt != null && dt.isTextual() ? DistanceType.fromName(dt.textValue()) : DistanceType.L2;
      if (!meta.containsKey("lance:ivf")) {
        throw new UnsupportedIndexKindException(kind, "Index file " + r.location() + " (" + kind
            + ") is not an IVF index");
      }
      IndexProtos.IVF ivf = ivf(r, meta);
      float[] centroids = ivf.hasCentroidsTensor()
          ? floats(ivf.getCentroidsTensor(), "IVF centroids of " + r.location())
          : toArray(ivf.getCentroidsList());
      int dim = ivf.hasCentroidsTensor() && ivf.getCentroidsTensor().getShapeCount() == 2
          ? (int) ivf.getCentroidsTensor().getShape(1) : 0;
      if (ivf.hasCentroidsTensor() && (dim < 1 || centroids.length % dim != 0)) {
        throw new VectorIndexException("Index file " + r.location() + " has " + centroids.length
            + " centroid values in a tensor of shape " + ivf.getCentroidsTensor().getShapeList());
      }
      return new Header(kind, distance, centroids, dim, ivf.hasLoss() ? ivf.getLoss() : 0);
    }
  }

  /**
   * Reads auxiliary.idx of the index in {@code dir}: the record column {@code column}, and the
   * global buffer {@code extraBuffer} picks from the storage document (-1: none).
   */
  static Aux readAux(ObjectStore store, String dir, Column column, ToIntFunction<JsonNode> extraBuffer,
      BufferAllocator allocator) throws IOException {
    try (LanceFileReader r = LanceFileReader.open(store.open(dir + "/" + AUX_FILE), allocator)) {
      Map<String, String> meta = r.lanceSchema().metadata();
      // A JSON list holding one JSON document per sub-index as a string (Lance's form), or the document.
      JsonNode storage = json(meta.get("storage_metadata"), "storage_metadata", r.location());
      if (storage.isArray() && storage.size() > 0 && storage.get(0).isTextual()) {
        storage = json(storage.get(0).textValue(), "storage_metadata", r.location());
      }
      IndexProtos.IVF layout = ivf(r, meta);
      int p = layout.getOffsetsCount();
      long[] offsets = new long[p];
      int[] lengths = new int[p];
      for (int i = 0; i < p; i++) {
        offsets[i] = layout.getOffsets(i);
        lengths[i] = layout.getLengths(i);
      }
      Field field = r.schema().getFields().stream().filter(f -> f.getName().equals(column.name())).findFirst()
          .orElseThrow(() -> new VectorIndexException("Index file " + r.location() + " has no column "
              + column.name()));
      if (!(field.getType() instanceof ArrowType.FixedSizeList fsl)
          || !field.getChildren().get(0).getType().equals(column.element())) {
        throw new VectorIndexException("Column " + column.name() + " of " + r.location() + " is "
            + field.getType() + "<" + field.getChildren() + ">, not fixed_size_list<" + column.element() + ">");
      }
      int width = fsl.getListSize();
      int bytesPerRow = width * column.elementBytes();
      int position = extraBuffer.applyAsInt(storage);
      ByteBuffer extra = position < 0 ? null : r.readGlobalBuffer(position);
      long rows = r.numRows();
      if (rows * bytesPerRow > Integer.MAX_VALUE - 16) {
        throw new VectorIndexException("Index file " + r.location() + " too large to search in memory: "
            + rows * bytesPerRow + " bytes of " + column.name());
      }
      long[] rowIds = new long[(int) rows];
      byte[] records = new byte[(int) rows * bytesPerRow];
      int at = 0;
      try (ArrowReader in = r.read(ReadOptions.builder().columns(List.of(ROW_ID, column.name())).batchSize(65536)
          .build())) {
        while (in.loadNextBatch()) {
          VectorSchemaRoot b = in.getVectorSchemaRoot();
          int n = b.getRowCount();
          UInt8Vector ids = (UInt8Vector) b.getVector(0);
          FixedSizeListVector values = (FixedSizeListVector) b.getVector(1);
          for (int i = 0; i < n; i++) {
            rowIds[at + i] = ids.get(i);
          }
          values.getDataVector().getDataBuffer().getBytes(0, records, at * bytesPerRow, n * bytesPerRow);
          at += n;
        }
      }
      return new Aux(storage, offsets, lengths, rowIds, records, width, extra);
    }
  }

  /** Writes index.idx: the kind, the distance and the centroids ({@code p x dim}). */
  static void writeHeader(ObjectStore store, String dir, String kind, DistanceType distance, float[] centroids,
      int dim, double loss) throws IOException {
    int p = centroids.length / dim;
    Schema indexSchema = new Schema(List.of(
        new Field("__flat_marker", FieldType.notNullable(new ArrowType.Int(64, false)), null)),
        indexMetadata(kind, p, distance.lanceName()));
    IndexProtos.IVF.Builder ivf = IndexProtos.IVF.newBuilder().setCentroidsTensor(tensor(centroids, p, dim))
        .setLoss(loss);
    for (int i = 0; i < p; i++) {
      ivf.addOffsets(0).addLengths(0);
    }
    try (LanceFileWriter w = LanceFileWriter.create(store.newOutputFile(dir + "/" + INDEX_FILE), indexSchema,
        WriteOptions.defaults())) {
      w.addGlobalBuffer(ByteBuffer.wrap(ivf.build().toByteArray()));
    }
  }

  /**
   * Writes auxiliary.idx: {@code rowIds} and {@code records} ({@code width} elements a row) grouped
   * by partition as {@code offsets}/{@code lengths} say, the storage document, and further global
   * buffers (numbered from 2).
   */
  static void writeAux(ObjectStore store, String dir, DistanceType distance, Column column, int width,
      long[] offsets, int[] lengths, long[] rowIds, byte[] records, String storage, List<ByteBuffer> extra,
      BufferAllocator allocator) throws IOException {
    Schema auxSchema = new Schema(List.of(
        new Field(ROW_ID, FieldType.nullable(new ArrowType.Int(64, false)), null), column.field(width)),
        auxMetadata(distance.lanceName(), storage));
    IndexProtos.IVF.Builder layout = IndexProtos.IVF.newBuilder();
    for (int i = 0; i < offsets.length; i++) {
      layout.addOffsets(offsets[i]).addLengths(lengths[i]);
    }
    int bytesPerRow = width * column.elementBytes();
    try (LanceFileWriter w = LanceFileWriter.create(store.newOutputFile(dir + "/" + AUX_FILE), auxSchema,
        WriteOptions.defaults());
        VectorSchemaRoot root = VectorSchemaRoot.create(auxSchema, allocator)) {
      w.addGlobalBuffer(ByteBuffer.wrap(layout.build().toByteArray()));
      for (ByteBuffer b : extra) {
        w.addGlobalBuffer(b);
      }
      UInt8Vector ids = (UInt8Vector) root.getVector(0);
      FixedSizeListVector fsl = (FixedSizeListVector) root.getVector(1);
      for (int start = 0; start < rowIds.length; start += BATCH) {
        int n = Math.min(BATCH, rowIds.length - start);
        root.clear();
        ids.allocateNew(n);
        fsl.setInitialCapacity(n);
        fsl.allocateNew();
        BaseFixedWidthVector values = (BaseFixedWidthVector) fsl.getDataVector();
        values.allocateNew(n * width);
        for (int i = 0; i < n; i++) {
          ids.set(i, rowIds[start + i]);
          fsl.setNotNull(i);
        }
        for (int i = 0; i < n * width; i++) {
          values.setIndexDefined(i);
        }
        values.getDataBuffer().setBytes(0, records, start * bytesPerRow, (long) n * bytesPerRow);
        values.setValueCount(n * width);
        root.setRowCount(n);
        w.write(root);
      }
    }
  }

  /** The sizes in bytes of index.idx and auxiliary.idx, in that order. */
  static long[] sizes(ObjectStore store, String dir) throws IOException {
    return new long[] {size(store, dir + "/" + INDEX_FILE), size(store, dir + "/" + AUX_FILE)};
  }

  /**
   * index.idx's schema metadata: {@code lance:index} (kind and distance), {@code lance:ivf} (the
   * IVF message's global buffer) and {@code lance:flat} (one empty string per partition).
   */
  static Map<String, String> indexMetadata(String kind, int partitions, String distance) {
    ObjectNode index = Json.object().put("type", kind).put("distance_type", distance);
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
   * global buffer) and {@code storage_metadata}, a list of one JSON string (the storage document),
   * as Lance writes it.
   */
  static Map<String, String> auxMetadata(String distance, String storage) {
    Map<String, String> meta = new HashMap<>();
    meta.put("distance_type", distance);
    meta.put("lance:ivf", "1");
    meta.put("storage_metadata", Json.write(Json.array().add(storage)));
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

  /** Little-endian float32 records as floats. */
  static float[] floats(byte[] records) {
    float[] out = new float[records.length / 4];
    ByteBuffer.wrap(records).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(out);
    return out;
  }

  /** Floats as little-endian float32 records. */
  static byte[] bytes(float[] values, int from, int count) {
    ByteBuffer b = ByteBuffer.allocate(count * 4).order(ByteOrder.LITTLE_ENDIAN);
    b.asFloatBuffer().put(values, from, count);
    return b.array();
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
  static JsonNode json(String text, String key, String location) {
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

  static int intOf(JsonNode n, String field, String location) {
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
}
