package org.dpsql.matrix.hdmm;

import java.util.ArrayList;
import java.util.List;
import org.dpsql.matrix.KroneckerStrategy;
import org.dpsql.matrix.Strategies;
import org.dpsql.matrix.Strategy;
import org.dpsql.matrix.Workload;

/**
 * Kronecker products of p-Identity strategies {@code A = A₁ ⊗ … ⊗ A_d} for multi-attribute
 * workloads (HDMM §6). Each {@code Aᵢ} has {@code ||Aᵢ||₁ = 1}, so {@code ||A||₁ = Π ||Aᵢ||₁ = 1}.
 *
 * <p><b>Product workload</b> {@code W = ⊗ Wᵢ}: {@code (⊗Aᵢ)ᵀ(⊗Aᵢ) = ⊗ AᵢᵀAᵢ}, so {@code trace(WᵀW
 * (AᵀA)⁻¹) = Πᵢ trace(WᵢᵀWᵢ (AᵢᵀAᵢ)⁻¹)}; every factor is optimised separately by the {@link
 * PIdentityOptimizer} and the objective is the product of the factors' objectives.
 *
 * <p><b>Union of products</b> {@code WᵀW = Σⱼ ⊗ᵢ Gᵢⱼ}: the objective {@code Σⱼ Πᵢ tᵢⱼ}, {@code tᵢⱼ =
 * trace(Gᵢⱼ (AᵢᵀAᵢ)⁻¹)}, is minimised by block coordinate descent (as HDMM does): with the other
 * factors fixed it equals {@code trace((Σⱼ cⱼ Gᵢⱼ)(AᵢᵀAᵢ)⁻¹)}, {@code cⱼ = Π_{k≠i} t_kⱼ}, a
 * single-factor p-Identity problem, solved warm-started from the current {@code Aᵢ} (so the
 * objective never increases). The first pass takes the other factors as identities. Rounds stop
 * when the relative decrease falls below {@code 10⁻⁶} or after {@code maxRounds}.
 *
 * <p>A factor for which the identity beats the optimised p-Identity is the identity. Deterministic
 * for a given seed of the factor optimiser. Immutable and thread-safe.
 */
public final class KroneckerPIdentityOptimizer {
  private final PIdentityOptimizer factorOptimizer;
  private final int maxRounds;

  /** Uses {@code factorOptimizer} per factor and at most {@code maxRounds ≥ 1} rounds for unions. */
  public KroneckerPIdentityOptimizer(PIdentityOptimizer factorOptimizer, int maxRounds) {
    if (maxRounds < 1) {
      throw new IllegalArgumentException("maxRounds must be positive: " + maxRounds);
    }
    this.factorOptimizer = factorOptimizer;
    this.maxRounds = maxRounds;
  }

  /** The default factor optimiser with {@code seed} and 10 rounds. */
  public static KroneckerPIdentityOptimizer defaults(long seed) {
    return new KroneckerPIdentityOptimizer(PIdentityOptimizer.defaults(seed), 10);
  }

  /**
   * The optimised Kronecker p-Identity with its objective {@code ||A||₁² trace(WᵀW (AᵀA)⁻¹)}.
   *
   * @throws IllegalArgumentException if {@code w} is a union whose members have different factor
   *     shapes
   */
  public ScoredStrategy optimize(Workload w) {
    ProductTerms terms =
        ProductTerms.of(w)
            .orElseThrow(() -> new IllegalArgumentException(
                "not a union of Kronecker products with common factor shapes: " + w));
    int d = terms.factors();
    int k = terms.terms().size();
    if (d == 1 && k == 1) {
      return factorOptimizer.optimize(w).best();
    }
    Strategy[] factors = new Strategy[d];
    double[][] t = new double[d][k];
    for (int i = 0; i < d; i++) {
      factors[i] = Strategies.identity(terms.dims()[i]);
      for (int j = 0; j < k; j++) {
        t[i][j] = terms.terms().get(j).get(i).frobeniusSquared();
      }
    }
    double total = total(t);
    int rounds = k == 1 ? 1 : maxRounds;
    for (int round = 0; round < rounds; round++) {
      double before = total;
      for (int i = 0; i < d; i++) {
        double[] c = new double[k];
        for (int j = 0; j < k; j++) {
          double prod = 1;
          for (int o = 0; o < d; o++) {
            if (o != i) {
              prod *= t[o][j];
            }
          }
          c[j] = prod;
        }
        List<Workload> members = terms.factor(i);
        Workload effective = k == 1 ? members.get(0) : new WeightedGramSum(members, c);
        double[][] warm = factors[i] instanceof PIdentityStrategy pi ? pi.theta() : null;
        ScoredStrategy best = factorOptimizer.optimize(effective, warm).best();
        // keep the new factor only if it does not increase the objective
        double[] ti = new double[k];
        for (int j = 0; j < k; j++) {
          ti[j] = factorValue(members.get(j), best.strategy());
        }
        double current = 0;
        double proposed = 0;
        for (int j = 0; j < k; j++) {
          current += c[j] * t[i][j];
          proposed += c[j] * ti[j];
        }
        if (proposed <= current) {
          factors[i] = best.strategy();
          t[i] = ti;
        }
      }
      total = total(t);
      if (before - total <= 1e-6 * before) {
        break;
      }
    }
    List<Strategy> list = new ArrayList<>(List.of(factors));
    StringBuilder name = new StringBuilder("KronPIdentity(");
    for (int i = 0; i < d; i++) {
      name.append(i == 0 ? "" : " ⊗ ").append(factors[i].name());
    }
    return new ScoredStrategy(new KroneckerStrategy(name.append(')').toString(), list), total);
  }

  /** {@code trace(G (AᵀA)⁻¹)} for a factor strategy that is a p-Identity or the identity. */
  static double factorValue(Workload g, Strategy a) {
    if (a instanceof PIdentityStrategy pi) {
      return new PIdentityObjective(g, pi.p()).value(pi.theta());
    }
    if (a instanceof org.dpsql.matrix.IdentityStrategy) {
      return g.frobeniusSquared();
    }
    throw new IllegalArgumentException("not a p-Identity or identity factor: " + a.name());
  }

  private static double total(double[][] t) {
    int k = t[0].length;
    double s = 0;
    for (int j = 0; j < k; j++) {
      double prod = 1;
      for (double[] ti : t) {
        prod *= ti[j];
      }
      s += prod;
    }
    return s;
  }

  @Override
  public String toString() {
    return "KroneckerPIdentityOptimizer(" + factorOptimizer + ", maxRounds=" + maxRounds + ")";
  }
}
