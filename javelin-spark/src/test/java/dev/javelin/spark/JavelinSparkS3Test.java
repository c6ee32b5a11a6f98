package dev.javelin.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.compaction.CompactionOptions;
import dev.javelin.io.UnsupportedStoreException;
import dev.javelin.testing.S3MockServer;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;

/** The connector on S3 (S3Mock in a child JVM), by {@code s3a://} and {@code s3://} URIs. */
class JavelinSparkS3Test extends SparkStoreContract {
  private static final S3MockServer S3 = S3MockServer.shared();
  private static final String BUCKET = S3.newBucket();

  private final String prefix = "spark-" + UUID.randomUUID();

  private String uri(String scheme, String name) {
    return scheme + "://" + BUCKET + "/" + prefix + "/" + name;
  }

  @Override
  String uri(String name) {
    return uri("s3a", name);
  }

  @Override
  Map<String, String> options() {
    return S3.storageOptions();
  }

  @Override
  String secretOption() {
    return "aws_secret_access_key";
  }

  @Test
  void s3AndS3aNameTheSameDataset() throws IOException {
    String uri = uri("s3a", "schemes");
    var df = rows(0, 200, 2);
    df.write().format("javelin").options(options()).mode("append").save(uri);
    String same = uri("s3", "schemes");
    var more = rows(200, 300, 2);
    more.write().format("javelin").options(options()).mode("append").save(same);
    assertThat(open(uri).countRows()).isEqualTo(300);
    assertThat(sparkRows(read(same))).isEqualTo(sparkRows(df.union(more)));
    assertNoOrphans(uri);
  }

  @Test
  void sessionConfigKeysAreMergedUnderDataSourceOptions() {
    assertThat(ConnectorOptions.merge(Map.of("aws_region", "eu-west-1", "aws_endpoint", "http://a"),
        Map.of("path", uri("x"), "version", "3", "AWS_Region", "us-east-1")))
        .isEqualTo(Map.of("aws_region", "us-east-1", "aws_endpoint", "http://a"));
  }

  @Test
  void anUnknownSchemeOrMissingCredentialsIsAClearError() {
    String unknown = "foo://" + BUCKET + "/x";
    String message = "Unknown storage scheme 'foo' in " + unknown + "; Javelin opens local paths, file:, abfs, abfss, az, azure, s3, s3a URIs";
    assertThatThrownBy(() -> spark.read().format("javelin").load(unknown))
        .isInstanceOf(UnsupportedStoreException.class).hasMessage(message);
    assertThatThrownBy(() -> rows(0, 10, 1).write().format("javelin").mode("append").save(unknown))
        .isInstanceOf(UnsupportedStoreException.class).hasMessage(message);
    assertThatThrownBy(() -> SparkCompaction.compact(spark, unknown, CompactionOptions.builder().build()))
        .isInstanceOf(UnsupportedStoreException.class).hasMessage(message);

    Map<String, String> noSecret = new HashMap<>(options());
    noSecret.remove("aws_secret_access_key");
    String uri = uri("no-secret");
    String credentials = "Storage option aws_access_key_id is set but aws_secret_access_key is not: give both, "
        + "or neither to use the default AWS credentials chain";
    assertThatThrownBy(() -> spark.read().format("javelin").options(noSecret).load(uri))
        .isInstanceOf(IllegalArgumentException.class).hasMessage(credentials);
    assertThatThrownBy(() -> rows(0, 10, 1).write().format("javelin").options(noSecret).mode("append").save(uri))
        .isInstanceOf(IllegalArgumentException.class).hasMessage(credentials);
    assertThatThrownBy(() -> SparkBackfill.addColumn(spark, uri, noSecret, "x", DataTypes.LongType, List.of("id"),
        row -> 1L)).isInstanceOf(IllegalArgumentException.class).hasMessage(credentials);
  }
}
