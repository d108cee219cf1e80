package org.dpsql.matrix.hdmm;

import org.dpsql.matrix.Strategy;

/**
 * An HDMM p-Identity strategy {@code A = [I; Θ]·D} over {@code n} cells: the identity plus {@code p}
 * non-negative rows {@code Θ}, every column rescaled by {@code D = diag(1/(1 + Σᵢ Θᵢⱼ))} to L1 norm
 * exactly 1 (up to one rounding), so {@code ||A||₁ = 1}. Full column rank for every {@code Θ} (it
 * contains a positive multiple of {@code I}), so every workload is supported. Immutable.
 */
public final class PIdentityStrategy implements Strategy {
  private final double[][] theta;
  private final double[] scale;
  private final int n;

  /** The p-Identity with free rows {@code theta} ({@code p × n}, {@code p ≥ 1}, finite and {@code ≥ 0}; copied). */
  public PIdentityStrategy(double[][] theta) {
    if (theta.length == 0 || theta[0].length == 0) {
      throw new IllegalArgumentException("Θ needs at least one row and one cell");
    }
    this.n = theta[0].length;
    this.theta = new double[theta.length][];
    this.scale = new double[n];
    java.util.Arrays.fill(scale, 1);
    for (int a = 0; a < theta.length; a++) {
      if (theta[a].length != n) {
        throw new IllegalArgumentException("row " + a + " of Θ has " + theta[a].length + " cells, not " + n);
      }
      for (int j = 0; j < n; j++) {
        double v = theta[a][j];
        if (!(v >= 0) || !Double.isFinite(v)) {
          throw new IllegalArgumentException("Θ must be finite and non-negative, got " + v);
        }
        scale[j] += v;
      }
      this.theta[a] = theta[a].clone();
    }
  }

  /** {@code p}: the number of rows of {@code Θ}. */
  public int p() {
    return theta.length;
  }

  /** A copy of {@code Θ}. */
  public double[][] theta() {
    double[][] c = new double[theta.length][];
    for (int a = 0; a < theta.length; a++) {
      c[a] = theta[a].clone();
    }
    return c;
  }

  @Override
  public int cells() {
    return n;
  }

  @Override
  public long rows() {
    return (long) n + theta.length;
  }

  @Override
  public double[][] matrix() {
    double[][] a = new double[n + theta.length][n];
    for (int j = 0; j < n; j++) {
      a[j][j] = 1 / scale[j];
    }
    for (int r = 0; r < theta.length; r++) {
      for (int j = 0; j < n; j++) {
        a[n + r][j] = theta[r][j] / scale[j];
      }
    }
    return a;
  }

  /** {@code AᵀA = D (I + ΘᵀΘ) D}. */
  @Override
  public double[][] gram() {
    double[][] g = new double[n][n];
    for (double[] row : theta) {
      for (int i = 0; i < n; i++) {
        double v = row[i];
        if (v == 0) {
          continue;
        }
        double[] gi = g[i];
        for (int j = 0; j < n; j++) {
          gi[j] += v * row[j];
        }
      }
    }
    for (int i = 0; i < n; i++) {
      g[i][i] += 1;
      for (int j = 0; j < n; j++) {
        g[i][j] /= scale[i] * scale[j];
      }
    }
    return g;
  }

  @Override
  public double[] columnNormsSquared() {
    double[] d = new double[n];
    for (int j = 0; j < n; j++) {
      double t = 1 / (scale[j] * scale[j]);
      for (double[] row : theta) {
        double v = row[j] / scale[j];
        t += v * v;
      }
      d[j] = t;
    }
    return d;
  }

  @Override
  public double[] columnNormsL1() {
    double[] d = new double[n];
    for (int j = 0; j < n; j++) {
      double t = 1 / scale[j];
      for (double[] row : theta) {
        t += row[j] / scale[j];
      }
      d[j] = t;
    }
    return d;
  }

  @Override
  public String name() {
    return "PIdentity(p=" + theta.length + ", n=" + n + ")";
  }

  @Override
  public String toString() {
    return name();
  }
}
