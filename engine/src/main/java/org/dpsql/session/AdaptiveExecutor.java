package org.dpsql.session;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.sql.SqlDialect;
import org.dpsql.accounting.Accountant;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.ApproxDpBound;
import org.dpsql.accounting.BudgetExceededException;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.accounting.TightConversion;
import org.dpsql.adaptive.AdaptiveTabulation;
import org.dpsql.adaptive.AdaptiveTabulationSpec;
import org.dpsql.adaptive.BaseMechanism;
import org.dpsql.adaptive.DetailLevel;
import org.dpsql.adaptive.NoisyCount;
import org.dpsql.adaptive.PopulationLevel;
import org.dpsql.adaptive.TabulatedCount;
import org.dpsql.backend.AdaptiveMeasurement;
import org.dpsql.errors.SqlStates;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.policy.AdaptiveTablePolicy;
import org.dpsql.policy.Policy;
import org.dpsql.release.ResultColumn;
import org.dpsql.release.ResultTable;
import org.dpsql.sql.AnalyzedStatement;

/**
 * {@code SELECT * FROM TABLE(DPSQL.ADAPTIVE_TABLE('NAME'))}: runs the data owner's SafeTab
 * tabulation ({@link AdaptiveTablePolicy}) on the backend and releases it.
 *
 * <p>Guarantees: the cost ({@link #cost}) is a function of the policy alone and is checked before
 * anything runs; the backend computes the stability-truncated exact counts ({@link
 * AdaptiveMeasurement}); the whole tabulation is then charged <em>once</em>, atomically, to the
 * connection's {@link Accountant} (mechanism {@code safetab}, source {@code measurement}), and only
 * then is noise drawn ({@link AdaptiveTabulation}, exact samplers). A refusal or a backend failure
 * charges nothing. The release is {@link #cost} under the connection's accounting, by generalized
 * parallel composition within a level (stability Δ) and sequential composition across levels; its
 * rows are integral, possibly negative and not mutually consistent, each with its exact 95% margin
 * of error. Repeats are answered by the session's release cache, free.
 */
final class AdaptiveExecutor {
  /** The result columns. */
  static final List<ResultColumn> COLUMNS = List.of(
      ResultColumn.varchar("LEVEL", false),
      ResultColumn.varchar("GEOGRAPHY", false),
      ResultColumn.varchar("ITERATION", false),
      ResultColumn.varchar("DETAIL", false),
      ResultColumn.varchar("SEX", true),
      ResultColumn.bigint("AGE_LOW", true),
      ResultColumn.bigint("AGE_HIGH", true),
      ResultColumn.bigint("COUNT", false),
      ResultColumn.bigint("MOE_95", false));

  /** The index of COUNT in {@link #COLUMNS}. */
  private static final int COUNT_COLUMN = COLUMNS.stream().map(ResultColumn::label).toList()
      .indexOf("COUNT");

  /** The ledger's mechanism name. */
  static final String MECHANISM = "safetab";

  /** Significant digits of a converted (rounded up) ε or ρ. */
  private static final MathContext UP = new MathContext(15, RoundingMode.CEILING);

  private final Policy policy;
  private final Accountant accountant;
  private final RandomBits random;
  private final Connection backend;
  private final SqlDialect dialect;

  AdaptiveExecutor(Policy policy, Accountant accountant, RandomBits random, Connection backend,
      SqlDialect dialect) {
    this.policy = policy;
    this.accountant = accountant;
    this.random = random;
    this.backend = backend;
    this.dialect = dialect;
  }

  /**
   * What the whole tabulation costs under {@code accounting}:
   *
   * <ul>
   *   <li>{@code pure}: Σ ε_i (geometric only: the discrete Gaussian has no pure guarantee, XDP05);
   *   <li>{@code zcdp}: Σ ρ_i (discrete Gaussian); for the geometric mechanism Σ ε_i²/(2 s_i),
   *       rounded up — each group is b-DP with b = ε_i/s_i, hence b²/2-zCDP (its two steps compose
   *       to (γ² + (1−γ)²)b²/2 ≤ b²/2), and a person is in at most s_i groups (generalized parallel
   *       composition, Lemma 10);
   *   <li>{@code approx}: the tightest (ε, δ) at δ = {@code delta} from the spec's Rényi curve
   *       (exact geometric curve, or ρα) or its pure ε ({@link TightConversion#tightest}), ε
   *       rounded up; a pure ε below every conversion is charged with δ = 0.
   * </ul>
   *
   * @throws SQLException XDP05 if the accounting cannot express the mechanism
   */
  static PrivacyCost cost(AdaptiveTabulationSpec spec, Accounting accounting, BigDecimal delta)
      throws SQLException {
    BigDecimal sum = BigDecimal.ZERO;
    for (PopulationLevel l : spec.levels()) {
      sum = sum.add(l.budget());
    }
    boolean geometric = spec.mechanism() == BaseMechanism.GEOMETRIC;
    switch (accounting) {
      case PURE -> {
        if (!geometric) {
          throw SqlStates.badPrivacyParameter("DPSQL.ADAPTIVE_TABLE: this adaptive table uses the "
              + "discrete Gaussian mechanism (zCDP budgets), which has no pure ε-DP guarantee, "
              + "and this policy uses pure accounting; the data owner must declare mechanism: "
              + "geometric or use zcdp or approx accounting");
        }
        return PrivacyCost.pure(sum);
      }
      case ZCDP -> {
        if (!geometric) {
          return PrivacyCost.zcdp(sum);
        }
        BigDecimal rho = BigDecimal.ZERO;
        for (PopulationLevel l : spec.levels()) {
          rho = rho.add(l.budget().multiply(l.budget())
              .divide(BigDecimal.valueOf(2L * l.stability()), UP));
        }
        return PrivacyCost.zcdp(rho.round(UP));
      }
      default -> {
        if (delta == null) {
          throw SqlStates.badPrivacyParameter("DPSQL.ADAPTIVE_TABLE under approx accounting "
              + "needs a δ: give budget.default_query.delta in the policy or 'delta=...'");
        }
        double d = delta.doubleValue();
        ApproxDpBound b = geometric
            ? TightConversion.tightest(d, sum.doubleValue(), spec.renyiCurve(), null)
            : TightConversion.tightest(d, null, null, sum.doubleValue());
        if (b.method() == ApproxDpBound.Method.PURE) {
          return PrivacyCost.approx(sum, BigDecimal.ZERO);
        }
        if (!Double.isFinite(b.epsilon())) {
          throw SqlStates.badPrivacyParameter("DPSQL.ADAPTIVE_TABLE: no finite ε at δ = "
              + delta.toPlainString());
        }
        return PrivacyCost.approx(new BigDecimal(b.epsilon()).round(UP), delta);
      }
    }
  }

  /** The cost of a statement on this connection (XDP05 if the accounting cannot express it). */
  PrivacyCost cost(AnalyzedStatement.AdaptiveTable st) throws SQLException {
    BigDecimal delta = st.delta() != null ? st.delta() : policy.budget().defaultQuery().delta();
    return cost(st.table().spec(), accountant.accounting(), delta);
  }

  /** The largest noise standard deviation of a released count (the step-2 counts of a level). */
  static double worstStd(AdaptiveTabulationSpec spec) {
    double worst = 0;
    for (PopulationLevel l : spec.levels()) {
      worst = Math.max(worst, Math.sqrt(stepTwo(spec, l).variance()));
      worst = Math.max(worst, Math.sqrt(whole(spec, l).variance()));
    }
    return worst;
  }

  private static NoisyCount stepTwo(AdaptiveTabulationSpec spec, PopulationLevel l) {
    return new NoisyCount(spec.mechanism(), spec.stepTwoBudget(l));
  }

  private static NoisyCount whole(AdaptiveTabulationSpec spec, PopulationLevel l) {
    return new NoisyCount(spec.mechanism(), AdaptiveTabulationSpec.groupBudget(l));
  }

  /**
   * Measures, charges once and releases the tabulation.
   *
   * @throws BudgetExceededException (XDP01) if it does not fit; nothing is charged
   */
  ResultTable release(AnalyzedStatement.AdaptiveTable st, String statement) throws SQLException {
    AdaptiveTablePolicy table = st.table();
    AdaptiveTabulationSpec spec = table.spec();
    PrivacyCost cost = cost(st);
    if (!accountant.canAfford(cost)) {
      throw new BudgetExceededException(accountant.accounting(), cost, accountant.remaining());
    }
    Map<String, AdaptiveMeasurement.Counts> counts;
    try {
      counts = AdaptiveMeasurement.measure(backend, dialect, table);
    } catch (SQLException e) {
      throw SqlStates.backendFailureWithheld("could not evaluate the adaptive table "
          + table.name(), e, "Check the types of the columns the policy names. ");
    }
    accountant.charge(cost, statement, MECHANISM, worstStd(spec));
    return tabulate(table, counts, random);
  }

  /**
   * {@code t} (a release of {@link #COLUMNS}) with every negative COUNT shown as 0: post-processing,
   * free. Each count is then biased upwards (by at most the expected negative part of its noise);
   * MOE_95 is left as released, so an interval {@code [COUNT − MOE, COUNT + MOE]} may need
   * clipping at 0 too.
   */
  static ResultTable nonNegative(ResultTable t) {
    List<Object[]> rows = new ArrayList<>(t.rows().size());
    for (Object[] r : t.rows()) {
      if ((Long) r[COUNT_COLUMN] < 0) {
        Object[] c = r.clone();
        c[COUNT_COLUMN] = 0L;
        rows.add(c);
      } else {
        rows.add(r);
      }
    }
    return new ResultTable(t.columns(), rows);
  }

  /**
   * The noisy release of exact counts (the noise step alone): every declared group of every level,
   * in the spec's order, one row per released count.
   */
  static ResultTable tabulate(AdaptiveTablePolicy table,
      Map<String, ? extends org.dpsql.adaptive.LevelCounts> counts, RandomBits bits) {
    AdaptiveTabulationSpec spec = table.spec();
    List<Map<String, Long[]>> ranges = new ArrayList<>();
    for (int b = 0; b < spec.ageBinnings().size(); b++) {
      Map<String, Long[]> r = new HashMap<>();
      List<String> labels = spec.ageBinnings().get(b).labels();
      for (int k = 0; k < labels.size(); k++) {
        int[] lh = table.ageRange(b, k);
        r.put(labels.get(k), new Long[] {(long) lh[0], (long) lh[1]});
      }
      ranges.add(r);
    }
    String[] detailNames = new String[DetailLevel.values().length];
    for (DetailLevel d : DetailLevel.values()) {
      detailNames[d.ordinal()] = d.isSexByAge()
          ? spec.ageBinnings().get(d.binningIndex()).name() : d.name();
    }
    AdaptiveTabulation tabulation = new AdaptiveTabulation(spec);
    List<Object[]> rows = new ArrayList<>();
    for (PopulationLevel l : spec.levels()) {
      tabulation.tabulateLevel(l.name(), counts.get(l.name()), bits, (TabulatedCount t) -> {
        Long[] age = t.isTotal() ? null
            : ranges.get(t.detail().binningIndex()).get(t.ageBin());
        rows.add(new Object[] {l.name(), t.group().geography(), t.group().iteration(),
            detailNames[t.detail().ordinal()], t.sex(), age == null ? null : age[0],
            age == null ? null : age[1], t.noisyCount(), t.marginOfError95()});
      });
    }
    return new ResultTable(COLUMNS, rows);
  }

  /**
   * {@code DPSQL.EXPLAIN} of an adaptive table, from the policy alone (nothing measured or charged):
   * a first row with the whole tabulation's cost, then one row per level with the cost of that
   * level alone and its exact noise: MEASURE names the level, its groups, Δ, and the exact 95%
   * margins of error of a TotalOnly count and of a step-2 count; EXPECTED_RMSE is the standard
   * deviation of a step-2 count.
   */
  ResultTable explain(AnalyzedStatement.AdaptiveTable st) throws SQLException {
    AdaptiveTabulationSpec spec = st.table().spec();
    BigDecimal delta = st.delta() != null ? st.delta() : policy.budget().defaultQuery().delta();
    List<Object[]> rows = new ArrayList<>();
    PrivacyCost total = cost(spec, accountant.accounting(), delta);
    rows.add(row(total, worstStd(spec), "adaptive table " + st.table().name() + ": "
        + spec.levels().size() + " levels, " + spec.mechanism().name().toLowerCase()
        + " noise, gamma " + spec.gamma().toPlainString() + ", thresholds " + spec.theta1() + "/"
        + spec.theta2() + "/" + spec.theta3() + "; remaining " + accountant.remaining()));
    for (PopulationLevel l : spec.levels()) {
      AdaptiveTabulationSpec alone = new AdaptiveTabulationSpec(spec.mechanism(), List.of(l),
          spec.gamma(), spec.theta1(), spec.theta2(), spec.theta3(), spec.sexes(),
          spec.ageBinnings());
      NoisyCount two = stepTwo(spec, l);
      rows.add(row(cost(alone, accountant.accounting(), delta), Math.sqrt(two.variance()),
          "level " + l.name() + ": " + l.groupCount() + " groups, stability " + l.stability()
              + ", MOE_95 " + whole(spec, l).marginOfError95() + " (TotalOnly), "
              + new NoisyCount(spec.mechanism(), spec.stepOneBudget(l)).marginOfError95()
              + " (step-1 total, not released), " + two.marginOfError95() + " (released counts)"));
    }
    return new ResultTable(ExplainTable.COLUMNS, rows);
  }

  private static Object[] row(PrivacyCost cost, double rmse, String measure) {
    return new Object[] {MECHANISM, true, cost.epsilon(), cost.delta(), cost.rho(), rmse, measure};
  }
}
