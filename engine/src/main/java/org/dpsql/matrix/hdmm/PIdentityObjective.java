package org.dpsql.matrix.hdmm;

import org.dpsql.matrix.Workload;

/**
 * The HDMM p-Identity objective (McKenna et al., VLDB 2018) and its exact gradient, in {@code O(n
 * p² + p³)} plus one product {@code (WᵀW)·(n × p)} per evaluation.
 *
 * <p><b>Strategy.</b> For a non-negative {@code p × n} matrix {@code Θ}, {@code A(Θ) = [I; Θ]·D} with
 * {@code D = diag(1/s)}, {@code s_j = 1 + Σᵢ Θᵢⱼ}: every column of {@code [I; Θ]} has L1 norm {@code
 * s_j}, so every column of {@code A} has L1 norm exactly 1 and {@code ||A||₁ = 1}. The objective is
 * the total squared error of the matrix mechanism at unit Laplace variance factor (seed 001 §2.6),
 * {@code f(Θ) = ||A||₁² · trace(G (AᵀA)⁻¹) = trace(G (AᵀA)⁻¹)}, {@code G = WᵀW}.
 *
 * <p><b>Value (Woodbury).</b> {@code AᵀA = D M D} with {@code M = I + ΘᵀΘ}, so {@code (AᵀA)⁻¹ = S
 * M⁻¹ S} ({@code S = D⁻¹ = diag(s)}). With {@code C = S G S} and the {@code p × p} matrix {@code R =
 * (I_p + ΘΘᵀ)⁻¹}, Woodbury gives {@code M⁻¹ = I − Θᵀ R Θ = I − Θᵀ Ψ}, {@code Ψ := R Θ}. Hence, with
 * one product of {@code G} and an {@code n × p} matrix,
 *
 * <pre>
 *   Z := C Ψᵀ = S · G · (S Ψᵀ)                              (n × p)
 *   (C M⁻¹)ⱼⱼ = Cⱼⱼ − (C Ψᵀ Θ)ⱼⱼ = sⱼ² Gⱼⱼ − Σₖ Zⱼₖ Θₖⱼ
 *   f = trace(C M⁻¹) = Σⱼ (C M⁻¹)ⱼⱼ.
 * </pre>
 *
 * <p><b>Gradient.</b> {@code df = trace(dC M⁻¹) − trace(C M⁻¹ dM M⁻¹)} with {@code dM = dΘᵀΘ + ΘᵀdΘ}
 * and {@code dC = dS G S + S G dS}, {@code dsⱼ = Σᵢ dΘᵢⱼ}. The second term is {@code −2⟨Θ K, dΘ⟩}
 * with {@code K = M⁻¹ C M⁻¹}; the first is {@code 2 Σⱼ dsⱼ (C M⁻¹)ⱼⱼ / sⱼ}. Since {@code Θ M⁻¹ = Θ −
 * ΘΘᵀ R Θ = R Θ = Ψ} (because {@code ΘΘᵀ = R⁻¹ − I}),
 *
 * <pre>
 *   Θ K = Ψ C M⁻¹ = Ψ C − (Ψ C Θᵀ) Ψ = Zᵀ − (Θ Z)ᵀ Ψ,
 *   ∂f/∂Θᵢⱼ = 2 (C M⁻¹)ⱼⱼ / sⱼ − 2 (Θ K)ᵢⱼ.
 * </pre>
 *
 * Cost per evaluation: {@code ΘΘᵀ} ({@code n p²/2}), {@code Ψ = RΘ}, {@code ΘZ} and {@code (ΘZ)ᵀΨ}
 * ({@code n p²} each), an {@code O(p³)} Cholesky inverse for {@code R}, and {@code G·(SΨᵀ)} by
 * {@link Workload#gramTimes} — {@code O(n p)} for all ranges and prefixes. The dense alternative
 * {@code trace(G (AᵀA)⁻¹)} costs {@code O(n³)}. The parameter vector is {@code Θ} in row-major
 * order ({@code x[i·n + j] = Θᵢⱼ}). Immutable and thread-safe.
 */
public final class PIdentityObjective implements BoundedLbfgs.Objective {
  private final Workload workload;
  private final int n;
  private final int p;
  private final double[] gramDiagonal;

  /** The objective for {@code workload} with {@code p ≥ 1} extra rows. */
  public PIdentityObjective(Workload workload, int p) {
    if (p < 1) {
      throw new IllegalArgumentException("a p-Identity needs p >= 1 extra rows, got " + p);
    }
    this.workload = workload;
    this.n = workload.cells();
    this.p = p;
    this.gramDiagonal = workload.gramDiagonal();
  }

  /** {@code n}: cells. */
  public int cells() {
    return n;
  }

  /** {@code p}: the number of free rows of {@code Θ}. */
  public int p() {
    return p;
  }

  /** {@code trace(G)}: the objective at {@code Θ = 0} (the identity strategy). */
  public double identityValue() {
    double t = 0;
    for (double v : gramDiagonal) {
      t += v;
    }
    return t;
  }

  /** {@code f(Θ)} for a {@code p × n} non-negative {@code Θ}. */
  public double value(double[][] theta) {
    return evaluate(flatten(theta), null);
  }

  /**
   * {@code f(x)} with {@code x = vec(Θ)} (row-major, non-negative), writing {@code ∇f} into {@code
   * gradient} unless it is {@code null}.
   */
  @Override
  public double evaluate(double[] x, double[] gradient) {
    if (x.length != p * n) {
      throw new IllegalArgumentException("expected " + p + "x" + n + " parameters, got " + x.length);
    }
    double[] s = new double[n];
    java.util.Arrays.fill(s, 1);
    for (int a = 0; a < p; a++) {
      int off = a * n;
      for (int j = 0; j < n; j++) {
        double t = x[off + j];
        if (t < 0 || !Double.isFinite(t)) {
          throw new IllegalArgumentException("Θ must be finite and non-negative, got " + t);
        }
        s[j] += t;
      }
    }
    double[][] theta = new double[p][];
    for (int a = 0; a < p; a++) {
      theta[a] = java.util.Arrays.copyOfRange(x, a * n, (a + 1) * n);
    }
    // Ψ = R Θ with R = (I + ΘΘᵀ)⁻¹
    double[][] q = new double[p][p];
    for (int a = 0; a < p; a++) {
      double[] ta = theta[a];
      for (int b = 0; b <= a; b++) {
        double[] tb = theta[b];
        double t = 0;
        for (int j = 0; j < n; j++) {
          t += ta[j] * tb[j];
        }
        q[a][b] = t;
        q[b][a] = t;
      }
      q[a][a] += 1;
    }
    double[][] psi = SmallDense.multiply(SmallDense.inverseSpd(q), theta);
    // Z = C Ψᵀ = S G (S Ψᵀ)   (n × p)
    double[][] y = new double[n][p];
    for (int a = 0; a < p; a++) {
      double[] pa = psi[a];
      for (int j = 0; j < n; j++) {
        y[j][a] = s[j] * pa[j];
      }
    }
    double[][] z = workload.gramTimes(y);
    // (C M⁻¹)ⱼⱼ = sⱼ² Gⱼⱼ − Σₖ Zⱼₖ Θₖⱼ  and  f = Σⱼ (C M⁻¹)ⱼⱼ
    double[] diag = new double[n];
    double f = 0;
    for (int j = 0; j < n; j++) {
      double[] zj = z[j];
      double sj = s[j];
      double t = 0;
      for (int k = 0; k < p; k++) {
        zj[k] *= sj;
        t += zj[k] * theta[k][j];
      }
      diag[j] = sj * sj * gramDiagonal[j] - t;
      f += diag[j];
    }
    if (gradient == null) {
      return f;
    }
    if (gradient.length != x.length) {
      throw new IllegalArgumentException("gradient buffer has the wrong length");
    }
    // B = Θ Z (p × p);  Θ K = Zᵀ − Bᵀ Ψ
    double[][] bm = new double[p][p];
    for (int a = 0; a < p; a++) {
      double[] ta = theta[a];
      double[] row = bm[a];
      for (int j = 0; j < n; j++) {
        double t = ta[j];
        if (t == 0) {
          continue;
        }
        double[] zj = z[j];
        for (int b = 0; b < p; b++) {
          row[b] += t * zj[b];
        }
      }
    }
    double[][] bt = new double[p][p];
    for (int a = 0; a < p; a++) {
      for (int b = 0; b < p; b++) {
        bt[b][a] = bm[a][b];
      }
    }
    double[][] btPsi = SmallDense.multiply(bt, psi);
    for (int a = 0; a < p; a++) {
      double[] row = btPsi[a];
      int off = a * n;
      for (int j = 0; j < n; j++) {
        gradient[off + j] = 2 * diag[j] / s[j] - 2 * (z[j][a] - row[j]);
      }
    }
    return f;
  }

  /** {@code vec(Θ)} in row-major order. */
  static double[] flatten(double[][] theta) {
    int p = theta.length;
    int n = p == 0 ? 0 : theta[0].length;
    double[] x = new double[p * n];
    for (int a = 0; a < p; a++) {
      if (theta[a].length != n) {
        throw new IllegalArgumentException("Θ is ragged");
      }
      System.arraycopy(theta[a], 0, x, a * n, n);
    }
    return x;
  }

  /** The {@code p × n} matrix of a row-major vector. */
  static double[][] unflatten(double[] x, int p, int n) {
    double[][] t = new double[p][];
    for (int a = 0; a < p; a++) {
      t[a] = java.util.Arrays.copyOfRange(x, a * n, (a + 1) * n);
    }
    return t;
  }

  @Override
  public String toString() {
    return "PIdentityObjective(" + workload + ", p=" + p + ")";
  }
}
