package dev.javelin.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.format.proto.FileProtos;
import dev.javelin.table.proto.TableProtos;
import java.util.List;
import org.junit.jupiter.api.Test;

class SchemaChangesTest {
  private static List<FileProtos.Field> schema(int... ids) {
    List<FileProtos.Field> out = new java.util.ArrayList<>();
    for (int id : ids) {
      out.add(FileProtos.Field.newBuilder().setId(id).setName("f" + id).build());
    }
    return out;
  }

  private static TableProtos.DataFile file(String path, List<Integer> fields) {
    TableProtos.DataFile.Builder b = TableProtos.DataFile.newBuilder().setPath(path);
    for (int i = 0; i < fields.size(); i++) {
      b.addFields(fields.get(i)).addColumnIndices(i);
    }
    return b.build();
  }

  @Test
  void droppedIdsBecomeTombstonesAndEmptiedFilesLeave() {
    TableProtos.DataFragment f = TableProtos.DataFragment.newBuilder().setId(3).setPhysicalRows(10)
        .addFiles(file("a", List.of(0, 1, 2)))
        .addFiles(file("b", List.of(3, 4)))
        .addFiles(file("c", List.of(5, -2)))
        .setDeletionFile(TableProtos.DeletionFile.newBuilder().setId(9))
        .build();
    List<TableProtos.DataFragment> out = SchemaChanges.tombstone(List.of(f), schema(0, 2, 5));
    TableProtos.DataFragment g = out.get(0);
    assertThat(g.getFilesList()).extracting(TableProtos.DataFile::getPath).containsExactly("a", "c");
    assertThat(g.getFiles(0).getFieldsList()).containsExactly(0, -2, 2);
    assertThat(g.getFiles(0).getColumnIndicesList()).containsExactly(0, 1, 2);
    assertThat(g.getFiles(1).getFieldsList()).containsExactly(5, -2);
    assertThat(g.getId()).isEqualTo(3);
    assertThat(g.getDeletionFile().getId()).isEqualTo(9);
  }

  @Test
  void indicesOnDroppedFieldsGoSystemIndicesStay() {
    IndexMetadata onKept = IndexMetadata.builder().name("k").fields(List.of(0)).build();
    IndexMetadata onDropped = IndexMetadata.builder().name("d").fields(List.of(1)).build();
    IndexMetadata system = IndexMetadata.builder().name("__lance_frag_reuse").build();
    assertThat(SchemaChanges.liveIndices(List.of(onKept, onDropped, system), schema(0, 2)))
        .containsExactly(onKept, system);
  }
}
