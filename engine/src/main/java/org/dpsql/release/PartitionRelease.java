package org.dpsql.release;

import java.math.BigDecimal;
import java.math.MathContext;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.errors.SqlStates;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.policy.BudgetAmount;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.rewrite.MeasuredGroup;
import org.dpsql.rewrite.MeasurementPlan;
import org.dpsql.sql.DpHint;
import org.dpsql.sql.Mechanism;

/**
 * The release of a {@code GROUP BY} over keys declared {@code keys: private}: the groups are
 * selected privately ({@link PartitionSelection}), then every selected group's aggregates are
 * released with the noise of any private aggregate ({@link NoisePlan}); groups not selected are
 * not in the answer, and nothing about them is released.
 *
 * <p>Budget: the statement's budget (its DP hint, else the policy's {@code default_query}) goes
 * to the selection alone when the statement asks for no aggregate ({@code SELECT key ... GROUP BY
 * key}); otherwise it is split in two equal shares, one for the selection and one for the
 * aggregates, which compose: ε and δ add under approx accounting, ρ and δ add under zCDP. Under
 * approx accounting the selection is the geometric one at (ε, δ) of its share; under zCDP the
 * Gaussian one at its share of ρ and at the statement's δ ({@code delta} in the hint, else {@code
 * budget.default_query.delta}), which only the selection spends. Pure ε-DP accounting cannot
 * release groups that one unit alone may create: refused with XDP05.
 *
 * <p>Guarantee: the aggregates' noise is calibrated to their sensitivity over all groups, those
 * the data could ever have included (a unit's at most {@code max_rows_per_unit} bounded rows,
 * whatever keys they hold), so releasing them on the selected groups is post-processing of a
 * release over every group; with the selection's guarantee, the statement is private at the sum
 * of the two charges.
 */
public final class PartitionRelease {
  private final MeasurementPlan plan;
  private final PartitionSelection selection;
  private final NoisePlan aggregates;
  private final PrivacyCost charge;

  private PartitionRelease(MeasurementPlan plan, PartitionSelection selection,
      NoisePlan aggregates) {
    this.plan = plan;
    this.selection = selection;
    this.aggregates = aggregates;
    this.charge = aggregates == null ? selection.charge()
        : selection.charge().plus(aggregates.charge());
  }

  /** Whether a query groups by private keys and so is answered by this release. */
  public static boolean asks(org.dpsql.sql.AggregateQuery query) {
    return query.hasPrivateKeys();
  }

  /**
   * Calibrates the release of {@code plan} (XDP05 for pure accounting or a missing δ, XDP03 for a
   * mechanism that does not answer it).
   */
  public static PartitionRelease of(MeasurementPlan plan, Accounting accounting,
      BudgetAmount defaultQuery, BigDecimal reportingDelta) throws SQLException {
    DpHint hint = plan.query().hint();
    String keys = String.join(", ", plan.query().privateGroupBy().stream()
        .map(ColumnPolicy::name).toList());
    if (accounting == Accounting.PURE) {
      throw SqlStates.badPrivacyParameter("GROUP BY " + keys + " (declared keys: private) "
          + "releases only groups selected privately, and a group that one person alone holds "
          + "can only be released with a probability δ > 0, which pure ε-DP accounting does not "
          + "have; the data owner can use accounting: approx or zcdp, or list the column's values "
          + "in the policy");
    }
    Mechanism requested = hint.mechanism();
    if (requested != Mechanism.AUTO && requested != Mechanism.GEOMETRIC
        && requested != Mechanism.LAPLACE && requested != Mechanism.DISCRETE_GAUSSIAN
        && requested != Mechanism.GAUSSIAN) {
      throw SqlStates.notSupported("mechanism '" + requested.sqlName() + "' does not answer GROUP "
          + "BY " + keys + " (declared keys: private): its groups are selected privately and "
          + "their aggregates released with geometric or discrete_gaussian noise; remove the "
          + "mechanism from the hint");
    }
    boolean anyAggregate = !plan.measurements().isEmpty();
    NoisePlan.Budget whole = NoisePlan.budget(accounting, defaultQuery, reportingDelta, hint);
    int groups = (int) Math.min(plan.query().maxGroupsPerUnit(), plan.maxRowsPerUnit());
    MathContext mc = MathContext.DECIMAL64;
    BigDecimal two = BigDecimal.valueOf(2);
    PartitionSelection selection;
    DpHint aggregateHint;
    if (accounting == Accounting.APPROX) {
      BigDecimal epsilon = anyAggregate ? whole.epsilon().divide(two, mc) : whole.epsilon();
      BigDecimal delta = anyAggregate ? whole.delta().divide(two, mc) : whole.delta();
      selection = PartitionSelection.geometric(epsilon, delta, groups);
      aggregateHint = new DpHint(epsilon, delta, null, hint.mechanism(), hint.ci(), hint.range());
    } else {
      BigDecimal delta = hint.delta() != null ? hint.delta() : defaultQuery.delta();
      if (delta == null) {
        throw SqlStates.badPrivacyParameter("GROUP BY " + keys + " (declared keys: private) "
            + "spends a δ under zCDP accounting (the probability that a group one person alone "
            + "holds is released): give it in the DP hint, e.g. DP(rho='0.05', delta='1e-10'), or "
            + "ask the data owner to set budget.default_query.delta");
      }
      BigDecimal rho = anyAggregate ? whole.rho().divide(two, mc) : whole.rho();
      selection = PartitionSelection.gaussian(rho, delta, groups);
      aggregateHint = new DpHint(null, null, rho, hint.mechanism(), hint.ci(), hint.range());
    }
    NoisePlan aggregates = !anyAggregate ? null : NoisePlan.calibrate(accounting, defaultQuery,
        reportingDelta, aggregateHint, new NoisePlan.Shape(plan.measurements(),
            plan.maxRowsPerUnit(), plan.cells().size(), null));
    return new PartitionRelease(plan, selection, aggregates);
  }

  /** The selection of the groups. */
  public PartitionSelection selection() {
    return selection;
  }

  /** The aggregates' noise, or null when the statement asks for none. */
  public NoisePlan aggregates() {
    return aggregates;
  }

  /** What the statement costs: the selection's charge plus the aggregates'. */
  public PrivacyCost charge() {
    return charge;
  }

  /** The mechanism named in the ledger. */
  public String mechanismName() {
    return "partition_selection" + (aggregates == null ? "" : "+" + aggregates.mechanism().sqlName());
  }

  /**
   * The released table: each measured group is selected (its unit count plus noise against the
   * threshold) and, when selected, released with noisy aggregates; rows in the order of the
   * declared cells, then of the private keys' values, before ORDER BY / OFFSET / FETCH.
   */
  public ResultTable release(List<MeasuredGroup> measured, RandomBits random) {
    List<MeasuredGroup> groups = new ArrayList<>(measured);
    // a fixed order (not the backend's) in which the noise is drawn and rows are listed
    groups.sort(Comparator.comparingInt(MeasuredGroup::cell)
        .thenComparing(MeasuredGroup::privateKeys, PartitionRelease::compareKeys));
    List<ColumnPolicy> groupBy = plan.query().groupBy();
    int[] position = new int[groupBy.size()]; // index among declared keys, or among private ones
    int declared = 0;
    int secret = 0;
    for (int i = 0; i < groupBy.size(); i++) {
      position[i] = groupBy.get(i).hasPrivateKeys() ? secret++ : declared++;
    }
    PrivateAnswer.RowBuilder rows = new PrivateAnswer.RowBuilder(plan, aggregates);
    List<Object[]> out = new ArrayList<>();
    long[] noisy = new long[plan.measurements().size()];
    for (MeasuredGroup g : groups) {
      if (!selection.releases(g.units(), random)) {
        continue;
      }
      for (int m = 0; m < noisy.length; m++) {
        noisy[m] = aggregates.perMeasurement().get(m).release(g.values()[m], random);
      }
      Object[] cellKeys = plan.cells().keysOf(g.cell());
      out.add(rows.row(i -> groupBy.get(i).hasPrivateKeys() ? g.privateKeys().get(position[i])
          : cellKeys[position[i]], noisy));
    }
    return new ResultTable(rows.columns(), PrivateAnswer.postProcess(plan, rows.columns(), out));
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compareKeys(List<Object> a, List<Object> b) {
    for (int i = 0; i < a.size(); i++) {
      Object x = a.get(i);
      Object y = b.get(i);
      int c = x instanceof Comparable cx && y != null && x.getClass() == y.getClass()
          ? cx.compareTo(y) : String.valueOf(x).compareTo(String.valueOf(y));
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  /**
   * The result column of a private key: BIGINT for integer columns, DOUBLE for other numbers,
   * DATE and TIMESTAMP for time columns, VARCHAR otherwise.
   */
  static ResultColumn keyColumn(String label, ColumnPolicy c) {
    if (ColumnPolicy.isIntegerType(c.sqlType())) {
      return ResultColumn.bigint(label, false);
    }
    if (c.isNumeric()) {
      return ResultColumn.doubles(label, false);
    }
    if (c.sqlType() == Types.DATE) {
      return ResultColumn.date(label, false);
    }
    if (c.sqlType() == Types.TIMESTAMP) {
      return ResultColumn.timestamp(label, false);
    }
    return ResultColumn.varchar(label, false);
  }
}
