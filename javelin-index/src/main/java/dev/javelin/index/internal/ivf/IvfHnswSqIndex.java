package dev.javelin.index.internal.ivf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.javelin.common.Json;
import dev.javelin.common.ThreadPools;
import dev.javelin.format.LanceFileReader;
import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.WriteOptions;
import dev.javelin.index.DistanceType;
import dev.javelin.index.exceptions.VectorIndexException;
import dev.javelin.index.proto.IndexProtos;
import dev.javelin.io.ObjectStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * An open IVF_HNSW_SQ index ({@link IvfIndex}): auxiliary.idx is an IVF_SQ storage
 * ({@link IvfSqIndex}), and index.idx holds one HNSW graph per partition: rows
 * {@code __vector_id: uint32} (the node, a row of the partition's storage), {@code __neighbors:
 * list<uint32>} and {@code _distance: list<float32>}, level by level; index.idx's IVF message gives
 * each partition's first graph row and row count, and {@code lance:hnsw} one JSON document per
 * partition with its {@code level_offsets} (the rows of level i are {@code [offsets[i],
 * offsets[i+1])} of the partition's) and build parameters.
 *
 * <p>A partition is searched as lance-core 7.0.0 does: from node 0, a greedy descent through the
 * upper levels, then a beam search of width {@code ef} on level 0, by SQ code distance; rows a
 * search may not return (a prefilter, deleted rows) are walked through but not kept, and a
 * partition of which fewer than a tenth of the rows may be returned is searched flat over the SQ
 * codes of those rows instead (as lance-core, whose walk would miss them). Levels are
 * read as the offsets say (lance-core's offsets leave out node 0's rows of the upper levels, and
 * so does its reader; so does this one, to answer as it does).
 *
 * <p>Built for latency: the graph is held in flat int arrays, distances are computed on the code
 * bytes, the heaps hold primitive longs, and the visited set is a per-thread array of stamps
 * reused from search to search.
 */
public final class IvfHnswSqIndex extends IvfIndex {
  static final String KIND = "IVF_HNSW_SQ";
  private final ScalarQuantizer sq;
  private final byte[] codes;
  // Per partition: its levels; level 0 of node g (global) is l0[l0Start[g] .. l0Start[g + 1]).
  private final int[] levels;
  private final int[] l0Start;
  private final int[] l0;
  // Per partition and upper level (1..): the nodes present (ascending) and their neighbours, CSR.
  private final int[][][] upperNodes;
  private final int[][][] upperStart;
  private final int[][][] upper;

  private IvfHnswSqIndex(IvfFiles.Header header, IvfFiles.Aux aux, ScalarQuantizer sq, Graph graph,
      ThreadPools pools) {
    super(aux.width(), header.centroids(), header.distance(), aux.offsets(), aux.lengths(), aux.rowIds(), pools);
    this.sq = sq;
    this.codes = aux.records();
    this.levels = graph.levels;
    this.l0Start = graph.l0Start;
    this.l0 = graph.l0;
    this.upperNodes = graph.upperNodes;
    this.upperStart = graph.upperStart;
    this.upper = graph.upper;
  }

  static IvfHnswSqIndex open(ObjectStore store, String dir, IvfFiles.Header header, BufferAllocator allocator,
      ThreadPools pools) throws IOException {
    IvfFiles.Aux aux = IvfSqIndex.read(store, dir, header, allocator);
    ScalarQuantizer sq = IvfSqIndex.quantizer(aux.storage(), dir);
    Graph graph = readGraph(store, dir, aux, allocator);
    return new IvfHnswSqIndex(header, aux, sq, graph, pools);
  }

  /** The graphs of index.idx, as flat arrays (see the fields). */
  private record Graph(int[] levels, int[] l0Start, int[] l0, int[][][] upperNodes, int[][][] upperStart,
      int[][][] upper) {}

  private static Graph readGraph(ObjectStore store, String dir, IvfFiles.Aux aux, BufferAllocator allocator)
      throws IOException {
    String location = dir + "/" + IvfFiles.INDEX_FILE;
    int p = aux.offsets().length;
    int total = aux.rowIds().length;
    try (LanceFileReader r = LanceFileReader.open(store.open(location), allocator)) {
      JsonNode hnsw = IvfFiles.json(r.lanceSchema().metadata().get("lance:hnsw"), "lance:hnsw", location);
      IndexProtos.IVF ivf;
      try {
        ivf = IndexProtos.IVF.parseFrom(r.readGlobalBuffer(1));
      } catch (InvalidProtocolBufferException e) {
        throw new VectorIndexException("IVF metadata of " + location + " is not valid", e);
      }
      if (!hnsw.isArray() || hnsw.size() != p || ivf.getOffsetsCount() != p) {
        throw new VectorIndexException("Index file " + location + " has " + hnsw.size() + " HNSW graphs and "
            + ivf.getOffsetsCount() + " graph partitions for " + p + " partitions");
      }
      // Every graph row: node and neighbours, in file order.
      int rows = (int) r.numRows();
      int[] node = new int[rows];
      int[] start = new int[rows + 1];
      int[] neighbours = new int[16];
      int at = 0;
      try (ArrowReader in = r.read(ReadOptions.builder().columns(List.of("__vector_id", "__neighbors"))
          .batchSize(65536).build())) {
        while (in.loadNextBatch()) {
          VectorSchemaRoot b = in.getVectorSchemaRoot();
          UInt4Vector ids = (UInt4Vector) b.getVector(0);
          ListVector lists = (ListVector) b.getVector(1);
          UInt4Vector values = (UInt4Vector) lists.getDataVector();
          for (int i = 0; i < b.getRowCount(); i++, at++) {
            node[at] = ids.get(i);
            int from = lists.getElementStartIndex(i);
            int to = lists.getElementEndIndex(i);
            int s = start[at];
            if (neighbours.length < s + (to - from)) {
              neighbours = Arrays.copyOf(neighbours, Math.max(2 * neighbours.length, s + (to - from)));
            }
            for (int j = from; j < to; j++) {
              neighbours[s + j - from] = values.get(j);
            }
            start[at + 1] = s + (to - from);
          }
        }
      }
      int[] levels = new int[p];
      int[] l0Start = new int[total + 1];
      int[][][] upperNodes = new int[p][][];
      int[][][] upperStart = new int[p][][];
      int[][][] upper = new int[p][][];
      // Level 0 of every partition, in node order (a node's list at l0Start[global node]).
      int[] l0Count = new int[total];
      int[][] rowOf = new int[p][];
      for (int part = 0; part < p; part++) {
        JsonNode meta = IvfFiles.json(hnsw.get(part).asText(), "lance:hnsw", location);
        JsonNode offsets = meta.path("level_offsets");
        int n = aux.lengths()[part];
        long graphBase = ivf.getOffsets(part);
        int graphRows = ivf.getLengths(part);
        if (n == 0 || graphRows == 0) {
          levels[part] = 0;
          continue;
        }
        if (!offsets.isArray() || offsets.size() < 2) {
          throw new VectorIndexException("Index file " + location + " has no level_offsets for partition " + part);
        }
        int lv = offsets.size() - 1;
        levels[part] = lv;
        upperNodes[part] = new int[lv][];
        upperStart[part] = new int[lv][];
        upper[part] = new int[lv][];
        int base = (int) aux.offsets()[part];
        rowOf[part] = new int[n];
        Arrays.fill(rowOf[part], -1);
        for (int level = 0; level < lv; level++) {
          int from = offsets.get(level).asInt();
          int to = Math.min(offsets.get(level + 1).asInt(), graphRows);
          if (from > to) {
            throw new VectorIndexException("Index file " + location + " has decreasing level_offsets for partition "
                + part);
          }
          if (level == 0) {
            for (int row = from; row < to; row++) {
              int g = (int) graphBase + row;
              checkNode(node[g], n, location);
              rowOf[part][node[g]] = g;
              l0Count[base + node[g]] = start[g + 1] - start[g];
            }
          } else {
            int[] nodes = new int[to - from];
            int[] st = new int[to - from + 1];
            int size = 0;
            for (int row = from; row < to; row++) {
              size += start[(int) graphBase + row + 1] - start[(int) graphBase + row];
            }
            int[] list = new int[size];
            for (int row = from, i = 0; row < to; row++, i++) {
              int g = (int) graphBase + row;
              checkNode(node[g], n, location);
              nodes[i] = node[g];
              int len = start[g + 1] - start[g];
              System.arraycopy(neighbours, start[g], list, st[i], len);
              st[i + 1] = st[i] + len;
            }
            upperNodes[part][level] = nodes;
            upperStart[part][level] = st;
            upper[part][level] = list;
          }
        }
      }
      for (int g = 0; g < total; g++) {
        l0Start[g + 1] = l0Start[g] + l0Count[g];
      }
      int[] l0 = new int[l0Start[total]];
      for (int part = 0; part < p; part++) {
        if (rowOf[part] == null) {
          continue;
        }
        int base = (int) aux.offsets()[part];
        for (int v = 0; v < rowOf[part].length; v++) {
          int g = rowOf[part][v];
          if (g >= 0) {
            System.arraycopy(neighbours, start[g], l0, l0Start[base + v], start[g + 1] - start[g]);
          }
        }
      }
      return new Graph(levels, l0Start, l0, upperNodes, upperStart, upper);
    }
  }

  /** Lance's HNSW build parameters (its defaults: m 20, ef_construction 150, 7 levels). */
  public record HnswParams(int m, int efConstruction, int maxLevel) {
    public static final HnswParams DEFAULTS = new HnswParams(20, 150, 7);

    public HnswParams {
      if (m < 2 || efConstruction < 1 || maxLevel < 1) {
        throw new IllegalArgumentException("HNSW needs m >= 2, ef_construction >= 1 and max_level >= 1, got m " + m
            + ", ef_construction " + efConstruction + ", max_level " + maxLevel);
      }
    }

    String json(int[] levelOffsets) {
      ObjectNode doc = Json.object().put("entry_point", 0);
      doc.putObject("params").put("max_level", maxLevel).put("m", m).put("ef_construction", efConstruction)
          .put("prefetch_distance", 2);
      ArrayNode offsets = doc.putArray("level_offsets");
      for (int o : levelOffsets) {
        offsets.add(o);
      }
      return Json.write(doc);
    }
  }

  /** The build parameters the first non-empty partition's graph records (Lance's defaults when none). */
  static HnswParams params(ObjectStore store, String dir, BufferAllocator allocator) throws IOException {
    String location = dir + "/" + IvfFiles.INDEX_FILE;
    try (LanceFileReader r = LanceFileReader.open(store.open(location), allocator)) {
      JsonNode hnsw = IvfFiles.json(r.lanceSchema().metadata().get("lance:hnsw"), "lance:hnsw", location);
      for (JsonNode part : hnsw) {
        JsonNode p = IvfFiles.json(part.asText(), "lance:hnsw", location).path("params");
        if (p.has("m") && p.has("ef_construction") && p.has("max_level")) {
          return new HnswParams(p.get("m").asInt(), p.get("ef_construction").asInt(), p.get("max_level").asInt());
        }
      }
      return HnswParams.DEFAULTS;
    }
  }

  /**
   * Writes index.idx: each partition's graph, level by level (the nodes present, ascending, with
   * their neighbours nearest first), its rows in the IVF message and its levels in
   * {@code lance:hnsw}.
   */
  static void writeIndexFile(ObjectStore store, String dir, DistanceType distance, float[] centroids, int dim,
      double loss, HnswGraphBuilder[] graphs, HnswParams params, BufferAllocator allocator) throws IOException {
    int p = graphs.length;
    Map<String, String> meta = IvfFiles.indexMetadata(KIND, p, distance.lanceName());
    meta.remove("lance:flat");
    ArrayNode docs = Json.array();
    IndexProtos.IVF.Builder ivf = IndexProtos.IVF.newBuilder().setCentroidsTensor(IvfFiles.tensor(centroids, p, dim))
        .setLoss(loss);
    long row = 0;
    for (HnswGraphBuilder g : graphs) {
      int[] levelOffsets = new int[params.maxLevel() + 1];
      int rows = 0;
      for (int l = 0; l < params.maxLevel(); l++) {
        levelOffsets[l] = rows;
        if (g != null) {
          for (int v = 0; v < g.n; v++) {
            rows += g.level[v] >= l ? 1 : 0;
          }
        }
      }
      levelOffsets[params.maxLevel()] = rows;
      docs.add(params.json(levelOffsets));
      ivf.addOffsets(row).addLengths(rows);
      row += rows;
    }
    meta.put("lance:hnsw", Json.write(docs));
    Field item = new Field("item", FieldType.nullable(new ArrowType.Int(32, false)), null);
    Field dist = new Field("item", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)),
        null);
    Schema schema = new Schema(List.of(
        new Field("__vector_id", FieldType.nullable(new ArrowType.Int(32, false)), null),
        new Field("__neighbors", FieldType.nullable(new ArrowType.List()), List.of(item)),
        new Field("_distance", FieldType.nullable(new ArrowType.List()), List.of(dist))), meta);
    try (LanceFileWriter w = LanceFileWriter.create(store.newOutputFile(dir + "/" + IvfFiles.INDEX_FILE), schema,
        WriteOptions.defaults());
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      w.addGlobalBuffer(ByteBuffer.wrap(ivf.build().toByteArray()));
      UInt4Vector ids = (UInt4Vector) root.getVector(0);
      ListVector neighbours = (ListVector) root.getVector(1);
      ListVector distances = (ListVector) root.getVector(2);
      int batch = 0;
      root.allocateNew();
      for (HnswGraphBuilder g : graphs) {
        if (g == null) {
          continue;
        }
        for (int l = 0; l < params.maxLevel(); l++) {
          for (int v = 0; v < g.n; v++) {
            if (g.level[v] < l) {
              continue;
            }
            ids.setSafe(batch, v);
            int from = neighbours.startNewValue(batch);
            distances.startNewValue(batch);
            UInt4Vector nv = (UInt4Vector) neighbours.getDataVector();
            Float4Vector dv = (Float4Vector) distances.getDataVector();
            int count = g.size[v][l];
            for (int j = 0; j < count; j++) {
              nv.setSafe(from + j, g.ids[v][l][j]);
              dv.setSafe(from + j, g.dists[v][l][j]);
            }
            neighbours.endValue(batch, count);
            distances.endValue(batch, count);
            batch++;
            if (batch == 8192) {
              flush(w, root, batch);
              batch = 0;
              root.allocateNew();
            }
          }
        }
      }
      if (batch > 0) {
        flush(w, root, batch);
      }
    }
  }

  private static void flush(LanceFileWriter w, VectorSchemaRoot root, int rows) throws IOException {
    for (int i = 1; i < 3; i++) {
      ListVector list = (ListVector) root.getVector(i);
      list.setValueCount(rows);
      list.getDataVector().setValueCount(list.getOffsetBuffer().getInt((long) rows * 4));
    }
    root.getVector(0).setValueCount(rows);
    root.setRowCount(rows);
    w.write(root);
    root.clear();
  }

  private static void checkNode(int node, int n, String location) {
    if (node < 0 || node >= n) {
      throw new VectorIndexException("Index file " + location + " has node " + node + " in a partition of " + n
          + " rows");
    }
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
  public boolean searchesGraphs() {
    return true;
  }

  /** The query's code, the rows a partition's search keeps, and its width. */
  private record Query(byte[] code, int k, int ef) {}

  @Override
  Object prepare(float[] q, int k, int ef) {
    byte[] code = new byte[dim];
    sq.encode(q, 0, dim, code, 0);
    // Lance's default width: 1.5 times the rows asked; never below them.
    int width = ef > 0 ? ef : k + k / 2;
    return new Query(code, k, Math.max(width, k));
  }

  @Override
  NearestRows scan(Object query, long[] probed, float[] probedDist, AtomicInteger next, int k,
      LongPredicate accept) {
    Query q = (Query) query;
    NearestRows top = new NearestRows(k);
    Scratch s = SCRATCH.get().ensure(maxLength);
    for (int at = next.getAndIncrement(); at < probed.length; at = next.getAndIncrement()) {
      searchPartition(q, (int) probed[at], top, accept, s);
    }
    return top;
  }

  private float distance(byte[] q, int base, int node, float scale, boolean dot) {
    int off = (base + node) * dim;
    return dot ? (1f - ScalarQuantizer.dot(q, codes, off, dim)) * scale : ScalarQuantizer.l2(q, codes, off, dim) * scale;
  }

  private void searchPartition(Query q, int part, NearestRows top, LongPredicate accept, Scratch s) {
    int n = lengths[part];
    if (n == 0 || levels[part] == 0) {
      return;
    }
    int base = (int) offsets[part];
    float scale = sq.distanceScale();
    boolean dot = distanceType == DistanceType.DOT;
    byte[] code = q.code();
    if (accept != null) {
      // As lance-core: when fewer than a tenth of the partition's rows may be returned, a graph
      // walk would pass through mostly rejected nodes and miss accepted ones, so those rows are
      // ranked exactly by their code distances instead. Counting stops once a tenth is reached.
      int threshold = (int) ((long) n * FLAT_PERCENT / 100);
      int[] passing = s.passing;
      int count = 0;
      for (int v = 0; v < n && count < threshold; v++) {
        if (accept.test(rowIds[base + v])) {
          passing[count++] = v;
        }
      }
      if (count < threshold) {
        for (int i = 0; i < count; i++) {
          int v = passing[i];
          float d = distance(code, base, v, scale, dot);
          if (d <= top.bound()) {
            top.offer(d, base + v);
          }
        }
        return;
      }
    }
    // Greedy descent through the upper levels, from node 0.
    int current = 0;
    float closest = distance(code, base, 0, scale, dot);
    for (int level = levels[part] - 1; level >= 1; level--) {
      int[] nodes = upperNodes[part][level];
      int[] st = upperStart[part][level];
      int[] list = upper[part][level];
      while (true) {
        int i = Arrays.binarySearch(nodes, current);
        if (i < 0) {
          break;
        }
        int nextNode = -1;
        for (int j = st[i]; j < st[i + 1]; j++) {
          int nb = list[j];
          if (nb >= n) {
            continue;
          }
          float d = distance(code, base, nb, scale, dot);
          if (d < closest) {
            closest = d;
            nextNode = nb;
          }
        }
        if (nextNode < 0) {
          break;
        }
        current = nextNode;
      }
    }
    // Beam search on level 0.
    int ef = q.ef();
    int stamp = s.nextStamp();
    int[] visited = s.visited;
    LongHeap candidates = s.candidates.reset();
    LongHeap results = s.results.reset();
    visited[current] = stamp;
    candidates.push(NearestRows.key(closest, current));
    if (accept == null || accept.test(rowIds[base + current])) {
      results.push(-NearestRows.key(closest, current));
    }
    while (candidates.size() > 0) {
      long c = candidates.pop();
      float cd = NearestRows.distance(c);
      float furthest = results.size() > 0 ? NearestRows.distance(-results.peek()) : Float.POSITIVE_INFINITY;
      if (cd > furthest && results.size() == ef) {
        break;
      }
      int g = base + NearestRows.row(c);
      for (int j = l0Start[g]; j < l0Start[g + 1]; j++) {
        int nb = l0[j];
        if (nb >= n || visited[nb] == stamp) {
          continue;
        }
        visited[nb] = stamp;
        float d = distance(code, base, nb, scale, dot);
        if (d <= furthest || results.size() < ef) {
          if (accept == null || accept.test(rowIds[base + nb])) {
            long key = NearestRows.key(d, nb);
            if (results.size() < ef) {
              results.push(-key);
            } else if (d < NearestRows.distance(-results.peek())) {
              results.pop();
              results.push(-key);
            }
          }
          candidates.push(NearestRows.key(d, nb));
        }
      }
    }
    // The k nearest of the ef kept.
    int kept = results.size();
    long[] sorted = s.sorted(kept);
    for (int i = 0; i < kept; i++) {
      sorted[i] = -results.pop();
    }
    Arrays.sort(sorted, 0, kept);
    for (int i = 0; i < Math.min(kept, q.k()); i++) {
      top.offer(NearestRows.distance(sorted[i]), base + NearestRows.row(sorted[i]));
    }
  }

  // Below this percentage of a partition's rows accepted, it is searched flat (lance-core's rule).
  static final int FLAT_PERCENT = 10;

  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

  // Per-thread search state, reused: the visited stamps (a node is visited when its stamp is the
  // search's), the two heaps and a sort buffer.
  private static final class Scratch {
    int[] visited = new int[0];
    int[] passing = new int[0];
    int stamp;
    final LongHeap candidates = new LongHeap();
    final LongHeap results = new LongHeap();
    long[] sorted = new long[0];

    Scratch ensure(int nodes) {
      if (visited.length < nodes) {
        visited = new int[nodes];
        passing = new int[nodes];
        stamp = 0;
      }
      return this;
    }

    int nextStamp() {
      if (++stamp == Integer.MAX_VALUE) {
        Arrays.fill(visited, 0);
        stamp = 1;
      }
      return stamp;
    }

    long[] sorted(int n) {
      if (sorted.length < n) {
        sorted = new long[Math.max(n, 2 * sorted.length)];
      }
      return sorted;
    }
  }

  /** A binary min-heap of longs (keys of {@link NearestRows}; negated for a max-heap). */
  static final class LongHeap {
    private long[] a = new long[64];
    private int size;

    LongHeap reset() {
      size = 0;
      return this;
    }

    int size() {
      return size;
    }

    long peek() {
      return a[0];
    }

    void push(long x) {
      if (size == a.length) {
        a = Arrays.copyOf(a, 2 * size);
      }
      int i = size++;
      while (i > 0) {
        int parent = (i - 1) >>> 1;
        if (a[parent] <= x) {
          break;
        }
        a[i] = a[parent];
        i = parent;
      }
      a[i] = x;
    }

    long pop() {
      long top = a[0];
      long x = a[--size];
      int i = 0;
      int half = size >>> 1;
      while (i < half) {
        int child = 2 * i + 1;
        if (child + 1 < size && a[child + 1] < a[child]) {
          child++;
        }
        if (x <= a[child]) {
          break;
        }
        a[i] = a[child];
        i = child;
      }
      if (size > 0) {
        a[i] = x;
      }
      return top;
    }
  }
}
