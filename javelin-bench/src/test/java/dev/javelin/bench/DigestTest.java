package dev.javelin.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.bench.Digest;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The equal-work checksum: every column's values count, batch boundaries and column order do not. */
class DigestTest {
  private final BufferAllocator allocator = new RootAllocator();
  private final List<VectorSchemaRoot> open = new ArrayList<>();

  @AfterEach
  void close() {
    open.forEach(VectorSchemaRoot::close);
    allocator.close();
  }

  private VectorSchemaRoot rows(long first, int count) {
    VectorSchemaRoot root = VectorSchemaRoot.create(BenchData.schema(), allocator);
    BenchData.fill(root, first, count);
    open.add(root);
    return root;
  }

  @Test
  void sameRowsInOtherBatchesGiveTheSameDigest() {
    VectorSchemaRoot all = rows(0, 100);
    Digest whole = Digest.of(List.of(all));
    VectorSchemaRoot head = all.slice(0, 37);
    VectorSchemaRoot tail = all.slice(37, 63);
    open.add(head);
    open.add(tail);
    Digest split = Digest.of(List.of(head, tail));
    Digest reversed = Digest.of(List.of(tail, head));
    assertThat(split).isEqualTo(whole);
    assertThat(reversed).isEqualTo(whole);
    assertThat(whole.rows()).isEqualTo(100);
  }

  @Test
  void columnOrderDoesNotMatter() {
    VectorSchemaRoot root = rows(0, 50);
    List<FieldVector> vectors = new ArrayList<>(root.getFieldVectors());
    java.util.Collections.reverse(vectors);
    VectorSchemaRoot reordered = new VectorSchemaRoot(vectors);
    assertThat(Digest.of(reordered, true)).isEqualTo(Digest.of(root, true));
  }

  @Test
  void aChangedValueInAnyColumnChangesTheDigest() {
    Digest before = Digest.of(rows(0, 50), true);
    VectorSchemaRoot name = rows(0, 50);
    ((VarCharVector) name.getVector("name")).setSafe(17, "someone-else".getBytes());
    assertThat(Digest.of(name, true)).isNotEqualTo(before);
    VectorSchemaRoot vector = rows(0, 50);
    Float4Vector items = (Float4Vector) ((FixedSizeListVector) vector.getVector("vector")).getDataVector();
    items.set(17 * BenchData.DIMENSION + 5, items.get(17 * BenchData.DIMENSION + 5) + 1e-3f);
    assertThat(Digest.of(vector, true)).isNotEqualTo(before);
    VectorSchemaRoot nulled = rows(0, 50);
    nulled.getVector("score").setNull(3);
    assertThat(Digest.of(nulled, true)).isNotEqualTo(before);
  }

  @Test
  void aMissingOrExtraRowChangesTheDigest() {
    VectorSchemaRoot rows = rows(0, 100);
    Digest all = Digest.of(List.of(rows));
    VectorSchemaRoot fewer = rows.slice(0, 99);
    VectorSchemaRoot one = rows.slice(5, 1);
    open.add(fewer);
    open.add(one);
    assertThat(Digest.of(List.of(fewer))).isNotEqualTo(all);
    assertThat(Digest.of(List.of(rows, one))).isNotEqualTo(all);
  }

  @Test
  void equalWorkFailsOnAMismatchAndNamesBothSides() {
    Digest a = Digest.of(rows(0, 10), true);
    Digest b = Digest.of(rows(1, 10), true);
    assertThat(EqualWork.check("scan", a, Digest.of(rows(0, 10), true))).isEqualTo(a);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> EqualWork.check("scan", a, b))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("Unequal work in scan")
        .hasMessageContaining(a.toString()).hasMessageContaining(b.toString());
  }
}
