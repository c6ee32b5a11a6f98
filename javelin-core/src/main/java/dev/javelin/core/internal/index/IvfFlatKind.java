package dev.javelin.core.internal.index;

import com.google.protobuf.Any;
import dev.javelin.index.IvfParams;
import dev.javelin.index.internal.ivf.IvfBuilder;
import dev.javelin.index.internal.ivf.IvfFlatBuilder;

/** New IVF_FLAT indices ({@link IvfKind}): IVF centroids trained on the sample, the vectors stored as they are. */
final class IvfFlatKind extends IvfKind {
  private final IvfParams params;

  IvfFlatKind(IvfParams params) {
    this.params = params;
  }

  @Override
  IvfBuilder newBuilder(int dim, long rows) {
    return new IvfFlatBuilder(dim, params);
  }

  @Override
  void train(IvfBuilder builder, float[] sample, int sampleRows) {
    ((IvfFlatBuilder) builder).train(sample, sampleRows);
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
    return IvfBuilder.details(params, true);
  }
}
