package dev.javelin.format.schema;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * One field of a Lance schema: a name, a field id, a logical type and, for structs, lists and
 * maps, child fields. A fixed-size list has no child field in Lance; its item type is part of the
 * logical type string. A map ({@code "map"}) has one child, a non-null struct of its entries
 * holding a non-null {@code key} and a {@code value}, as lance-core 7.0.0 records it. Immutable.
 */
public final class LanceField {
  /** The item field name Lance gives the child of a fixed-size list. */
  public static final String FIXED_SIZE_LIST_ITEM = "item";

  private final int id;
  private final String name;
  private final String logicalType;
  private final boolean nullable;
  private final List<LanceField> children;
  private final Map<String, String> metadata;

  public LanceField(
      int id,
      String name,
      String logicalType,
      boolean nullable,
      List<LanceField> children,
      Map<String, String> metadata) {
    this.id = id;
    this.name = Objects.requireNonNull(name, "name");
    this.logicalType = Objects.requireNonNull(logicalType, "logicalType");
    this.nullable = nullable;
    this.children = List.copyOf(children);
    this.metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
  }

  public int id() {
    return id;
  }

  public String name() {
    return name;
  }

  public String logicalType() {
    return logicalType;
  }

  public boolean nullable() {
    return nullable;
  }

  public List<LanceField> children() {
    return children;
  }

  public Map<String, String> metadata() {
    return metadata;
  }

  public boolean isStruct() {
    return logicalType.equals("struct");
  }

  /**
   * A variable-size list (list, large_list, and their ".struct" forms), or a map, which Lance
   * stores as a list of its entries.
   */
  public boolean isList() {
    return logicalType.startsWith("list") || logicalType.startsWith("large_list") || isMap();
  }

  /** A map: a list of entries structs of a key and a value (Arrow's {@code Map}). */
  public boolean isMap() {
    return logicalType.equals("map");
  }

  public boolean isLargeList() {
    return logicalType.startsWith("large_list");
  }

  public boolean isFixedSizeList() {
    return logicalType.startsWith("fixed_size_list:");
  }

  /** For a fixed-size list, the number of items per value. */
  public int fixedSizeListSize() {
    checkFixedSizeList();
    String size = logicalType.substring(logicalType.lastIndexOf(':') + 1);
    try {
      int n = Integer.parseInt(size);
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("Invalid fixed-size list type '" + logicalType + "' of field '" + name + "'");
  }

  /** For a fixed-size list, the logical type of its items. */
  public String fixedSizeListItemType() {
    checkFixedSizeList();
    int last = logicalType.lastIndexOf(':');
    if (last <= "fixed_size_list:".length()) {
      throw new IllegalArgumentException("Invalid fixed-size list type '" + logicalType + "' of field '" + name + "'");
    }
    return logicalType.substring("fixed_size_list:".length(), last);
  }

  private void checkFixedSizeList() {
    if (!isFixedSizeList()) {
      throw new IllegalStateException("Field '" + name + "' is not a fixed-size list");
    }
  }

  /** The Arrow field this Lance field stands for, children included. */
  public Field toArrow() {
    Map<String, String> md = metadata.isEmpty() ? null : metadata;
    if (isStruct()) {
      List<Field> kids = new ArrayList<>();
      for (LanceField c : children) {
        kids.add(c.toArrow());
      }
      return new Field(name, new FieldType(nullable, ArrowType.Struct.INSTANCE, null, md), kids);
    }
    if (isMap()) {
      if (children.size() != 1 || !children.get(0).isStruct() || children.get(0).children().size() != 2) {
        throw new IllegalArgumentException("Map field '" + name + "' (id " + id
            + ") must have one child, a struct of a key and a value; has " + children);
      }
      return new Field(name, new FieldType(nullable, new ArrowType.Map(false), null, md),
          List.of(children.get(0).toArrow()));
    }
    if (isList()) {
      ArrowType t = isLargeList() ? ArrowType.LargeList.INSTANCE : ArrowType.List.INSTANCE;
      if (children.size() != 1) {
        throw new IllegalArgumentException(
            "List field '" + name + "' (id " + id + ") must have exactly one child, has " + children.size());
      }
      return new Field(name, new FieldType(nullable, t, null, md), List.of(children.get(0).toArrow()));
    }
    if (isFixedSizeList()) {
      Field item = itemField(fixedSizeListItemType());
      return new Field(
          name,
          new FieldType(nullable, new ArrowType.FixedSizeList(fixedSizeListSize()), null, md),
          List.of(item));
    }
    return new Field(name, new FieldType(nullable, LogicalTypes.parsePrimitive(logicalType), null, md), null);
  }

  private static Field itemField(String itemType) {
    if (itemType.startsWith("fixed_size_list:")) {
      LanceField inner = new LanceField(-1, FIXED_SIZE_LIST_ITEM, itemType, true, List.of(), Map.of());
      return inner.toArrow();
    }
    return new Field(
        FIXED_SIZE_LIST_ITEM, FieldType.nullable(LogicalTypes.parsePrimitive(itemType)), null);
  }

  /**
   * Converts an Arrow field, giving it and its descendants ids in pre-order from {@code nextId}.
   *
   * @param nextId a one-element counter, advanced past the ids used
   */
  public static LanceField fromArrow(Field field, int[] nextId) {
    int id = nextId[0]++;
    String logical = LogicalTypes.of(field);
    List<LanceField> kids = new ArrayList<>();
    ArrowType.ArrowTypeID t = field.getType().getTypeID();
    if (t == ArrowType.ArrowTypeID.Struct
        || t == ArrowType.ArrowTypeID.List
        || t == ArrowType.ArrowTypeID.LargeList
        || t == ArrowType.ArrowTypeID.Map) {
      for (Field c : field.getChildren()) {
        kids.add(fromArrow(c, nextId));
      }
    }
    Map<String, String> md = field.getMetadata() == null ? Map.of() : field.getMetadata();
    return new LanceField(id, field.getName(), logical, field.isNullable(), kids, md);
  }

  /** Pre-order list of this field and its descendants. */
  public List<LanceField> flatten() {
    List<LanceField> out = new ArrayList<>();
    flattenInto(out);
    return out;
  }

  void flattenInto(List<LanceField> out) {
    out.add(this);
    for (LanceField c : children) {
      c.flattenInto(out);
    }
  }

  /** The field's metadata as the bytes a protobuf Field stores. */
  Map<String, byte[]> metadataBytes() {
    Map<String, byte[]> out = new LinkedHashMap<>();
    metadata.forEach((k, v) -> out.put(k, v.getBytes(StandardCharsets.UTF_8)));
    return out;
  }

  LanceField withChildren(List<LanceField> kids) {
    return new LanceField(id, name, logicalType, nullable, kids, metadata);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof LanceField)) {
      return false;
    }
    LanceField f = (LanceField) o;
    return id == f.id
        && nullable == f.nullable
        && name.equals(f.name)
        && logicalType.equals(f.logicalType)
        && children.equals(f.children)
        && metadata.equals(f.metadata);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, name, logicalType, nullable, children);
  }

  @Override
  public String toString() {
    return name + ":" + logicalType + "#" + id + (nullable ? "" : " not null")
        + (children.isEmpty() ? "" : children.toString());
  }
}
