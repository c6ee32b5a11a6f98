package dev.javelin.s3;

import dev.javelin.common.ThreadPools;
import dev.javelin.io.RequestCounters;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.xml.stream.XMLStreamException;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectsRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.UploadPartCopyRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

/**
 * The clients one S3 store and its children share: one HTTP connection pool, an S3 client that
 * retries with the SDK's standard strategy (exponential backoff with jitter on throttling, 5xx and
 * I/O errors), one over the same pool that does not retry (conditional PUTs, whose retries the
 * store runs itself to tell a lost answer from a lost race), the executor that uploads parts, and
 * the request counters, which an interceptor feeds with every attempt the SDK sends.
 */
final class S3Clients implements AutoCloseable {
  final S3Config config;
  final S3Client client;
  final S3Client once;
  final ExecutorService uploads;
  /** Sends the ranged GETs of one {@code readAll} at once (Lance keeps tens in flight on cloud stores). */
  final ExecutorService reads;
  final RequestCounters counters = new RequestCounters();
  private final SdkHttpClient http;
  private final AtomicBoolean closed = new AtomicBoolean();

  S3Clients(S3Config config) {
    this.config = config;
    this.http = Apache5HttpClient.builder()
        .connectionTimeout(config.connectTimeout)
        .socketTimeout(config.timeout)
        .maxConnections(64)
        .build();
    AwsCredentialsProvider credentials = credentials(config);
    this.client = build(config, credentials, AwsRetryStrategy.standardRetryStrategy().toBuilder()
        .maxAttempts(config.maxAttempts()).circuitBreakerEnabled(false)
        .retryOnException(S3Clients::answerCutShort).build());
    this.once = build(config, credentials, AwsRetryStrategy.doNotRetry());
    int threads = Math.max(4, Math.min(32, 2 * config.uploadConcurrency));
    ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(), ThreadPools.daemonThreads("javelin-s3-upload-"));
    pool.allowCoreThreadTimeOut(true);
    this.uploads = pool;
    ThreadPoolExecutor readPool = new ThreadPoolExecutor(READ_THREADS, READ_THREADS, 30, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(), ThreadPools.daemonThreads("javelin-s3-read-"));
    readPool.allowCoreThreadTimeOut(true);
    this.reads = readPool;
  }

  /** Ranged GETs in flight at once per store, at most (the HTTP pool holds 64 connections). */
  static final int READ_THREADS = 32;

  private S3Client build(S3Config config, AwsCredentialsProvider credentials, RetryStrategy retries) {
    S3ClientBuilder b = S3Client.builder()
        .httpClient(http)
        .region(Region.of(config.region))
        .credentialsProvider(credentials)
        .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(config.pathStyle).build())
        .overrideConfiguration(ClientOverrideConfiguration.builder()
            .retryStrategy(retries)
            .apiCallAttemptTimeout(config.timeout)
            .addExecutionInterceptor(new Counting(counters))
            .build());
    if (config.endpoint != null) {
      b.endpointOverride(config.endpoint);
    } else if (config.regionGuessed) {
      b.crossRegionAccessEnabled(true);
    }
    return b.build();
  }

  /**
   * Whether an attempt failed because its XML answer could not be parsed, as when the connection
   * dropped partway through a chunked body (the parser reports the truncated chunk and the SDK,
   * seeing no IOException, would not retry): the request is then retried like any other I/O error.
   */
  static boolean answerCutShort(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof XMLStreamException) {
        return true;
      }
    }
    return false;
  }

  private static AwsCredentialsProvider credentials(S3Config config) {
    if (config.accessKeyId == null) {
      return DefaultCredentialsProvider.builder().build();
    }
    return StaticCredentialsProvider.create(config.sessionToken != null
        ? AwsSessionCredentials.create(config.accessKeyId, config.secretAccessKey, config.sessionToken)
        : AwsBasicCredentials.create(config.accessKeyId, config.secretAccessKey));
  }


  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      uploads.shutdownNow();
      reads.shutdownNow();
      client.close();
      once.close();
      http.close();
    }
  }

  /** Counts each HTTP attempt by kind, with the bytes it sends (PUT) or asks for (ranged GET). */
  private static final class Counting implements ExecutionInterceptor {
    private final RequestCounters counters;

    Counting(RequestCounters counters) {
      this.counters = counters;
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
      SdkRequest r = context.request();
      SdkHttpRequest http = context.httpRequest();
      if (r instanceof GetObjectRequest) {
        counters.record(RequestCounters.Kind.GET, RequestCounters.rangeLength(((GetObjectRequest) r).range()));
      } else if (r instanceof PutObjectRequest || r instanceof UploadPartRequest) {
        long bytes = header(http, "x-amz-decoded-content-length")
            .or(() -> header(http, "Content-Length")).map(Long::parseLong).orElse(0L);
        counters.record(RequestCounters.Kind.PUT, bytes);
      } else if (r instanceof UploadPartCopyRequest) {
        long copied = RequestCounters.rangeLength(((UploadPartCopyRequest) r).copySourceRange());
        counters.record(RequestCounters.Kind.COPY, copied);
      } else if (r instanceof HeadObjectRequest) {
        counters.record(RequestCounters.Kind.HEAD, 0);
      } else if (r instanceof DeleteObjectRequest || r instanceof DeleteObjectsRequest) {
        counters.record(RequestCounters.Kind.DELETE, 0);
      } else if (r instanceof CreateMultipartUploadRequest || r instanceof CompleteMultipartUploadRequest
          || r instanceof AbortMultipartUploadRequest) {
        counters.record(RequestCounters.Kind.MULTIPART, 0);
      } else {
        // listings (ListObjectsV2, ListMultipartUploads) and anything else a store sends
        counters.record(RequestCounters.Kind.LIST, 0);
      }
    }

    private static Optional<String> header(SdkHttpRequest http, String name) {
      return http.firstMatchingHeader(name);
    }
  }
}
