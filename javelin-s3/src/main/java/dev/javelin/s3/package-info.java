/**
 * The S3 object store: {@link dev.javelin.s3.S3ObjectStore}, opened for {@code s3://} and
 * {@code s3a://} URIs by {@link dev.javelin.s3.S3ObjectStoreProvider}.
 */
package dev.javelin.s3;
