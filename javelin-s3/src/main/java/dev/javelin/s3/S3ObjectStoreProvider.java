package dev.javelin.s3;

import dev.javelin.io.ObjectStore;
import dev.javelin.io.ObjectStoreProvider;
import dev.javelin.io.StorageOptions;
import java.net.URI;
import java.util.Set;

/**
 * Opens {@code s3://bucket/prefix} and {@code s3a://bucket/prefix} datasets (one store for both
 * schemes, as Lance treats them), found by {@link dev.javelin.io.ObjectStores#open} through
 * {@link java.util.ServiceLoader}.
 *
 * <p>Storage options, with Lance's names and aliases (case-insensitive): {@code aws_region} /
 * {@code region} (or {@code aws_default_region}); {@code aws_endpoint} / {@code endpoint} /
 * {@code aws_endpoint_url} / {@code endpoint_url} (a custom
 * endpoint: requests are then path-style unless {@code aws_virtual_hosted_style_request} /
 * {@code virtual_hosted_style_request} is true, and a plain http endpoint needs
 * {@code aws_allow_http} / {@code allow_http}); {@code aws_access_key_id} / {@code access_key_id},
 * {@code aws_secret_access_key} / {@code secret_access_key}, {@code aws_session_token} /
 * {@code session_token} / {@code token}; {@code client_max_retries} (retries per request, default
 * 10, as Lance); {@code connect_timeout} and {@code timeout} (per request attempt; {@code 5s},
 * {@code 30s} by default). Javelin's own: {@code javelin_s3_part_size} (bytes per part of a
 * streamed upload, default 8 MiB, at least 5 MiB) and {@code javelin_s3_upload_concurrency} (parts
 * of one stream in flight, default 4). Whatever is not set comes from the SDK's standard chains:
 * {@code AWS_ENDPOINT_URL}, {@code AWS_REGION}, {@code AWS_ACCESS_KEY_ID},
 * {@code AWS_SECRET_ACCESS_KEY}, {@code AWS_SESSION_TOKEN}, profiles and instance roles. With no
 * region anywhere the store uses us-east-1 (and, on AWS itself, follows a bucket to its region).
 */
public final class S3ObjectStoreProvider implements ObjectStoreProvider {
  @Override
  public Set<String> schemes() {
    return Set.of("s3", "s3a");
  }

  @Override
  public ObjectStore open(URI location, StorageOptions options) {
    return S3ObjectStore.open(location, options);
  }
}
