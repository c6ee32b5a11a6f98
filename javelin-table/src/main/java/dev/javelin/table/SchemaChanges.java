package dev.javelin.table;

import dev.javelin.format.proto.FileProtos;
import dev.javelin.table.proto.TableProtos;
import dev.javelin.table.stablepartition.StablePartitionEntry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** How a new schema (from a Merge or Project) carries over to the fragments and indices. */
final class SchemaChanges {
  private SchemaChanges() {}

  /**
   * The fragments with every field id the schema no longer has replaced by a tombstone (−2, its
   * column index kept so the other slots still line up); a data file left with only tombstones
   * leaves its fragment.
   */
  static List<TableProtos.DataFragment> tombstone(List<TableProtos.DataFragment> fragments,
      List<FileProtos.Field> schema) {
    Set<Integer> live = ids(schema);
    List<TableProtos.DataFragment> out = new ArrayList<>();
    for (TableProtos.DataFragment f : fragments) {
      TableProtos.DataFragment.Builder b = f.toBuilder().clearFiles();
      for (TableProtos.DataFile d : f.getFilesList()) {
        TableProtos.DataFile.Builder db = d.toBuilder();
        boolean anyLive = false;
        for (int i = 0; i < d.getFieldsCount(); i++) {
          int id = d.getFields(i);
          if (id != DataFile.TOMBSTONE && !live.contains(id)) {
            db.setFields(i, DataFile.TOMBSTONE);
          } else if (id != DataFile.TOMBSTONE) {
            anyLive = true;
          }
        }
        if (anyLive) {
          b.addFiles(db);
        }
      }
      out.add(b.build());
    }
    return out;
  }

  /** The indices whose fields are all still in the schema (indices on no field are system ones). */
  static List<IndexMetadata> liveIndices(List<IndexMetadata> indices, List<FileProtos.Field> schema) {
    Set<Integer> live = ids(schema);
    List<IndexMetadata> out = new ArrayList<>();
    for (IndexMetadata i : indices) {
      if (live.containsAll(i.fields())) {
        out.add(i);
      } else if (i.name().equals(StablePartitionEntry.NAME)) {
        // The entry names a field only so that lance-core tolerates it: it moves to a live one.
        StablePartitionEntry.anchorField(schema).ifPresent(f -> out.add(i.toBuilder().fields(List.of(f)).build()));
      }
    }
    return out;
  }

  private static Set<Integer> ids(List<FileProtos.Field> schema) {
    Set<Integer> out = new HashSet<>();
    for (FileProtos.Field f : schema) {
      out.add(f.getId());
    }
    return out;
  }
}
