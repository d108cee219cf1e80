package org.dpsql.release;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.policy.BudgetAmount;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.rewrite.MeasurementPlan;
import org.dpsql.rewrite.ReleasedCells;
import org.dpsql.sql.AggregateKind;
import org.dpsql.sql.AggregateQuery;
import org.dpsql.sql.DpHint;
import org.dpsql.sql.Mechanism;
import org.dpsql.sql.OutputItem;

/**
 * The release of a statement that asks for quantiles together with noisy aggregates ({@code
 * SELECT STATE, COUNT(*), MEDIAN(FARE) FROM TRIPS GROUP BY STATE}): one release made of two
 * parts over the same cells, the noisy part ({@code COUNT}, {@code SUM}, {@code AVG}, {@code
 * COUNT(DISTINCT ...)}: a {@link NoisePlan} released by {@link PrivateAnswer}) and the quantile
 * part (a {@link QuantileRelease}), whose rows are joined cell by cell; ORDER BY / OFFSET / FETCH
 * then apply to the joined rows.
 *
 * <p>Budget split: the statement's cost (its hint, else the policy's {@code default_query}) is
 * split between the parts in proportion to their releases: the noisy part's {@code a} distinct
 * measurements (AVG is a sum and a count) and the quantile part's {@code q} releases (a joint set
 * of fractions counts once), so that every measurement and every quantile release runs with the
 * same share, as within each part. The noisy share is {@code total·a/(a+q)} rounded down to 16
 * significant digits, the quantile share is the exact rest:
 * <ul>
 *   <li>pure: ε_n + ε_q = ε; the noisy part is ε_n-DP, the quantiles ε_q-DP;</li>
 *   <li>approx: ε_n + ε_q = ε, and the whole δ goes to the noisy part (the exponential mechanism
 *       is pure); the noisy part is (ε_n, δ)-DP (or (ε_n, 0) with geometric noise), the quantiles
 *       (ε_q, 0)-DP;</li>
 *   <li>zCDP: ρ_n + ρ_q = ρ; the noisy part is ρ_n-zCDP, the quantiles ρ_q-zCDP (ε_q-bounded-range
 *       mechanisms, ε_q²/8 ≤ ρ_q, see {@link QuantileRelease}).</li>
 * </ul>
 *
 * <p>Guarantee: each part is a mechanism that is, on its own, DP with respect to adding or removing
 * one privacy unit (each bounds a unit to {@code max_rows_per_unit} rows before measuring), so by
 * basic composition (pure, approx: ε and δ add) or additive composition (zCDP: ρ adds) the
 * statement satisfies exactly its {@link #charge()}: the sum of the parts' charges, which equals
 * the stated total except that a part that does not use δ charges none of it. The caller charges
 * that sum once, after both parts' exact inputs have been measured and before either is sampled,
 * so a backend failure in either part charges nothing.
 */
public final class MixedRelease {
  private final MeasurementPlan plan;
  private final MeasurementPlan noisyPlan;
  private final NoisePlan noise;
  private final MeasurementPlan quantilePlan;
  private final QuantileRelease quantiles;

  private MixedRelease(MeasurementPlan plan, MeasurementPlan noisyPlan, NoisePlan noise,
      MeasurementPlan quantilePlan, QuantileRelease quantiles) {
    this.plan = plan;
    this.noisyPlan = noisyPlan;
    this.noise = noise;
    this.quantilePlan = quantilePlan;
    this.quantiles = quantiles;
  }

  /** Whether a query asks for quantiles and for other aggregates (and so is released here). */
  public static boolean asks(AggregateQuery query) {
    return QuantileRelease.asks(query) && query.outputs().stream()
        .anyMatch(o -> !o.isGroupKey() && o.aggregate() != AggregateKind.QUANTILE);
  }

  /**
   * Splits and calibrates a mixed query: refuses (XDP05) inconsistent privacy parameters and
   * (XDP03) what either part refuses (a {@code ci} or {@code answer_range} for the quantiles, a
   * mechanism the noisy aggregates do not have, too large histograms), before anything runs. A
   * {@code mechanism} in the hint names the noisy part's mechanism.
   */
  public static MixedRelease of(MeasurementPlan plan, Accounting accounting,
      BudgetAmount defaultQuery, BigDecimal reportingDelta) throws SQLException {
    AggregateQuery query = plan.query();
    DpHint hint = query.hint();
    MeasurementPlan noisyPlan = MeasurementPlan.of(part(query, false, hint));
    DpHint quantileHint = new DpHint(hint.epsilon(), hint.delta(), hint.rho(), Mechanism.AUTO,
        hint.ci(), hint.range());
    MeasurementPlan quantilePlan = MeasurementPlan.of(part(query, true, quantileHint));
    int q = QuantileRelease.of(quantilePlan, accounting, defaultQuery, reportingDelta).releases();
    int a = noisyPlan.measurements().size();
    NoisePlan.Budget b = NoisePlan.budget(accounting, defaultQuery, reportingDelta, hint);
    BigDecimal total = accounting == Accounting.ZCDP ? b.rho() : b.epsilon();
    BigDecimal noisyShare = total.multiply(BigDecimal.valueOf(a))
        .divide(BigDecimal.valueOf((long) a + q), new MathContext(16, RoundingMode.DOWN));
    BigDecimal quantileShare = total.subtract(noisyShare);
    BigDecimal delta = accounting == Accounting.APPROX ? b.delta() : null;
    DpHint noisyHint = share(hint, accounting, noisyShare, delta, hint.mechanism());
    quantileHint = share(hint, accounting, quantileShare, delta, Mechanism.AUTO);
    quantilePlan = MeasurementPlan.of(part(query, true, quantileHint));
    QuantileRelease quantiles = QuantileRelease.of(quantilePlan, accounting, defaultQuery,
        reportingDelta);
    noisyPlan = MeasurementPlan.of(part(query, false, noisyHint));
    NoisePlan noise = NoisePlan.calibrate(accounting, defaultQuery, reportingDelta, noisyHint,
        new NoisePlan.Shape(noisyPlan.measurements(), noisyPlan.maxRowsPerUnit(),
            noisyPlan.cells().size(), query.table().answerRange()));
    return new MixedRelease(plan, noisyPlan, noise, quantilePlan, quantiles);
  }

  /**
   * {@code hint} with its budget replaced by a part's share ({@code amount} as ρ under zCDP, else
   * as ε with {@code delta}) and the part's mechanism.
   */
  private static DpHint share(DpHint hint, Accounting accounting, BigDecimal amount,
      BigDecimal delta, Mechanism mechanism) {
    return accounting == Accounting.ZCDP
        ? new DpHint(null, null, amount, mechanism, hint.ci(), hint.range())
        : new DpHint(amount, delta, null, mechanism, hint.ci(), hint.range());
  }

  /**
   * The group keys and either the quantiles or the other aggregates of {@code query}, with {@code
   * hint} and without ORDER BY / OFFSET / FETCH (applied to the joined rows).
   */
  private static AggregateQuery part(AggregateQuery query, boolean quantiles, DpHint hint) {
    List<OutputItem> outputs = query.outputs().stream().filter(o -> o.isGroupKey()
        || (o.aggregate() == AggregateKind.QUANTILE) == quantiles).toList();
    return new AggregateQuery(query.table(), query.groupBy(), outputs, query.where(), hint,
        List.of(), null, null, query.joins());
  }

  /** What the statement is charged: the noisy part's charge plus the quantile part's. */
  public PrivacyCost charge() {
    return noise.charge().plus(quantiles.charge());
  }

  /** The noisy aggregates with the group keys, measured as any private aggregate. */
  public MeasurementPlan noisyPlan() {
    return noisyPlan;
  }

  /** The noisy part's calibrated noise, at its share of the budget. */
  public NoisePlan noise() {
    return noise;
  }

  /** The quantiles with the group keys, whose histograms are measured. */
  public MeasurementPlan quantilePlan() {
    return quantilePlan;
  }

  /** The quantile part, at its share of the budget. */
  public QuantileRelease quantiles() {
    return quantiles;
  }

  /** The ledger's name of the statement's mechanisms, e.g. {@code geometric+exponential}. */
  public String mechanismName() {
    return noise.mechanism().sqlName() + "+" + quantiles.mechanismName();
  }

  /**
   * Samples both parts from their exact inputs ({@code exact} as {@link PrivateAnswer#release},
   * {@code histograms} as {@link QuantileRelease#release}), keeps the cells {@code released}
   * returns (the same for both parts) and joins them cell by cell into the
   * statement's columns, then applies its ORDER BY / OFFSET / FETCH.
   */
  public ResultTable release(long[][] exact, Map<ColumnPolicy, long[][]> histograms,
      RandomBits random, ReleasedCells released) {
    // both parts return the same cells, in the same order: their rows join by position
    ResultTable noisy = PrivateAnswer.release(noisyPlan, exact, noise, random, released);
    ResultTable sampled = quantiles.release(histograms, random, released);
    List<ResultColumn> columns = PrivateAnswer.columns(plan);
    List<OutputItem> outputs = plan.query().outputs();
    List<Object[]> rows = new ArrayList<>(noisy.rows().size());
    for (int cell = 0; cell < noisy.rows().size(); cell++) {
      Object[] fromNoisy = noisy.rows().get(cell);
      Object[] fromQuantiles = sampled.rows().get(cell);
      Object[] row = new Object[columns.size()];
      int n = 0;
      int k = 0;
      for (int o = 0; o < outputs.size(); o++) {
        OutputItem item = outputs.get(o);
        if (item.isGroupKey()) {
          row[o] = fromNoisy[n++];
          k++;
        } else if (item.aggregate() == AggregateKind.QUANTILE) {
          row[o] = fromQuantiles[k++];
        } else {
          row[o] = fromNoisy[n++];
        }
      }
      rows.add(row);
    }
    return new ResultTable(columns, PrivateAnswer.postProcess(plan, columns, rows));
  }
}
