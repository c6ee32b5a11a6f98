package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.exceptions.UnknownColumnException;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class DeleteWhereTest {
  @TempDir
  Path dir;
  @TestAllocator BufferAllocator allocator;

  private Dataset create(LanceFileVersion version) throws Exception {
    try (VectorSchemaRoot root = VectorSchemaRoot.create(new org.apache.arrow.vector.types.pojo.Schema(List.of(
        org.apache.arrow.vector.types.pojo.Field.nullable("id", new org.apache.arrow.vector.types.pojo.ArrowType.Int(64, true)),
        org.apache.arrow.vector.types.pojo.Field.nullable("name", org.apache.arrow.vector.types.pojo.ArrowType.Utf8.INSTANCE))),
        allocator)) {
      BigIntVector id = (BigIntVector) root.getVector("id");
      VarCharVector name = (VarCharVector) root.getVector("name");
      root.allocateNew();
      for (int i = 0; i < 100; i++) {
        id.setSafe(i, i);
        if (i % 10 != 0) {
          name.setSafe(i, ("n" + i).getBytes());
        }
      }
      root.setRowCount(100);
      return Dataset.create(dir.resolve("ds"), List.of(root),
          WriteParams.builder().fileVersion(version).maxRowsPerFile(30).build(), allocator);
    }
  }

  private List<Long> ids(Dataset ds) throws Exception {
    List<Long> out = new ArrayList<>();
    try (ArrowReader r = ds.newScan().columns("id").build()) {
      while (r.loadNextBatch()) {
        BigIntVector v = (BigIntVector) r.getVectorSchemaRoot().getVector(0);
        for (int i = 0; i < v.getValueCount(); i++) {
          out.add(v.get(i));
        }
      }
    }
    return out;
  }

  @ParameterizedTest
  @EnumSource(names = {"V2_0", "V2_1"})
  void deletesWhatTheFilterSelectsAndRecordsIt(LanceFileVersion version) throws Exception {
    Dataset ds = create(version);
    Dataset after = ds.delete("id >= 25 AND id < 65 OR name IS NULL");
    List<Long> expected = new ArrayList<>();
    for (long i = 0; i < 100; i++) {
      if (!((i >= 25 && i < 65) || i % 10 == 0)) {
        expected.add(i);
      }
    }
    assertThat(ids(after)).isEqualTo(expected);
    assertThat(after.countRows()).isEqualTo(expected.size());
    assertThat(after.version()).isEqualTo(2);
    // Fragment 1 (rows 30..59) is wholly deleted and dropped.
    assertThat(after.manifest().fragments()).extracting(f -> f.id()).containsExactly(0L, 2L, 3L);
    assertThat(after.versions().get(1).operation()).isEqualTo("Delete");
    assertThat(Dataset.open(dir.resolve("ds"), allocator).countRows("id < 30")).isEqualTo(22);

    // Nothing matches: nothing is committed.
    assertThat(after.delete("id > 1000").version()).isEqualTo(2);
  }

  @Test
  void deletesAcrossBatchesInFragmentsWithAndWithoutEarlierDeletions() throws Exception {
    int rows = 20_000;
    Dataset ds;
    try (VectorSchemaRoot root = VectorSchemaRoot.create(new org.apache.arrow.vector.types.pojo.Schema(List.of(
        org.apache.arrow.vector.types.pojo.Field.nullable("id", new org.apache.arrow.vector.types.pojo.ArrowType.Int(64, true)))),
        allocator)) {
      BigIntVector id = (BigIntVector) root.getVector("id");
      root.allocateNew();
      for (int i = 0; i < rows; i++) {
        id.setSafe(i, i);
      }
      root.setRowCount(rows);
      // Fragments of 12,000 and 8,000 rows: more than one scan batch each.
      ds = Dataset.create(dir.resolve("big"), List.of(root),
          WriteParams.builder().maxRowsPerFile(12_000).build(), allocator);
    }
    // Only fragment 0 has deleted rows before the second delete.
    Dataset after = ds.delete("id = 5 OR id = 9000").delete("id % 7 = 3");
    List<Long> expected = new ArrayList<>();
    for (long i = 0; i < rows; i++) {
      if (i != 5 && i != 9000 && i % 7 != 3) {
        expected.add(i);
      }
    }
    assertThat(ids(after)).isEqualTo(expected);
    assertThat(after.version()).isEqualTo(3);
  }

  @ParameterizedTest
  @EnumSource(names = {"V2_1"})
  void badFiltersChangeNothing(LanceFileVersion version) throws Exception {
    Dataset ds = create(version);
    assertThatThrownBy(() -> ds.delete("nope = 1"))
        .isInstanceOf(UnknownColumnException.class)
        .hasMessage("Filter 'nope = 1' names column 'nope' which the dataset does not have");
    assertThat(ds.checkoutLatest().version()).isEqualTo(1);
  }
}
