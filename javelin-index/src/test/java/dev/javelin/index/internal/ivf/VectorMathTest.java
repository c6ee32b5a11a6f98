package dev.javelin.index.internal.ivf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class VectorMathTest {
  @Test
  void transposedL2EqualsL2BitForBit() {
    Random r = new Random(5);
    for (int dim = 1; dim <= 17; dim++) {
      int k = 37;
      float[] x = new float[dim + 3];
      float[] vs = new float[k * dim];
      for (int i = 0; i < x.length; i++) {
        x[i] = (float) r.nextGaussian() * 3;
      }
      for (int i = 0; i < vs.length; i++) {
        vs[i] = (float) r.nextGaussian() * 3;
      }
      float[][] t = VectorMath.transpose(vs, 0, k, dim);
      float[] out = new float[k + 2];
      VectorMath.l2sTransposed(x, 3, dim, t, 0, k, out, 2, VectorMath.l2sScratch(k));
      for (int c = 0; c < k; c++) {
        assertThat(Float.floatToRawIntBits(out[2 + c]))
            .as("dim %d vector %d", dim, c)
            .isEqualTo(Float.floatToRawIntBits(VectorMath.l2(x, 3, vs, c * dim, dim)));
      }
    }
  }

  @Test
  void transposedDotsEqualInnerProducts() {
    Random r = new Random(7);
    // Dimensions below, at and past multiples of the four coordinates a pass takes.
    for (int dim = 1; dim <= 17; dim++) {
      int k = 37;
      float[] x = new float[dim + 3];
      float[] vs = new float[k * dim];
      for (int i = 0; i < x.length; i++) {
        x[i] = (float) r.nextGaussian();
      }
      for (int i = 0; i < vs.length; i++) {
        vs[i] = (float) r.nextGaussian();
      }
      float[][] t = VectorMath.transpose(vs, 0, k, dim);
      float[] out = new float[k];
      VectorMath.dotsTransposed(x, 3, dim, t, 0, k, out);
      for (int c = 0; c < k; c++) {
        double want = 0;
        for (int i = 0; i < dim; i++) {
          want += (double) x[3 + i] * vs[c * dim + i];
        }
        assertThat((double) out[c]).as("dim %d vector %d", dim, c)
            .isCloseTo(want, org.assertj.core.data.Offset.offset(1e-4));
      }
    }
  }

  @Test
  void l2DistanceTableEqualsPerEntryDistances() {
    Random r = new Random(6);
    int dim = 24;
    int m = 4;
    float[] codebook = new float[ProductQuantizer.CENTROIDS * dim];
    for (int i = 0; i < codebook.length; i++) {
      codebook[i] = r.nextFloat();
    }
    ProductQuantizer pq = new ProductQuantizer(dim, m, codebook, false);
    float[] q = new float[dim];
    for (int i = 0; i < dim; i++) {
      q[i] = r.nextFloat();
    }
    float[] table = pq.distanceTable(q);
    int subDim = dim / m;
    for (int j = 0; j < m; j++) {
      for (int c = 0; c < ProductQuantizer.CENTROIDS; c++) {
        int at = j * ProductQuantizer.CENTROIDS + c;
        assertThat(table[at]).isEqualTo(VectorMath.l2(q, j * subDim, codebook, at * subDim, subDim));
      }
    }
  }
}
