package org.dpsql.release;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.errors.SqlStates;
import org.dpsql.mechanism.ExponentialMechanism;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.mechanism.Rational;
import org.dpsql.policy.BudgetAmount;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.rewrite.MeasurementPlan;
import org.dpsql.rewrite.ReleasedCells;
import org.dpsql.rewrite.QuantileGrid;
import org.dpsql.sql.AggregateKind;
import org.dpsql.sql.AggregateQuery;
import org.dpsql.sql.Mechanism;
import org.dpsql.sql.OutputItem;

/**
 * The release of a query's quantiles ({@code PERCENTILE_CONT}, {@code PERCENTILE_DISC}, {@code
 * MEDIAN}, {@code MIN} = the 0-quantile, {@code MAX} = the 1-quantile), per group, by the
 * exponential mechanism over each column's public {@link QuantileGrid}, sampled exactly ({@link
 * ExponentialMechanism}).
 *
 * <p>Input: per group (cell) and column, the exact histogram of the column's bounded, non-null
 * values clamped and rounded down to the grid, computed in the backend. With {@code L_j} the number
 * of values below point {@code j}, {@code R_j} the number at or below it and {@code n} the group's
 * number of values, the target rank is {@code t = p·n} clamped into {@code [1/2, n − 1/2]} ({@code
 * t = 0} when {@code n = 0}), so that the 0- and 1-quantiles aim at the smallest and the largest
 * value rather than at any point below or above them; the score (negated utility) of point {@code
 * j} is the distance from {@code t} to the interval {@code [L_j, R_j]}: {@code max(0, L_j − t, t −
 * R_j)}, i.e. {@code |rank − p·n|} with the ranks a point holds. A point scoring 0 is an exact
 * p-quantile of the rounded values ({@code PERCENTILE_DISC}'s when {@code p·n} is not an integer).
 *
 * <p>Sensitivity: adding or removing a unit adds or removes at most k = {@code max_rows_per_unit}
 * bounded rows, {@code m_g} of them in group g ({@code Σ m_g ≤ k}). In group g, {@code L_j} and
 * {@code R_j} move by some {@code a}, {@code b} in {@code [0, m_g]}, and {@code t} by some {@code
 * τ} in {@code [0, m_g]}, all in the same direction ({@code p·n} moves by {@code p·m_g}, the upper
 * clamp {@code n − 1/2} by {@code m_g}, the lower one not at all once {@code n ≥ 1}, and from 0 to
 * 1/2 when n leaves 0; clamping is 1-Lipschitz and monotone); so {@code L_j − t} and {@code t −
 * R_j} each move by at most {@code m_g}, and so does their maximum with 0. Every group's mechanism
 * runs with {@code η = ε_q/(2k)}, so group g's release costs at most {@code ε_q·m_g/k}
 * (McSherry–Talwar), and all groups together at most {@code ε_q} (the sum over groups, as for the
 * L1 sensitivity of a count vector); under zCDP each group is {@code ε_q·m_g/k}-bounded-range,
 * hence {@code (ε_q·m_g/k)²/8}-zCDP, and together at most {@code ε_q²/8} (Cesar–Rogers).
 *
 * <p>Several fractions of one column: two to {@link JointQuantiles#MAX_FRACTIONS} fractions
 * strictly between 0 and 1 are released jointly by {@link JointQuantiles} (JointExp, one release,
 * η = ε_q/(4k)); more are released one by one. {@code MIN} and {@code MAX} (p = 0 and 1) are always
 * released alone, with the target clamp above. A group's points of one column are then sorted and
 * given to its fractions in increasing order (post-processing), so they never decrease with p.
 *
 * <p>Budget: the statement's cost (hint or {@code default_query}; a statement that also asks for
 * other aggregates gives its quantiles a share of it, see {@link MixedRelease}) is split equally
 * among its q releases (a joint set of fractions counts once); under {@code pure} and {@code approx} each runs
 * at {@code ε_q = ε/q} (charged ε, resp. (ε, 0)); under {@code zcdp} at the largest 15-digit
 * {@code ε_q} with {@code ε_q²/8 ≤ ρ/q} (charged ρ).
 *
 * <p>Accuracy: with g grid points, the released point's score exceeds {@code (2k/ε_q)(ln g +
 * ln(1/β))} with probability at most β (McSherry–Talwar Thm. 8, the best score being 0): the rank
 * error, in values of the group, of a point of the grid.
 */
public final class QuantileRelease {
  /** The most (group, grid point) pairs a statement's histograms may hold in memory. */
  public static final long MAX_HISTOGRAM_CELLS = 1_000_000;

  /** One quantile output of the query: its output index, column, fraction p and grid. */
  public record Target(int output, ColumnPolicy column, BigDecimal fraction, QuantileGrid grid) {}

  private final MeasurementPlan plan;
  private final List<Target> targets;
  private final Map<ColumnPolicy, QuantileGrid> grids;
  /** Per column, the targets released jointly (sorted by fraction; absent when none). */
  private final Map<ColumnPolicy, List<Target>> joint;
  private final Rational epsilon;
  private final PrivacyCost charge;

  private QuantileRelease(MeasurementPlan plan, List<Target> targets,
      Map<ColumnPolicy, QuantileGrid> grids, Map<ColumnPolicy, List<Target>> joint,
      Rational epsilon, PrivacyCost charge) {
    this.plan = plan;
    this.targets = List.copyOf(targets);
    this.grids = grids;
    this.joint = joint;
    this.epsilon = epsilon;
    this.charge = charge;
  }

  /** Whether a query asks for quantiles (and so is released here). */
  public static boolean asks(AggregateQuery query) {
    return query.outputs().stream().anyMatch(o -> o.aggregate() == AggregateKind.QUANTILE);
  }

  /**
   * Calibrates a quantile query: its grids, the ε of each quantile and the charge; refuses (XDP05)
   * inconsistent privacy parameters, and (XDP03) hints that do not apply to quantiles and
   * histograms of more than {@link #MAX_HISTOGRAM_CELLS} (group, point) pairs, before anything
   * runs.
   */
  public static QuantileRelease of(MeasurementPlan plan, Accounting accounting,
      BudgetAmount defaultQuery, BigDecimal reportingDelta) throws SQLException {
    AggregateQuery query = plan.query();
    if (query.hint().mechanism() != Mechanism.AUTO) {
      throw SqlStates.notSupported("quantiles are released by the exponential mechanism; "
          + "mechanism='" + query.hint().mechanism().sqlName() + "' does not apply to them "
          + "(drop the mechanism key)");
    }
    if (query.hint().ci() != null) {
      throw SqlStates.notSupported("ci is not available for quantiles: their error is a rank "
          + "error that depends on the data (EXPLAIN PLAN FOR shows the bound)");
    }
    if (query.hint().range() != null) {
      throw SqlStates.notSupported("answer_range does not apply to quantiles: their range is the "
          + "column's public range in the policy");
    }
    List<Target> targets = new ArrayList<>();
    Map<ColumnPolicy, QuantileGrid> grids = new LinkedHashMap<>();
    for (int i = 0; i < query.outputs().size(); i++) {
      OutputItem o = query.outputs().get(i);
      if (o.aggregate() == AggregateKind.QUANTILE) {
        QuantileGrid grid = QuantileGrid.of(o.column(), o.label());
        grids.putIfAbsent(o.column(), grid);
        targets.add(new Target(i, o.column(), o.fraction(), grid));
      }
    }
    long points = 0;
    for (QuantileGrid g : grids.values()) {
      points += g.size();
    }
    if ((long) plan.cells().size() * points > MAX_HISTOGRAM_CELLS) {
      throw SqlStates.notSupported("the quantiles' histograms would have " + plan.cells().size()
          + " groups times " + points + " grid points, more than " + MAX_HISTOGRAM_CELLS
          + "; group by fewer or coarser columns, or ask the data owner for a coarser bin");
    }
    Map<ColumnPolicy, List<Target>> joint = new LinkedHashMap<>();
    for (ColumnPolicy c : grids.keySet()) {
      List<Target> interior = targets.stream().filter(t -> t.column().equals(c)
              && t.fraction().signum() > 0 && t.fraction().compareTo(BigDecimal.ONE) < 0)
          .sorted((x, y) -> x.fraction().compareTo(y.fraction())).toList();
      if (interior.size() >= 2 && interior.size() <= JointQuantiles.MAX_FRACTIONS) {
        joint.put(c, interior);
      }
    }
    int q = targets.size();
    for (List<Target> set : joint.values()) {
      q -= set.size() - 1; // a joint set is one release
    }
    NoisePlan.Budget b = NoisePlan.budget(accounting, defaultQuery, reportingDelta, query.hint());
    Rational epsilon = switch (accounting) {
      case PURE, APPROX -> Rational.of(b.epsilon()).divide(q);
      // ε²/8 ≤ ρ/q  ⟺  ε²/2 ≤ 4ρ/q
      case ZCDP -> NoisePlan.sqrtTwiceDown(Rational.of(b.rho()).multiply(4).divide(q));
    };
    PrivacyCost charge = switch (accounting) {
      case PURE -> PrivacyCost.pure(b.epsilon());
      case APPROX -> PrivacyCost.approx(b.epsilon(), BigDecimal.ZERO);
      case ZCDP -> PrivacyCost.zcdp(b.rho());
    };
    return new QuantileRelease(plan, targets, grids, joint, epsilon, charge);
  }

  /** What the statement is charged. */
  public PrivacyCost charge() {
    return charge;
  }

  /** The ε of each release, a single quantile or a joint set (all groups together). */
  public Rational epsilonPerQuantile() {
    return epsilon;
  }

  /** The number of releases the budget is split among (a joint set counts once). */
  public int releases() {
    int q = targets.size();
    for (List<Target> set : joint.values()) {
      q -= set.size() - 1;
    }
    return q;
  }

  /** Whether {@code t} is released jointly with other fractions of its column (JointExp). */
  public boolean isJoint(Target t) {
    return joint.getOrDefault(t.column(), List.of()).contains(t);
  }

  /** The ledger's name of the statement's mechanism: {@code jointexp} if any set is joint. */
  public String mechanismName() {
    return joint.isEmpty() ? "exponential" : "jointexp";
  }

  /** {@code η = ε_q / (2k)}: the exponential mechanism's factor on the scores. */
  public Rational eta() {
    return eta(epsilon, plan.maxRowsPerUnit());
  }

  /** {@code η = ε / (2k)} for a utility of sensitivity k. */
  public static Rational eta(Rational epsilon, int k) {
    return epsilon.divide(2L * k);
  }

  /** The quantile outputs. */
  public List<Target> targets() {
    return targets;
  }

  /** The columns whose histograms are measured, each once, in order of first use. */
  public List<ColumnPolicy> columns() {
    return List.copyOf(grids.keySet());
  }

  /** The grid of a measured column. */
  public QuantileGrid grid(ColumnPolicy column) {
    return grids.get(column);
  }

  /**
   * The rank error that the released point exceeds with probability at most β, in values of a
   * group: {@code (2k/ε_q)(ln g + ln(1/β))} for a grid of g points, {@code (2k/ε_q)(ln C(g+m−1, m)
   * + ln(1/β))} for m fractions released jointly.
   */
  public double rankErrorBound(Target t, double beta) {
    // joint: U ≤ (2·2k/ε)(ln #tuples + ln(1/β)) and each rank error is at most U/2
    double log = isJoint(t) ? JointQuantiles.logTuples(t.grid().size(),
        joint.get(t.column()).size()) : Math.log(t.grid().size());
    return 2.0 * plan.maxRowsPerUnit() / epsilon.doubleValue() * (log + Math.log(1 / beta));
  }

  /**
   * The scores {@code max(0, L_j − t, t − R_j)} of every point of a histogram, {@code t} the target
   * rank (see the class comment), exactly.
   */
  public static Rational[] scores(long[] histogram, BigDecimal fraction) {
    long n = 0;
    for (long h : histogram) {
      n += h;
    }
    Rational target = Rational.of(fraction).multiply(n);
    if (n > 0) {
      Rational half = Rational.of(1, 2);
      Rational top = Rational.of(n).subtract(half);
      target = target.compareTo(half) < 0 ? half : target.compareTo(top) > 0 ? top : target;
    }
    Rational[] scores = new Rational[histogram.length];
    long below = 0;
    for (int j = 0; j < histogram.length; j++) {
      long atOrBelow = below + histogram[j];
      Rational s = Rational.ZERO;
      Rational over = Rational.of(below).subtract(target);
      Rational under = target.subtract(Rational.of(atOrBelow));
      if (over.signum() > 0) {
        s = over;
      } else if (under.signum() > 0) {
        s = under;
      }
      scores[j] = s;
      below = atOrBelow;
    }
    return scores;
  }

  /**
   * Samples every quantile of every group from the exact histograms ({@code histograms.get(column)
   * [cell][point]}) and builds the released table: group keys, then each quantile as a grid value
   * (DOUBLE); several fractions of one column sorted per group; then ORDER BY / OFFSET / FETCH.
   */
  public ResultTable release(Map<ColumnPolicy, long[][]> histograms, RandomBits random) {
    return release(histograms, random, ReleasedCells.all(plan.cells().size()));
  }

  /**
   * As {@link #release(Map, RandomBits)}, returning the rows of the cells {@code released} keeps:
   * every cell is still sampled, in order (so each returned cell's points are drawn exactly as in
   * a release of every cell), and the rows of the others dropped.
   */
  public ResultTable release(Map<ColumnPolicy, long[][]> histograms, RandomBits random,
      ReleasedCells released) {
    int cells = plan.cells().size();
    List<ResultColumn> columns = PrivateAnswer.columns(plan);
    List<OutputItem> outputs = plan.query().outputs();
    List<Object[]> rows = new ArrayList<>(cells);
    Rational eta = eta();
    Rational jointEta = JointQuantiles.eta(epsilon, plan.maxRowsPerUnit());
    for (int cell = 0; cell < cells; cell++) {
      Object[] keys = plan.cells().keysOf(cell);
      Object[] row = new Object[columns.size()];
      for (int o = 0; o < outputs.size(); o++) {
        OutputItem item = outputs.get(o);
        if (item.isGroupKey()) {
          row[o] = PrivateAnswer.convert(keys[plan.query().groupBy().indexOf(item.column())],
              columns.get(o));
        }
      }
      for (ColumnPolicy column : grids.keySet()) {
        List<Target> same = targets.stream().filter(t -> t.column().equals(column)).toList();
        long[] histogram = histograms.get(column)[cell];
        int[] points = new int[same.size()];
        List<Target> together = joint.getOrDefault(column, List.of());
        if (!together.isEmpty()) {
          BigDecimal[] fractions = together.stream().map(Target::fraction)
              .toArray(BigDecimal[]::new);
          int[] sampled = JointQuantiles.sample(random, histogram, fractions, jointEta);
          for (int i = 0; i < sampled.length; i++) {
            points[same.indexOf(together.get(i))] = sampled[i];
          }
        }
        for (int i = 0; i < points.length; i++) {
          if (!together.contains(same.get(i))) {
            points[i] = ExponentialMechanism.sample(random,
                scores(histogram, same.get(i).fraction()), eta);
          }
        }
        // monotone in p: the sorted points go to the fractions in increasing order
        Arrays.sort(points);
        Integer[] byFraction = new Integer[same.size()];
        for (int i = 0; i < byFraction.length; i++) {
          byFraction[i] = i;
        }
        Arrays.sort(byFraction, (a, b) -> same.get(a).fraction().compareTo(same.get(b).fraction()));
        QuantileGrid grid = grids.get(column);
        for (int i = 0; i < byFraction.length; i++) {
          row[same.get(byFraction[i]).output()] = grid.value(points[i]).doubleValue();
        }
      }
      if (released.released(cell)) {
        rows.add(row);
      }
    }
    return new ResultTable(columns, PrivateAnswer.postProcess(plan, columns, rows));
  }
}
