package dev.javelin.s3;

import dev.javelin.io.ObjectStores;
import dev.javelin.io.StorageOptions;
import dev.javelin.testing.S3MockServer;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.MultipartUpload;

/** Stores and a plain SDK client on the shared S3Mock, for the tests of this module. */
final class S3Fixtures {
  private S3Fixtures() {}

  static S3MockServer server() {
    return S3MockServer.shared();
  }

  /** The options of a store on S3Mock (through {@code endpoint}), with {@code extra} on top. */
  static Map<String, String> options(URI endpoint, String... extra) {
    Map<String, String> o = new HashMap<>(server().storageOptions(endpoint));
    for (int i = 0; i < extra.length; i += 2) {
      o.put(extra[i], extra[i + 1]);
    }
    return o;
  }

  /** A store in a fresh prefix of {@code bucket}, reached through {@code endpoint}. */
  static S3ObjectStore store(String bucket, URI endpoint, String... extra) {
    return (S3ObjectStore) ObjectStores.open("s3://" + bucket + "/t-" + UUID.randomUUID(),
        StorageOptions.of(options(endpoint, extra)));
  }

  /** A plain SDK client straight to S3Mock, to look at what the store left there. */
  static S3Client rawClient() {
    return S3Client.builder()
        .endpointOverride(server().serverEndpoint())
        .region(Region.of(server().region()))
        .credentialsProvider(StaticCredentialsProvider.create(
            AwsBasicCredentials.create(server().accessKeyId(), server().secretAccessKey())))
        .forcePathStyle(true)
        .httpClient(Apache5HttpClient.create())
        .build();
  }

  /** The keys of the multipart uploads in progress under {@code prefix}. */
  static List<String> uploads(S3Client raw, String bucket, String prefix) {
    return raw.listMultipartUploads(r -> r.bucket(bucket).prefix(prefix)).uploads().stream()
        .map(MultipartUpload::key).collect(Collectors.toList());
  }
}
