package dev.javelin.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ObjectStoresTest {
  @TempDir Path dir;

  @Test
  void localPathsAndFileUrisOpenLocalStores() throws Exception {
    try (ObjectStore a = ObjectStores.open(dir.toString(), StorageOptions.none());
        ObjectStore b = ObjectStores.open(dir.toUri().toString(), StorageOptions.none())) {
      a.put("x", new byte[] {1, 2});
      assertThat(b.read("x")).containsExactly(1, 2);
      assertThat(a).isInstanceOf(LocalObjectStore.class);
    }
  }

  @Test
  void aKnownSchemeWithoutItsModuleNamesTheModule() {
    assertThatThrownBy(() -> ObjectStores.open("s3://bucket/data", StorageOptions.none()))
        .isInstanceOf(UnsupportedStoreException.class)
        .hasMessage("No object store for s3:// URIs on the class path (s3://bucket/data): add dev.javelin:javelin-s3");
  }

  @Test
  void anUnknownSchemeIsRefused() {
    assertThatThrownBy(() -> ObjectStores.open("ftp://host/data", StorageOptions.none()))
        .isInstanceOf(UnsupportedStoreException.class)
        .hasMessage("Unknown storage scheme 'ftp' in ftp://host/data; Javelin opens local paths, file: URIs");
  }

  @Test
  void optionKeysAreCaseInsensitiveAndBooleansParseAsLanceDoes() {
    StorageOptions o = StorageOptions.of(Map.of("AWS_Region", "eu-west-1", "aws_allow_http", "YES",
        "bad", "maybe"));
    assertThat(o.get("aws_region")).contains("eu-west-1");
    assertThat(o.get("region", "aws_region")).contains("eu-west-1");
    assertThat(o.bool("aws_allow_http")).contains(true);
    assertThat(o.bool("missing")).isEmpty();
    assertThatThrownBy(() -> o.bool("bad"))
        .hasMessage("Storage option bad must be true or false, not 'maybe'");
    assertThat(o.toString()).isEqualTo("StorageOptions[aws_allow_http, aws_region, bad]");
  }
}
