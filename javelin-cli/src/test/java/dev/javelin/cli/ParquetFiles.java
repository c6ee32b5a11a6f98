package dev.javelin.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/**
 * Writes Parquet files for tests with parquet-java's example writer (its own record model, not
 * the CLI's code), without Hadoop, two rows per row group so that reads cross row groups.
 */
final class ParquetFiles {
  private ParquetFiles() {}

  /** Writes the rows that {@code rows} adds, given a factory for groups of {@code schema}. */
  static Path write(Path path, String schema, CompressionCodecName codec, Consumer<Rows> rows) throws IOException {
    MessageType type = MessageTypeParser.parseMessageType(schema);
    try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new LocalOutputFile(path))
        .withConf(new PlainParquetConfiguration())
        .withCodecFactory(new ParquetCodecs())
        .withCompressionCodec(codec)
        .withRowGroupRowCountLimit(2)
        .withType(type)
        .build()) {
      Rows r = new Rows(new SimpleGroupFactory(type), w);
      rows.accept(r);
      if (r.failure != null) {
        throw r.failure;
      }
    }
    return path;
  }

  /** Makes and writes rows. */
  static final class Rows {
    private final SimpleGroupFactory factory;
    private final ParquetWriter<Group> writer;
    private IOException failure;

    Rows(SimpleGroupFactory factory, ParquetWriter<Group> writer) {
      this.factory = factory;
      this.writer = writer;
    }

    Group newRow() {
      return factory.newGroup();
    }

    void add(Group row) {
      try {
        writer.write(row);
      } catch (IOException e) {
        failure = e;
      }
    }
  }
}
