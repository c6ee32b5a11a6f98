package dev.javelin.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;

/** The radix-sort orders and ranks against a plain comparison sort. */
class ClusterOrderTest {

  @Provide
  Arbitrary<long[]> keys() {
    Arbitrary<Long> any = Arbitraries.longs();
    Arbitrary<Long> few = Arbitraries.longs().between(-3, 3);
    Arbitrary<Long> edges = Arbitraries.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L, 1L << 40);
    // Spans up to 55 bits: with up to 300 positions (9 bits) the key and its position just fit
    // in one word, the packed sort's limit.
    Arbitrary<Long> packedLimit = Arbitraries.longs().between(-(1L << 54), (1L << 54) - 1);
    return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(2, any), net.jqwik.api.Tuple.of(2, few),
        net.jqwik.api.Tuple.of(1, edges), net.jqwik.api.Tuple.of(2, packedLimit))
        .array(long[].class).ofMaxSize(300);
  }

  @Property(tries = 300)
  void sortedPositionsIsAStableSortBySignedValue(@ForAll("keys") long[] keys) {
    int[] got = DenseRanks.sortedPositions(keys, keys.length);
    assertThat(got).containsExactly(naiveOrder(keys));
  }

  @Property(tries = 300)
  void ranksAreDenseRanksOfTheSignedValues(@ForAll("keys") long[] keys) {
    KeyColumn.Ranked r = DenseRanks.of(keys, keys.length);
    long[] distinct = Arrays.stream(keys).sorted().distinct().toArray();
    assertThat(r.distinct()).isEqualTo(distinct.length);
    for (int i = 0; i < keys.length; i++) {
      assertThat(r.ranks()[i]).isEqualTo(Arrays.binarySearch(distinct, keys[i]));
    }
  }

  @Property(tries = 200)
  void countingOrderKeepsRowOrderForEqualRanks(@ForAll("keys") long[] keys,
      @ForAll @IntRange(min = 1, max = 50) int target) {
    KeyColumn.Ranked r = DenseRanks.of(keys, keys.length);
    assertThat(DenseRanks.order(r.ranks(), r.distinct())).containsExactly(naiveOrder(keys));
    int[] dest = Destinations.inOrder(DenseRanks.order(r.ranks(), r.distinct()), target);
    int[] naive = new int[keys.length];
    int[] order = naiveOrder(keys);
    for (int p = 0; p < order.length; p++) {
      naive[order[p]] = p / target;
    }
    assertThat(dest).containsExactly(naive);
  }

  @Property(tries = 200)
  void aKeyColumnOrdersIntegersWithNullsLast(@ForAll("keys") long[] keys, @ForAll long nullSeed) {
    try (BufferAllocator a = new RootAllocator(); BigIntVector v = new BigIntVector("k", a)) {
      v.allocateNew(keys.length);
      List<Integer> rows = new ArrayList<>();
      for (int i = 0; i < keys.length; i++) {
        if (((nullSeed >>> (i % 64)) & 1) == 1 && i % 3 == 0) {
          v.setNull(i);
        } else {
          v.set(i, keys[i]);
        }
        rows.add(i);
      }
      v.setValueCount(keys.length);
      KeyColumn ordered = new KeyColumn(KeyColumn.Kind.INTEGER, 4);
      ordered.append(v, keys.length);
      KeyColumn ranked = new KeyColumn(KeyColumn.Kind.INTEGER, 4);
      ranked.append(v, keys.length);
      rows.sort(Comparator.<Integer, Boolean>comparing(v::isNull).thenComparing(i -> v.isNull(i) ? 0 : v.get(i)));
      assertThat(ordered.order()).containsExactly(rows.stream().mapToInt(Integer::intValue).toArray());
      KeyColumn.Ranked r = ranked.rank();
      assertThat(DenseRanks.order(r.ranks(), r.distinct()))
          .containsExactly(rows.stream().mapToInt(Integer::intValue).toArray());
    }
  }

  @Property(tries = 100)
  void floatsOrderAsDoubleCompare(@ForAll("doubles") double[] values) {
    try (BufferAllocator a = new RootAllocator(); Float8Vector v = new Float8Vector("f", a)) {
      v.allocateNew(values.length);
      for (int i = 0; i < values.length; i++) {
        v.set(i, values[i]);
      }
      v.setValueCount(values.length);
      KeyColumn c = new KeyColumn(KeyColumn.Kind.FLOAT, 4);
      c.append(v, values.length);
      Integer[] rows = new Integer[values.length];
      for (int i = 0; i < rows.length; i++) {
        rows[i] = i;
      }
      Arrays.sort(rows, (x, y) -> Double.compare(values[x], values[y])); // stable
      assertThat(c.order()).containsExactly(Arrays.stream(rows).mapToInt(Integer::intValue).toArray());
    }
  }

  @Provide
  Arbitrary<double[]> doubles() {
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(3, Arbitraries.doubles()),
        net.jqwik.api.Tuple.of(1, Arbitraries.of(0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY, Double.MIN_VALUE, -Double.MAX_VALUE)))
        .array(double[].class).ofMaxSize(200);
  }

  private static int[] naiveOrder(long[] keys) {
    Integer[] rows = new Integer[keys.length];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = i;
    }
    Arrays.sort(rows, (x, y) -> Long.compare(keys[x], keys[y])); // merge sort: stable
    return Arrays.stream(rows).mapToInt(Integer::intValue).toArray();
  }
}
