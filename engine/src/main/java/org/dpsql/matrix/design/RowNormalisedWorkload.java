package org.dpsql.matrix.design;

import java.util.List;
import org.dpsql.matrix.AllRangesWorkload;
import org.dpsql.matrix.ExplicitWorkload;
import org.dpsql.matrix.IdentityWorkload;
import org.dpsql.matrix.KroneckerWorkload;
import org.dpsql.matrix.Matrices;
import org.dpsql.matrix.PermutedWorkload;
import org.dpsql.matrix.PrefixWorkload;
import org.dpsql.matrix.TotalWorkload;
import org.dpsql.matrix.UnionWorkload;
import org.dpsql.matrix.Workload;

/**
 * A workload with every query scaled to unit L2 norm, {@code wᵢ ← wᵢ/||wᵢ||₂} — the relative-error
 * heuristic of seed 001 §2.5 (equivalent to assuming a uniform cell distribution). {@link #of}
 * keeps structure: a Kronecker product or union of normalised parts, a permutation of the
 * normalised base, and closed-form Grams for all ranges ({@code Σ 1/len} over the ranges covering
 * both cells), prefixes ({@code H(n) − H(max(i,j) − 1)}) and the total ({@code J/n}); other
 * workloads are normalised through their explicit rows. Immutable.
 */
public final class RowNormalisedWorkload implements Workload {
  private final Workload source;
  private final double[][] gram;

  private RowNormalisedWorkload(Workload source, double[][] gram) {
    this.source = source;
    this.gram = gram;
  }

  /** The row-normalised version of {@code w}. */
  public static Workload of(Workload w) {
    if (w instanceof IdentityWorkload || w instanceof RowNormalisedWorkload) {
      return w;
    }
    if (w instanceof KroneckerWorkload k) {
      return new KroneckerWorkload(k.kroneckerFactors().stream().map(RowNormalisedWorkload::of).toList());
    }
    if (w instanceof UnionWorkload u) {
      List<Workload> parts = u.members().stream().map(RowNormalisedWorkload::of).toList();
      return new UnionWorkload(parts);
    }
    if (w instanceof PermutedWorkload p) {
      return new PermutedWorkload(of(p.base()), p.permutation());
    }
    int n = w.cells();
    if (w instanceof TotalWorkload) {
      double[][] g = new double[n][n];
      for (double[] row : g) {
        java.util.Arrays.fill(row, 1.0 / n);
      }
      return new RowNormalisedWorkload(w, g);
    }
    if (w instanceof AllRangesWorkload) {
      return new RowNormalisedWorkload(w, allRangesGram(n));
    }
    if (w instanceof PrefixWorkload) {
      double[] h = harmonic(n);
      double[][] g = new double[n][n];
      for (int i = 1; i <= n; i++) {
        for (int j = 1; j <= n; j++) {
          g[i - 1][j - 1] = h[n] - h[Math.max(i, j) - 1];
        }
      }
      return new RowNormalisedWorkload(w, g);
    }
    return new ExplicitWorkload(normalised(w.matrix()));
  }

  /** Scales each non-zero row of {@code rows} (in place) to unit L2 norm; returns {@code rows}. */
  private static double[][] normalised(double[][] rows) {
    for (double[] row : rows) {
      double s = 0;
      for (double v : row) {
        s += v * v;
      }
      if (s > 0) {
        double f = 1 / Math.sqrt(s);
        for (int j = 0; j < row.length; j++) {
          row[j] *= f;
        }
      }
    }
    return rows;
  }

  /** {@code H(0..n)}, {@code H(t) = Σ_{s ≤ t} 1/s}. */
  private static double[] harmonic(int n) {
    double[] h = new double[n + 1];
    for (int t = 1; t <= n; t++) {
      h[t] = h[t - 1] + 1.0 / t;
    }
    return h;
  }

  /**
   * {@code G_ij = Σ_{a ≤ i} Σ_{b ≥ j} 1/(b − a + 1) = A(i) − CH(j−1) + CH(j−i−1)} for {@code i ≤ j}
   * (1-based), with {@code A(i) = Σ_{a ≤ i} H(n − a + 1)} and {@code CH(x) = Σ_{t ≤ x} H(t)}.
   */
  static double[][] allRangesGram(int n) {
    double[] h = harmonic(n);
    double[] ch = new double[n + 1];
    ch[0] = 0;
    for (int t = 1; t <= n; t++) {
      ch[t] = ch[t - 1] + h[t];
    }
    double[] a = new double[n + 1];
    for (int i = 1; i <= n; i++) {
      a[i] = a[i - 1] + h[n - i + 1];
    }
    double[][] g = new double[n][n];
    for (int i = 1; i <= n; i++) {
      for (int j = i; j <= n; j++) {
        double v = a[i] - ch[j - 1] + (j - i - 1 >= 0 ? ch[j - i - 1] : 0);
        g[i - 1][j - 1] = v;
        g[j - 1][i - 1] = v;
      }
    }
    return g;
  }

  @Override
  public int cells() {
    return source.cells();
  }

  @Override
  public long queries() {
    return source.queries();
  }

  @Override
  public double[][] gram() {
    return Matrices.copy(gram);
  }

  @Override
  public double[] gramDiagonal() {
    double[] d = new double[gram.length];
    for (int i = 0; i < d.length; i++) {
      d[i] = gram[i][i];
    }
    return d;
  }

  @Override
  public double[][] matrix() {
    return normalised(source.matrix());
  }

  @Override
  public String toString() {
    return "RowNormalised(" + source + ")";
  }
}
