package dev.javelin.core.internal.index;

import com.google.protobuf.Any;
import dev.javelin.index.DistanceType;
import dev.javelin.index.IvfPqParams;
import dev.javelin.index.internal.ivf.IvfBuilder;
import dev.javelin.index.internal.ivf.IvfPqBuilder;

/** New IVF_PQ indices ({@link IvfKind}): IVF centroids and a PQ codebook trained on the sample, 8-bit codes. */
final class IvfPqKind extends IvfKind {
  private final IvfPqParams given;

  /** @param given the build parameters, or null for Lance's defaults for the column */
  IvfPqKind(IvfPqParams given) {
    this.given = given;
  }

  private IvfPqParams params(int dim, long rows) {
    return given != null ? given : IvfPqParams.defaults(rows, dim, DistanceType.L2);
  }

  @Override
  IvfBuilder newBuilder(int dim, long rows) {
    return new IvfPqBuilder(dim, params(dim, rows));
  }

  @Override
  void train(IvfBuilder builder, float[] sample, int sampleRows) {
    ((IvfPqBuilder) builder).train(sample, sampleRows);
  }

  @Override
  int sampleSize(int dim, long rows) {
    return params(dim, rows).sampleSize();
  }

  @Override
  long seed(int dim, long rows) {
    return params(dim, rows).seed();
  }

  @Override
  Any details(int dim, long rows) {
    return IvfPqBuilder.details(params(dim, rows));
  }
}
