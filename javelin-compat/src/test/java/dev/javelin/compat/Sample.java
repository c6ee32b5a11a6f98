package dev.javelin.compat;

import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One generated case: a schema, its rows, and how they are cut into batches, all from one seed.
 * Its {@link #describe} goes into every failure message, so a failure can be replayed from it.
 */
final class Sample implements AutoCloseable {
  final long seed;
  final RandomData data;
  final Schema schema;
  final int rows;
  final int batchRows;
  final Table expected;

  private Sample(long seed, RandomData data, Schema schema, int rows, int batchRows, Table expected) {
    this.seed = seed;
    this.data = data;
    this.schema = schema;
    this.rows = rows;
    this.batchRows = batchRows;
    this.expected = expected;
  }

  /** Generates a case; {@code fieldMetadata}, when not empty, is put on every field. */
  static Sample generate(long seed, RandomData.Profile profile, Map<String, String> fieldMetadata,
      BufferAllocator allocator) {
    RandomData data = new RandomData(seed, profile);
    Schema schema = data.schema();
    if (!fieldMetadata.isEmpty()) {
      schema = RandomData.withMetadata(schema, fieldMetadata);
    }
    int rows = data.rowCount();
    int batchRows = 1 + data.random().nextInt(Math.max(1, rows));
    Sample sample = new Sample(seed, data, schema, rows, batchRows, Table.of(data.root(schema, rows, allocator)));
    LanceOracle.currentCase(sample.describe());
    return sample;
  }

  static Sample generate(long seed, RandomData.Profile profile, BufferAllocator allocator) {
    return generate(seed, profile, Map.of(), allocator);
  }

  /** The rows cut into batches of {@link #batchRows}; the caller closes them. */
  List<VectorSchemaRoot> batches() {
    return Table.slices(expected.batches().get(0), batchRows);
  }

  /** Seed, profile, rows, batch size and schema, for failure messages. */
  String describe() {
    return "seed=" + seed + "L, profile " + data.profile() + ", " + rows + " rows in batches of " + batchRows
        + ", schema: " + RandomData.describe(schema);
  }

  @Override
  public void close() {
    expected.close();
  }
}
