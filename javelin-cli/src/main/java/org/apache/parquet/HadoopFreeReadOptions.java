package org.apache.parquet;

import java.util.HashMap;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.format.converter.ParquetMetadataConverter;

/**
 * Read options for parquet-java's {@code ParquetFileReader} made without Hadoop on the class path.
 * {@code ParquetReadOptions.Builder} cannot be: its constructor asks {@code ParquetInputFormat} for
 * the configured record filter, and that class extends Hadoop's {@code FileInputFormat}
 * (apache/parquet-java#3780), which would put some 20 MB of Hadoop into the command line. The
 * options' constructor is package-private, hence this class's package; the pinned parquet-java
 * version and the CLI's Parquet tests (run without Hadoop) keep it honest.
 */
public final class HadoopFreeReadOptions {
  private static final int MAX_ALLOCATION = 8 << 20;

  private HadoopFreeReadOptions() {}

  /** Options that read every row (no filters, no checksums asked) with these page codecs. */
  public static ParquetReadOptions create(CompressionCodecFactory codecs) {
    return new ParquetReadOptions(
        false, // signed min/max of strings: statistics are not used
        false, // statistics filter
        false, // dictionary filter
        false, // record filter
        false, // column index filter
        false, // page checksums
        false, // bloom filter
        false, // off-heap decryption buffers
        false, // Hadoop vectored I/O
        FilterCompat.NOOP,
        ParquetMetadataConverter.NO_FILTER,
        codecs,
        new HeapByteBufferAllocator(),
        MAX_ALLOCATION,
        new HashMap<>(),
        null, // no decryption
        null, // no metrics
        new PlainParquetConfiguration());
  }
}
