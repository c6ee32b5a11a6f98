package dev.javelin.core.internal.index;

import com.google.protobuf.Any;
import dev.javelin.index.IvfParams;
import dev.javelin.index.internal.ivf.IvfBuilder;
import dev.javelin.index.internal.ivf.IvfHnswSqIndex;
import dev.javelin.index.internal.ivf.IvfSqBuilder;

/**
 * New IVF_SQ indices ({@link IvfKind}): IVF centroids and SQ bounds trained on the sample, 8-bit
 * codes; with HNSW parameters IVF_HNSW_SQ (the same, and a graph per partition).
 */
final class IvfSqKind extends IvfKind {
  private final IvfParams params;
  // Null for IVF_SQ.
  private final IvfHnswSqIndex.HnswParams hnsw;

  IvfSqKind(IvfParams params, IvfHnswSqIndex.HnswParams hnsw) {
    this.params = params;
    this.hnsw = hnsw;
  }

  @Override
  IvfBuilder newBuilder(int dim, long rows) {
    return new IvfSqBuilder(dim, params, hnsw);
  }

  @Override
  void train(IvfBuilder builder, float[] sample, int sampleRows) {
    ((IvfSqBuilder) builder).train(sample, sampleRows);
  }

  @Override
  int sampleSize(int dim, long rows) {
    return params.sampleSize();
  }

  @Override
  long seed(int dim, long rows) {
    return params.seed();
  }

  @Override
  Any details(int dim, long rows) {
    return hnsw == null ? IvfBuilder.details(params, false) : IvfBuilder.hnswDetails(params, hnsw);
  }
}
