package dev.javelin.index.internal.scalar;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.index.internal.btree.ScalarQuery;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.Test;

class ZonesTest {
  @Test
  void zonesEndAfterTheirRowsOrAtAFragmentsEndAndSpanDeletedRows() {
    List<long[]> zones = new ArrayList<>();
    ZoneCutter cutter = new ZoneCutter(3, (f, start, length) -> zones.add(new long[] {f, start, length}));
    // Fragment 0: offsets 0, 2, 3 (1 deleted), 4, 5; fragment 1: offset 7.
    for (long a : new long[] {0, 2, 3, 4, 5, (1L << 32) + 7}) {
      cutter.place(a);
    }
    cutter.flush();
    assertThat(zones).containsExactly(new long[] {0, 0, 4}, new long[] {0, 4, 2}, new long[] {1, 7, 1});
  }

  @Test
  void aZoneMayMatchOnlyWhereItsBoundsAllow() {
    ArrowType i64 = new ArrowType.Int(64, true);
    QueryLiterals lt = QueryLiterals.of(ScalarQuery.lessThan(10L), i64);
    assertThat(lt.mayMatch(10L, 20L, 0)).isFalse();
    assertThat(lt.mayMatch(9L, 20L, 0)).isTrue();
    QueryLiterals in = QueryLiterals.of(ScalarQuery.in(List.of(1L, 50L)), i64);
    assertThat(in.mayMatch(2L, 49L, 0)).isFalse();
    assertThat(in.mayMatch(2L, 50L, 0)).isTrue();
    QueryLiterals isNull = QueryLiterals.of(ScalarQuery.isNull(), i64);
    assertThat(isNull.mayMatch(null, null, 3)).isTrue();
    assertThat(isNull.mayMatch(1L, 2L, 0)).isFalse();
    assertThat(QueryLiterals.of(ScalarQuery.equalTo(1L), i64).mayMatch(null, null, 3)).isFalse();
    // Strings compare by code point, as UTF-8 bytes do.
    QueryLiterals gt = QueryLiterals.of(ScalarQuery.greaterThan("\uFFFF"), ArrowType.Utf8.INSTANCE);
    assertThat(gt.mayMatch("a", "\uD83D\uDE00", 0)).isTrue();
  }

  @Test
  void selectKeepsTheRowsOfTheZonesItAccepts() {
    Zones z = new Zones();
    z.add(0, 0, 10);
    z.add(0, 10, 10);
    z.add(2, 5, 3);
    ScalarSearch s = z.select(i -> i != 1);
    assertThat(s.zones()).isEqualTo(3);
    assertThat(s.zonesSkipped()).isEqualTo(1);
    assertThat(s.rowsSkipped()).isEqualTo(10);
    assertThat(s.rows().getLongCardinality()).isEqualTo(13);
    assertThat(s.rows().contains((2L << 32) + 7)).isTrue();
    assertThat(s.rows().contains((2L << 32) + 8)).isFalse();
  }
}
