package dev.javelin.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.io.OutputFile;
import dev.javelin.io.PositionOutputStream;
import java.io.IOException;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class WriterFailureTest {
  /** A file whose writes and removal both fail, as on a store that has gone away. */
  static final class Unreachable implements OutputFile {
    @Override
    public String location() {
      return "s3://gone/data/x.lance";
    }

    @Override
    public PositionOutputStream create() {
      return new PositionOutputStream() {
        @Override
        public long position() {
          return 0;
        }

        @Override
        public void write(int b) throws IOException {
          throw new IOException("write refused");
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          throw new IOException("write refused");
        }

        @Override
        public void close() throws IOException {
          throw new IOException("write refused");
        }
      };
    }

    @Override
    public void delete() throws IOException {
      throw new IOException("delete refused");
    }
  }

  @Test
  void theWritesFailureIsThrownAndTheFailedCleanupRidesAlong() throws Exception {
    Schema schema = new Schema(List.of(Field.nullable("x", new ArrowType.Int(32, true))));
    LanceFileWriter w = LanceFileWriter.create(new Unreachable(), schema, WriteOptions.builder().build());
    assertThatThrownBy(w::close)
        .isInstanceOf(IOException.class)
        .hasMessageContaining("write refused")
        .satisfies(e -> assertThat(e.getSuppressed()).extracting(Throwable::getMessage)
            .containsExactly("Could not remove partial file s3://gone/data/x.lance"));
  }
}
