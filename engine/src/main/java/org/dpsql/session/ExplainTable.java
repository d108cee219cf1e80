package org.dpsql.session;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.errors.SqlStates;
import org.dpsql.hierarchy.TopDownBudget;
import org.dpsql.hierarchy.TopDownErrorBound;
import org.dpsql.matrix.Workload;
import org.dpsql.release.NoiseMechanism;
import org.dpsql.release.NoisePlan;
import org.dpsql.release.ResultColumn;
import org.dpsql.release.ResultTable;
import org.dpsql.release.WorkloadCalibration;
import org.dpsql.rewrite.FamilyWorkload;
import org.dpsql.rewrite.Measurement;
import org.dpsql.rewrite.MeasurementPlan;
import org.dpsql.rewrite.SpatialRange;
import org.dpsql.rewrite.WorkloadPlan;
import org.dpsql.sql.AnalyzedStatement;
import org.dpsql.sql.DpHint;
import org.dpsql.sql.WorkloadQuery;

/**
 * {@code DPSQL.EXPLAIN('<sql>')} (contract §5) and {@code EXPLAIN PLAN FOR} a workload: what a
 * private statement would do, computed from the formulas alone — nothing is measured or charged.
 * A statement with quantiles and other aggregates has the rows of both parts, each with its part's
 * share of the cost.
 *
 * <p>Columns: MECHANISM, CHOSEN, EPSILON, DELTA, RHO (the statement's cost), EXPECTED_RMSE (root
 * mean squared error per released value, in the value's units), and MEASURE (the data vector the
 * row is about, e.g. {@code COUNT(*)}; a dpsql extension). For linear workloads each data vector
 * also has a {@code lower_bound} row (never chosen): the svdb bound of seed 001 as an RMSE.
 */
final class ExplainTable {
  static final List<ResultColumn> COLUMNS = List.of(
      ResultColumn.varchar("MECHANISM", false),
      ResultColumn.bool("CHOSEN", false),
      ResultColumn.decimal("EPSILON", 12, false),
      ResultColumn.decimal("DELTA", 15, false),
      ResultColumn.decimal("RHO", 12, false),
      ResultColumn.doubles("EXPECTED_RMSE", true),
      ResultColumn.varchar("MEASURE", false));

  private ExplainTable() {}

  static ResultTable table(AnalyzedStatement inner, DpsqlSession session) throws SQLException {
    List<org.dpsql.sql.AggregateQuery> listed =
        inner instanceof AnalyzedStatement.PrivateAggregate p && p.query().listsDomain()
            ? List.of(p.query())
            : inner instanceof AnalyzedStatement.PrivateWorkload w && w.query().listsDomain()
                ? w.query().parts() : List.of();
    if (!listed.isEmpty()) {
      // the declared values: no mechanism, no cost, no error
      java.util.Set<String> keys = new java.util.LinkedHashSet<>();
      listed.forEach(q -> q.groupBy().forEach(c -> keys.add(c.name())));
      return new ResultTable(COLUMNS, List.<Object[]>of(row("domain", true, PrivacyCost.ZERO, 0.0,
          "declared values of " + String.join(", ", keys) + " (no data read)")));
    }
    WorkloadQuery tree = inner instanceof AnalyzedStatement.PrivateAggregate p
        ? DpsqlSession.topDown(p.query()) : null;
    if (tree != null) {
      inner = new AnalyzedStatement.PrivateWorkload(tree, inner.normalizedSql(),
          ((AnalyzedStatement.PrivateAggregate) inner).parameters());
    }
    List<Object[]> rows = new ArrayList<>();
    SpatialRange r = inner instanceof AnalyzedStatement.PrivateAggregate p
        ? DpsqlSession.htf(p.query()) : null;
    if (r != null) {
      AnalyzedStatement.PrivateAggregate p = (AnalyzedStatement.PrivateAggregate) inner;
      boolean free = session.spatial().released(r) != null;
      NoisePlan.PureBudget b = NoisePlan.pureBudget(session.accountant().accounting(),
          session.policy().budget().defaultQuery(), session.reportingDelta(), p.query().hint());
      rows.add(row(free ? "synopsis:htf" : "htf", true, free ? PrivacyCost.ZERO : b.charge(),
          Double.NaN, "COUNT(*)"));
      return new ResultTable(COLUMNS, rows);
    }
    if (inner instanceof AnalyzedStatement.PrivateAggregate p
        && org.dpsql.release.PartitionRelease.asks(p.query())) {
      MeasurementPlan plan = MeasurementPlan.of(p.query());
      org.dpsql.release.PartitionRelease release = session.partitions(plan);
      org.dpsql.release.PartitionSelection selection = release.selection();
      rows.add(row("partition_selection", true, selection.charge(), Double.NaN,
          "groups over " + String.join(", ", plan.query().privateGroupBy().stream()
              .map(org.dpsql.policy.ColumnPolicy::name).toList()) + ": distinct units + "
              + selection.describe() + ", a unit's own groups released with probability <= "
              + String.format("%.3g", selection.releaseBound())));
      for (int m = 0; m < plan.measurements().size(); m++) {
        Measurement meas = plan.measurements().get(m);
        NoiseMechanism nm = release.aggregates().perMeasurement().get(m);
        rows.add(row(release.aggregates().mechanism().sqlName(), true,
            release.aggregates().charge(), Math.sqrt(nm.variance())
                * meas.resolution().doubleValue(), meas.describe() + " on the selected groups"));
      }
      return new ResultTable(COLUMNS, rows);
    }
    if (inner instanceof AnalyzedStatement.PrivateAggregate p
        && org.dpsql.release.MixedRelease.asks(p.query())) {
      // the rows of each part, each with its share of the statement's cost (they add up to it)
      org.dpsql.release.MixedRelease mixed = session.mixed(MeasurementPlan.of(p.query()));
      for (MeasurementPlan part : List.of(mixed.noisyPlan(), mixed.quantilePlan())) {
        rows.addAll(table(new AnalyzedStatement.PrivateAggregate(part.query(),
            inner.normalizedSql(), p.parameters()), session).rows());
      }
      return new ResultTable(COLUMNS, rows);
    }
    if (inner instanceof AnalyzedStatement.PrivateAggregate p
        && org.dpsql.release.QuantileRelease.asks(p.query())) {
      MeasurementPlan plan = MeasurementPlan.of(p.query());
      org.dpsql.release.QuantileRelease quantiles = session.quantiles(plan);
      for (org.dpsql.release.QuantileRelease.Target t : quantiles.targets()) {
        rows.add(row(quantiles.isJoint(t) ? "jointexp" : "exponential", true, quantiles.charge(),
            Double.NaN,
            plan.query().outputs().get(t.output()).label() + ": " + t.fraction().toPlainString()
            + "-quantile of " + t.column().name() + ", ε=" + NoiseMechanism.decimal(
                quantiles.epsilonPerQuantile()) + ", grid of " + t.grid().size()
            + " points, rank error <= " + String.format("%.4g", quantiles.rankErrorBound(t, 0.05))
            + " at 95%"));
      }
      return new ResultTable(COLUMNS, rows);
    }
    if (inner instanceof AnalyzedStatement.PrivateAggregate p) {
      MeasurementPlan plan = MeasurementPlan.of(p.query());
      NoisePlan chosen = session.calibrateForExplain(plan);
      for (NoisePlan c : session.candidatesForExplain(plan)) {
        for (int m = 0; m < plan.measurements().size(); m++) {
          Measurement meas = plan.measurements().get(m);
          NoiseMechanism nm = c.perMeasurement().get(m);
          rows.add(row(c.mechanism().sqlName(), c.mechanism() == chosen.mechanism(), c.charge(),
              Math.sqrt(nm.variance()) * meas.resolution().doubleValue(), meas.describe()));
        }
      }
      return new ResultTable(COLUMNS, rows);
    }
    DpHint hint;
    List<Measurement> ms;
    List<Workload> ws;
    org.dpsql.policy.TablePolicy table;
    org.dpsql.rewrite.CellDomain cells;
    boolean cellEstimates = false;
    if (inner instanceof AnalyzedStatement.PrivateWorkload w
        && session.workloads().topDownShape(w.query()) != null) {
      rows.add(row("inftda", true, session.workloads().topDownChargeForExplain(w.query()),
          Double.NaN, "COUNT(*)"));
      return new ResultTable(COLUMNS, rows);
    }
    if (inner instanceof AnalyzedStatement.PrivateWorkload w) {
      WorkloadPlan plan = workloadPlan(w.query());
      hint = w.query().hint();
      ms = plan.measurements();
      ws = new ArrayList<>(plan.workloads());
      table = w.query().table();
      cells = plan.cells();
    } else {
      AnalyzedStatement.NamedWorkload w = (AnalyzedStatement.NamedWorkload) inner;
      FamilyWorkload f = FamilyWorkload.of(w.query());
      hint = w.query().hint();
      ms = List.of(Measurement.countStar());
      ws = List.of(f.workload());
      table = w.query().table();
      cells = f.cells();
      cellEstimates = w.query().output() == org.dpsql.sql.FamilyQuery.Output.CELLS;
    }
    List<Synopsis> covering = new ArrayList<>();
    for (int i = 0; i < ms.size(); i++) {
      covering.add(session.workloads().covering(table, cells, ms.get(i), ws.get(i),
          cellEstimates));
    }
    if (!covering.contains(null)) {
      // every vector answered from a released synopsis: free, with the synopsis's errors
      for (int i = 0; i < ms.size(); i++) {
        Synopsis s = covering.get(i);
        Measurement meas = ms.get(i);
        double unit = meas.resolution().doubleValue();
        double rmse = Double.NaN;
        if (s.estimate() != null) {
          try {
            rmse = Math.sqrt(s.estimate().totalVariance(lift(ws.get(i), s, cells))
                / ws.get(i).queries()) * unit;
          } catch (IllegalArgumentException tooLarge) {
            // no dense trace at this size: the error is not shown
          }
        }
        rows.add(row("synopsis:" + s.mechanism(), true, PrivacyCost.ZERO, rmse,
            meas.describe() + ": answered from a released synopsis over "
                + String.join(" x ", s.cells().columns().stream()
                    .map(org.dpsql.policy.ColumnPolicy::name).toList()) + ", no charge"));
        if (s.estimate() != null && s.estimate().hasCells()) {
          rows.addAll(classRows(s.cells().columns(), s.estimate().inference(),
              s.estimate().noise().unitVariance(), unit, meas, PrivacyCost.ZERO));
        }
      }
      return new ResultTable(COLUMNS, rows);
    }
    WorkloadCalibration cal = session.workloads().calibrate(table, hint, ms, ws, cellEstimates);
    for (WorkloadCalibration.VectorPlan vp : cal.perMeasurement()) {
      for (WorkloadCalibration.Candidate c : vp.candidates()) {
        rows.add(row(c.mechanism().sqlName(), c == vp.chosen(), cal.charge(), c.rmse(),
            vp.measurement().describe() + ": strategy " + c.strategyName()));
      }
      if (!Double.isNaN(vp.lowerBoundRmse())) {
        rows.add(row("lower_bound", false, cal.charge(), vp.lowerBoundRmse(),
            vp.measurement().describe()));
      }
      if (QueryClassErrors.scored(vp) && vp.chosen().cellEstimates()) {
        // the synopsis this release keeps: the error of each class of later (free) queries
        org.dpsql.matrix.mechanism.MatrixMechanism mm = vp.chosen().prepared().get();
        rows.addAll(classRows(cells.columns(), mm.inference(),
            mm.calibrate(vp.noise()).unitVariance(), vp.measurement().resolution().doubleValue(),
            vp.measurement(), cal.charge()));
      }
    }
    return new ResultTable(COLUMNS, rows);
  }

  /**
   * One {@code query_class} row (never chosen) per class of later queries a synopsis answers for
   * free, with its expected RMSE (see {@link QueryClassErrors}).
   */
  private static List<Object[]> classRows(List<org.dpsql.policy.ColumnPolicy> columns,
      org.dpsql.matrix.mechanism.LeastSquares inference, double unitVariance, double unit,
      Measurement meas, PrivacyCost cost) {
    List<Object[]> out = new ArrayList<>();
    for (QueryClassErrors.QueryClass c : QueryClassErrors.of(columns, inference, unitVariance,
        unit)) {
      out.add(row("query_class", false, cost, c.rmse(), meas.describe() + ": " + c.description()
          + " (" + c.queries() + " queries)"));
    }
    return out;
  }

  /**
   * {@code w} over the cells of synopsis {@code s}: itself when the cells are the same, else its
   * rows lifted to the synopsis's finer cells (a query cell is the sum of the synopsis cells in
   * it).
   */
  private static Workload lift(Workload w, Synopsis s, org.dpsql.rewrite.CellDomain cells) {
    if (s.cells().columns().equals(cells.columns())) {
      return w;
    }
    org.dpsql.matrix.SparseWorkload sw = (org.dpsql.matrix.SparseWorkload) w;
    int[] proj = s.projectionOnto(cells);
    List<List<Integer>> members = new ArrayList<>();
    for (int c = 0; c < cells.size(); c++) {
      members.add(new ArrayList<>());
    }
    for (int f = 0; f < proj.length; f++) {
      members.get(proj[f]).add(f);
    }
    int[][] rows = new int[(int) sw.queries()][];
    for (int r = 0; r < rows.length; r++) {
      List<Integer> fine = new ArrayList<>();
      for (int c : sw.row(r)) {
        fine.addAll(members.get(c));
      }
      rows[r] = fine.stream().mapToInt(Integer::intValue).sorted().toArray();
    }
    return new org.dpsql.matrix.SparseWorkload(proj.length, rows);
  }

  /** {@code EXPLAIN PLAN FOR} a UNION ALL / grouping-sets workload, as text lines. */
  static ResultTable plan(WorkloadQuery query, DpsqlSession session) throws SQLException {
    TopDownShape tree = session.workloads().topDownShape(query);
    if (tree != null) {
      TopDownBudget b = session.workloads().topDownBudget(query, tree.depth());
      List<Object[]> rows = new ArrayList<>();
      rows.add(new Object[] {"InfTDA (TopDown with IntOpt, seed 003) over " + tree.description()
          + " of " + query.table().name() + ": one release of a " + tree.depth() + "-level tree, "
          + "integral, non-negative and consistent; later roll-ups and drill-downs within it are "
          + "free"});
      rows.add(new Object[] {"cost: " + session.workloads().topDownChargeForExplain(query)
          + " (zCDP rho " + b.rho().doubleValue() + ", split equally over the levels; unbounded "
          + "DP: the total is perturbed too)"});
      for (int l = 1; l <= tree.depth(); l++) {
        rows.add(new Object[] {"level " + l + " (" + tree.levelName(l) + ", "
            + tree.domain().levelSize(l) + " nodes): discrete Gaussian sigma^2 = "
            + String.format("%.4g", b.sigmaSquared(l).doubleValue())
            + ", max error <= " + String.format("%.4g",
                TopDownErrorBound.maxErrorBound(b, tree.domain(), l, 0.05))
            + " with probability 0.95 (Theorem 4)"});
      }
      return new ResultTable(List.of(ResultColumn.varchar("PLAN", false)), rows);
    }
    WorkloadPlan plan = workloadPlan(query);
    List<Synopsis> covering = new ArrayList<>();
    for (int i = 0; i < plan.measurements().size(); i++) {
      covering.add(session.workloads().covering(query.table(), plan.cells(),
          plan.measurements().get(i), plan.workloads().get(i)));
    }
    if (!covering.contains(null)) {
      List<Object[]> rows = new ArrayList<>();
      rows.add(new Object[] {"workload of " + query.parts().size() + " aggregate queries over "
          + query.table().name() + ", answered from released synopses: no charge"});
      for (int i = 0; i < covering.size(); i++) {
        Synopsis s = covering.get(i);
        Measurement m = plan.measurements().get(i);
        String rmse = "";
        if (s.estimate() != null) {
          try {
            rmse = ", expected RMSE per query " + String.format("%.4g", Math.sqrt(
                s.estimate().totalVariance(lift(plan.workloads().get(i), s, plan.cells()))
                    / plan.workloads().get(i).queries()) * m.resolution().doubleValue());
          } catch (IllegalArgumentException tooLarge) {
            // no dense trace at this size
          }
        }
        rows.add(new Object[] {"vector " + m.describe() + ": " + plan.workloads().get(i).queries()
            + " queries from the synopsis " + s.mechanism() + " over " + String.join(" x ",
                s.cells().columns().stream().map(c -> c.name() + "[" + c.domainSize() + "]")
                    .toList()) + rmse});
      }
      return new ResultTable(List.of(ResultColumn.varchar("PLAN", false)), rows);
    }
    WorkloadCalibration cal = session.workloads().calibrate(query.table(), query.hint(),
        plan.measurements(), new ArrayList<>(plan.workloads()));
    List<Object[]> rows = new ArrayList<>();
    rows.add(new Object[] {"workload of " + query.parts().size() + " aggregate queries over "
        + query.table().name() + " (" + query.shape().name().toLowerCase(java.util.Locale.ROOT)
        + "), answered jointly with the matrix mechanism"});
    rows.add(new Object[] {"cells: " + plan.cells().size() + " (" + String.join(" x ",
        plan.cells().columns().stream().map(c -> c.name() + "[" + c.domainSize() + "]").toList())
        + "), measured with one pushed-down GROUP BY"});
    for (int p = 0; p < plan.partReleased().size(); p++) {
      org.dpsql.rewrite.ReleasedCells r = plan.partReleased().get(p);
      rows.add(new Object[] {"part " + (p + 1) + " groups: " + r.count() + " released of "
          + r.size() + (r.excluded() == 0 ? "" : ", " + r.excluded()
              + " excluded by the part's own filter (decided from the filter and the domains, no "
              + "data read)")});
    }
    rows.add(new Object[] {"cost: " + cal.charge() + " (split equally over "
        + plan.measurements().size() + " data vector(s))"});
    for (WorkloadCalibration.VectorPlan vp : cal.perMeasurement()) {
      rows.add(new Object[] {"vector " + vp.measurement().describe() + ": "
          + vp.workload().queries() + " queries, strategy " + vp.chosen().strategyName()
          + ", expected RMSE per query " + String.format("%.4g", vp.expectedRmse())
          + (Double.isNaN(vp.lowerBoundRmse()) ? ""
              : " (lower bound " + String.format("%.4g", vp.lowerBoundRmse()) + ")")});
      if (!vp.chosen().cellEstimates()) {
        rows.add(new Object[] {"  answered by its own measurements (rows too ill-conditioned "
            + "for least squares): each query by its own noisy count, unbiased, the answers not "
            + "mutually consistent; no cell estimates; later queries free only when one of these"});
      }
      if (QueryClassErrors.scored(vp) && vp.chosen().cellEstimates()) {
        org.dpsql.matrix.mechanism.MatrixMechanism mm = vp.chosen().prepared().get();
        for (QueryClassErrors.QueryClass c : QueryClassErrors.of(plan.cells().columns(),
            mm.inference(), mm.calibrate(vp.noise()).unitVariance(),
            vp.measurement().resolution().doubleValue())) {
          rows.add(new Object[] {"  kept as a synopsis: later " + c.description() + " ("
              + c.queries() + " queries) free, expected RMSE " + String.format("%.4g", c.rmse())});
        }
      }
    }
    return new ResultTable(List.of(ResultColumn.varchar("PLAN", false)), rows);
  }

  /** {@code EXPLAIN PLAN FOR} a rectangle count answered by HTF, as text lines. */
  static ResultTable spatialPlan(SpatialRange r, org.dpsql.sql.AggregateQuery q,
      DpsqlSession session) throws SQLException {
    List<Object[]> rows = new ArrayList<>();
    rows.add(new Object[] {"rectangle count over spatial index " + r.index() + " of "
        + r.table().name() + ": x = " + r.x().name() + " [" + r.x().domainSize() + " bins], y = "
        + r.y().name() + " [" + r.y().domainSize() + " bins]"});
    SpatialExecutor.Released done = session.spatial().released(r);
    if (done != null) {
      rows.add(new Object[] {"answered free from the released HTF synopsis: height "
          + done.treeHeight() + ", " + done.synopsis().nodeCount() + " nodes, "
          + done.synopsis().leafCount() + " leaves, released at epsilon "
          + done.epsilon().doubleValue() + " per point"});
    } else {
      var params = session.spatial().parameters(r, q.hint());
      NoisePlan.PureBudget b = NoisePlan.pureBudget(session.accountant().accounting(),
          session.policy().budget().defaultQuery(), session.reportingDelta(), q.hint());
      rows.add(new Object[] {"cost: " + b.charge() + "; releases an HTF synopsis of the whole grid "
          + "(every later rectangle on this index is free)"});
      rows.add(new Object[] {"budget per point: epsilon_tot " + params.epsilonTotal().doubleValue()
          + " = epsilon_height " + params.epsilonHeight().doubleValue() + " + epsilon_prt ("
          + params.partitionBudgetPerLevel().doubleValue() + " per level) + epsilon_data (the "
          + "rest); the tree height is chosen privately from the noisy total"});
    }
    return new ResultTable(List.of(ResultColumn.varchar("PLAN", false)), rows);
  }

  private static WorkloadPlan workloadPlan(WorkloadQuery q) throws SQLException {
    try {
      return WorkloadPlan.of(q, List.of());
    } catch (SQLException e) {
      if ("07001".equals(e.getSQLState())) {
        throw SqlStates.notSupported("explaining a workload needs its filter values: write "
            + "literals instead of parameters in the explained statement");
      }
      throw e;
    }
  }

  private static Object[] row(String mechanism, boolean chosen, PrivacyCost cost, double rmse,
      String measure) {
    return new Object[] {mechanism, chosen, cost.epsilon(), cost.delta(), cost.rho(),
        Double.isFinite(rmse) ? rmse : null, measure};
  }
}
