package dev.javelin.format.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.format.proto.FileProtos;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class LanceSchemaTest {
  private static Field leaf(String name, ArrowType type) {
    return new Field(name, FieldType.nullable(type), null);
  }

  private static Field node(String name, ArrowType type, Field... kids) {
    return new Field(name, FieldType.nullable(type), List.of(kids));
  }

  @Test
  void assignsIdsDepthFirstLikeLance() {
    Schema arrow = new Schema(List.of(
        leaf("a", new ArrowType.Int(32, true)),
        node("s", ArrowType.Struct.INSTANCE, leaf("x", ArrowType.Utf8.INSTANCE),
            node("l", ArrowType.List.INSTANCE, leaf("item", new ArrowType.Int(64, true)))),
        node("v", new ArrowType.FixedSizeList(4), leaf("item", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE))),
        leaf("b", ArrowType.Bool.INSTANCE)));
    LanceSchema schema = LanceSchema.fromArrow(arrow);
    assertThat(schema.flatten()).extracting(LanceField::name).containsExactly("a", "s", "x", "l", "item", "v", "b");
    assertThat(schema.flatten()).extracting(LanceField::id).containsExactly(0, 1, 2, 3, 4, 5, 6);
    assertThat(schema.flatten()).extracting(LanceField::logicalType)
        .containsExactly("int32", "struct", "string", "list", "int64", "fixed_size_list:float:4", "bool");
  }

  @Test
  void namesEveryPrimitiveTypeAsLanceDoes() {
    Map<ArrowType, String> cases = Map.ofEntries(
        Map.entry(new ArrowType.Int(8, true), "int8"),
        Map.entry(new ArrowType.Int(16, false), "uint16"),
        Map.entry(new ArrowType.Int(64, false), "uint64"),
        Map.entry(new ArrowType.FloatingPoint(FloatingPointPrecision.HALF), "halffloat"),
        Map.entry(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE), "double"),
        Map.entry(new ArrowType.Decimal(38, 10, 128), "decimal:128:38:10"),
        Map.entry(ArrowType.LargeUtf8.INSTANCE, "large_string"),
        Map.entry(ArrowType.LargeBinary.INSTANCE, "large_binary"),
        Map.entry(ArrowType.Binary.INSTANCE, "binary"),
        Map.entry(new ArrowType.Date(DateUnit.DAY), "date32:day"),
        Map.entry(new ArrowType.Date(DateUnit.MILLISECOND), "date64:ms"),
        Map.entry(new ArrowType.Time(TimeUnit.MILLISECOND, 32), "time32:ms"),
        Map.entry(new ArrowType.Time(TimeUnit.NANOSECOND, 64), "time64:ns"),
        Map.entry(new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC"), "timestamp:us:UTC"),
        Map.entry(new ArrowType.Timestamp(TimeUnit.SECOND, null), "timestamp:s:-"),
        Map.entry(new ArrowType.Timestamp(TimeUnit.NANOSECOND, "+05:30"), "timestamp:ns:+05:30"),
        Map.entry(new ArrowType.FixedSizeBinary(16), "fixed_size_binary:16"));
    cases.forEach((type, name) -> {
      assertThat(LogicalTypes.ofPrimitive(type)).isEqualTo(name);
      assertThat(LogicalTypes.parsePrimitive(name)).isEqualTo(type);
    });
  }

  @Test
  void roundTripsThroughProtobufAndArrow() {
    Schema arrow = new Schema(List.of(
        node("ll", ArrowType.LargeList.INSTANCE,
            node("item", ArrowType.Struct.INSTANCE, leaf("p", new ArrowType.Int(16, true)))),
        node("v", new ArrowType.FixedSizeList(128), leaf("item", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE))),
        new Field("req", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null)),
        Map.of("k", "v"));
    LanceSchema schema = LanceSchema.fromArrow(arrow);
    FileProtos.Schema proto = schema.toProto();
    assertThat(proto.getFieldsList()).extracting(FileProtos.Field::getParentId).containsExactly(-1, 0, 1, -1, -1);
    assertThat(proto.getFieldsList()).extracting(FileProtos.Field::getLogicalType)
        .containsExactly("large_list.struct", "struct", "int16", "fixed_size_list:float:128", "string");
    LanceSchema back = LanceSchema.fromProto(proto.getFieldsList(), proto.getMetadataMap());
    assertThat(back).isEqualTo(schema);
    assertThat(back.toArrow()).isEqualTo(arrow);
  }

  @Test
  void rejectsUnknownLogicalTypesAndOrphanFields() {
    FileProtos.Field bad = FileProtos.Field.newBuilder().setName("x").setId(0).setParentId(-1)
        .setLogicalType("tensor:9").build();
    assertThatThrownBy(() -> LanceSchema.fromProto(List.of(bad), Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Unknown Lance logical type 'tensor:9'");
    FileProtos.Field orphan = FileProtos.Field.newBuilder().setName("y").setId(3).setParentId(7)
        .setLogicalType("int32").build();
    assertThatThrownBy(() -> LanceSchema.fromProto(List.of(orphan), Map.of()))
        .hasMessage("Field 'y' (id 3) names unknown parent id 7");
  }

  @Test
  void rejectsArrowTypesLanceCannotName() {
    Field union = new Field("u", FieldType.nullable(new ArrowType.Union(
        org.apache.arrow.vector.types.UnionMode.Sparse, new int[] {0})), List.of(leaf("a", ArrowType.Utf8.INSTANCE)));
    assertThatThrownBy(() -> LanceSchema.fromArrow(new Schema(List.of(union))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Lance has no logical type for Arrow type Union");
  }

  /** A map is recorded as lance-core 7.0.0 records it: "map" (PLAIN), a non-null entries struct, key, value. */
  @Test
  void mapsAsLanceRecordsThem() {
    Field entries = new Field("entries", FieldType.notNullable(ArrowType.Struct.INSTANCE), List.of(
        new Field("key", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null), leaf("value", new ArrowType.Int(32, true))));
    Schema arrow = new Schema(List.of(new Field("m", FieldType.nullable(new ArrowType.Map(false)), List.of(entries))));
    LanceSchema schema = LanceSchema.fromArrow(arrow);
    assertThat(schema.flatten()).extracting(f -> f.name() + ":" + f.logicalType() + ":" + f.nullable())
        .containsExactly("m:map:true", "entries:struct:false", "key:string:false", "value:int32:true");
    assertThat(schema.fields().get(0).isMap()).isTrue();
    FileProtos.Schema proto = schema.toProto();
    assertThat(proto.getFields(0).getEncoding()).isEqualTo(FileProtos.Encoding.PLAIN);
    assertThat(proto.getFields(1).getEncoding()).isEqualTo(FileProtos.Encoding.NONE);
    LanceSchema back = LanceSchema.fromProto(proto.getFieldsList(), proto.getMetadataMap());
    assertThat(back).isEqualTo(schema);
    assertThat(back.toArrow()).isEqualTo(arrow);

    Schema sorted = new Schema(List.of(new Field("m", FieldType.nullable(new ArrowType.Map(true)), List.of(entries))));
    assertThatThrownBy(() -> LanceSchema.fromArrow(sorted)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Map field 'm' has keys_sorted=true, which Lance does not support (lance-core 7.0.0 refuses it too)");
  }
}
