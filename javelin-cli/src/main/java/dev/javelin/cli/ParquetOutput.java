package dev.javelin.cli;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * Rows as a Parquet file (ZSTD pages): non-nullable columns are required fields, lists and maps
 * the standard LIST and MAP groups, structs groups, timestamps INT64 TIMESTAMP (adjusted to UTC
 * when they have a zone), decimals fixed-length DECIMAL. What {@link ParquetInput} reads back.
 */
final class ParquetOutput implements RowWriter {
  private final Path path;
  private ParquetWriter<Integer> writer;
  private final RowSupport support = new RowSupport();
  private long rows;

  ParquetOutput(Path path) {
    this.path = path;
  }

  @Override
  public void start(Schema schema) throws IOException {
    support.schema = messageType(schema);
    Files.deleteIfExists(path);
    writer = new Builder(path, support)
        .withConf(new PlainParquetConfiguration())
        .withCodecFactory(new ParquetCodecs())
        .withCompressionCodec(CompressionCodecName.ZSTD)
        .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
        .build();
  }

  @Override
  public void write(VectorSchemaRoot batch) throws IOException {
    support.batch = batch;
    for (int i = 0; i < batch.getRowCount(); i++) {
      writer.write(i);
    }
    rows += batch.getRowCount();
  }

  @Override
  public long finish() throws IOException {
    writer.close();
    writer = null;
    return rows;
  }

  @Override
  public void close() throws IOException {
    if (writer != null) {
      writer.close();
    }
  }

  private static final class Builder extends ParquetWriter.Builder<Integer, Builder> {
    private final RowSupport support;

    Builder(Path path, RowSupport support) {
      super(new LocalOutputFile(path));
      this.support = support;
    }

    @Override
    protected Builder self() {
      return this;
    }

    @Override
    protected WriteSupport<Integer> getWriteSupport(org.apache.hadoop.conf.Configuration conf) {
      return support;
    }

    @Override
    protected WriteSupport<Integer> getWriteSupport(ParquetConfiguration conf) {
      return support;
    }
  }

  /** Writes row i of the current batch. */
  private static final class RowSupport extends WriteSupport<Integer> {
    MessageType schema;
    VectorSchemaRoot batch;
    private RecordConsumer out;

    @Override
    public WriteContext init(org.apache.hadoop.conf.Configuration conf) {
      return new WriteContext(schema, new HashMap<>());
    }

    @Override
    public WriteContext init(ParquetConfiguration conf) {
      return new WriteContext(schema, new HashMap<>());
    }

    @Override
    public void prepareForWrite(RecordConsumer recordConsumer) {
      out = recordConsumer;
    }

    @Override
    public void write(Integer row) {
      out.startMessage();
      List<FieldVector> vectors = batch.getFieldVectors();
      for (int f = 0; f < vectors.size(); f++) {
        field(vectors.get(f), row, vectors.get(f).getName(), f);
      }
      out.endMessage();
    }

    private void field(ValueVector v, int i, String name, int index) {
      if (v.isNull(i)) {
        return;
      }
      out.startField(name, index);
      value(v, i);
      out.endField(name, index);
    }

    private void value(ValueVector v, int i) {
      switch (v.getMinorType()) {
        case BIT:
          out.addBoolean(((BitVector) v).get(i) != 0);
          return;
        case TINYINT:
        case SMALLINT:
        case INT:
        case UINT1:
        case UINT2:
        case UINT4:
          out.addInteger((int) ((BaseIntVector) v).getValueAsLong(i));
          return;
        case BIGINT:
        case UINT8:
          out.addLong(((BaseIntVector) v).getValueAsLong(i));
          return;
        case FLOAT2: {
          short bits = ((Float2Vector) v).get(i);
          out.addBinary(Binary.fromConstantByteArray(new byte[] {(byte) bits, (byte) (bits >> 8)}));
          return;
        }
        case FLOAT4:
          out.addFloat(((Float4Vector) v).get(i));
          return;
        case FLOAT8:
          out.addDouble(((Float8Vector) v).get(i));
          return;
        case VARCHAR:
        case LARGEVARCHAR:
        case VARBINARY:
        case LARGEVARBINARY:
        case FIXEDSIZEBINARY: {
          byte[] b = v instanceof FixedSizeBinaryVector ? ((FixedSizeBinaryVector) v).get(i)
              : (byte[]) bytes(v, i);
          out.addBinary(Binary.fromConstantByteArray(b));
          return;
        }
        case DECIMAL:
        case DECIMAL256: {
          BigDecimal d = (BigDecimal) v.getObject(i);
          int width = v.getMinorType() == org.apache.arrow.vector.types.Types.MinorType.DECIMAL ? 16 : 32;
          out.addBinary(Binary.fromConstantByteArray(twosComplement(d, width)));
          return;
        }
        case DATEDAY:
          out.addInteger(((DateDayVector) v).get(i));
          return;
        case DATEMILLI:
          out.addInteger(Math.toIntExact(Math.floorDiv(((DateMilliVector) v).get(i), 86_400_000L)));
          return;
        case TIMESEC:
          out.addInteger(((TimeSecVector) v).get(i) * 1000);
          return;
        case TIMEMILLI:
          out.addInteger(((TimeMilliVector) v).get(i));
          return;
        case TIMEMICRO:
          out.addLong(((TimeMicroVector) v).get(i));
          return;
        case TIMENANO:
          out.addLong(((TimeNanoVector) v).get(i));
          return;
        case TIMESTAMPSEC:
        case TIMESTAMPSECTZ:
          out.addLong(Math.multiplyExact(((TimeStampVector) v).get(i), 1000L));
          return;
        case TIMESTAMPMILLI:
        case TIMESTAMPMICRO:
        case TIMESTAMPNANO:
        case TIMESTAMPMILLITZ:
        case TIMESTAMPMICROTZ:
        case TIMESTAMPNANOTZ:
          out.addLong(((TimeStampVector) v).get(i));
          return;
        case STRUCT: {
          StructVector s = (StructVector) v;
          out.startGroup();
          List<FieldVector> children = s.getChildrenFromFields();
          for (int c = 0; c < children.size(); c++) {
            field(children.get(c), i, children.get(c).getName(), c);
          }
          out.endGroup();
          return;
        }
        case MAP: {
          MapVector m = (MapVector) v;
          StructVector entries = (StructVector) m.getDataVector();
          int start = m.getElementStartIndex(i);
          int end = m.getElementEndIndex(i);
          out.startGroup();
          if (end > start) {
            out.startField("key_value", 0);
            for (int j = start; j < end; j++) {
              out.startGroup();
              field(entries.getChildrenFromFields().get(0), j, "key", 0);
              field(entries.getChildrenFromFields().get(1), j, "value", 1);
              out.endGroup();
            }
            out.endField("key_value", 0);
          }
          out.endGroup();
          return;
        }
        case LIST:
          list(((ListVector) v).getDataVector(), ((ListVector) v).getElementStartIndex(i),
              ((ListVector) v).getElementEndIndex(i));
          return;
        case LARGELIST:
          list(((LargeListVector) v).getDataVector(), Math.toIntExact(((LargeListVector) v).getElementStartIndex(i)),
              Math.toIntExact(((LargeListVector) v).getElementEndIndex(i)));
          return;
        case FIXED_SIZE_LIST: {
          FixedSizeListVector l = (FixedSizeListVector) v;
          list(l.getDataVector(), i * l.getListSize(), (i + 1) * l.getListSize());
          return;
        }
        default:
          throw new IllegalStateException("No Parquet value for " + v.getField());
      }
    }

    private static Object bytes(ValueVector v, int i) {
      Object o = v.getObject(i);
      return o instanceof byte[] ? o : o.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private void list(ValueVector items, int start, int end) {
      out.startGroup();
      if (end > start) {
        out.startField("list", 0);
        for (int j = start; j < end; j++) {
          out.startGroup();
          field(items, j, "element", 0);
          out.endGroup();
        }
        out.endField("list", 0);
      }
      out.endGroup();
    }
  }

  // A decimal's unscaled value as big-endian two's complement of the given width.
  private static byte[] twosComplement(BigDecimal d, int width) {
    byte[] raw = d.unscaledValue().toByteArray();
    byte[] out = new byte[width];
    byte pad = (byte) (d.signum() < 0 ? 0xff : 0);
    int lead = width - raw.length;
    for (int j = 0; j < lead; j++) {
      out[j] = pad;
    }
    System.arraycopy(raw, 0, out, lead, raw.length);
    return out;
  }

  /**
   * The Parquet schema of an Arrow schema.
   *
   * @throws InvalidInputException naming a column whose type Parquet output cannot hold
   */
  static MessageType messageType(Schema schema) {
    List<Type> fields = new ArrayList<>();
    for (Field f : schema.getFields()) {
      fields.add(type(f, f.getName(), f.getName()));
    }
    return new MessageType("schema", fields);
  }

  private static Type type(Field f, String name, String path) {
    Type.Repetition rep = f.isNullable() ? Type.Repetition.OPTIONAL : Type.Repetition.REQUIRED;
    ArrowType t = f.getType();
    switch (t.getTypeID()) {
      case Bool:
        return Types.primitive(PrimitiveTypeName.BOOLEAN, rep).named(name);
      case Int: {
        ArrowType.Int it = (ArrowType.Int) t;
        PrimitiveTypeName p = it.getBitWidth() == 64 ? PrimitiveTypeName.INT64 : PrimitiveTypeName.INT32;
        return Types.primitive(p, rep).as(LogicalTypeAnnotation.intType(it.getBitWidth(), it.getIsSigned())).named(name);
      }
      case FloatingPoint: {
        FloatingPointPrecision p = ((ArrowType.FloatingPoint) t).getPrecision();
        if (p == FloatingPointPrecision.HALF) {
          return Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, rep).length(2)
              .as(LogicalTypeAnnotation.float16Type()).named(name);
        }
        return Types.primitive(p == FloatingPointPrecision.SINGLE ? PrimitiveTypeName.FLOAT : PrimitiveTypeName.DOUBLE,
            rep).named(name);
      }
      case Utf8:
      case LargeUtf8:
        return Types.primitive(PrimitiveTypeName.BINARY, rep).as(LogicalTypeAnnotation.stringType()).named(name);
      case Binary:
      case LargeBinary:
        return Types.primitive(PrimitiveTypeName.BINARY, rep).named(name);
      case FixedSizeBinary:
        return Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, rep)
            .length(((ArrowType.FixedSizeBinary) t).getByteWidth()).named(name);
      case Decimal: {
        ArrowType.Decimal d = (ArrowType.Decimal) t;
        return Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, rep).length(d.getBitWidth() / 8)
            .as(LogicalTypeAnnotation.decimalType(d.getScale(), d.getPrecision())).named(name);
      }
      case Date:
        return Types.primitive(PrimitiveTypeName.INT32, rep).as(LogicalTypeAnnotation.dateType()).named(name);
      case Time: {
        TimeUnit u = ((ArrowType.Time) t).getUnit();
        if (u == TimeUnit.SECOND || u == TimeUnit.MILLISECOND) {
          return Types.primitive(PrimitiveTypeName.INT32, rep)
              .as(LogicalTypeAnnotation.timeType(false, LogicalTypeAnnotation.TimeUnit.MILLIS)).named(name);
        }
        return Types.primitive(PrimitiveTypeName.INT64, rep).as(LogicalTypeAnnotation.timeType(false,
            u == TimeUnit.MICROSECOND ? LogicalTypeAnnotation.TimeUnit.MICROS : LogicalTypeAnnotation.TimeUnit.NANOS))
            .named(name);
      }
      case Timestamp: {
        ArrowType.Timestamp ts = (ArrowType.Timestamp) t;
        LogicalTypeAnnotation.TimeUnit unit = ts.getUnit() == TimeUnit.SECOND || ts.getUnit() == TimeUnit.MILLISECOND
            ? LogicalTypeAnnotation.TimeUnit.MILLIS
            : ts.getUnit() == TimeUnit.MICROSECOND ? LogicalTypeAnnotation.TimeUnit.MICROS
            : LogicalTypeAnnotation.TimeUnit.NANOS;
        return Types.primitive(PrimitiveTypeName.INT64, rep)
            .as(LogicalTypeAnnotation.timestampType(ts.getTimezone() != null, unit)).named(name);
      }
      case Struct: {
        Types.GroupBuilder<GroupType> g = Types.buildGroup(rep);
        for (Field c : f.getChildren()) {
          g.addField(type(c, c.getName(), path + "." + c.getName()));
        }
        return g.named(name);
      }
      case List:
      case LargeList:
      case FixedSizeList: {
        Type element = type(f.getChildren().get(0), "element", path + "[]");
        return Types.buildGroup(rep).as(LogicalTypeAnnotation.listType())
            .addField(Types.repeatedGroup().addField(element).named("list")).named(name);
      }
      case Map: {
        List<Field> kv = f.getChildren().get(0).getChildren();
        return Types.buildGroup(rep).as(LogicalTypeAnnotation.mapType())
            .addField(Types.repeatedGroup().addField(type(kv.get(0), "key", path + ".key"))
                .addField(type(kv.get(1), "value", path + ".value")).named("key_value"))
            .named(name);
      }
      default:
        throw new InvalidInputException("Column '" + path + "' is " + SchemaSpec.name(t)
            + ", which Parquet output cannot hold");
    }
  }
}
