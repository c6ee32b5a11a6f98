package dev.javelin.cli;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Reads a CSV file with a header line as Arrow batches, a batch of rows at a time, so a file of
 * any size streams through. Column types come from a {@link SchemaSpec}, or are inferred by a
 * first pass over the whole file: bool if every cell is true/false, int64 if every cell is an
 * integer that fits, float64 if every cell is a number, date32 and timestamp for ISO dates and
 * date-times, else utf8 (numbers with leading zeros stay text; see {@link TextValues}); empty
 * cells are nulls and do not count, and inferred columns are nullable.
 */
final class CsvReader extends ArrowReader {
  static final int BATCH_ROWS = 8192;
  /**
   * About how much cell data one batch holds: a batch ends at BATCH_ROWS rows or at this many
   * bytes, and is allocated for as many rows as fit this size at the columns' widths, so a wide
   * file (100,000 columns) reads a few rows at a time in bounded memory.
   */
  static final long BATCH_BYTES = 16L << 20;

  private final Path path;
  private final CsvParser parser;
  private final Schema schema;
  // Where the column types came from (null: inferred), for the messages about bad cells.
  private final SchemaSpec spec;
  private final int width;
  // For each field of the schema, the CSV column it comes from.
  private final int[] source;
  private final int batchRows;
  private List<CellSetter> setters;
  private int rowsPerBatch;
  private long rowsRead;
  private long bytes;

  private CsvReader(Path path, CsvParser parser, Schema schema, SchemaSpec spec, int width, int[] source,
      int batchRows, BufferAllocator allocator) {
    super(allocator);
    this.path = path;
    this.parser = parser;
    this.schema = schema;
    this.spec = spec;
    this.width = width;
    this.source = source;
    this.batchRows = batchRows;
  }

  static CsvReader open(Path path, SchemaSpec spec, BufferAllocator allocator, int batchRows) throws IOException {
    return open(path, spec, StandardCharsets.UTF_8, ',', allocator, batchRows);
  }

  /**
   * Opens a CSV file, reading its header (and, without a spec, the whole file to infer types).
   *
   * @param spec the column types, or null to infer them
   * @param delimiter the cell separator, or null to find it from the header line
   * @throws InvalidInputException if the header is missing or does not match the spec
   */
  static CsvReader open(Path path, SchemaSpec spec, Charset charset, Character delimiter, BufferAllocator allocator,
      int batchRows) throws IOException {
    char sep = delimiter != null ? delimiter : CsvParser.detectDelimiter(path, charset);
    String[] header;
    Schema schema;
    try (CsvParser p = CsvParser.open(path, charset, sep)) {
      header = p.next();
      if (header == null) {
        throw new InvalidInputException("CSV file " + path + " is empty; it needs a header line");
      }
      Map<String, Integer> seen = new HashMap<>();
      for (int i = 0; i < header.length; i++) {
        if (header[i] == null || header[i].isBlank()) {
          throw new InvalidInputException("Column " + (i + 1) + " of the header of " + path + " has no name");
        }
        if (seen.put(header[i], i) != null) {
          throw new InvalidInputException("Column '" + header[i] + "' appears twice in the header of " + path);
        }
      }
      schema = spec == null ? infer(path, p, header) : spec.schema();
    }
    int[] source = new int[schema.getFields().size()];
    Map<String, Integer> byName = new LinkedHashMap<>();
    for (int i = 0; i < header.length; i++) {
      byName.put(header[i], i);
    }
    for (int i = 0; i < source.length; i++) {
      String name = schema.getFields().get(i).getName();
      Integer col = byName.remove(name);
      if (col == null) {
        throw new InvalidInputException((spec.fromSchemaOption() ? "--schema names column '" + name + "', which "
            : Character.toUpperCase(spec.origin().charAt(0)) + spec.origin().substring(1) + " has column '" + name
                + "', which ") + path + " does not have (its columns: "
            + String.join(", ", header) + ")");
      }
      source[i] = col;
    }
    if (!byName.isEmpty()) {
      String extra = byName.keySet().iterator().next();
      throw new InvalidInputException(spec.fromSchemaOption()
          ? "--schema does not give a type for column '" + extra + "' of " + path + " (it must name every column)"
          : path + " has column '" + extra + "', which " + spec.origin() + " does not have (its columns: "
              + String.join(", ", spec.names()) + ")");
    }
    CsvParser parser = CsvParser.open(path, charset, sep);
    try {
      parser.next();
      return new CsvReader(path, parser, schema, spec, header.length, source, batchRows, allocator);
    } catch (IOException | RuntimeException e) {
      parser.close();
      throw e;
    }
  }

  private static Schema infer(Path path, CsvParser p, String[] header) throws IOException {
    TextValues.Kind[] kinds = new TextValues.Kind[header.length];
    Arrays.fill(kinds, TextValues.Kind.NONE);
    long row = 0;
    for (String[] cells = p.next(); cells != null; cells = p.next()) {
      row++;
      checkWidth(path, p, row, cells, header.length);
      for (int i = 0; i < cells.length; i++) {
        if (cells[i] != null && kinds[i] != TextValues.Kind.STRING) {
          kinds[i] = TextValues.merge(kinds[i], TextValues.kind(cells[i]));
        }
      }
    }
    List<Field> fields = new ArrayList<>();
    for (int i = 0; i < header.length; i++) {
      fields.add(new Field(header[i], FieldType.nullable(TextValues.type(kinds[i])), null));
    }
    return new Schema(fields);
  }

  private static void checkWidth(Path path, CsvParser p, long row, String[] cells, int width) {
    if (cells.length != width) {
      throw new InvalidInputException("Row " + row + " of " + path + " (line " + p.recordLine() + ") has "
          + cells.length + (cells.length == 1 ? " cell" : " cells") + ", but the header has " + width);
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
    if (setters == null) {
      rowsPerBatch = rowsPerBatch(schema, batchRows);
      setters = new ArrayList<>();
      for (FieldVector v : root.getFieldVectors()) {
        v.setInitialCapacity(rowsPerBatch);
        setters.add(setter(v));
      }
    }
    root.allocateNew();
    int n = 0;
    long batchBytes = 0;
    while (n < rowsPerBatch && batchBytes < BATCH_BYTES) {
      String[] cells = parser.next();
      if (cells == null) {
        break;
      }
      rowsRead++;
      checkWidth(path, parser, rowsRead, cells, width);
      for (int f = 0; f < source.length; f++) {
        String cell = cells[source[f]];
        FieldVector v = root.getVector(f);
        if (cell == null) {
          if (!v.getField().isNullable()) {
            throw new InvalidInputException("Empty cell at row " + rowsRead + ", column '" + v.getName() + "' of "
                + path + " (line " + parser.recordLine() + "), but " + (spec.fromSchemaOption()
                ? "--schema declares it not null (write '" + v.getName() + ":"
                    + SchemaSpec.name(v.getField().getType()) + "?' to allow nulls)"
                : "column '" + v.getName() + "' of " + spec.origin() + " is not nullable"));
          }
          VectorValues.setNull(v, n);
        } else {
          bytes += cell.length();
          batchBytes += cell.length();
          try {
            setters.get(f).set(n, cell);
          } catch (NumberFormatException | DateTimeParseException | ArithmeticException e) {
            throw cannotRead(cell, v, e);
          } catch (IllegalArgumentException e) {
            throw cannotRead(cell, v, e);
          }
        }
      }
      n++;
    }
    root.setRowCount(n);
    return n > 0;
  }

  // Rows per batch: up to `most`, as many as fit BATCH_BYTES at the columns' value widths
  // (variable-width values guessed at 16 bytes; long ones end a batch early by bytes read).
  static int rowsPerBatch(Schema schema, int most) {
    long perRow = 0;
    for (Field f : schema.getFields()) {
      ArrowType t = f.getType();
      perRow += 1 + switch (t.getTypeID()) {
        case Bool -> 1;
        case Int -> ((ArrowType.Int) t).getBitWidth() / 8;
        case FloatingPoint -> ((ArrowType.FloatingPoint) t).getPrecision() == FloatingPointPrecision.SINGLE ? 4 : 8;
        case Date -> 4;
        case Timestamp -> 8;
        default -> 16;
      };
    }
    return (int) Math.max(1, Math.min(most, BATCH_BYTES / Math.max(1, perRow)));
  }

  private InvalidInputException cannotRead(String cell, FieldVector v, Exception cause) {
    String shown = cell.length() > 40 ? cell.substring(0, 37) + "..." : cell;
    return new InvalidInputException("Cannot read '" + shown + "' as " + SchemaSpec.name(v.getField().getType())
        + " at row " + rowsRead + ", column '" + v.getName() + "' of " + path + " (line " + parser.recordLine() + ")"
        + (spec != null && !spec.fromSchemaOption() ? ", the type of the column in " + spec.origin() : ""),
        cause);
  }

  /** Parses a cell into a vector slot; throws NumberFormatException and the like when it cannot. */
  private interface CellSetter {
    void set(int row, String cell);
  }

  private static CellSetter setter(FieldVector v) {
    ArrowType t = v.getField().getType();
    switch (t.getTypeID()) {
      case Bool:
        return (i, s) -> ((BitVector) v).setSafe(i, TextValues.parseBool(s) ? 1 : 0);
      case Int: {
        ArrowType.Int it = (ArrowType.Int) t;
        long min = it.getIsSigned() ? -(1L << (it.getBitWidth() - 1)) : 0;
        long max = it.getBitWidth() == 64 ? Long.MAX_VALUE
            : it.getIsSigned() ? (1L << (it.getBitWidth() - 1)) - 1 : (1L << it.getBitWidth()) - 1;
        boolean u64 = !it.getIsSigned() && it.getBitWidth() == 64;
        return (i, s) -> {
          String x = s.trim();
          long value;
          if (u64) {
            value = Long.parseUnsignedLong(x.startsWith("+") ? x.substring(1) : x);
          } else {
            value = Long.parseLong(x);
            if (value < min || value > max) {
              throw new NumberFormatException("out of range");
            }
          }
          // Capacity for a whole batch is allocated up front (see loadNextBatch).
          ((BaseIntVector) v).setWithPossibleTruncate(i, value);
        };
      }
      case FloatingPoint:
        if (((ArrowType.FloatingPoint) t).getPrecision() == FloatingPointPrecision.HALF) {
          return (i, s) -> ((Float2Vector) v).setSafeWithPossibleTruncate(i, (float) TextValues.parseDouble(s));
        }
        if (((ArrowType.FloatingPoint) t).getPrecision() == FloatingPointPrecision.SINGLE) {
          return (i, s) -> ((Float4Vector) v).setSafe(i, (float) TextValues.parseDouble(s));
        }
        return (i, s) -> ((Float8Vector) v).setSafe(i, TextValues.parseDouble(s));
      case Utf8:
        return (i, s) -> ((VarCharVector) v).setSafe(i, s.getBytes(StandardCharsets.UTF_8));
      case LargeUtf8:
        return (i, s) -> ((LargeVarCharVector) v).setSafe(i, s.getBytes(StandardCharsets.UTF_8));
      case Binary:
        return (i, s) -> ((VarBinaryVector) v).setSafe(i, Base64.getDecoder().decode(s.trim()));
      case LargeBinary:
        return (i, s) -> ((LargeVarBinaryVector) v).setSafe(i, Base64.getDecoder().decode(s.trim()));
      case FixedSizeBinary:
        return (i, s) -> {
          byte[] b = Base64.getDecoder().decode(s.trim());
          if (b.length != ((FixedSizeBinaryVector) v).getByteWidth()) {
            throw new IllegalArgumentException("wrong length");
          }
          ((FixedSizeBinaryVector) v).setSafe(i, b);
        };
      case Date:
        if (((ArrowType.Date) t).getUnit() == DateUnit.MILLISECOND) {
          return (i, s) -> ((DateMilliVector) v).setSafe(i, LocalDate.parse(s.trim()).toEpochDay() * 86_400_000L);
        }
        return (i, s) -> ((DateDayVector) v).setSafe(i, Math.toIntExact(LocalDate.parse(s.trim()).toEpochDay()));
      case Time: {
        TimeUnit unit = ((ArrowType.Time) t).getUnit();
        return (i, s) -> VectorValues.set(v, i, TextValues.timeOfDay(s, unit));
      }
      case Decimal: {
        int scale = ((ArrowType.Decimal) t).getScale();
        int precision = ((ArrowType.Decimal) t).getPrecision();
        return (i, s) -> {
          BigDecimal d = new BigDecimal(s.trim()).setScale(scale, RoundingMode.UNNECESSARY);
          if (d.precision() > precision) {
            throw new ArithmeticException("too many digits");
          }
          if (v instanceof DecimalVector) {
            ((DecimalVector) v).setSafe(i, d);
          } else {
            ((Decimal256Vector) v).setSafe(i, d);
          }
        };
      }
      case Timestamp: {
        TimeUnit unit = ((ArrowType.Timestamp) t).getUnit();
        return (i, s) -> ((TimeStampVector) v).setSafe(i, TextValues.epoch(TextValues.parseInstant(s), unit));
      }
      default:
        throw new InvalidInputException("Column '" + v.getName() + "' is " + SchemaSpec.name(v.getField())
            + ", which CSV cells cannot hold");
    }
  }

  @Override
  public long bytesRead() {
    return bytes;
  }

  @Override
  protected void closeReadSource() throws IOException {
    parser.close();
  }
}
