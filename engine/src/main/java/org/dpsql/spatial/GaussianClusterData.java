package org.dpsql.spatial;

import java.util.SplittableRandom;

/**
 * Synthetic location data as in Shaham et al. (Section 5.1): Gaussian clusters on an {@code rows x
 * cols} grid. Each of {@code clusters} centres {@code (x_c, y_c)} is uniform on the continuous
 * domain {@code [0, cols) x [0, rows)}; the {@code points} records are split as evenly as possible
 * among the clusters (the first {@code points mod clusters} clusters get one more); a record of a
 * cluster has {@code x ~ N(x_c, σ²)}, {@code y ~ N(y_c, σ²)} independently, redrawn until it falls
 * inside the domain (a Gaussian truncated to the grid, so borders get no artificial mass), and is
 * counted in cell {@code (⌊y⌋, ⌊x⌋)}.
 *
 * <p>Guarantee: deterministic for a given seed ({@link SplittableRandom}; this is test and
 * experiment data, not noise). Immutable.
 *
 * @param rows grid rows N
 * @param cols grid columns M
 * @param clusters number of clusters, at least 1
 * @param points number of records
 * @param sigma the standard deviation σ in cells (the paper: 20, 50, 100)
 * @param seed the generator seed
 */
public record GaussianClusterData(int rows, int cols, int clusters, long points, double sigma, long seed) {

  /** @throws IllegalArgumentException on non-positive sizes or σ */
  public GaussianClusterData {
    if (rows <= 0 || cols <= 0 || clusters <= 0 || points < 0 || !(sigma > 0)) {
      throw new IllegalArgumentException("invalid synthetic data parameters: " + rows + "x" + cols
          + ", clusters=" + clusters + ", points=" + points + ", sigma=" + sigma);
    }
  }

  /** Generates the frequency matrix. */
  public FrequencyMatrix frequencyMatrix() {
    return FrequencyMatrix.ofRowMajor(rows, cols, rowMajorCounts());
  }

  /**
   * Generates the cell counts, row-major ({@code counts[i * cols + j]} is cell {@code (i, j)}), as a
   * backend's {@code GROUP BY} of cell indices would deliver them.
   */
  public long[] rowMajorCounts() {
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] counts = new long[rows * cols];
    long base = points / clusters;
    long extra = points % clusters;
    for (int c = 0; c < clusters; c++) {
      double cx = rnd.nextDouble() * cols;
      double cy = rnd.nextDouble() * rows;
      long n = base + (c < extra ? 1 : 0);
      for (long p = 0; p < n; p++) {
        double x;
        double y;
        do {
          x = cx + sigma * rnd.nextGaussian();
        } while (x < 0 || x >= cols);
        do {
          y = cy + sigma * rnd.nextGaussian();
        } while (y < 0 || y >= rows);
        counts[(int) y * cols + (int) x]++;
      }
    }
    return counts;
  }
}
