package dev.javelin.cli;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.HadoopFreeReadOptions;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * Reads a Parquet file as Arrow batches, one row group in memory at a time (parquet-java reads
 * a row group's pages whole), batches bounded in rows and bytes as {@link CsvReader}'s are.
 * Required fields become non-nullable columns; LIST and MAP groups (with the legacy two-level
 * lists) become lists and maps, other groups structs; INT96 timestamps become timestamp[ns].
 */
final class ParquetInput extends ArrowReader {
  private final Path path;
  private final ParquetFileReader reader;
  private final MessageType parquetSchema;
  private final MessageColumnIO columns;
  private final Schema schema;
  private final List<Converter> converters = new ArrayList<>();
  private final int rowsPerBatch;
  private RecordReader<Group> records;
  private long leftInGroup;
  private long rowsRead;
  private long bytes;

  private ParquetInput(Path path, ParquetFileReader reader, BufferAllocator allocator) {
    super(allocator);
    this.path = path;
    this.reader = reader;
    this.parquetSchema = reader.getFooter().getFileMetaData().getSchema();
    this.columns = new ColumnIOFactory().getColumnIO(parquetSchema);
    List<Field> fields = new ArrayList<>();
    for (Type t : parquetSchema.getFields()) {
      Converter c = converter(t, t.getName());
      converters.add(c);
      fields.add(c.field);
    }
    this.schema = new Schema(fields);
    this.rowsPerBatch = CsvReader.rowsPerBatch(schema, CsvReader.BATCH_ROWS);
  }

  /**
   * Opens a Parquet file, reading its footer.
   *
   * @throws InvalidInputException if the file is not Parquet or has a type Javelin cannot read
   */
  static ParquetInput open(Path path, BufferAllocator allocator) throws IOException {
    ParquetReadOptions options = HadoopFreeReadOptions.create(new ParquetCodecs());
    ParquetFileReader reader;
    try {
      // Named by its path in parquet-java's messages ("x.parquet is not a Parquet file ...").
      LocalInputFile file = new LocalInputFile(path) {
        @Override
        public String toString() {
          return path.toString();
        }
      };
      reader = new ParquetFileReader(file, options);
    } catch (RuntimeException | IOException e) {
      throw new InvalidInputException("Cannot read " + path + " as Parquet: " + ErrorHandler.message(e), e);
    }
    try {
      return new ParquetInput(path, reader, allocator);
    } catch (RuntimeException e) {
      reader.close();
      throw e;
    }
  }

  @Override
  protected Schema readSchema() {
    return schema;
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    prepareLoadNextBatch();
    VectorSchemaRoot root = getVectorSchemaRoot();
    root.allocateNew();
    int n = 0;
    long batchBytes = 0;
    while (n < rowsPerBatch && batchBytes < CsvReader.BATCH_BYTES) {
      if (leftInGroup == 0 && !nextRowGroup()) {
        break;
      }
      Group g;
      try {
        g = records.read();
      } catch (RuntimeException e) {
        throw unreadable(e);
      }
      leftInGroup--;
      rowsRead++;
      for (int f = 0; f < converters.size(); f++) {
        FieldVector v = root.getVector(f);
        try {
          batchBytes += VectorValues.set(v, n, converters.get(f).read(g, f));
        } catch (VectorValues.BadValue e) {
          throw new InvalidInputException("Row " + rowsRead + " of " + path + ": column '" + e.path + "' "
              + e.getMessage(), e);
        }
      }
      n++;
    }
    bytes += batchBytes;
    root.setRowCount(n);
    return n > 0;
  }

  private boolean nextRowGroup() throws IOException {
    PageReadStore pages;
    try {
      pages = reader.readNextRowGroup();
    } catch (RuntimeException e) {
      throw unreadable(e);
    } catch (IOException e) {
      // Bad page headers and pages that do not decompress: the file's fault, not the disk's.
      if (e instanceof java.nio.file.FileSystemException) {
        throw e;
      }
      throw unreadable(new java.io.UncheckedIOException(e));
    }
    if (pages == null) {
      return false;
    }
    records = columns.getRecordReader(pages, new GroupRecordConverter(parquetSchema));
    leftInGroup = pages.getRowCount();
    return true;
  }

  private RuntimeException unreadable(RuntimeException e) {
    if (e instanceof InvalidInputException) {
      return e;
    }
    Throwable cause = e instanceof java.io.UncheckedIOException ? e.getCause() : e;
    return new InvalidInputException("Cannot read " + path + " as Parquet (after row " + rowsRead + "): "
        + ErrorHandler.message(cause), e);
  }

  @Override
  public long bytesRead() {
    return bytes;
  }

  @Override
  protected void closeReadSource() throws IOException {
    reader.close();
  }

  /** An Arrow field for a Parquet field, and how to read one value of it from a record. */
  private abstract static class Converter {
    final Field field;

    Converter(Field field) {
      this.field = field;
    }

    /** The value of field {@code index} of {@code g}: null if absent, a list if repeated. */
    Object read(Group g, int index) {
      if (g.getFieldRepetitionCount(index) == 0) {
        return null;
      }
      return value(g, index, 0);
    }

    /** Repetition {@code r} of field {@code index} of {@code g}. */
    abstract Object value(Group g, int index, int r);
  }

  private static Converter converter(Type t, String path) {
    if (t.isRepetition(Type.Repetition.REPEATED)) {
      // A repeated field outside a LIST group: a non-null list of its values.
      Converter item = single(t, path, false);
      Field f = new Field(t.getName(), FieldType.notNullable(ArrowType.List.INSTANCE), List.of(item.field));
      return new Converter(f) {
        @Override
        Object read(Group g, int index) {
          int n = g.getFieldRepetitionCount(index);
          List<Object> out = new ArrayList<>(n);
          for (int r = 0; r < n; r++) {
            out.add(item.value(g, index, r));
          }
          return out;
        }

        @Override
        Object value(Group g, int index, int r) {
          throw new IllegalStateException("read whole");
        }
      };
    }
    return single(t, path, t.isRepetition(Type.Repetition.OPTIONAL));
  }

  // A field read once per record (or per repetition, for the items of a repeated field).
  private static Converter single(Type t, String path, boolean nullable) {
    if (t.isPrimitive()) {
      return primitive(t.asPrimitiveType(), path, nullable);
    }
    GroupType g = t.asGroupType();
    LogicalTypeAnnotation a = g.getLogicalTypeAnnotation();
    if (a instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation && g.getFieldCount() == 1
        && g.getType(0).isRepetition(Type.Repetition.REPEATED)) {
      return list(g, path, nullable);
    }
    if ((a instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation
        || a instanceof LogicalTypeAnnotation.MapKeyValueTypeAnnotation) && g.getFieldCount() == 1
        && !g.getType(0).isPrimitive() && g.getType(0).asGroupType().getFieldCount() == 2) {
      return map(g, path, nullable);
    }
    List<Converter> children = new ArrayList<>();
    List<Field> fields = new ArrayList<>();
    for (Type c : g.getFields()) {
      Converter child = converter(c, path + "." + c.getName());
      children.add(child);
      fields.add(child.field);
    }
    return new Converter(new Field(t.getName(), new FieldType(nullable, ArrowType.Struct.INSTANCE, null), fields)) {
      @Override
      Object value(Group parent, int index, int r) {
        Group s = parent.getGroup(index, r);
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < children.size(); i++) {
          out.put(children.get(i).field.getName(), children.get(i).read(s, i));
        }
        return out;
      }
    };
  }

  // LIST: the repeated child is the item itself when it is primitive, has several fields, or is
  // named "array" or "<list>_tuple" (the legacy two-level lists); otherwise its one field is.
  private static Converter list(GroupType g, String path, boolean nullable) {
    Type repeated = g.getType(0);
    boolean twoLevel = repeated.isPrimitive() || repeated.asGroupType().getFieldCount() > 1
        || repeated.getName().equals("array") || repeated.getName().equals(g.getName() + "_tuple");
    Converter item = twoLevel ? single(repeated, path + "[]", false)
        : single(repeated.asGroupType().getType(0), path + "[]",
            !repeated.asGroupType().getType(0).isRepetition(Type.Repetition.REQUIRED));
    Field f = new Field(g.getName(), new FieldType(nullable, ArrowType.List.INSTANCE, null),
        List.of(rename(item.field, "item")));
    return new Converter(f) {
      @Override
      Object value(Group parent, int index, int r) {
        Group list = parent.getGroup(index, r);
        int n = list.getFieldRepetitionCount(0);
        List<Object> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          if (twoLevel) {
            out.add(item.value(list, 0, i));
          } else {
            Group element = list.getGroup(0, i);
            out.add(item.read(element, 0));
          }
        }
        return out;
      }
    };
  }

  private static Converter map(GroupType g, String path, boolean nullable) {
    GroupType kv = g.getType(0).asGroupType();
    Converter key = single(kv.getType(0), path + ".key", false);
    Converter value = single(kv.getType(1), path + ".value", !kv.getType(1).isRepetition(Type.Repetition.REQUIRED));
    Field entries = new Field("entries", FieldType.notNullable(ArrowType.Struct.INSTANCE),
        List.of(rename(key.field, "key"), rename(value.field, "value")));
    Field f = new Field(g.getName(), new FieldType(nullable, new ArrowType.Map(false), null), List.of(entries));
    return new Converter(f) {
      @Override
      Object value(Group parent, int index, int r) {
        Group m = parent.getGroup(index, r);
        int n = m.getFieldRepetitionCount(0);
        List<Object> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          Group e = m.getGroup(0, i);
          out.add(new AbstractMap.SimpleEntry<>(key.read(e, 0), value.read(e, 1)));
        }
        return out;
      }
    };
  }

  private static Field rename(Field f, String name) {
    return new Field(name, f.getFieldType(), f.getChildren());
  }

  private interface Scalar {
    Object get(Group g, int index, int r);
  }

  private static Converter primitive(PrimitiveType p, String path, boolean nullable) {
    LogicalTypeAnnotation a = p.getLogicalTypeAnnotation();
    ArrowType type;
    Scalar read;
    switch (p.getPrimitiveTypeName()) {
      case BOOLEAN:
        type = ArrowType.Bool.INSTANCE;
        read = Group::getBoolean;
        break;
      case INT32:
        if (a instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
          type = new ArrowType.Date(DateUnit.DAY);
          read = Group::getInteger;
        } else if (a instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) {
          int scale = ((LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) a).getScale();
          type = decimal((LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) a);
          read = (g, i, r) -> BigDecimal.valueOf(g.getInteger(i, r), scale);
        } else if (a instanceof LogicalTypeAnnotation.TimeLogicalTypeAnnotation) {
          type = new ArrowType.Time(TimeUnit.MILLISECOND, 32);
          read = Group::getInteger;
        } else if (a instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation) {
          LogicalTypeAnnotation.IntLogicalTypeAnnotation it = (LogicalTypeAnnotation.IntLogicalTypeAnnotation) a;
          type = new ArrowType.Int(it.getBitWidth(), it.isSigned());
          read = it.isSigned() ? Group::getInteger : (g, i, r) -> Integer.toUnsignedLong(g.getInteger(i, r));
        } else {
          type = new ArrowType.Int(32, true);
          read = Group::getInteger;
        }
        break;
      case INT64:
        if (a instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) {
          LogicalTypeAnnotation.TimestampLogicalTypeAnnotation ts = (LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) a;
          type = new ArrowType.Timestamp(unit(ts.getUnit()), ts.isAdjustedToUTC() ? "UTC" : null);
        } else if (a instanceof LogicalTypeAnnotation.TimeLogicalTypeAnnotation) {
          type = new ArrowType.Time(unit(((LogicalTypeAnnotation.TimeLogicalTypeAnnotation) a).getUnit()), 64);
        } else if (a instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) {
          int scale = ((LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) a).getScale();
          type = decimal((LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) a);
          read = (g, i, r) -> BigDecimal.valueOf(g.getLong(i, r), scale);
          break;
        } else if (a instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation) {
          type = new ArrowType.Int(64, ((LogicalTypeAnnotation.IntLogicalTypeAnnotation) a).isSigned());
        } else {
          type = new ArrowType.Int(64, true);
        }
        read = Group::getLong;
        break;
      case INT96:
        // Impala's and old Spark's timestamps: nanoseconds of the day, then the Julian day.
        type = new ArrowType.Timestamp(TimeUnit.NANOSECOND, null);
        read = (g, i, r) -> {
          ByteBuffer b = g.getInt96(i, r).toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
          long nanos = b.getLong();
          long julianDay = b.getInt() & 0xffffffffL;
          return Math.addExact(Math.multiplyExact(julianDay - 2_440_588L, 86_400_000_000_000L), nanos);
        };
        break;
      case FLOAT:
        type = new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
        read = Group::getFloat;
        break;
      case DOUBLE:
        type = new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
        read = Group::getDouble;
        break;
      case BINARY:
        if (a instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) {
          type = decimal((LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) a);
          read = bigDecimal(((LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) a).getScale());
        } else if (a instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
            || a instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
            || a instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation) {
          type = ArrowType.Utf8.INSTANCE;
          read = (g, i, r) -> g.getBinary(i, r).getBytes();
        } else {
          type = ArrowType.Binary.INSTANCE;
          read = (g, i, r) -> g.getBinary(i, r).getBytes();
        }
        break;
      case FIXED_LEN_BYTE_ARRAY:
        if (a instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) {
          type = decimal((LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) a);
          read = bigDecimal(((LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) a).getScale());
        } else if (a instanceof LogicalTypeAnnotation.Float16LogicalTypeAnnotation) {
          type = new ArrowType.FloatingPoint(FloatingPointPrecision.HALF);
          read = (g, i, r) -> {
            byte[] b = g.getBinary(i, r).getBytes();
            return org.apache.arrow.memory.util.Float16.toFloat((short) ((b[0] & 0xff) | (b[1] << 8)));
          };
        } else {
          type = new ArrowType.FixedSizeBinary(p.getTypeLength());
          read = (g, i, r) -> g.getBinary(i, r).getBytes();
        }
        break;
      default:
        throw new InvalidInputException("Parquet column '" + path + "' has type " + p + ", which Javelin cannot read");
    }
    Scalar get = read;
    return new Converter(new Field(p.getName(), new FieldType(nullable, type, null), null)) {
      @Override
      Object value(Group g, int index, int r) {
        return get.get(g, index, r);
      }
    };
  }

  private static Scalar bigDecimal(int scale) {
    return (g, i, r) -> new BigDecimal(new BigInteger(g.getBinary(i, r).getBytes()), scale);
  }

  private static ArrowType decimal(LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d) {
    return new ArrowType.Decimal(d.getPrecision(), d.getScale(), d.getPrecision() > 38 ? 256 : 128);
  }

  private static TimeUnit unit(LogicalTypeAnnotation.TimeUnit u) {
    switch (u) {
      case MILLIS:
        return TimeUnit.MILLISECOND;
      case MICROS:
        return TimeUnit.MICROSECOND;
      default:
        return TimeUnit.NANOSECOND;
    }
  }
}
