package dev.javelin.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.format.schema.LanceSchema;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** Pages shrink under a small heap so that every column's page buffer fits in an eighth of it. */
class PagesForHeapTest {
  // Five leaf columns: a top-level int, a string, and a struct of three.
  private static final LanceSchema SCHEMA = LanceSchema.fromArrow(new Schema(List.of(
      Field.nullable("id", new ArrowType.Int(64, true)),
      Field.nullable("name", ArrowType.Utf8.INSTANCE),
      new Field("s", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
          Field.nullable("a", new ArrowType.Int(32, true)),
          Field.nullable("b", new ArrowType.Int(32, true)),
          Field.nullable("c", ArrowType.Utf8.INSTANCE))))));

  private static long pageBytes(long heap) {
    return LanceFileWriter.withPagesForHeap(WriteOptions.defaults(), SCHEMA, heap).maxPageBytes();
  }

  @Test
  void aLargeHeapKeepsTheAskedForPagesASmallOneShrinksThem() {
    assertThat(pageBytes(8L << 30)).isEqualTo(WriteOptions.DEFAULT_MAX_PAGE_BYTES);
    assertThat(pageBytes(64L << 20)).isEqualTo((64L << 20) / 8 / 5);
    assertThat(pageBytes(1L << 20)).isEqualTo(LanceFileWriter.MIN_PAGE_BYTES);
    WriteOptions small = WriteOptions.builder().maxPageBytes(4096).build();
    assertThat(LanceFileWriter.withPagesForHeap(small, SCHEMA, 64L << 20)).isSameAs(small);
  }
}
