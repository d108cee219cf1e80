package org.dpsql.matrix.hdmm;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.dpsql.matrix.KroneckerStrategy;
import org.dpsql.matrix.Strategies;
import org.dpsql.matrix.Strategy;
import org.dpsql.matrix.Workload;

/**
 * Picks the strategy with the smallest pure-ε-DP error {@code ||A||₁² · trace(WᵀW (AᵀA)⁺)} (the
 * matrix mechanism with Laplace/geometric noise of scale {@code ||A||₁/ε}; seed 001 §2.6) among:
 *
 * <ul>
 *   <li>the identity; hierarchical strategies with branching {@code 2..maxBranching}; the Haar
 *       wavelet when {@code n} is a power of two;
 *   <li>the HDMM p-Identity ({@link PIdentityOptimizer});
 *   <li>the paper's own ε-DP variant: Program-1-style L1 weighting of the wavelet and of the best
 *       hierarchical design ({@link WeightedBasisOptimizer}), where its size limits allow;
 *   <li>weighted marginals ({@link MarginalsOptimizer}) when the workload is a union of
 *       identity/total products.
 * </ul>
 *
 * <p>A Kronecker workload {@code ⊗ Wᵢ} is handled factor by factor: for a Kronecker strategy
 * {@code ||⊗Aᵢ||₁ = Π ||Aᵢ||₁} and the trace factorises, so the best product of per-factor
 * candidates (including per-factor p-Identities, i.e. the Kronecker p-Identity) is the product of
 * the per-factor bests; the marginals candidate is added when it applies. A union of Kronecker products gets the same-family products of the baselines (evaluated
 * as {@code Σⱼ Πᵢ} of factor objectives), the Kronecker p-Identity ({@link
 * KroneckerPIdentityOptimizer}) and the marginals. Every candidate's objective is computed exactly;
 * candidates that cannot be evaluated (too large to densify) are listed as skipped with the reason.
 *
 * <p>Selection reads only the workload, never the data, so it consumes no privacy budget; the
 * release is ε-DP when the mechanism adds Laplace/geometric noise of scale {@code
 * best().strategy().sensitivityL1()/ε} to the strategy answers. Deterministic for a given seed (all
 * randomness is in the seeded optimisers). Immutable and thread-safe.
 */
public final class PureDpStrategySelector {

  /**
   * The selection: the best candidate, every evaluated candidate in evaluation order, and the
   * candidates that were skipped with the reason.
   */
  public record Selection(ScoredStrategy best, List<ScoredStrategy> candidates, List<String> skipped) {
    /** Copies the lists. */
    public Selection {
      candidates = List.copyOf(candidates);
      skipped = List.copyOf(skipped);
    }

    /** The candidate named {@code name}, if evaluated. */
    public Optional<ScoredStrategy> candidate(String name) {
      return candidates.stream().filter(c -> c.strategy().name().equals(name)).findFirst();
    }
  }

  /**
   * Above this many cells a candidate needing a dense {@code n × n} factorisation (hierarchical,
   * wavelet, weighted designs) is skipped; at the limit each such evaluation is about {@code 2n³/3
   * ≈ 6·10⁹} flops.
   */
  public static final int MAX_DENSE_CELLS = 2048;

  private final PIdentityOptimizer pIdentity;
  private final MarginalsOptimizer marginals;
  private final WeightedBasisOptimizer weighted;
  private final int maxBranching;

  /**
   * @param pIdentity the p-Identity optimiser (its seed makes the selection deterministic)
   * @param marginals the marginals optimiser
   * @param weighted the design-weighting optimiser
   * @param maxBranching largest hierarchical branching tried ({@code ≥ 2})
   */
  public PureDpStrategySelector(
      PIdentityOptimizer pIdentity,
      MarginalsOptimizer marginals,
      WeightedBasisOptimizer weighted,
      int maxBranching) {
    if (maxBranching < 2) {
      throw new IllegalArgumentException("maxBranching must be at least 2: " + maxBranching);
    }
    this.pIdentity = pIdentity;
    this.marginals = marginals;
    this.weighted = weighted;
    this.maxBranching = maxBranching;
  }

  /** Default optimisers seeded with {@code seed}; branching 2..16. */
  public static PureDpStrategySelector defaults(long seed) {
    return new PureDpStrategySelector(
        PIdentityOptimizer.defaults(seed),
        MarginalsOptimizer.defaults(seed),
        WeightedBasisOptimizer.defaults(),
        16);
  }

  /**
   * {@code ||A||₁² · trace(WᵀW (AᵀA)⁺)} of any strategy by the cheapest exact route the selector
   * knows (closed forms for identity, p-Identity and marginals; factor products for Kronecker
   * strategies; a sparse-Gram Cholesky trace, about {@code 2n³/3} flops, otherwise; {@link
   * org.dpsql.matrix.ErrorAnalysis#totalSquaredErrorL1} for singular strategies).
   */
  public static double objective(Workload w, Strategy a) {
    return StrategyObjective.of(w, a);
  }

  /** Evaluates every applicable candidate for {@code w} and returns the best. */
  public Selection select(Workload w) {
    Optional<ProductTerms> pt = ProductTerms.of(w);
    List<ScoredStrategy> out = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    if (pt.isEmpty() || pt.get().factors() == 1) {
      oneDimensional(w, out, skipped);
    } else if (pt.get().terms().size() == 1) {
      product(pt.get(), out, skipped);
    } else {
      unionOfProducts(w, pt.get(), out, skipped);
    }
    marginals.optimize(w).ifPresent(out::add);
    ScoredStrategy best = out.stream().min(Comparator.comparingDouble(ScoredStrategy::objective)).orElseThrow();
    return new Selection(best, out, skipped);
  }

  /** Candidates for a workload over {@code n} cells without product structure. */
  private void oneDimensional(Workload w, List<ScoredStrategy> out, List<String> skipped) {
    int n = w.cells();
    out.add(new ScoredStrategy(Strategies.identity(n), w.frobeniusSquared()));
    ScoredStrategy bestHierarchy = null;
    for (Strategy base : baselines(n)) {
      if (n > MAX_DENSE_CELLS) {
        skipped.add(base.name() + ": " + n + " cells exceed the dense limit " + MAX_DENSE_CELLS);
        continue;
      }
      ScoredStrategy s = new ScoredStrategy(base, StrategyObjective.of(w, base));
      out.add(s);
      if (base.name().startsWith("Hierarchical")
          && (bestHierarchy == null || s.objective() < bestHierarchy.objective())) {
        bestHierarchy = s;
      }
    }
    PIdentityOptimizer.Result r = pIdentity.optimize(w);
    out.add(new ScoredStrategy(r.pIdentity(), r.objective()));
    List<Strategy> designs = new ArrayList<>();
    if (Integer.bitCount(n) == 1 && n > 1) {
      designs.add(Strategies.wavelet(n));
    }
    if (bestHierarchy != null) {
      designs.add(bestHierarchy.strategy());
    }
    for (Strategy d : designs) {
      if (weighted.supports(d) && n <= MAX_DENSE_CELLS) {
        out.add(weighted.optimize(w, d));
      } else {
        skipped.add("Weighted(" + d.name() + "): beyond the weighting optimiser's size limit");
      }
    }
  }

  /** A single Kronecker product: the product of the per-factor selections. */
  private void product(ProductTerms pt, List<ScoredStrategy> out, List<String> skipped) {
    int d = pt.factors();
    List<Strategy> best = new ArrayList<>();
    double objective = 1;
    StringBuilder name = new StringBuilder("Kron(");
    for (int i = 0; i < d; i++) {
      Selection s = select(pt.terms().get(0).get(i));
      for (String why : s.skipped()) {
        skipped.add("factor " + i + ": " + why);
      }
      best.add(s.best().strategy());
      objective *= s.best().objective();
      name.append(i == 0 ? "" : " ⊗ ").append(s.best().strategy().name());
    }
    out.add(new ScoredStrategy(new KroneckerStrategy(name.append(')').toString(), best), objective));
  }

  /** A union of Kronecker products: same-family products of baselines, Kronecker p-Identity. */
  private void unionOfProducts(
      Workload w, ProductTerms pt, List<ScoredStrategy> out, List<String> skipped) {
    int[] dims = pt.dims();
    Map<String, List<Strategy>> families = new LinkedHashMap<>();
    List<Strategy> id = new ArrayList<>();
    for (int n : dims) {
      id.add(Strategies.identity(n));
    }
    families.put("Identity", id);
    for (int b = 2; b <= maxBranching; b++) {
      List<Strategy> f = new ArrayList<>();
      boolean distinct = false;
      for (int n : dims) {
        f.add(Strategies.hierarchical(n, Math.min(b, Math.max(2, n))));
        distinct |= b <= n;
      }
      if (distinct) {
        families.put("Hierarchical(b=" + b + ")", f);
      }
    }
    boolean pow2 = true;
    for (int n : dims) {
      pow2 &= Integer.bitCount(n) == 1;
    }
    if (pow2) {
      List<Strategy> f = new ArrayList<>();
      for (int n : dims) {
        f.add(Strategies.wavelet(n));
      }
      families.put("Wavelet", f);
    }
    for (Map.Entry<String, List<Strategy>> e : families.entrySet()) {
      boolean tooLarge = false;
      for (int n : dims) {
        tooLarge |= n > MAX_DENSE_CELLS;
      }
      if (tooLarge) {
        skipped.add("Kron " + e.getKey() + ": a factor exceeds the dense limit");
        continue;
      }
      Strategy a = new KroneckerStrategy("Kron " + e.getKey() + " " + java.util.Arrays.toString(dims), e.getValue());
      out.add(new ScoredStrategy(a, StrategyObjective.of(w, a)));
    }
    out.add(new KroneckerPIdentityOptimizer(pIdentity, 10).optimize(w));
  }

  /** Hierarchical {@code b = 2..min(maxBranching, n)} and the wavelet when {@code n} is a power of two. */
  private List<Strategy> baselines(int n) {
    List<Strategy> list = new ArrayList<>();
    for (int b = 2; b <= Math.min(maxBranching, n); b++) {
      list.add(Strategies.hierarchical(n, b));
    }
    if (Integer.bitCount(n) == 1 && n > 1) {
      list.add(Strategies.wavelet(n));
    }
    return list;
  }

  @Override
  public String toString() {
    return "PureDpStrategySelector(" + pIdentity + ", " + marginals + ", " + weighted
        + ", maxBranching=" + maxBranching + ")";
  }
}
