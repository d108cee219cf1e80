package org.dpsql.release;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.Conversions;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.discrete.DesignObjective;
import org.dpsql.discrete.Neighbourhood;
import org.dpsql.discrete.NoisePmf;
import org.dpsql.discrete.OptimalPmfLibrary;
import org.dpsql.errors.SqlStates;
import org.dpsql.mechanism.DiscreteGaussianMechanism;
import org.dpsql.mechanism.GeometricMechanism;
import org.dpsql.mechanism.Rational;
import org.dpsql.policy.AnswerRange;
import org.dpsql.policy.BudgetAmount;
import org.dpsql.rewrite.Measurement;
import org.dpsql.sql.DpHint;
import org.dpsql.sql.Mechanism;

/**
 * How a query's privacy cost is spent: the cost charged to the connection's accountant and the
 * noise mechanism of each measurement.
 *
 * <p>The cost comes from the DP hint, else from the policy's {@code default_query}. It is split
 * equally over the query's {@code a} distinct measurements, each calibrated to its own sensitivity
 * (see {@link Measurement}). Guarantees, by basic (pure, approx) or additive (zCDP) composition:
 * <ul>
 *   <li>pure accounting, geometric: each measurement is (ε/a)-DP, the query ε-DP;</li>
 *   <li>approx accounting, discrete Gaussian: ρ = the largest ρ whose zCDP implies (ε,δ)-DP
 *       (Bun–Steinke Prop. 1.3), each measurement (ρ/a)-zCDP, the query ρ-zCDP and so (ε,δ)-DP;
 *       geometric: as for pure, charged (ε, 0);</li>
 *   <li>zCDP accounting, discrete Gaussian: each measurement (ρ/a)-zCDP; geometric: each
 *       measurement ε_m-DP with ε_m = √(2ρ/a) rounded down, hence (ε_m²/2 ≤ ρ/a)-zCDP;</li>
 *   <li>{@code optimal_pmf} (seed 000, needs an answer range [lo, hi], n = hi − lo): each cell's
 *       exact answer is clamped into the range and released as lo + ((q − lo + η) mod (n+1)) with
 *       η drawn from a PMF designed for the per-cell neighbourhood M and verified exactly by
 *       {@link org.dpsql.discrete.PdpChecker} before use. With one row changing one cell by at most
 *       c (c = 1 for counts, the clamp bound for integer sums) and at most k rows per unit: a query
 *       with one cell uses M = {±1..±kc} at (ε_m, δ_m); with several cells, M = {±1..±c} at
 *       (ε_m / k, 0): a unit's rows are at most k steps in M, each costing at most ε_m / k, so
 *       the measurement is ε_m-DP (if k = 1, one step: (ε_m, δ_m)-PDP, which implies
 *       (ε_m, δ_m)-DP). Under zCDP the PMF is pure (δ = 0) with ε_m = √(2ρ/a) rounded down.</li>
 * </ul>
 */
public record NoisePlan(Mechanism mechanism, PrivacyCost charge, List<NoiseMechanism> perMeasurement) {

  /** What a plan is calibrated for: the measurements, the contribution bound, cells, range. */
  public record Shape(List<Measurement> measurements, int maxRowsPerUnit, int cells, AnswerRange range) {
    public Shape {
      measurements = List.copyOf(measurements);
    }
  }

  /** The query-level cost, resolved from the hint and the policy, before the split. */
  record Budget(Accounting accounting, BigDecimal epsilon, BigDecimal delta, BigDecimal rho) {}

  /** Calibrates the noise of a query's measurements; {@code auto} picks the best candidate. */
  public static NoisePlan calibrate(Accounting accounting, BudgetAmount defaultQuery,
      BigDecimal reportingDelta, DpHint hint, Shape shape) throws SQLException {
    Budget budget = budget(accounting, defaultQuery, reportingDelta, hint);
    AnswerRange range = range(hint, shape);
    if (hint.mechanism() != Mechanism.AUTO) {
      return build(family(accounting, hint.mechanism()), budget, shape, range);
    }
    List<NoisePlan> candidates = candidates(budget, shape, range);
    NoisePlan best = candidates.get(0);
    for (NoisePlan c : candidates.subList(1, candidates.size())) {
      if (relativeError(c, candidates.get(0)) < relativeError(best, candidates.get(0))) {
        best = c;
      }
    }
    return best;
  }

  /**
   * Every mechanism that could answer the query under this accounting, the default first: what
   * {@code auto} chooses from and {@code EXPLAIN} lists. {@code optimal_pmf} only with a range.
   */
  public static List<NoisePlan> candidates(Accounting accounting, BudgetAmount defaultQuery,
      BigDecimal reportingDelta, DpHint hint, Shape shape) throws SQLException {
    Budget budget = budget(accounting, defaultQuery, reportingDelta, hint);
    AnswerRange range = range(hint, shape);
    List<NoisePlan> all = new ArrayList<>(candidates(budget, shape, range));
    Mechanism other = accounting == Accounting.PURE ? null
        : all.get(0).mechanism() == Mechanism.GEOMETRIC ? Mechanism.DISCRETE_GAUSSIAN
        : Mechanism.GEOMETRIC;
    if (other != null) {
      all.add(1, build(other, budget, shape, range));
    }
    return all;
  }

  /** The answer range of the hint, else the table's (null when neither gives one). */
  private static AnswerRange range(DpHint hint, Shape shape) {
    return hint.range() != null ? hint.range() : shape.range();
  }

  private static List<NoisePlan> candidates(Budget budget, Shape shape, AnswerRange range)
      throws SQLException {
    List<NoisePlan> out = new ArrayList<>();
    out.add(build(family(budget.accounting(), Mechanism.AUTO), budget, shape, range));
    if (range != null) {
      try {
        out.add(build(Mechanism.OPTIMAL_PMF, budget, shape, range));
      } catch (SQLException e) {
        if (!SqlStates.NOT_SUPPORTED.equals(e.getSQLState())) {
          throw e;
        } // too large to design: not a candidate
      }
    }
    return out;
  }

  /** Mean over measurements of this plan's RMSE relative to the reference plan's. */
  static double relativeError(NoisePlan plan, NoisePlan reference) {
    double sum = 0;
    for (int i = 0; i < plan.perMeasurement().size(); i++) {
      sum += Math.sqrt(plan.perMeasurement().get(i).variance())
          / Math.max(1e-300, Math.sqrt(reference.perMeasurement().get(i).variance()));
    }
    return sum / plan.perMeasurement().size();
  }

  /** A pure ε-DP release's ε and what it is charged under the connection's accounting. */
  public record PureBudget(Rational epsilon, PrivacyCost charge) {}

  /**
   * The ε of a pure ε-DP mechanism spending a statement's cost: ε itself under {@code pure}; ε,
   * charged (ε, 0), under {@code approx}; under {@code zcdp}, the largest 15-digit ε with ε²/2 ≤ ρ
   * (an ε-DP mechanism is ε²/2-zCDP, Bun–Steinke Prop. 1.4), charged ρ.
   */
  public static PureBudget pureBudget(Accounting accounting, BudgetAmount defaultQuery,
      BigDecimal reportingDelta, DpHint hint) throws SQLException {
    Budget b = budget(accounting, defaultQuery, reportingDelta, hint);
    return switch (accounting) {
      case PURE -> new PureBudget(Rational.of(b.epsilon()), PrivacyCost.pure(b.epsilon()));
      case APPROX -> new PureBudget(Rational.of(b.epsilon()),
          PrivacyCost.approx(b.epsilon(), BigDecimal.ZERO));
      case ZCDP -> new PureBudget(sqrtTwiceDown(Rational.of(b.rho())), PrivacyCost.zcdp(b.rho()));
    };
  }

  /**
   * The charge of a zCDP mechanism spending a statement's cost: ρ under {@code zcdp}, (ε, δ) under
   * {@code approx} (the mechanism then runs at the largest ρ implying them); XDP05 under {@code
   * pure}, which a zCDP mechanism cannot satisfy.
   */
  public static PrivacyCost zcdpCharge(Accounting accounting, BudgetAmount defaultQuery,
      BigDecimal reportingDelta, DpHint hint) throws SQLException {
    Budget b = budget(accounting, defaultQuery, reportingDelta, hint);
    return switch (accounting) {
      case ZCDP -> PrivacyCost.zcdp(b.rho());
      case APPROX -> PrivacyCost.approx(b.epsilon(), b.delta());
      case PURE -> throw SqlStates.badPrivacyParameter("this mechanism gives zCDP guarantees, but "
          + "the policy uses pure ε-DP accounting");
    };
  }

  /** Checks that a hint and the policy give a consistent cost (XDP05 otherwise). */
  public static void checkBudget(Accounting accounting, BudgetAmount defaultQuery,
      BigDecimal reportingDelta, DpHint hint) throws SQLException {
    budget(accounting, defaultQuery, reportingDelta, hint);
  }

  /** The query-level cost from the hint, else the policy's default (XDP05 when inconsistent). */
  static Budget budget(Accounting accounting, BudgetAmount defaultQuery,
      BigDecimal reportingDelta, DpHint hint) throws SQLException {
    switch (accounting) {
      case PURE -> {
        if (hint.delta() != null || hint.rho() != null) {
          throw SqlStates.badPrivacyParameter("this policy uses pure ε-DP accounting: "
              + "give only epsilon in the DP hint, e.g. DP(epsilon='0.1')");
        }
        return new Budget(accounting, orDefault(hint.epsilon(), defaultQuery.epsilon(), "epsilon"),
            BigDecimal.ZERO, null);
      }
      case APPROX -> {
        if (hint.rho() != null) {
          throw SqlStates.badPrivacyParameter("this policy uses (ε,δ) accounting: give epsilon "
              + "and delta in the DP hint, not rho");
        }
        return new Budget(accounting, orDefault(hint.epsilon(), defaultQuery.epsilon(), "epsilon"),
            orDefault(hint.delta(), defaultQuery.delta(), "delta"), null);
      }
      case ZCDP -> {
        BigDecimal rho;
        if (hint.rho() != null) {
          if (hint.epsilon() != null) {
            throw SqlStates.badPrivacyParameter("give either rho or epsilon in the DP hint, not both");
          }
          rho = hint.rho();
        } else if (hint.epsilon() != null) {
          BigDecimal delta = hint.delta() != null ? hint.delta() : reportingDelta;
          if (delta == null) {
            throw SqlStates.badPrivacyParameter("this policy uses zCDP accounting and has no delta: "
                + "give rho in the DP hint (e.g. DP(rho='0.05')), or epsilon with delta");
          }
          rho = Conversions.epsilonToZcdpRho(hint.epsilon(), delta);
        } else {
          rho = orDefault(null, defaultQuery.rho(), "rho");
        }
        return new Budget(accounting, null, null, rho);
      }
      default -> throw new IllegalStateException(accounting.name());
    }
  }

  private static NoisePlan build(Mechanism family, Budget b, Shape shape, AnswerRange range)
      throws SQLException {
    List<Measurement> ms = shape.measurements();
    int a = ms.size();
    int k = shape.maxRowsPerUnit();
    List<NoiseMechanism> noise = new ArrayList<>();
    switch (family) {
      case GEOMETRIC -> {
        Rational eps = b.accounting() == Accounting.ZCDP ? sqrtTwiceDown(Rational.of(b.rho()).divide(a))
            : Rational.of(b.epsilon()).divide(a);
        for (Measurement m : ms) {
          noise.add(NoiseMechanism.of(new GeometricMechanism(eps, m.sensitivity(k))));
        }
        return new NoisePlan(family, switch (b.accounting()) {
          case PURE -> PrivacyCost.pure(b.epsilon());
          case APPROX -> PrivacyCost.approx(b.epsilon(), BigDecimal.ZERO);
          case ZCDP -> PrivacyCost.zcdp(b.rho());
        }, noise);
      }
      case DISCRETE_GAUSSIAN -> {
        Rational rho = b.accounting() == Accounting.ZCDP ? Rational.of(b.rho())
            : Rational.of(Conversions.epsilonToZcdpRho(b.epsilon(), b.delta()));
        for (Measurement m : ms) {
          noise.add(NoiseMechanism.of(new DiscreteGaussianMechanism(rho.divide(a), m.sensitivity(k))));
        }
        return new NoisePlan(family, b.accounting() == Accounting.ZCDP ? PrivacyCost.zcdp(b.rho())
            : PrivacyCost.approx(b.epsilon(), b.delta()), noise);
      }
      case OPTIMAL_PMF -> {
        return optimalPmf(b, shape, range);
      }
      default -> throw new IllegalStateException(family.name());
    }
  }

  private static NoisePlan optimalPmf(Budget b, Shape shape, AnswerRange range) throws SQLException {
    if (range == null) {
      throw SqlStates.notSupported("mechanism 'optimal_pmf' needs the public range of the answers: "
          + "the table's answer_range in the policy, or answer_range='lo,hi' in the DP hint");
    }
    List<Measurement> ms = shape.measurements();
    int a = ms.size();
    int k = shape.maxRowsPerUnit();
    int n = range.n();
    BigDecimal epsM = switch (b.accounting()) {
      case ZCDP -> decimalDown(sqrtTwiceDown(Rational.of(b.rho()).divide(a)));
      default -> b.epsilon().divide(BigDecimal.valueOf(a), new MathContext(16, RoundingMode.DOWN));
    };
    BigDecimal deltaM = b.accounting() == Accounting.APPROX
        ? b.delta().divide(BigDecimal.valueOf(a), new MathContext(16, RoundingMode.DOWN))
        : BigDecimal.ZERO;
    boolean usesDelta = false;
    List<NoiseMechanism> noise = new ArrayList<>();
    for (Measurement m : ms) {
      if (m.resolution().compareTo(BigDecimal.ONE) != 0) {
        throw SqlStates.notSupported("optimal_pmf releases integer answers: " + m.describe()
            + " is not an integer (clamp bounds of an integer column are needed)");
      }
      long c = m.perRowBound();
      Neighbourhood hood;
      BigDecimal eps;
      BigDecimal delta;
      if (shape.cells() == 1) {
        hood = Neighbourhood.symmetricBounded(n, (int) Math.min((long) k * c, n));
        eps = epsM;
        delta = deltaM;
      } else if (k == 1) {
        hood = Neighbourhood.symmetricBounded(n, (int) Math.min(c, n));
        eps = epsM;
        delta = deltaM;
      } else {
        hood = Neighbourhood.symmetricBounded(n, (int) Math.min(c, n));
        eps = epsM.divide(BigDecimal.valueOf(k), new MathContext(16, RoundingMode.DOWN));
        delta = BigDecimal.ZERO;
      }
      NoisePmf pmf;
      try {
        pmf = OptimalPmfLibrary.design(hood, eps, delta, DesignObjective.CIRCULAR_MSE);
      } catch (IllegalArgumentException | IllegalStateException e) {
        throw SqlStates.notSupported("optimal_pmf cannot design noise for " + m.describe()
            + " over an answer range of " + (n + 1) + " values: " + e.getMessage()
            + "; use a smaller range or another mechanism");
      }
      usesDelta |= delta.signum() > 0;
      noise.add(new OptimalPmfNoise(pmf, range, hood, eps, delta));
    }
    PrivacyCost charge = switch (b.accounting()) {
      case PURE -> PrivacyCost.pure(b.epsilon());
      case APPROX -> PrivacyCost.approx(b.epsilon(), usesDelta ? b.delta() : BigDecimal.ZERO);
      case ZCDP -> PrivacyCost.zcdp(b.rho());
    };
    return new NoisePlan(Mechanism.OPTIMAL_PMF, charge, noise);
  }

  private static Mechanism family(Accounting accounting, Mechanism requested) throws SQLException {
    return switch (requested) {
      case AUTO -> accounting == Accounting.PURE ? Mechanism.GEOMETRIC : Mechanism.DISCRETE_GAUSSIAN;
      case GEOMETRIC, LAPLACE -> Mechanism.GEOMETRIC;
      case GAUSSIAN, DISCRETE_GAUSSIAN -> {
        if (accounting == Accounting.PURE) {
          throw SqlStates.badPrivacyParameter("mechanism '" + requested.sqlName()
              + "' gives (ε,δ)/zCDP guarantees, but this policy uses pure ε-DP accounting; "
              + "use mechanism='geometric'");
        }
        yield Mechanism.DISCRETE_GAUSSIAN;
      }
      case OPTIMAL_PMF -> Mechanism.OPTIMAL_PMF;
      default -> throw SqlStates.notSupported("mechanism '" + requested.sqlName()
          + "' is not available for GROUP BY aggregates; use 'geometric', 'discrete_gaussian', "
          + "'optimal_pmf' or 'auto'");
    };
  }

  private static BigDecimal orDefault(BigDecimal hinted, BigDecimal fallback, String what)
      throws SQLException {
    if (hinted != null) {
      return hinted;
    }
    if (fallback == null) {
      throw SqlStates.badPrivacyParameter("no " + what + " for this query: the policy's "
          + "default_query has none; give it in the DP hint");
    }
    return fallback;
  }

  /** The largest 15-digit decimal e with e²/2 ≤ share: an e-DP mechanism is then share-zCDP. */
  static Rational sqrtTwiceDown(Rational share) {
    BigDecimal x = new BigDecimal(share.num().shiftLeft(1))
        .divide(new BigDecimal(share.den()), new MathContext(40, RoundingMode.DOWN));
    MathContext mc = new MathContext(15, RoundingMode.DOWN);
    BigDecimal e = x.sqrt(mc);
    while (e.multiply(e).compareTo(x) > 0) {
      e = e.subtract(e.ulp());
    }
    return Rational.of(e);
  }

  private static BigDecimal decimalDown(Rational r) {
    return new BigDecimal(r.num()).divide(new BigDecimal(r.den()), new MathContext(16, RoundingMode.DOWN));
  }
}
