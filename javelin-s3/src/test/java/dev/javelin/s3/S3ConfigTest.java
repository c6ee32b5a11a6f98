package dev.javelin.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.io.StorageOptions;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Storage options as Lance names them, read without the process's environment. */
class S3ConfigTest {
  private static S3Config parse(Map<String, String> options) {
    return parse(options, Map.of());
  }

  private static S3Config parse(Map<String, String> options, Map<String, String> env) {
    return S3Config.of(StorageOptions.of(options), env::get, Optional::empty);
  }

  @Test
  void nothingSetMeansAwsItselfInUsEast1WithTheDefaultChains() {
    S3Config c = parse(Map.of());
    assertThat(c.endpoint).isNull();
    assertThat(c.region).isEqualTo("us-east-1");
    assertThat(c.regionGuessed).isTrue();
    assertThat(c.pathStyle).isFalse();
    assertThat(c.accessKeyId).isNull();
    assertThat(c.partSize).isEqualTo(8L << 20);
    assertThat(c.uploadConcurrency).isEqualTo(4);
    assertThat(c.maxRetries).isEqualTo(10);
    assertThat(c.maxAttempts()).isEqualTo(11);
    assertThat(c.connectTimeout).isEqualTo(Duration.ofSeconds(5));
    assertThat(c.timeout).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void theRegionChainIsAskedOnlyWithoutAnEndpoint() {
    S3Config aws = S3Config.of(StorageOptions.none(), k -> null, () -> Optional.of("eu-west-3"));
    assertThat(aws.region).isEqualTo("eu-west-3");
    assertThat(aws.regionGuessed).isFalse();
    S3Config custom = S3Config.of(StorageOptions.of(Map.of("aws_endpoint", "https://minio.example:9000")),
        k -> null, () -> {
          throw new AssertionError("no instance metadata lookups for a custom endpoint");
        });
    assertThat(custom.region).isEqualTo("us-east-1");
  }

  @Test
  void everyAliasOfEveryOptionIsRead() {
    for (int i = 0; i < 4; i++) {
      Map<String, String> o = new HashMap<>();
      o.put(pick(S3Config.REGION, i), "eu-central-1");
      o.put(pick(S3Config.ENDPOINT, i), "https://s3.example.com");
      o.put(pick(S3Config.ACCESS_KEY, i), "AKID");
      o.put(pick(S3Config.SECRET_KEY, i), "SECRET");
      o.put(pick(S3Config.SESSION_TOKEN, i), "TOKEN");
      o.put(pick(S3Config.VIRTUAL_HOSTED, i), "true");
      S3Config c = parse(o);
      assertThat(c.region).as("alias %d", i).isEqualTo("eu-central-1");
      assertThat(c.endpoint).isEqualTo(URI.create("https://s3.example.com"));
      assertThat(c.accessKeyId).isEqualTo("AKID");
      assertThat(c.secretAccessKey).isEqualTo("SECRET");
      assertThat(c.sessionToken).isEqualTo("TOKEN");
      assertThat(c.pathStyle).isFalse();
    }
    // Lance's object_store names, each option's first the one Javelin's messages use
    assertThat(S3Config.REGION).containsExactly("aws_region", "region", "aws_default_region", "default_region");
    assertThat(S3Config.ENDPOINT).containsExactly("aws_endpoint", "endpoint", "aws_endpoint_url", "endpoint_url");
    assertThat(S3Config.ACCESS_KEY).containsExactly("aws_access_key_id", "access_key_id");
    assertThat(S3Config.SECRET_KEY).containsExactly("aws_secret_access_key", "secret_access_key");
    assertThat(S3Config.SESSION_TOKEN).containsExactly("aws_session_token", "session_token", "token", "aws_token");
    assertThat(S3Config.ALLOW_HTTP).containsExactly("aws_allow_http", "allow_http");
    assertThat(S3Config.VIRTUAL_HOSTED)
        .containsExactly("aws_virtual_hosted_style_request", "virtual_hosted_style_request");
    assertThat(parse(Map.of("AWS_REGION", "ap-south-1")).region).as("keys are case-insensitive")
        .isEqualTo("ap-south-1");
  }

  private static String pick(String[] aliases, int i) {
    return aliases[Math.min(i, aliases.length - 1)];
  }

  @Test
  void aCustomEndpointMeansPathStyleUnlessVirtualHostedIsAskedFor() {
    assertThat(parse(Map.of("aws_endpoint", "https://minio:9000")).pathStyle).isTrue();
    assertThat(parse(Map.of("aws_endpoint", "https://minio:9000", "aws_virtual_hosted_style_request", "true"))
        .pathStyle).isFalse();
    assertThat(parse(Map.of("virtual_hosted_style_request", "false")).pathStyle).isTrue();
    assertThat(parse(Map.of()).pathStyle).isFalse();
  }

  @Test
  void plainHttpNeedsAllowHttp() {
    assertThatThrownBy(() -> parse(Map.of("aws_endpoint", "http://127.0.0.1:9090")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Storage option aws_endpoint is a plain http endpoint (http://127.0.0.1:9090): set aws_allow_http"
            + " to true to allow unencrypted requests");
    assertThatThrownBy(() -> parse(Map.of("endpoint", "http://127.0.0.1:9090", "allow_http", "false")))
        .hasMessage("Storage option endpoint is a plain http endpoint (http://127.0.0.1:9090): set aws_allow_http"
            + " to true to allow unencrypted requests");
    assertThat(parse(Map.of("aws_endpoint", "http://127.0.0.1:9090", "aws_allow_http", "true")).endpoint)
        .isEqualTo(URI.create("http://127.0.0.1:9090"));
    assertThat(parse(Map.of("aws_endpoint_url", "http://127.0.0.1:9090", "allow_http", "yes")).endpoint)
        .isEqualTo(URI.create("http://127.0.0.1:9090"));
  }

  @Test
  void theEnvironmentFillsInWhatTheOptionsLeaveOut() {
    Map<String, String> env = Map.of("AWS_ENDPOINT_URL", "http://localhost:4566", "AWS_ALLOW_HTTP", "true",
        "AWS_REGION", "eu-north-1");
    S3Config c = parse(Map.of(), env);
    assertThat(c.endpoint).isEqualTo(URI.create("http://localhost:4566"));
    assertThat(c.region).isEqualTo("eu-north-1");
    assertThat(c.pathStyle).isTrue();
    assertThatThrownBy(() -> parse(Map.of(), Map.of("AWS_ENDPOINT_URL", "http://localhost:4566")))
        .hasMessage("Storage option AWS_ENDPOINT_URL is a plain http endpoint (http://localhost:4566): set"
            + " aws_allow_http to true to allow unencrypted requests");
    S3Config options = parse(Map.of("aws_endpoint", "https://override:1", "aws_region", "us-west-2"), env);
    assertThat(options.endpoint).isEqualTo(URI.create("https://override:1"));
    assertThat(options.region).isEqualTo("us-west-2");
  }

  @Test
  void badOptionsAreNamed() {
    assertThatThrownBy(() -> parse(Map.of("aws_endpoint", "minio:9000")))
        .hasMessage("Storage option aws_endpoint must be an http:// or https:// URL, not 'minio:9000'");
    assertThatThrownBy(() -> parse(Map.of("endpoint", "ftp://host/")))
        .hasMessage("Storage option endpoint must be an http:// or https:// URL, not 'ftp://host/'");
    assertThatThrownBy(() -> parse(Map.of("aws_allow_http", "maybe")))
        .hasMessage("Storage option aws_allow_http must be true or false, not 'maybe'");
    assertThatThrownBy(() -> parse(Map.of("access_key_id", "AKID")))
        .hasMessage("Storage option access_key_id is set but aws_secret_access_key is not: give both, or neither"
            + " to use the default AWS credentials chain");
    assertThatThrownBy(() -> parse(Map.of("aws_secret_access_key", "S")))
        .hasMessage("Storage option aws_secret_access_key is set but aws_access_key_id is not: give both, or"
            + " neither to use the default AWS credentials chain");
    assertThatThrownBy(() -> parse(Map.of("javelin_s3_part_size", "1048576")))
        .hasMessage("Storage option javelin_s3_part_size must be between 5242880 (5 MiB) and 5368709120 (5 GiB)"
            + " bytes, not 1048576");
    assertThatThrownBy(() -> parse(Map.of("javelin_s3_part_size", "8M")))
        .hasMessage("Storage option javelin_s3_part_size must be a whole number, not '8M'");
    assertThatThrownBy(() -> parse(Map.of("javelin_s3_upload_concurrency", "0")))
        .hasMessage("Storage option javelin_s3_upload_concurrency must be between 1 and 64, not 0");
    assertThatThrownBy(() -> parse(Map.of("client_max_retries", "-1")))
        .hasMessage("Storage option client_max_retries must be between 0 and 100, not -1");
    assertThatThrownBy(() -> parse(Map.of("timeout", "soon")))
        .hasMessage("Storage option timeout must be a duration such as 30s or 500ms, not 'soon'");
    assertThatThrownBy(() -> parse(Map.of("connect_timeout", "0s")))
        .hasMessage("Storage option connect_timeout must be a positive duration, not '0s'");
  }

  @Test
  void durationsAndSizes() {
    S3Config c = parse(Map.of("timeout", "1500ms", "connect_timeout", "2", "javelin_s3_part_size", "5242880",
        "javelin_s3_upload_concurrency", "2", "client_max_retries", "0"));
    assertThat(c.timeout).isEqualTo(Duration.ofMillis(1500));
    assertThat(c.connectTimeout).isEqualTo(Duration.ofSeconds(2));
    assertThat(c.partSize).isEqualTo(5L << 20);
    assertThat(c.uploadConcurrency).isEqualTo(2);
    assertThat(c.maxAttempts()).isEqualTo(1);
    assertThat(parse(Map.of("timeout", "2m")).timeout).isEqualTo(Duration.ofMinutes(2));
    assertThat(parse(Map.of("timeout", "1h")).timeout).isEqualTo(Duration.ofHours(1));
  }

  @Test
  void conditionalPutsAreOnUnlessDisabled() {
    assertThat(parse(Map.of()).conditionalPut).isTrue();
    assertThat(parse(Map.of("aws_conditional_put", "etag")).conditionalPut).isTrue();
    assertThat(parse(Map.of("aws_conditional_put", "Disabled")).conditionalPut).isFalse();
    assertThatThrownBy(() -> parse(Map.of("aws_conditional_put", "dynamo:locks")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Storage option aws_conditional_put must be etag or disabled, not 'dynamo:locks' (Javelin "
            + "commits with If-None-Match; it has no DynamoDB lock)");
  }
}
