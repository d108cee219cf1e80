package org.dpsql.session;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.List;
import org.dpsql.accounting.Accountant;
import org.dpsql.accounting.BudgetExceededException;
import org.dpsql.backend.ExactMeasurer;
import org.dpsql.errors.SqlStates;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.mechanism.Rational;
import org.dpsql.policy.Policy;
import org.dpsql.policy.TablePolicy;
import org.dpsql.release.NoisePlan;
import org.dpsql.rewrite.CellDomain;
import org.dpsql.rewrite.Measurement;
import org.dpsql.rewrite.MeasurementPlan;
import org.dpsql.rewrite.SpatialRange;
import org.dpsql.spatial.FrequencyMatrix;
import org.dpsql.spatial.HtfMechanism;
import org.dpsql.spatial.HtfParameters;
import org.dpsql.spatial.HtfRelease;
import org.dpsql.spatial.SpatialSynopsis;
import org.dpsql.sql.AggregateQuery;
import org.dpsql.sql.DpHint;

/**
 * Answers rectangle counts over a policy spatial index with the Homogeneous Tree Framework (seed
 * 004): the first one releases an HTF synopsis of the whole grid, every later rectangle on the same
 * index is answered from it at no cost.
 *
 * <p>Privacy: the frequency matrix (COUNT(*) per grid cell, contribution-bounded to k rows per
 * unit) comes from one pushed-down GROUP BY; {@link HtfMechanism} is ε-DP when one point is added
 * or removed, so running it at ε/k makes the release ε-DP for a unit of up to k points (group
 * privacy). The statement is charged ε (pure), (ε, 0) (approx) or ρ with ε²/2 ≤ ρ (zCDP), after the
 * backend succeeded and before any noise is drawn.
 */
final class SpatialExecutor {
  private final Policy policy;
  private final Accountant accountant;
  private final BigDecimal reportingDelta;
  private final RandomBits random;
  private final ExactMeasurer measurer;
  private final Releases releases;

  /** A released synopsis with its tree height and the budget per point it was released at. */
  record Released(SpatialSynopsis synopsis, int treeHeight, Rational epsilon) {}

  SpatialExecutor(Policy policy, Accountant accountant, BigDecimal reportingDelta,
      RandomBits random, ExactMeasurer measurer, Releases releases) {
    this.releases = releases;
    this.policy = policy;
    this.accountant = accountant;
    this.reportingDelta = reportingDelta;
    this.random = random;
    this.measurer = measurer;
  }

  /** The synopsis already released for a spatial index of a table, or null. */
  Released released(SpatialRange r) {
    return releases.spatial(key(r));
  }

  /** Checks the statement's privacy parameters and the HTF budget (XDP05 when unusable). */
  HtfParameters parameters(SpatialRange r, DpHint hint) throws SQLException {
    if (hint.ci() != null) {
      throw SqlStates.notSupported("ci is not available for htf answers: the error of a "
          + "rectangle depends on the private tree; ask without ci");
    }
    NoisePlan.PureBudget b = NoisePlan.pureBudget(accountant.accounting(),
        policy.budget().defaultQuery(), reportingDelta, hint);
    Rational eps = b.epsilon().divide(r.table().maxRowsPerUnit());
    try {
      return HtfParameters.paperDefaults(eps);
    } catch (IllegalArgumentException e) {
      throw SqlStates.badPrivacyParameter("htf needs a larger budget: per privacy unit of "
          + r.table().maxRowsPerUnit() + " rows it has epsilon " + eps.doubleValue()
          + ", below what its height estimate and splits need (" + e.getMessage() + ")");
    }
  }

  /**
   * The estimated count of the rectangle, or for a heat map (GROUP BY the index's columns) of
   * each group's grid cell within the rectangle, in the order of {@code groups}.
   */
  double[] answer(SpatialRange r, AggregateQuery q, CellDomain groups, String statement,
      List<Object> parameters) throws SQLException {
    double[] rect = r.rectangle(parameters);
    Released done = releases.spatial(key(r));
    if (done != null) {
      accountant.recordFree(statement, "synopsis:htf", null);
    } else {
      synchronized (releases.spatialLock()) {
        done = releases.spatial(key(r));
        if (done == null) {
          done = release(r, q.hint(), statement);
          releases.addSpatial(key(r), done);
        } else {
          accountant.recordFree(statement, "synopsis:htf", null);
        }
      }
    }
    SpatialSynopsis s = done.synopsis();
    if (q.groupBy().isEmpty()) {
      return new double[] {s.answer(rect[0], rect[1], rect[2], rect[3])};
    }
    // one group per grid cell: its unit square, clipped to the filter's rectangle
    boolean xFirst = q.groupBy().get(0).equals(r.x());
    int nx = r.x().domainSize();
    int ny = r.y().domainSize();
    double[] out = new double[groups.size()];
    for (int g = 0; g < out.length; g++) {
      int i = xFirst ? g % ny : g / nx; // row (y bin)
      int j = xFirst ? g / ny : g % nx; // column (x bin)
      out[g] = s.answer(Math.max(i, rect[0]), Math.min(i + 1, rect[1]), Math.max(j, rect[2]),
          Math.min(j + 1, rect[3]));
    }
    return out;
  }

  private Released release(SpatialRange r, DpHint hint, String statement) throws SQLException {
    HtfParameters params = parameters(r, hint);
    NoisePlan.PureBudget b = NoisePlan.pureBudget(accountant.accounting(),
        policy.budget().defaultQuery(), reportingDelta, hint);
    if (!accountant.canAfford(b.charge())) {
      throw new BudgetExceededException(accountant.accounting(), b.charge(), accountant.remaining());
    }
    TablePolicy t = r.table();
    CellDomain cells = new CellDomain(List.of(r.y(), r.x())); // row-major: rows = y bins
    AggregateQuery whole = new AggregateQuery(t, cells.columns(), List.of(), null, hint, List.of(),
        null, null);
    long[][] exact;
    try {
      exact = measurer.measure(new MeasurementPlan(whole, cells, List.of(Measurement.countStar())),
          List.of());
    } catch (SQLException e) {
      throw SqlStates.backendFailureWithheld("could not build the spatial grid", e, "");
    }
    FrequencyMatrix f = FrequencyMatrix.ofRowMajor(r.y().domainSize(), r.x().domainSize(),
        exact[0]);
    accountant.charge(b.charge(), statement, "htf", null);
    HtfRelease release = new HtfMechanism(params).release(f, random);
    return new Released(release.synopsis(), release.budget().treeHeight(), params.epsilonTotal());
  }

  private static String key(SpatialRange r) {
    return r.table().qualifiedName() + "/" + r.index();
  }
}
