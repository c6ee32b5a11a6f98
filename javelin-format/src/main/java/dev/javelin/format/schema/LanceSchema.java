package dev.javelin.format.schema;

import dev.javelin.format.proto.FileProtos;
import com.google.protobuf.ByteString;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/** A Lance schema: top-level fields with field ids, and schema metadata. Immutable. */
public final class LanceSchema {
  private final List<LanceField> fields;
  private final Map<String, String> metadata;
  // Top-level name -> position (the first, if names repeat) and field id -> top-level field, built
  // on first use so lookups in wide schemas stay constant-time. Benign race: both are immutable.
  private Map<String, Integer> positions;
  private Map<Integer, LanceField> topById;

  public LanceSchema(List<LanceField> fields, Map<String, String> metadata) {
    this.fields = List.copyOf(fields);
    this.metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
  }

  /** Converts an Arrow schema, giving fields ids depth-first from 0, as Lance does. */
  public static LanceSchema fromArrow(Schema schema) {
    int[] next = {0};
    List<LanceField> out = new ArrayList<>();
    for (Field f : schema.getFields()) {
      out.add(LanceField.fromArrow(f, next));
    }
    return new LanceSchema(out, schema.getCustomMetadata() == null ? Map.of() : schema.getCustomMetadata());
  }

  public List<LanceField> fields() {
    return fields;
  }

  public Map<String, String> metadata() {
    return metadata;
  }

  public Schema toArrow() {
    List<Field> out = new ArrayList<>();
    for (LanceField f : fields) {
      out.add(f.toArrow());
    }
    return new Schema(out, metadata.isEmpty() ? null : metadata);
  }

  /** A top-level field by name. */
  public Optional<LanceField> field(String name) {
    int i = indexOf(name);
    return i < 0 ? Optional.empty() : Optional.of(fields.get(i));
  }

  /** The position of the top-level field with this name (the first, if names repeat), or -1. */
  public int indexOf(String name) {
    Map<String, Integer> p = positions;
    if (p == null) {
      p = new HashMap<>(fields.size() * 2);
      for (int i = 0; i < fields.size(); i++) {
        p.putIfAbsent(fields.get(i).name(), i);
      }
      positions = p;
    }
    return p.getOrDefault(name, -1);
  }

  /** The top-level field with this field id (nested fields are not looked at), if any. */
  public Optional<LanceField> topLevelField(int id) {
    Map<Integer, LanceField> m = topById;
    if (m == null) {
      m = new HashMap<>(fields.size() * 2);
      for (LanceField f : fields) {
        m.putIfAbsent(f.id(), f);
      }
      topById = m;
    }
    return Optional.ofNullable(m.get(id));
  }

  /** Every field, pre-order. */
  public List<LanceField> flatten() {
    List<LanceField> out = new ArrayList<>();
    for (LanceField f : fields) {
      f.flattenInto(out);
    }
    return out;
  }

  /** The protobuf form: fields in pre-order with parent ids (−1 at top level). */
  public FileProtos.Schema toProto() {
    FileProtos.Schema.Builder b = FileProtos.Schema.newBuilder();
    for (LanceField f : fields) {
      addProto(b, f, -1);
    }
    metadata.forEach((k, v) -> b.putMetadata(k, ByteString.copyFrom(v, StandardCharsets.UTF_8)));
    return b.build();
  }

  private static void addProto(FileProtos.Schema.Builder b, LanceField f, int parentId) {
    FileProtos.Field.Builder fb =
        FileProtos.Field.newBuilder()
            .setName(f.name())
            .setId(f.id())
            .setParentId(parentId)
            .setLogicalType(f.logicalType())
            .setNullable(f.nullable())
            .setEncoding(legacyEncoding(f));
    f.metadataBytes().forEach((k, v) -> fb.putMetadata(k, ByteString.copyFrom(v)));
    b.addFields(fb);
    for (LanceField c : f.children()) {
      addProto(b, c, f.id());
    }
  }

  private static FileProtos.Encoding legacyEncoding(LanceField f) {
    String t = f.logicalType();
    // lance-core 7.0.0 records a map as PLAIN, structs and lists as NONE.
    if ((f.isStruct() || f.isList()) && !f.isMap()) {
      return FileProtos.Encoding.NONE;
    }
    if (t.equals("string") || t.equals("large_string") || t.equals("binary") || t.equals("large_binary")) {
      return FileProtos.Encoding.VAR_BINARY;
    }
    return FileProtos.Encoding.PLAIN;
  }

  /**
   * Builds a schema from the protobuf form.
   *
   * @throws IllegalArgumentException if a parent id names no earlier field, or a type is unknown
   */
  public static LanceSchema fromProto(List<FileProtos.Field> protos, Map<String, ByteString> metadata) {
    // Children are collected first, then fields built bottom-up, because LanceField is immutable.
    Map<Integer, List<Integer>> childIds = new LinkedHashMap<>();
    Map<Integer, FileProtos.Field> byId = new HashMap<>();
    List<Integer> top = new ArrayList<>();
    for (FileProtos.Field p : protos) {
      if (byId.containsKey(p.getId())) {
        throw new IllegalArgumentException("Duplicate field id " + p.getId() + " in schema");
      }
      byId.put(p.getId(), p);
      childIds.put(p.getId(), new ArrayList<>());
      if (p.getParentId() == -1) {
        top.add(p.getId());
      } else {
        List<Integer> siblings = childIds.get(p.getParentId());
        if (siblings == null) {
          throw new IllegalArgumentException(
              "Field '" + p.getName() + "' (id " + p.getId() + ") names unknown parent id " + p.getParentId());
        }
        siblings.add(p.getId());
      }
    }
    List<LanceField> fields = new ArrayList<>();
    for (int id : top) {
      fields.add(build(id, byId, childIds, 0));
    }
    Map<String, String> md = new LinkedHashMap<>();
    metadata.forEach((k, v) -> md.put(k, v.toStringUtf8()));
    return new LanceSchema(fields, md);
  }

  private static LanceField build(
      int id, Map<Integer, FileProtos.Field> byId, Map<Integer, List<Integer>> childIds, int depth) {
    if (depth > 64) {
      throw new IllegalArgumentException("Schema nests deeper than 64 levels");
    }
    FileProtos.Field p = byId.get(id);
    List<LanceField> kids = new ArrayList<>();
    for (int c : childIds.get(id)) {
      kids.add(build(c, byId, childIds, depth + 1));
    }
    Map<String, String> md = new LinkedHashMap<>();
    p.getMetadataMap().forEach((k, v) -> md.put(k, v.toStringUtf8()));
    LanceField f = new LanceField(p.getId(), p.getName(), p.getLogicalType(), p.getNullable(), kids, md);
    // Validate the type now, so a bad schema fails on open rather than on first read.
    f.toArrow();
    return f;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LanceSchema
        && fields.equals(((LanceSchema) o).fields)
        && metadata.equals(((LanceSchema) o).metadata);
  }

  @Override
  public int hashCode() {
    return fields.hashCode();
  }

  @Override
  public String toString() {
    return fields.toString();
  }
}
