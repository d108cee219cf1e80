package org.dpsql.matrix.design;

import java.util.stream.IntStream;

/**
 * A design with a (structured) base and a few extra explicit columns, e.g. the principal eigen-
 * queries of a closed-form basis plus the lumped column of the remaining ones (§2.9). The extra
 * columns must be functions of the base's rows (so that cells the base merges are merged here too).
 * Package-private.
 */
final class AugmentedSquaredDesign implements SquaredDesign {
  private final SquaredDesign base;
  private final double[][] extra; // e × n

  AugmentedSquaredDesign(SquaredDesign base, double[][] extra) {
    this.base = base;
    this.extra = extra;
  }

  @Override
  public int cells() {
    return base.cells();
  }

  @Override
  public int designs() {
    return base.designs() + extra.length;
  }

  private double[] head(double[] u) {
    return java.util.Arrays.copyOf(u, base.designs());
  }

  @Override
  public double[] times(double[] u) {
    double[] out = base.times(head(u));
    int k = base.designs();
    for (int e = 0; e < extra.length; e++) {
      double ue = u[k + e];
      double[] col = extra[e];
      for (int j = 0; j < out.length; j++) {
        out[j] += ue * col[j];
      }
    }
    return out;
  }

  @Override
  public double[] transposeTimes(double[] mu) {
    double[] b = base.transposeTimes(mu);
    double[] out = java.util.Arrays.copyOf(b, designs());
    for (int e = 0; e < extra.length; e++) {
      out[b.length + e] = Dense.dot(extra[e], mu, mu.length);
    }
    return out;
  }

  @Override
  public double[][] designGram(double[] w) {
    int k = base.designs();
    int t = designs();
    int n = cells();
    double[][] b = base.designGram(w);
    double[][] g = new double[t][t];
    for (int i = 0; i < k; i++) {
      System.arraycopy(b[i], 0, g[i], 0, k);
    }
    for (int e = 0; e < extra.length; e++) {
      double[] we = new double[n];
      for (int j = 0; j < n; j++) {
        we[j] = w[j] * extra[e][j];
      }
      double[] cross = base.transposeTimes(we);
      for (int i = 0; i < k; i++) {
        g[i][k + e] = cross[i];
        g[k + e][i] = cross[i];
      }
      for (int f = 0; f <= e; f++) {
        double v = Dense.dot(we, extra[f], n);
        g[k + e][k + f] = v;
        g[k + f][k + e] = v;
      }
    }
    return g;
  }

  @Override
  public double[][] cellGram(double[] d) {
    int k = base.designs();
    int n = cells();
    double[][] g = base.cellGram(head(d));
    for (int e = 0; e < extra.length; e++) {
      double de = d[k + e];
      double[] col = extra[e];
      IntStream.range(0, n)
          .parallel()
          .forEach(
              a -> {
                double ca = de * col[a];
                double[] row = g[a];
                for (int c = 0; c < n; c++) {
                  row[c] += ca * col[c];
                }
              });
    }
    return g;
  }

  @Override
  public double[] column(int i) {
    int k = base.designs();
    return i < k ? base.column(i) : extra[i - k].clone();
  }

  @Override
  public SquaredDesign distinctCells() {
    int[] idx = base.distinctCellIndices();
    if (idx.length == cells()) {
      return this;
    }
    double[][] e = new double[extra.length][idx.length];
    for (int f = 0; f < extra.length; f++) {
      for (int t = 0; t < idx.length; t++) {
        e[f][t] = extra[f][idx[t]];
      }
    }
    return new AugmentedSquaredDesign(base.distinctCells(), e);
  }

  @Override
  public int[] distinctCellIndices() {
    return base.distinctCellIndices();
  }

  @Override
  public SquaredDesign selectDesigns(int[] designs) {
    int k = base.designs();
    int nb = 0;
    for (int d : designs) {
      if (d < k) {
        nb++;
      }
    }
    int[] b = new int[nb];
    double[][] e = new double[designs.length - nb][];
    int tb = 0;
    int te = 0;
    for (int d : designs) {
      if (d < k) {
        if (te > 0) {
          throw new IllegalArgumentException("base designs must come before the extra columns");
        }
        b[tb++] = d;
      } else {
        e[te++] = extra[d - k];
      }
    }
    if (nb == 0) {
      return DenseSquaredDesign.wrap(e);
    }
    return new AugmentedSquaredDesign(base.selectDesigns(b), e);
  }
}
