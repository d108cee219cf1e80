package org.dpsql.release;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.errors.SqlStates;
import org.dpsql.matrix.DirectStrategy;
import org.dpsql.matrix.ErrorAnalysis;
import org.dpsql.matrix.Strategies;
import org.dpsql.matrix.Strategy;
import org.dpsql.matrix.Workload;
import org.dpsql.matrix.design.DesignOutcome;
import org.dpsql.matrix.design.StrategyDesigner;
import org.dpsql.matrix.design.TransformDesign;
import org.dpsql.matrix.design.TransformStrategy;
import org.dpsql.matrix.hdmm.MarginalsOptimizer;
import org.dpsql.matrix.hdmm.PIdentityOptimizer;
import org.dpsql.matrix.hdmm.PureDpStrategySelector;
import org.dpsql.matrix.hdmm.ScoredStrategy;
import org.dpsql.matrix.hdmm.WeightedBasisOptimizer;
import org.dpsql.matrix.mechanism.MatrixMechanism;
import org.dpsql.matrix.mechanism.NoiseSpec;
import org.dpsql.matrix.mechanism.StrategyCache;
import org.dpsql.matrix.mechanism.ZcdpToApproxDp;
import org.dpsql.mechanism.Rational;
import org.dpsql.policy.BudgetAmount;
import org.dpsql.rewrite.Measurement;
import org.dpsql.sql.DpHint;
import org.dpsql.sql.Mechanism;

/**
 * How a workload statement spends its budget: the charge, and for each data vector the strategy
 * of the matrix mechanism (seed 001) and its exact lattice noise, chosen by expected error.
 *
 * <p>Privacy: the statement's cost (hint, else the policy's {@code default_query}) is split equally
 * over its {@code a} data vectors. A privacy unit adds or removes at most {@code c = k ×
 * perRowBound} to the L1 norm of a data vector ({@link Measurement}), so for a strategy {@code Â}
 * the measurement's L2 sensitivity is at most {@code c‖Â‖₂} and its L1 sensitivity {@code
 * c‖Â‖₁}. Each vector is measured by {@link MatrixMechanism} at {@code ρ/(a c²)}-zCDP for unit
 * sensitivity (zCDP accounting; and approx accounting, where ρ is the largest value whose zCDP
 * implies the charged (ε,δ) by the tight conversion of {@link ZcdpToApproxDp}), hence
 * {@code ρ/a}-zCDP for the unit, or at {@code ε/(a c)}-DP with discrete Laplace noise (pure
 * accounting), hence {@code ε/a}-DP; the statement is ρ-zCDP / (ε,δ)-DP / ε-DP by composition.
 *
 * <p>Choice: {@code auto} computes the expected total squared error of every candidate strategy
 * from the formula (no data) and takes the lowest; a named mechanism ({@code identity},
 * {@code hierarchical}, {@code wavelet}, {@code fourier}, {@code eigen}) is used as asked if it can
 * represent the workload. The workload's own rows are a candidate whenever it has fewer queries
 * than cells and integer rows of at most {@link #MAX_DIRECT_NONZEROS} non-zeros, whatever the
 * number of cells: answered by least squares when their rows can be solved, else by their own
 * measurements ({@link #ownRowsCandidate}: the same measurement and charge, no cell estimates),
 * which a release that must return cell estimates does not use.
 */
public record WorkloadCalibration(PrivacyCost charge, List<VectorPlan> perMeasurement) {

  /** The most cells for which dense candidates (eigen, Fourier, hierarchical, wavelet) are tried. */
  public static final int MAX_DENSE_CELLS = 2048;

  /** One data vector's candidates, its choice and its noise. */
  public record VectorPlan(Measurement measurement, Workload workload, List<Candidate> candidates,
      Candidate chosen, NoiseSpec noise, double lowerBoundRmse) {

    /** The expected root mean squared error per query of the chosen strategy, in real units. */
    public double expectedRmse() {
      return chosen.rmse();
    }
  }

  /**
   * A strategy with its expected root mean squared error per query (real units); {@code
   * cellEstimates} false when its release answers only the workload's own queries by their own
   * measurements ({@link MatrixMechanism#answeringOwnRows}: no cell estimates, no least squares).
   */
  public record Candidate(Mechanism mechanism, String strategyName, double rmse,
      Supplier<MatrixMechanism> prepared, boolean cellEstimates) {

    /** A least-squares candidate (its release has cell estimates). */
    public Candidate(Mechanism mechanism, String strategyName, double rmse,
        Supplier<MatrixMechanism> prepared) {
      this(mechanism, strategyName, rmse, prepared, true);
    }
  }

  private static final StrategyCache CACHE = StrategyCache.defaultCache();

  /** The mechanism actually used (the first vector's choice when they differ). */
  public Mechanism mechanism() {
    return perMeasurement.get(0).chosen().mechanism();
  }

  /**
   * Calibrates a workload: one data vector per measurement, each with its workload.
   *
   * @throws SQLException XDP05 for bad privacy parameters, XDP03 when the requested mechanism
   *     cannot answer the workload
   */
  public static WorkloadCalibration calibrate(Accounting accounting, BudgetAmount defaultQuery,
      BigDecimal reportingDelta, DpHint hint, List<Measurement> measurements,
      List<? extends Workload> workloads, int maxRowsPerUnit) throws SQLException {
    return calibrate(accounting, defaultQuery, reportingDelta, hint, measurements, workloads,
        maxRowsPerUnit, false);
  }

  /**
   * Calibrates a workload whose release must have cell estimates when {@code cellEstimates} (a
   * {@code DPSQL.WORKLOAD} asked for its cells): candidates answering only the workload's own
   * queries by their own measurements are then not offered.
   *
   * @throws SQLException as {@link #calibrate(Accounting, BudgetAmount, BigDecimal, DpHint, List,
   *     List, int)}
   */
  public static WorkloadCalibration calibrate(Accounting accounting, BudgetAmount defaultQuery,
      BigDecimal reportingDelta, DpHint hint, List<Measurement> measurements,
      List<? extends Workload> workloads, int maxRowsPerUnit, boolean cellEstimates)
      throws SQLException {
    NoisePlan.Budget budget = NoisePlan.budget(accounting, defaultQuery, reportingDelta, hint);
    int a = measurements.size();
    PrivacyCost charge;
    Rational rhoShare = null;
    Rational epsShare = null;
    switch (accounting) {
      case PURE -> {
        charge = PrivacyCost.pure(budget.epsilon());
        epsShare = Rational.of(budget.epsilon()).divide(a);
      }
      case APPROX -> {
        charge = PrivacyCost.approx(budget.epsilon(), budget.delta());
        Rational rho;
        try {
          rho = ZcdpToApproxDp.largestRho(budget.epsilon().doubleValue(),
              budget.delta().doubleValue());
        } catch (IllegalArgumentException e) {
          throw SqlStates.badPrivacyParameter("cannot calibrate the workload at epsilon "
              + budget.epsilon() + ", delta " + budget.delta() + ": " + e.getMessage());
        }
        rhoShare = rho.divide(a);
      }
      case ZCDP -> {
        charge = PrivacyCost.zcdp(budget.rho());
        rhoShare = Rational.of(budget.rho()).divide(a);
      }
      default -> throw new IllegalStateException(accounting.name());
    }
    List<VectorPlan> plans = new ArrayList<>();
    for (int i = 0; i < a; i++) {
      Measurement m = measurements.get(i);
      Workload w = workloads.get(i);
      long c = m.sensitivity(maxRowsPerUnit);
      NoiseSpec spec = accounting == Accounting.PURE
          ? NoiseSpec.pureDp(epsShare.divide(c))
          : NoiseSpec.zcdp(rhoShare.divide(Rational.of(c).square()));
      // unit noise factor: expected total squared error = factor × ‖A‖² tr(WᵀW (AᵀA)⁺)
      double unit = m.resolution().doubleValue();
      double factor = accounting == Accounting.PURE
          ? 2 / Math.pow(epsShare.divide(c).doubleValue(), 2)
          : 1 / (2 * rhoShare.divide(Rational.of(c).square()).doubleValue());
      Target target = new Target(w, StrategyCache.workloadSignature(w),
          accounting == Accounting.PURE, factor, unit, cellEstimates);
      List<Candidate> candidates = candidates(target);
      Candidate chosen = choose(candidates, hint.mechanism(), w);
      // the svdb bound holds for L2 (Gaussian) noise; it comes with the Eigen-Design
      Designed eig = DESIGNS.get(StrategyCache.signature(target.key(), "eigen"));
      double lb = accounting == Accounting.PURE || eig == null ? Double.NaN
          : Math.sqrt(factor * eig.svdb() / w.queries()) * unit;
      plans.add(new VectorPlan(m, w, candidates, chosen, spec, lb));
    }
    return new WorkloadCalibration(charge, plans);
  }

  private static Candidate choose(List<Candidate> candidates, Mechanism requested, Workload w)
      throws SQLException {
    if (requested == Mechanism.AUTO || requested == Mechanism.GAUSSIAN
        || requested == Mechanism.DISCRETE_GAUSSIAN || requested == Mechanism.GEOMETRIC
        || requested == Mechanism.LAPLACE) {
      Candidate best = null;
      for (Candidate c : candidates) {
        if (Double.isFinite(c.rmse()) && (best == null || c.rmse() < best.rmse())) {
          best = c;
        }
      }
      return best;
    }
    for (Candidate c : candidates) {
      if (c.mechanism() == requested) {
        if (!Double.isFinite(c.rmse())) {
          break;
        }
        return c;
      }
    }
    throw SqlStates.notSupported("mechanism '" + requested.sqlName() + "' cannot answer this "
        + "workload of " + w.queries() + " queries over " + w.cells() + " cells; candidates are "
        + String.join(", ", candidates.stream().filter(c -> Double.isFinite(c.rmse()))
            .map(c -> c.mechanism().sqlName()).toList()) + " (or 'auto')");
  }

  /**
   * One data vector: its workload, the workload's cache signature (computed once), the noise (L1
   * for pure DP, else L2), the factors turning a unit-noise total error into an RMSE, and whether
   * its release must have cell estimates.
   */
  private record Target(Workload w, String key, boolean pure, double factor, double unit,
      boolean cells) {

    /** The candidate {@code mechanism} with the strategy {@code design} makes (cached by name). */
    Candidate candidate(Mechanism mechanism, String design, Supplier<Designed> designer) {
      String signature = StrategyCache.signature(key, design);
      Designed d = DESIGNS.get(signature);
      if (d == null) {
        d = designer.get();
        DESIGNS.put(signature, d);
      }
      double total = pure ? d.totalL1() : d.totalL2();
      double rmse = Math.sqrt(factor * total / w.queries()) * unit;
      Designed chosen = d;
      return new Candidate(mechanism, d.strategy().name(), rmse,
          () -> CACHE.get(signature, chosen::strategy));
    }

    /** A data-independent baseline strategy, scored by the error formula. */
    Candidate baseline(Mechanism mechanism, String design, Supplier<Strategy> strategy) {
      return candidate(mechanism, design, () -> {
        Strategy a = strategy.get();
        // orthonormal square bases: AᵀA = I, so tr(WᵀW (AᵀA)⁺) = ‖W‖_F², no dense algebra
        double trace = mechanism == Mechanism.IDENTITY || mechanism == Mechanism.FOURIER
            ? w.frobeniusSquared() : ErrorAnalysis.traceGramTimesPseudoInverse(w, a);
        return Designed.of(a, trace, Double.NaN);
      });
    }
  }

  /** Every strategy that could answer the target's workload, with its expected RMSE per query. */
  private static List<Candidate> candidates(Target t) {
    List<Candidate> out = new ArrayList<>();
    int n = t.w().cells();
    List<Workload> factors = t.w().kroneckerFactors();
    out.add(t.baseline(Mechanism.IDENTITY, "identity", () -> Strategies.identity(n)));
    if (factors.size() > 1) {
      // a product workload: product strategies of per-attribute designs, scored factor by factor
      // (tr(⊗Gᵢ (⊗Xᵢ)⁺) = Π tr(Gᵢ Xᵢ⁺)); a factor too large for a dense trace leaves it out (the
      // transform Eigen-Design below covers ranges and prefixes over such a factor)
      if (factors.stream().allMatch(f -> f.cells() <= MAX_DENSE_CELLS)) {
        out.add(t.candidate(Mechanism.HIERARCHICAL, "hierarchical", () -> {
          Strategy[] hs = factors.stream().map(f -> Strategies.hierarchical(f.cells(), 2))
              .toArray(Strategy[]::new);
          double trace = 1;
          for (int i = 0; i < hs.length; i++) {
            trace *= ErrorAnalysis.traceGramTimesPseudoInverse(factors.get(i), hs[i]);
          }
          return Designed.of(Strategies.kronecker(hs), trace, Double.NaN);
        }));
      }
    } else if (n <= MAX_DENSE_CELLS) {
      out.add(t.baseline(Mechanism.HIERARCHICAL, "hierarchical",
          () -> Strategies.hierarchical(n, 2)));
      if (Integer.bitCount(n) == 1) {
        out.add(t.baseline(Mechanism.WAVELET, "wavelet", () -> Strategies.wavelet(n)));
      }
      out.add(t.baseline(Mechanism.FOURIER, "fourier", () -> Strategies.fourier(n)));
    } else {
      // too large for dense designs: the workload's own rows, measured without an n × n array
      rowSpaceCandidates(t, out);
      return out;
    }
    Candidate direct = factors.size() == 1 ? directCandidate(t) : sparseDirectCandidate(t, false);
    if (direct != null) {
      out.add(direct);
    }
    // the Eigen-Design (StrategyDesigner: per factor for products, shared eigenbasis for
    // commuting unions) comes with its exact error; designed for L2 noise, under pure DP it is one
    // more candidate scored by its L1 error
    out.add(t.candidate(Mechanism.EIGEN, "eigen", () -> {
      DesignOutcome o = StrategyDesigner.design(t.w());
      double l2 = o.strategy().sensitivityL2();
      return Designed.of(o.strategy(), o.totalSquaredError() / (l2 * l2), o.svdb());
    }));
    if (t.pure() && n <= HDMM_MAX_CELLS) {
      // HDMM's optimised pure-DP strategies (p-Identity and relatives)
      out.add(t.candidate(Mechanism.HDMM, "hdmm", () -> {
        ScoredStrategy best = new PureDpStrategySelector(
            PIdentityOptimizer.defaults(HDMM_SEED).withStarts(1), // 1 start: 7 s at 1,024 cells
            MarginalsOptimizer.defaults(HDMM_SEED), WeightedBasisOptimizer.defaults(), 16)
            .select(t.w()).best();
        double l1 = best.strategy().sensitivityL1();
        return Designed.of(best.strategy(), best.objective() / (l1 * l1), Double.NaN);
      }));
    }
    return out;
  }

  /**
   * The most queries for which a workload's own rows are the dense candidate (their row Gram is
   * eigen-decomposed, the rank exact), and the most query-by-cell entries of those rows; beyond,
   * they are the sparse candidate ({@link #MAX_DIRECT_NONZEROS}).
   */
  public static final int MAX_ROW_STRATEGY_QUERIES = 2048;

  private static final double MAX_ROW_STRATEGY_ENTRIES = 2e7;

  /**
   * Whether the workload's rows are offered as a strategy: fewer queries than cells (with at least
   * as many, the identity's error {@code ‖W‖_F² ≤ n ‖W‖₂²} is already no worse than theirs, {@code
   * ‖W‖₂² rank(W)}, whenever {@code W} has full column rank), and few enough to be measured as
   * they are.
   */
  private static boolean rowsMeasurable(Workload w) {
    return w.queries() < w.cells() && w.queries() <= MAX_ROW_STRATEGY_QUERIES
        && w.queries() * (double) w.cells() <= MAX_ROW_STRATEGY_ENTRIES;
  }

  /**
   * Measuring the workload's own queries with noise ({@code A = W}): by the error formula its total
   * squared error at unit noise is {@code ‖W‖₂² tr(WᵀW (WᵀW)⁺) = ‖W‖₂² rank(W)}, so no strategy
   * chosen here is ever worse than answering the queries directly. Named after the noise it adds
   * (discrete Gaussian, or discrete Laplace under pure DP); {@code null} when the rows are too many
   * to measure as they are.
   */
  private static Candidate directCandidate(Target t) {
    if (!rowsMeasurable(t.w())) {
      return null;
    }
    Mechanism m = t.pure() ? Mechanism.GEOMETRIC : Mechanism.DISCRETE_GAUSSIAN;
    return t.candidate(m, "direct", () -> {
      Strategy a = new org.dpsql.matrix.ExplicitStrategy("Direct(" + t.w() + ")", t.w().matrix());
      int rank = org.dpsql.matrix.design.EigenBasis.of(t.w())
          .rank(org.dpsql.matrix.design.EigenBasis.DEFAULT_TOLERANCE);
      return Designed.of(a, rank, Double.NaN);
    });
  }

  /** The most non-zeros of the workload's own rows measured sparsely ({@link DirectStrategy}). */
  public static final long MAX_DIRECT_NONZEROS = 10_000_000L;

  /**
   * The workload's own rows when they are too many for {@link #directCandidate} (more than {@link
   * #MAX_ROW_STRATEGY_QUERIES} queries, or too many entries), or ({@code onlyReweighted}, beside
   * the dense rows above {@link #MAX_DENSE_CELLS} cells) when re-weighting them lowers the bound;
   * held sparsely ({@link DirectStrategy}: integer rows, exact sensitivity from their non-zeros,
   * re-weighted per group of queries when that lowers the bound) and solved by conjugate
   * gradients: so a workload over any number of cells is never answered worse than by measuring
   * its own queries. Scored by the strategy's stated upper bound {@code ‖A‖² Σ mᵢ/cᵢ²} (exact when
   * its rows are independent; for the plain rows {@code ‖W‖² m} against the exact {@code ‖W‖²
   * rank(W)}). Rows too ill-conditioned for conjugate gradients (checked when the candidate is
   * scored, with a data-independent probe) are still offered, answered by their own measurements
   * ({@link #ownRowsCandidate}). {@code null} when the workload has at least as many queries as
   * cells (the identity is then no worse), rows that are not integers or more than {@link
   * #MAX_DIRECT_NONZEROS} non-zeros.
   */
  private static Candidate sparseDirectCandidate(Target t, boolean onlyReweighted) {
    Workload w = t.w();
    if ((rowsMeasurable(w) && !onlyReweighted) || w.queries() >= w.cells()
        || !(w.frobeniusSquared() <= MAX_DIRECT_NONZEROS)) {
      return null; // integer rows have at most ‖W‖_F² non-zeros
    }
    String design = t.pure() ? "direct-sparse-l1" : "direct-sparse-l2";
    Mechanism m = t.pure() ? Mechanism.GEOMETRIC : Mechanism.DISCRETE_GAUSSIAN;
    String signature = StrategyCache.signature(t.key(), design);
    if (UNSOLVABLE.containsKey(signature)) {
      return ownRowsCandidate(t, m, design, null);
    }
    DirectStrategy probed = null;
    if (DESIGNS.get(signature) == null) {
      probed = DirectStrategy.forWorkload(w, t.pure(), MAX_DIRECT_NONZEROS);
      if (probed == null || (onlyReweighted && !probed.reweighted())) {
        return null; // not integer rows (or too many non-zeros), or the dense rows already there
      }
      org.dpsql.matrix.mechanism.LatticeStrategy rounded =
          org.dpsql.matrix.mechanism.LatticeStrategy.round(probed);
      try {
        // its least squares prepared once now (O(nnz), not kept: only a chosen strategy enters
        // the strategy cache): rows too ill-conditioned for conjugate gradients are found here,
        // before anything is measured or charged, and answered by their own measurements
        org.dpsql.matrix.mechanism.LeastSquares.of(rounded);
      } catch (IllegalStateException unsolvable) {
        UNSOLVABLE.put(signature, Boolean.TRUE);
        return ownRowsCandidate(t, m, design, new Probed(probed, rounded));
      }
    }
    DirectStrategy built = probed; // the rows just probed are the design: not built again
    return t.candidate(m, design, () -> {
      DirectStrategy a = built != null ? built
          : DirectStrategy.forWorkload(w, t.pure(), MAX_DIRECT_NONZEROS);
      return new Designed(a, a.totalL2Bound(), a.totalL1Bound(), Double.NaN);
    });
  }

  /**
   * The workload's own rows ({@link DirectStrategy}, the same rows, weights, sensitivity and charge
   * as the least-squares candidate) answered without a solve: query {@code k}, measured as row
   * {@code c_k w_k}, is answered by its own measurement {@code y_k / c_k} (pooled with any rows
   * parallel to it), unbiased with variance exactly {@code σ²/c_k²} ({@link
   * org.dpsql.matrix.mechanism.OwnRowAnswers}); post-processing of the same release. Scored by its
   * exact total {@code ‖A‖² Σ_k w_k[f]²/Σ_{j∥k} a_j[f]²} ({@code f} a query's first non-zero; {@code
   * ‖A‖² Σ_k 1/c_k²} when no two queries are parallel), which is the least-squares candidate's
   * stated bound. Its release has no cell estimates and its answers are not mutually consistent;
   * a later query is free only if it is one of the measured queries. {@code null} when the release
   * must have cell estimates. {@code probed}: the strategy and its rounding when just built for
   * the probe, else null.
   */
  private static Candidate ownRowsCandidate(Target t, Mechanism m, String design,
      Probed probed) {
    if (t.cells()) {
      return null;
    }
    String signature = StrategyCache.signature(t.key(), design + "-own");
    Designed d = DESIGNS.get(signature);
    if (d == null) {
      DirectStrategy a = probed != null ? probed.rows()
          : DirectStrategy.forWorkload(t.w(), t.pure(), MAX_DIRECT_NONZEROS);
      double exact = org.dpsql.matrix.mechanism.OwnRowAnswers.of(probed != null
          ? probed.rounded() : org.dpsql.matrix.mechanism.LatticeStrategy.round(a))
          .totalUnitVariance(t.w());
      double l1 = a.maxColumnAbsSum();
      d = new Designed(a, a.maxColumnSumOfSquares() * exact, l1 * l1 * exact, Double.NaN);
      DESIGNS.put(signature, d);
    }
    double total = t.pure() ? d.totalL1() : d.totalL2();
    double rmse = Math.sqrt(t.factor() * total / t.w().queries()) * t.unit();
    Strategy a = d.strategy();
    return new Candidate(m, OWN_ROWS_PREFIX + a.name() + ")", rmse,
        () -> MatrixMechanism.answeringOwnRows(
            org.dpsql.matrix.mechanism.LatticeStrategy.round(a)), false);
  }

  /** The workload's own rows as built for the conjugate-gradient probe, and their rounding. */
  private record Probed(DirectStrategy rows,
      org.dpsql.matrix.mechanism.LatticeStrategy rounded) {}

  /** How the strategy name of a candidate answered by its own measurements starts. */
  public static final String OWN_ROWS_PREFIX = "OwnAnswers(";

  /**
   * Above {@link #MAX_DENSE_CELLS} cells (one attribute): the workload's own rows, measured and
   * inverted through their {@code m × m} row Gram up to {@link #MAX_ROW_STRATEGY_QUERIES} queries,
   * held sparsely and solved by conjugate gradients beyond (or re-weighted beside them), and the
   * transform Eigen-Design for ranges and prefixes. (A design on their row space with real weights
   * is not offered: rounding it to the lattice moves its row space, so the workload's queries would
   * no longer be answerable without bias.)
   */
  private static void rowSpaceCandidates(Target t, List<Candidate> out) {
    Candidate direct = directCandidate(t);
    if (direct != null) {
      out.add(direct);
    }
    // the sparse rows: all of them when too many for the dense form, else only re-weighted
    Candidate sparse = sparseDirectCandidate(t, direct != null);
    if (sparse != null) {
      out.add(sparse);
    }
    Candidate fast = transformCandidate(t);
    if (fast != null) {
      out.add(fast);
    }
  }

  /**
   * Above {@link #MAX_DENSE_CELLS} cells, for ranges, prefixes (or their unions) over one
   * attribute: the Eigen-Design through fast transforms ({@link TransformDesign}, {@code O(n log
   * n)}, nothing {@code n × n}), measured on its implicit lattice form ({@link
   * org.dpsql.matrix.mechanism.SineLattice}: exact integer products and exact sensitivity) and
   * scored exactly from its weights; {@code null} for any other workload.
   */
  private static Candidate transformCandidate(Target t) {
    Workload w = t.w();
    if (w.cells() > org.dpsql.matrix.mechanism.SineLattice.MAX_CELLS
        || TransformDesign.sineGramDiagonal(w) == null) {
      return null;
    }
    return t.candidate(Mechanism.EIGEN, "eigen", () -> {
      TransformStrategy a = TransformDesign.forWorkload(w);
      double l2 = a.sensitivityL2();
      double trace = a.totalSquaredError() / (l2 * l2);
      // its L1 norms take O(n²): computed only when pure DP scores by them
      double l1 = t.pure() ? a.sensitivityL1() : Double.NaN;
      return new Designed(a, a.totalSquaredError(), l1 * l1 * trace, a.svdb());
    });
  }

  /** HDMM's optimisation runs for seconds beyond this many cells (measured: 7 s at 1,024). */
  public static final int HDMM_MAX_CELLS = 1024;

  /** The selector's restarts are seeded: strategies are public and data-independent. */
  private static final long HDMM_SEED = 20180801L;

  /** A designed strategy with its unit-noise errors (data-independent, so cached). */
  private record Designed(Strategy strategy, double totalL2, double totalL1, double svdb) {
    /** From {@code trace = tr(WᵀW (AᵀA)⁺)}: totals {@code ‖A‖₂²·trace} and {@code ‖A‖₁²·trace}. */
    static Designed of(Strategy a, double trace, double svdb) {
      double l2 = a.sensitivityL2();
      double l1 = a.sensitivityL1();
      return new Designed(a, l2 * l2 * trace, l1 * l1 * trace, svdb);
    }
  }

  private static final int DESIGNS_KEPT = 256;

  /**
   * Direct strategies whose conjugate-gradient probe failed (not retried per statement): offered
   * answered by their own measurements.
   */
  private static final java.util.Map<String, Boolean> UNSOLVABLE = java.util.Collections
      .synchronizedMap(new java.util.LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<String, Boolean> e) {
          return size() > DESIGNS_KEPT;
        }
      });

  private static final java.util.Map<String, Designed> DESIGNS = java.util.Collections
      .synchronizedMap(new java.util.LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<String, Designed> e) {
          return size() > DESIGNS_KEPT;
        }
      });
}
