package org.dpsql.matrix.design;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.dpsql.matrix.Matrices;
import org.dpsql.matrix.UnionWorkload;
import org.dpsql.matrix.Workload;

/**
 * Eigen-Design for a union of Kronecker products {@code WᵀW = Σᵢ ⊗ₐ Gᵢₐ} whose factor Grams commute
 * attribute by attribute (beyond seed 001's dense algorithm). Then every attribute has one
 * orthonormal basis {@code Vₐ} diagonalising all its factor Grams, the Kronecker products of those
 * basis vectors are eigen-queries of {@code WᵀW} with eigenvalues {@code Σᵢ Πₐ λᵢₐ}, and Program 2 runs
 * on them without any {@code n × n} eigensolve.
 *
 * <p>Marginal workloads (factors {@code I} and the all-ones {@code J}) get a flat basis — the
 * normalised Sylvester–Hadamard matrix for power-of-two attributes, the real Fourier basis otherwise
 * — so that (for Hadamard) every eigen-query has squared entries {@code 1/n}: the closed-form
 * weights {@code uᵢ ∝ √σᵢ} are then optimal, the design attains svdb exactly, and the uniform
 * multipliers certify it (spec §3). For other commuting families (e.g. {@code I} with all ranges) the
 * basis is the eigenbasis of the one non-trivial Gram, or of a generic combination of them.
 */
public final class SharedBasisDesign {
  private SharedBasisDesign() {}

  /**
   * Designs {@code w} on a shared Kronecker eigenbasis, or returns {@code null} when the members are
   * not Kronecker products over the same attribute sizes or some attribute's Grams do not commute.
   */
  public static EigenStrategy design(UnionWorkload w, EigenDesign designer) {
    EigenBasis basis = basis(w);
    return basis == null ? null : designer.design(basis, w);
  }

  /** The shared Kronecker eigenbasis of {@code w}'s Gram (non-zero eigenvalues), or {@code null}. */
  public static EigenBasis basis(UnionWorkload w) {
    List<Workload> members = w.members();
    List<Workload> first = members.get(0).kroneckerFactors();
    int attrs = first.size();
    int[] dims = first.stream().mapToInt(Workload::cells).toArray();
    for (Workload m : members) {
      List<Workload> f = m.kroneckerFactors();
      if (f.size() != attrs) {
        return null;
      }
      for (int a = 0; a < attrs; a++) {
        if (f.get(a).cells() != dims[a] || dims[a] > 4096) {
          return null;
        }
      }
    }
    double[][][] bases = new double[attrs][][];
    double[][][] lambda = new double[members.size()][attrs][];
    for (int a = 0; a < attrs; a++) {
      List<double[][]> grams = new ArrayList<>();
      for (Workload m : members) {
        grams.add(m.kroneckerFactors().get(a).gram());
      }
      double[][] v = sharedBasis(grams, members, a);
      if (v == null) {
        return null;
      }
      bases[a] = v;
      for (int i = 0; i < members.size(); i++) {
        lambda[i][a] = diagonalIn(v, grams.get(i));
        if (lambda[i][a] == null) {
          return null;
        }
      }
    }
    int n = w.cells();
    double[] sigma = new double[n];
    int[] idx = new int[attrs];
    double max = 0;
    for (int t = 0; t < n; t++) {
      double s = 0;
      for (double[][] li : lambda) {
        double p = 1;
        for (int a = 0; a < attrs; a++) {
          p *= li[a][idx[a]];
        }
        s += p;
      }
      sigma[t] = s;
      max = Math.max(max, s);
      increment(idx, dims);
    }
    List<Integer> kept = new ArrayList<>();
    for (int t = 0; t < n; t++) {
      if (sigma[t] > EigenBasis.DEFAULT_TOLERANCE * max) {
        kept.add(t);
      }
    }
    kept.sort((x, y) -> Double.compare(sigma[y], sigma[x]));
    double[] values = new double[kept.size()];
    double[][] rows = new double[kept.size()][];
    for (int r = 0; r < kept.size(); r++) {
      int t = kept.get(r);
      values[r] = sigma[t];
      int[] digits = digits(t, dims);
      List<double[]> parts = new ArrayList<>();
      for (int a = 0; a < attrs; a++) {
        parts.add(bases[a][digits[a]]);
      }
      rows[r] = Matrices.kroneckerOfVectors(parts);
    }
    return EigenBasis.trusted(values, rows, "shared-kronecker(" + w + ")");
  }

  /** One orthonormal basis (rows) diagonalising every Gram in {@code grams}, or {@code null}. */
  private static double[][] sharedBasis(List<double[][]> grams, List<Workload> members, int attr) {
    int d = grams.get(0).length;
    boolean allIJ = true;
    for (double[][] g : grams) {
      allIJ &= isIdentityPlusOnes(g);
    }
    if (allIJ) {
      return Integer.bitCount(d) == 1 ? hadamard(d) : realFourier(d);
    }
    for (int x = 0; x < grams.size(); x++) {
      for (int y = 0; y < x; y++) {
        if (!commute(grams.get(x), grams.get(y))) {
          return null;
        }
      }
    }
    // a single non-scalar Gram: use its (possibly closed-form) eigenbasis
    int nonScalar = -1;
    boolean single = true;
    for (int x = 0; x < grams.size(); x++) {
      if (!isScalarIdentity(grams.get(x))) {
        if (nonScalar >= 0 && !proportional(grams.get(nonScalar), grams.get(x))) {
          single = false;
        }
        if (nonScalar < 0) {
          nonScalar = x;
        }
      }
    }
    if (nonScalar < 0) {
      return identityRows(d);
    }
    if (single) {
      EigenBasis b = EigenBasis.of(members.get(nonScalar).kroneckerFactors().get(attr));
      if (b.isComplete()) {
        return b.eigenQueries(0, d);
      }
      return SymmetricEigen.of(grams.get(nonScalar)).vectors();
    }
    SplittableRandom r = new SplittableRandom(20240601L + d);
    double[][] mix = new double[d][d];
    for (double[][] g : grams) {
      double c = 1 + r.nextDouble();
      double scale = 1 / Math.max(1e-300, maxAbs(g));
      for (int i = 0; i < d; i++) {
        for (int j = 0; j < d; j++) {
          mix[i][j] += c * scale * g[i][j];
        }
      }
    }
    return SymmetricEigen.of(mix).vectors();
  }

  /** {@code diag(V G Vᵀ)} if {@code V G Vᵀ} is diagonal to {@code 1e-9} relative, else {@code null}. */
  private static double[] diagonalIn(double[][] v, double[][] g) {
    int d = g.length;
    double[][] gv = org.dpsql.matrix.Matrices.multiply(g, Dense.transpose(v)); // d × d, columns G vᵢ
    double scale = Math.max(1e-300, maxAbs(g)) * d;
    double[] lam = new double[d];
    for (int a = 0; a < d; a++) {
      for (int b = 0; b < d; b++) {
        double s = 0;
        for (int j = 0; j < d; j++) {
          s += v[a][j] * gv[j][b];
        }
        if (a == b) {
          lam[a] = Math.max(0, s);
        } else if (Math.abs(s) > 1e-9 * scale) {
          return null;
        }
      }
    }
    return lam;
  }

  private static boolean isIdentityPlusOnes(double[][] g) {
    int d = g.length;
    double diag = g[0][0];
    double off = d > 1 ? g[0][1] : 0;
    double tol = 1e-12 * Math.max(1, maxAbs(g));
    for (int i = 0; i < d; i++) {
      for (int j = 0; j < d; j++) {
        if (Math.abs(g[i][j] - (i == j ? diag : off)) > tol) {
          return false;
        }
      }
    }
    return true;
  }

  private static boolean isScalarIdentity(double[][] g) {
    return isIdentityPlusOnes(g) && (g.length == 1 || Math.abs(g[0][1]) <= 1e-12 * Math.max(1, maxAbs(g)));
  }

  private static boolean proportional(double[][] a, double[][] b) {
    double ma = maxAbs(a);
    double mb = maxAbs(b);
    for (int i = 0; i < a.length; i++) {
      for (int j = 0; j < a.length; j++) {
        if (Math.abs(a[i][j] / ma - b[i][j] / mb) > 1e-12) {
          return false;
        }
      }
    }
    return true;
  }

  private static boolean commute(double[][] a, double[][] b) {
    double[][] ab = org.dpsql.matrix.Matrices.multiply(a, b);
    double[][] ba = org.dpsql.matrix.Matrices.multiply(b, a);
    double tol = 1e-10 * maxAbs(a) * maxAbs(b) * a.length;
    for (int i = 0; i < a.length; i++) {
      for (int j = 0; j < a.length; j++) {
        if (Math.abs(ab[i][j] - ba[i][j]) > tol) {
          return false;
        }
      }
    }
    return true;
  }

  private static double maxAbs(double[][] g) {
    double m = 0;
    for (double[] row : g) {
      for (double v : row) {
        m = Math.max(m, Math.abs(v));
      }
    }
    return m;
  }

  /** The normalised Sylvester–Hadamard matrix of order {@code d = 2^L} (first row constant). */
  static double[][] hadamard(int d) {
    double[][] h = new double[d][d];
    double c = 1 / Math.sqrt(d);
    for (int i = 0; i < d; i++) {
      for (int j = 0; j < d; j++) {
        h[i][j] = (Integer.bitCount(i & j) % 2 == 0) ? c : -c;
      }
    }
    return h;
  }

  /** The real orthonormal Fourier basis of order {@code d} (constant row first). */
  static double[][] realFourier(int d) {
    double[][] f = new double[d][d];
    int r = 0;
    Arrays.fill(f[r++], 1 / Math.sqrt(d));
    for (int k = 1; 2 * k < d; k++) {
      for (int j = 0; j < d; j++) {
        f[r][j] = Math.sqrt(2.0 / d) * Math.cos(2 * Math.PI * k * j / d);
        f[r + 1][j] = Math.sqrt(2.0 / d) * Math.sin(2 * Math.PI * k * j / d);
      }
      r += 2;
    }
    if (d % 2 == 0) {
      for (int j = 0; j < d; j++) {
        f[r][j] = (j % 2 == 0 ? 1 : -1) / Math.sqrt(d);
      }
    }
    return f;
  }

  private static double[][] identityRows(int d) {
    return org.dpsql.matrix.Matrices.identity(d);
  }

  private static void increment(int[] idx, int[] dims) {
    for (int a = idx.length - 1; a >= 0; a--) {
      if (++idx[a] < dims[a]) {
        return;
      }
      idx[a] = 0;
    }
  }

  private static int[] digits(int t, int[] dims) {
    int[] d = new int[dims.length];
    for (int a = dims.length - 1; a >= 0; a--) {
      d[a] = t % dims[a];
      t /= dims[a];
    }
    return d;
  }
}
