package dev.javelin.core.compaction;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.format.schema.LanceField;
import dev.javelin.table.Fragment;
import dev.javelin.table.proto.TableProtos;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The repack planner's rules on hand-made fragment metadata (no data needed): V2.0 struct headers,
 * blobs, legacy files. Schema: id(0) s(1) st(2){x(3) y(4)} a(5) b(6) blob(7).
 */
class RepackPlannerTest {
  static final List<LanceField> SCHEMA = List.of(
      leaf(0, "id"), leaf(1, "s"),
      new LanceField(2, "st", "struct", true, List.of(leaf(3, "x"), leaf(4, "y")), Map.of()),
      leaf(5, "a"), leaf(6, "b"),
      new LanceField(7, "blob", "binary", true, List.of(), Map.of("lance-encoding:blob", "true")));

  static LanceField leaf(int id, String name) {
    return new LanceField(id, name, "int64", true, List.of(), Map.of());
  }

  /** A fragment of 2.0 files; {@code files[i]} lists field ids, {@code sizes[i]} the file size. */
  static FragmentColumns fragment(int major, long[] sizes, int[]... files) {
    TableProtos.DataFragment.Builder b = TableProtos.DataFragment.newBuilder().setId(7).setPhysicalRows(10);
    for (int i = 0; i < files.length; i++) {
      TableProtos.DataFile.Builder d = TableProtos.DataFile.newBuilder().setPath("f" + i + ".lance")
          .setFileMajorVersion(major).setFileMinorVersion(major == 2 ? 0 : 3).setFileSizeBytes(sizes[i]);
      for (int k = 0; k < files[i].length; k++) {
        d.addFields(files[i][k]).addColumnIndices(k);
      }
      b.addFiles(d);
    }
    return new FragmentColumns(Fragment.fromProto(b.build()), SCHEMA);
  }

  static List<List<Integer>> plan(FragmentColumns fc, Integer max, List<List<String>> groups) {
    return RepackPlanner.plan(fc, max, groups, "test");
  }

  @Test
  void repackIgnoresStructHeaderWithoutChildren() {
    // f2 holds only st's header: it does not hold st, and it goes only with st.
    FragmentColumns fc = fragment(2, new long[] {100, 500, 10, 20, 20}, new int[] {0, 1}, new int[] {2, 3, 4},
        new int[] {2}, new int[] {5}, new int[] {6});
    assertThat(fc.holders.get(2)).extracting(d -> d.path()).containsExactly("f1.lance");
    assertThat(fc.owners.get(2)).extracting(d -> d.path()).containsExactly("f1.lance", "f2.lance");
    assertThat(fc.liveFiles).hasSize(5); // the header-only file counts toward the limit
  }

  @Test
  void repackKeepsTheLargestFileNextToAHeaderOnlyFile() {
    FragmentColumns fc = fragment(2, new long[] {100, 500, 10, 20, 20}, new int[] {0, 1}, new int[] {2, 3, 4},
        new int[] {2}, new int[] {5}, new int[] {6});
    // The largest (st) stays; its header-only file must stay with it; the rest merge.
    assertThat(plan(fc, 3, null)).containsExactly(List.of(0, 1, 5, 6));
  }

  @Test
  void repackMovesAStructWithItsHeader() {
    FragmentColumns fc = fragment(2, new long[] {100, 500, 10, 20, 20}, new int[] {0, 1}, new int[] {2, 3, 4},
        new int[] {2}, new int[] {5}, new int[] {6});
    // Limit 1: every file goes, the header-only one with its struct.
    assertThat(plan(fc, 1, null)).containsExactly(List.of(0, 1, 2, 5, 6));
    // A group with st empties the header-only file and a's file.
    FragmentColumns g = fragment(2, new long[] {500, 10, 20}, new int[] {0, 1, 2, 3, 4}, new int[] {2},
        new int[] {5});
    assertThat(plan(g, null, List.of(List.of("st", "a")))).containsExactly(List.of(2, 5));
  }

  @Test
  void repackMergesOnlyFilesItEmpties() {
    // st is split over two files (partly present): both stay; a and b merge.
    FragmentColumns fc = fragment(2, new long[] {100, 50, 50, 20, 20}, new int[] {0, 1}, new int[] {2, 3},
        new int[] {2, 4}, new int[] {5}, new int[] {6});
    assertThat(fc.pinned).contains(2).doesNotContain(0, 1, 5, 6);
    assertThat(plan(fc, 1, null)).containsExactly(List.of(0, 1, 5, 6));
  }

  @Test
  void repackKeepsTheLargestFileThatSharesAStruct() {
    // The largest file holds st with id; its header-only partner must stay too.
    FragmentColumns fc = fragment(2, new long[] {900, 10, 20, 20}, new int[] {0, 2, 3, 4}, new int[] {2},
        new int[] {5}, new int[] {6});
    assertThat(plan(fc, 2, null)).containsExactly(List.of(5, 6));
  }

  @Test
  void repackPrefersLeavingTheLargestFileInPlace() {
    FragmentColumns fc = fragment(2, new long[] {10, 900, 20}, new int[] {0, 1}, new int[] {5}, new int[] {6});
    assertThat(plan(fc, 2, null)).containsExactly(List.of(0, 1, 6));
  }

  @Test
  void repackPlansNothingForHeaderOnlyFiles() {
    // The struct sits with a blob (left alone): its header-only file cannot go without it.
    FragmentColumns fc = fragment(2, new long[] {900, 10}, new int[] {2, 3, 4, 7}, new int[] {2});
    assertThat(plan(fc, 1, null)).isEmpty();
  }

  @Test
  void repackMergesAroundABlobColumn() {
    FragmentColumns fc = fragment(2, new long[] {100, 900, 20, 20}, new int[] {0, 1}, new int[] {7},
        new int[] {5}, new int[] {6});
    // The blob file stays; every other file merges (nothing needs to stay: not every file could go).
    assertThat(plan(fc, 1, null)).containsExactly(List.of(0, 1, 5, 6));
    assertThat(plan(fc, 3, null)).containsExactly(List.of(0, 1, 5, 6));
  }

  @Test
  void repackSkipsLegacyFiles() {
    FragmentColumns fc = fragment(0, new long[] {100, 20, 20}, new int[] {0, 1}, new int[] {5}, new int[] {6});
    assertThat(plan(fc, 1, null)).isEmpty();
  }

  @Test
  void repackNeverAddsAFileForAGroupThatEmptiesNothing() {
    FragmentColumns fc = fragment(2, new long[] {100, 20}, new int[] {0, 1, 5}, new int[] {6});
    // Moving {a} out of the first file would empty no file.
    assertThat(plan(fc, null, List.of(List.of("a")))).isEmpty();
    assertThat(plan(fc, null, List.of(List.of("nope"), List.of("a", "b")))).containsExactly(List.of(5, 6));
  }
}
