package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.ScanPlan;
import dev.javelin.core.exceptions.ExpressionTooDeepException;
import dev.javelin.core.expr.Expression;
import dev.javelin.index.IndexType;
import dev.javelin.testing.TestAllocator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Long OR chains, IN lists and AND chains through scans, counts and the BTree index. */
class LongFilterScanTest {
  static final Schema SCHEMA = new Schema(List.of(
      new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      Field.nullable("s", ArrowType.Utf8.INSTANCE)));
  static final int ROWS = 30_000;

  @TempDir Path dir;
  @TestAllocator RootAllocator allocator;
  Dataset indexed;
  Dataset plain;

  @BeforeEach
  void open() {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
    root.allocateNew();
    BigIntVector id = (BigIntVector) root.getVector("id");
    VarCharVector s = (VarCharVector) root.getVector("s");
    for (int r = 0; r < ROWS; r++) {
      id.setSafe(r, r);
      s.setSafe(r, ("s" + r).getBytes(StandardCharsets.UTF_8));
    }
    root.setRowCount(ROWS);
    WriteParams p = WriteParams.builder().maxRowsPerFile(10_000).build();
    plain = Dataset.create(dir.resolve("plain"), List.of(root), p, allocator);
    indexed = Dataset.create(dir.resolve("indexed"), List.of(root), p, allocator)
        .createIndex("id", IndexType.BTREE);
    root.close();
  }

  private static List<Long> values(int n, long seed) {
    Random rnd = new Random(seed);
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add((long) rnd.nextInt(2 * ROWS) - ROWS / 2);
    }
    return out;
  }

  private static long inRange(Set<Long> set) {
    return set.stream().filter(v -> v >= 0 && v < ROWS).count();
  }

  private void assertCount(String filter, long want) {
    assertThat(indexed.countRows(filter)).isEqualTo(want);
    assertThat(plain.countRows(filter)).isEqualTo(want);
  }

  @Test
  void hundredThousandOrTermsUseTheIndex() {
    List<Long> vs = values(100_000, 1);
    String filter = vs.stream().map(v -> "id = " + v).collect(Collectors.joining(" OR "));
    assertCount(filter, inRange(new HashSet<>(vs)));
    ScanPlan plan = indexed.explain(filter);
    assertThat(plan.usesIndex()).isTrue();
    assertThat(plan.indexedFragments()).hasSize(3);
  }

  @Test
  void hundredThousandValueInListUsesTheIndex() {
    List<Long> vs = values(100_000, 2);
    String list = vs.stream().map(String::valueOf).collect(Collectors.joining(", "));
    Set<Long> set = new HashSet<>(vs);
    assertCount("id IN (" + list + ")", inRange(set));
    assertCount("id NOT IN (" + list + ")", ROWS - inRange(set));
    assertThat(indexed.explain("id IN (" + list + ")").usesIndex()).isTrue();
    // The rows themselves, not only the count.
    List<Long> got = new ArrayList<>();
    try (var r = indexed.newScan().filter("id IN (" + list + ")").columns("id").build()) {
      while (r.loadNextBatch()) {
        BigIntVector v = (BigIntVector) r.getVectorSchemaRoot().getVector("id");
        for (int i = 0; i < v.getValueCount(); i++) {
          got.add(v.get(i));
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    assertThat(got).isEqualTo(set.stream().filter(v -> v >= 0 && v < ROWS).sorted().toList());
  }

  @Test
  void tenThousandAndTermsUseTheIndexForTheirRange() {
    List<Long> vs = values(10_000, 3);
    String filter = "id >= 5000 AND " + vs.stream().map(v -> "id != " + v).collect(Collectors.joining(" AND "));
    Set<Long> set = new HashSet<>(vs);
    long want = 0;
    for (long r = 5000; r < ROWS; r++) {
      want += set.contains(r) ? 0 : 1;
    }
    assertCount(filter, want);
    assertThat(indexed.explain(filter).usesIndex()).isTrue();
  }

  @Test
  void nestingPastTheLimitFailsTyped() {
    int d = Expression.MAX_DEPTH;
    assertCount("(".repeat(d - 1) + "id = 7" + ")".repeat(d - 1), 1);
    assertThatThrownBy(() -> indexed.countRows("(".repeat(d) + "id = 7" + ")".repeat(d)))
        .isInstanceOf(ExpressionTooDeepException.class);
  }
}
