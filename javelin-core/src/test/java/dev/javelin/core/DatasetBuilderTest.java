package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.io.UnsupportedStoreException;
import dev.javelin.table.exceptions.VersionNotFoundException;
import dev.javelin.testing.MixedBatches;
import dev.javelin.testing.Readers;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatasetBuilderTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private Dataset create(String uri, int rows) throws Exception {
    try (VectorSchemaRoot batch = MixedBatches.batch(allocator, 0, rows);
        ArrowReader r = Readers.readerOf(allocator, batch)) {
      return Dataset.create(uri, r, WriteParams.defaults(), allocator);
    }
  }

  @Test
  void opensLatestVersionOrTagAtALocalUri() throws Exception {
    String uri = dir.resolve("ds").toUri().toString();
    Dataset v1 = create(uri, 10);
    Dataset v2 = v1.delete("id < 3");
    v2.tags().create("first", 1);
    try (Session session = Session.builder().build()) {
      assertThat(Dataset.builder(uri).session(session).load().countRows()).isEqualTo(7);
      assertThat(Dataset.builder(uri).version(1).allocator(allocator).load().countRows()).isEqualTo(10);
      assertThat(Dataset.builder(dir.resolve("ds").toString()).tag("first").allocator(allocator).load().version())
          .isEqualTo(1);
      assertThatThrownBy(() -> Dataset.builder(uri).version(9).session(session).load())
          .isInstanceOf(VersionNotFoundException.class);
    }
    assertThat(Dataset.versions(uri)).hasSize(2);
  }

  @Test
  void aRemoteSchemeWithoutItsStoreModuleNamesTheModule() {
    assertThatThrownBy(() -> Dataset.builder("gs://bucket/ds").storageOptions(Map.of("x", "y")).load())
        .isInstanceOf(UnsupportedStoreException.class)
        .hasMessage("Unknown storage scheme 'gs' in gs://bucket/ds; Javelin opens local paths, file:, abfs, abfss, az, azure, fwd, s3, s3a URIs");
  }

  @Test
  void aRemoteUriNeedsABucket() {
    assertThatThrownBy(() -> Dataset.open("s3:///ds", allocator))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("A s3:// URI names a bucket or container after the //: s3:///ds");
  }

  @Test
  void writeParamsCarryStorageOptions() {
    WriteParams p = WriteParams.builder().storageOptions(Map.of("aws_region", "eu-west-1")).build();
    assertThat(p.storageOptions()).containsExactly(Map.entry("aws_region", "eu-west-1"));
    assertThat(WriteParams.defaults().storageOptions()).isEmpty();
  }
}
