package dev.javelin.s3;

import dev.javelin.io.StorageOptions;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;

/**
 * The configuration of an S3 store, read from Lance's storage option names (with the aliases
 * Lance's object_store accepts), then the AWS environment variables, then the SDK's standard
 * chains. Credentials not given as options are left to the SDK's default chain (environment,
 * system properties, profiles, container and instance roles), which is resolved lazily.
 */
final class S3Config {
  static final String[] REGION = {"aws_region", "region", "aws_default_region", "default_region"};
  static final String[] ENDPOINT = {"aws_endpoint", "endpoint", "aws_endpoint_url", "endpoint_url"};
  static final String[] ACCESS_KEY = {"aws_access_key_id", "access_key_id"};
  static final String[] SECRET_KEY = {"aws_secret_access_key", "secret_access_key"};
  static final String[] SESSION_TOKEN = {"aws_session_token", "session_token", "token", "aws_token"};
  static final String[] ALLOW_HTTP = {"aws_allow_http", "allow_http"};
  static final String[] VIRTUAL_HOSTED = {"aws_virtual_hosted_style_request", "virtual_hosted_style_request"};
  /** Lance's name: retries after the first attempt of a request. */
  static final String MAX_RETRIES = "client_max_retries";
  /** Lance's (object_store's) switch for conditional puts: {@code etag} (the default) or {@code disabled}. */
  static final String CONDITIONAL_PUT = "aws_conditional_put";
  /** object_store's names: the connect timeout and the timeout of one request attempt. */
  static final String CONNECT_TIMEOUT = "connect_timeout";
  static final String TIMEOUT = "timeout";
  static final String PART_SIZE = "javelin_s3_part_size";
  static final String UPLOAD_CONCURRENCY = "javelin_s3_upload_concurrency";

  static final String DEFAULT_REGION = "us-east-1";
  static final long MIN_PART_SIZE = 5L << 20;
  static final long MAX_PART_SIZE = 5L << 30;
  static final long DEFAULT_PART_SIZE = 8L << 20;
  static final int DEFAULT_UPLOAD_CONCURRENCY = 4;
  /** As Lance's default {@code client_max_retries}. */
  static final int DEFAULT_MAX_RETRIES = 10;
  static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
  static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h)?");

  final String region;
  /** Whether the region is a guess (nothing named one), so requests to other regions must follow redirects. */
  final boolean regionGuessed;
  /** The custom endpoint, or null for AWS's own. */
  final URI endpoint;
  final boolean pathStyle;
  final String accessKeyId;
  final String secretAccessKey;
  final String sessionToken;
  final long partSize;
  final int uploadConcurrency;
  final int maxRetries;
  final Duration connectTimeout;
  final Duration timeout;
  /** Whether the server creates an object only if absent ({@code If-None-Match: *}); commits need it. */
  final boolean conditionalPut;

  private S3Config(Builder b) {
    this.region = b.region;
    this.regionGuessed = b.regionGuessed;
    this.endpoint = b.endpoint;
    this.pathStyle = b.pathStyle;
    this.accessKeyId = b.accessKeyId;
    this.secretAccessKey = b.secretAccessKey;
    this.sessionToken = b.sessionToken;
    this.partSize = b.partSize;
    this.uploadConcurrency = b.uploadConcurrency;
    this.maxRetries = b.maxRetries;
    this.connectTimeout = b.connectTimeout;
    this.timeout = b.timeout;
    this.conditionalPut = b.conditionalPut;
  }

  /** The configuration of {@code options}, with the process's environment and the SDK's region chain behind them. */
  static S3Config of(StorageOptions options) {
    return of(options, System::getenv, S3Config::sdkRegion);
  }

  /**
   * The configuration of {@code options}, falling back to {@code env} (AWS environment variables)
   * and, with no endpoint set, to {@code regionChain} (profiles, instance metadata).
   *
   * @throws IllegalArgumentException naming the option that is wrong
   */
  static S3Config of(StorageOptions options, Function<String, String> env, Supplier<Optional<String>> regionChain) {
    Builder b = new Builder();
    boolean allowHttp = allowHttp(options, env);
    String endpointKey = firstSet(options, ENDPOINT);
    String endpoint = endpointKey != null ? options.get(endpointKey).orElseThrow() : null;
    if (endpoint == null) {
      for (String var : new String[] {"AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL", "AWS_ENDPOINT"}) {
        String v = env.apply(var);
        if (v != null && !v.isBlank()) {
          endpointKey = var;
          endpoint = v.trim();
          break;
        }
      }
    }
    if (endpoint != null) {
      b.endpoint = endpoint(endpointKey, endpoint, allowHttp);
    }

    Optional<String> region = options.get(REGION).map(String::trim).filter(r -> !r.isEmpty());
    if (region.isEmpty()) {
      region = Optional.ofNullable(env.apply("AWS_REGION"))
          .or(() -> Optional.ofNullable(env.apply("AWS_DEFAULT_REGION")))
          .map(String::trim).filter(r -> !r.isEmpty());
    }
    if (region.isEmpty() && b.endpoint == null) {
      region = regionChain.get();
    }
    b.regionGuessed = region.isEmpty();
    b.region = region.orElse(DEFAULT_REGION);

    // As Lance: path-style requests to a custom endpoint (MinIO, S3Mock, ...) unless asked otherwise.
    Optional<Boolean> virtual = options.bool(VIRTUAL_HOSTED);
    b.pathStyle = !virtual.orElse(b.endpoint == null);

    String accessKey = firstSet(options, ACCESS_KEY);
    String secretKey = firstSet(options, SECRET_KEY);
    if (accessKey != null && secretKey == null) {
      throw new IllegalArgumentException("Storage option " + accessKey + " is set but " + SECRET_KEY[0]
          + " is not: give both, or neither to use the default AWS credentials chain");
    }
    if (secretKey != null && accessKey == null) {
      throw new IllegalArgumentException("Storage option " + secretKey + " is set but " + ACCESS_KEY[0]
          + " is not: give both, or neither to use the default AWS credentials chain");
    }
    if (accessKey != null) {
      b.accessKeyId = options.get(accessKey).orElseThrow();
      b.secretAccessKey = options.get(secretKey).orElseThrow();
      b.sessionToken = options.get(SESSION_TOKEN).orElse(null);
    }

    b.partSize = longOption(options, PART_SIZE, DEFAULT_PART_SIZE);
    if (b.partSize < MIN_PART_SIZE || b.partSize > MAX_PART_SIZE) {
      throw new IllegalArgumentException("Storage option " + PART_SIZE + " must be between " + MIN_PART_SIZE
          + " (5 MiB) and " + MAX_PART_SIZE + " (5 GiB) bytes, not " + b.partSize);
    }
    long concurrency = longOption(options, UPLOAD_CONCURRENCY, DEFAULT_UPLOAD_CONCURRENCY);
    if (concurrency < 1 || concurrency > 64) {
      throw new IllegalArgumentException(
          "Storage option " + UPLOAD_CONCURRENCY + " must be between 1 and 64, not " + concurrency);
    }
    b.uploadConcurrency = (int) concurrency;
    long retries = longOption(options, MAX_RETRIES, DEFAULT_MAX_RETRIES);
    if (retries < 0 || retries > 100) {
      throw new IllegalArgumentException(
          "Storage option " + MAX_RETRIES + " must be between 0 and 100, not " + retries);
    }
    b.maxRetries = (int) retries;
    b.connectTimeout = durationOption(options, CONNECT_TIMEOUT, DEFAULT_CONNECT_TIMEOUT);
    b.timeout = durationOption(options, TIMEOUT, DEFAULT_TIMEOUT);
    String conditional = options.get(CONDITIONAL_PUT).map(v -> v.trim().toLowerCase(Locale.ROOT)).orElse("etag");
    if (!conditional.equals("etag") && !conditional.equals("disabled")) {
      throw new IllegalArgumentException("Storage option " + CONDITIONAL_PUT + " must be etag or disabled, not '"
          + options.get(CONDITIONAL_PUT).get() + "' (Javelin commits with If-None-Match; it has no DynamoDB lock)");
    }
    b.conditionalPut = conditional.equals("etag");
    return new S3Config(b);
  }

  /** Attempts per request: the first and {@link #maxRetries} retries. */
  int maxAttempts() {
    return maxRetries + 1;
  }

  private static boolean allowHttp(StorageOptions options, Function<String, String> env) {
    Optional<Boolean> allow = options.bool(ALLOW_HTTP);
    if (allow.isPresent()) {
      return allow.get();
    }
    String v = env.apply("AWS_ALLOW_HTTP");
    return v != null && StorageOptions.of(Map.of("AWS_ALLOW_HTTP", v)).bool("AWS_ALLOW_HTTP").orElse(false);
  }

  private static URI endpoint(String key, String value, boolean allowHttp) {
    URI uri;
    try {
      uri = new URI(value.trim());
    } catch (URISyntaxException e) {
      uri = null;
    }
    String scheme = uri == null || uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (uri == null || uri.getHost() == null || !(scheme.equals("http") || scheme.equals("https"))) {
      throw new IllegalArgumentException(
          "Storage option " + key + " must be an http:// or https:// URL, not '" + value + "'");
    }
    if (scheme.equals("http") && !allowHttp) {
      throw new IllegalArgumentException("Storage option " + key + " is a plain http endpoint (" + value
          + "): set " + ALLOW_HTTP[0] + " to true to allow unencrypted requests");
    }
    return uri;
  }

  /** Which of {@code aliases} is set, or null. */
  static String firstSet(StorageOptions options, String... aliases) {
    for (String a : aliases) {
      if (options.get(a).isPresent()) {
        return a;
      }
    }
    return null;
  }

  private static long longOption(StorageOptions options, String key, long fallback) {
    Optional<String> v = options.get(key);
    if (v.isEmpty()) {
      return fallback;
    }
    try {
      return Long.parseLong(v.get().trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Storage option " + key + " must be a whole number, not '" + v.get() + "'");
    }
  }

  /** A duration as object_store writes them: {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h}, or plain seconds. */
  static Duration durationOption(StorageOptions options, String key, Duration fallback) {
    Optional<String> v = options.get(key);
    if (v.isEmpty()) {
      return fallback;
    }
    Matcher m = DURATION.matcher(v.get().trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "Storage option " + key + " must be a duration such as 30s or 500ms, not '" + v.get() + "'");
    }
    long n = Long.parseLong(m.group(1));
    String unit = m.group(2) == null ? "s" : m.group(2);
    Duration d;
    switch (unit) {
      case "ms":
        d = Duration.ofMillis(n);
        break;
      case "m":
        d = Duration.ofMinutes(n);
        break;
      case "h":
        d = Duration.ofHours(n);
        break;
      default:
        d = Duration.ofSeconds(n);
    }
    if (d.isZero()) {
      throw new IllegalArgumentException(
          "Storage option " + key + " must be a positive duration, not '" + v.get() + "'");
    }
    return d;
  }

  // The SDK's chain past the environment: system property, profile file, instance metadata.
  private static Optional<String> sdkRegion() {
    try {
      return Optional.of(new DefaultAwsRegionProviderChain().getRegion().id());
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  private static final class Builder {
    String region;
    boolean regionGuessed;
    URI endpoint;
    boolean pathStyle;
    String accessKeyId;
    String secretAccessKey;
    String sessionToken;
    long partSize;
    int uploadConcurrency;
    int maxRetries;
    Duration connectTimeout;
    Duration timeout;
    boolean conditionalPut;
  }
}
