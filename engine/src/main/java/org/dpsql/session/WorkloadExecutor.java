package org.dpsql.session;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.dpsql.accounting.Accountant;
import org.dpsql.accounting.BudgetExceededException;
import org.dpsql.backend.ExactMeasurer;
import org.dpsql.errors.SqlStates;
import org.dpsql.hierarchy.BudgetSplit;
import org.dpsql.hierarchy.Contribution;
import org.dpsql.hierarchy.HierarchicalCounts;
import org.dpsql.hierarchy.Neighbouring;
import org.dpsql.hierarchy.TopDownBudget;
import org.dpsql.hierarchy.TopDownMechanism;
import org.dpsql.hierarchy.TopDownRelease;
import org.dpsql.matrix.SparseWorkload;
import org.dpsql.matrix.Workload;
import org.dpsql.matrix.mechanism.Estimate;
import org.dpsql.matrix.mechanism.MatrixMechanism;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.mechanism.Rational;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.Policy;
import org.dpsql.policy.TablePolicy;
import org.dpsql.release.NoisePlan;
import org.dpsql.release.ResultColumn;
import org.dpsql.release.ResultTable;
import org.dpsql.release.WorkloadAnswer;
import org.dpsql.release.WorkloadCalibration;
import org.dpsql.rewrite.CellDomain;
import org.dpsql.rewrite.FamilyWorkload;
import org.dpsql.rewrite.Measurement;
import org.dpsql.rewrite.MeasurementPlan;
import org.dpsql.rewrite.WorkloadPlan;
import org.dpsql.sql.AggregateQuery;
import org.dpsql.sql.DpHint;
import org.dpsql.sql.FamilyQuery;
import org.dpsql.sql.Mechanism;
import org.dpsql.sql.WorkloadQuery;

/**
 * Answers workloads (UNION ALL batches, grouping sets, {@code DPSQL.WORKLOAD} families) with the
 * matrix mechanism, and keeps every release as a {@link Synopsis} of the connection.
 *
 * <p>Guarantees: the data vectors a workload needs that an earlier release already covers (same
 * table and measurement, finer or equal cells, every query in the strategy's row space) are
 * answered from that release at no cost and the ledger says so ({@code source = synopsis}); the
 * others are measured with one pushed-down GROUP BY and charged once, atomically, after the backend
 * succeeded and before any noise is drawn, exactly as single queries are (see {@link
 * WorkloadCalibration} for the privacy argument).
 */
final class WorkloadExecutor {
  private final Policy policy;
  private final Accountant accountant;
  private final BigDecimal reportingDelta;
  private final RandomBits random;
  private final ExactMeasurer measurer;
  /** The most query-by-cell entries for which confidence intervals are computed. */
  static final double MAX_CI_ENTRIES = 5e7;

  /** The budget holder's released answers and synopses. */
  private final Releases releases;
  /** The data owner's published synopses, consulted after the connection's own. */
  private volatile List<Synopsis> published = List.of();

  WorkloadExecutor(Policy policy, Accountant accountant, BigDecimal reportingDelta,
      RandomBits random, ExactMeasurer measurer, Releases releases) {
    this.releases = releases;
    this.policy = policy;
    this.accountant = accountant;
    this.reportingDelta = reportingDelta;
    this.random = random;
    this.measurer = measurer;
  }

  /** Makes the data owner's published synopses answer covered queries for free. */
  void publish(List<Synopsis> ownerSynopses) {
    this.published = List.copyOf(ownerSynopses);
  }

  /** The released synopses of the budget holder, newest first. */
  List<Synopsis> synopses() {
    return releases.synopses();
  }

  /** Answers a UNION ALL / grouping-sets workload. */
  ResultTable release(WorkloadQuery query, String statement, List<Object> parameters)
      throws SQLException {
    TopDownShape tree = topDownShape(query);
    if (tree != null) {
      return releaseTopDown(query, tree, statement, parameters);
    }
    WorkloadPlan plan = WorkloadPlan.of(query, parameters);
    Answers a = answer(query.table(), query.hint(), plan.cells(), plan.measurements(),
        new ArrayList<>(plan.workloads()), statement, parameters, query.hint().ci() != null,
        false);
    return WorkloadAnswer.build(plan, a.values, a.stdErrors);
  }

  /**
   * Answers a {@code DPSQL.WORKLOAD} family: one row per query (QUERY and VALUE), or with {@code
   * output=cells} one row per cell of the released synopsis (its estimate {@code x̂}: a strategy
   * answering only the family's own queries, which has none, is then not chosen). Either way the
   * family is measured once with a strategy designed for its queries, kept as a synopsis, and
   * later queries it covers are free.
   */
  ResultTable release(FamilyQuery query, String statement) throws SQLException {
    FamilyWorkload family = FamilyWorkload.of(query);
    boolean ci = query.hint().ci() != null;
    boolean cellsOut = query.output() == FamilyQuery.Output.CELLS;
    long returned = cellsOut ? family.cells().size() : family.workload().queries();
    if (ci && returned * (double) family.cells().size() > MAX_CI_ENTRIES) {
      throw SqlStates.notSupported("ci for " + query.describe() + " (" + returned
          + (cellsOut ? " cells" : " queries") + " over " + family.cells().size() + " cells) is "
          + "too costly to compute; ask without ci, or for fewer queries");
    }
    if (ci && cellsOut && !determinesCells(query)) {
      throw SqlStates.notSupported("ci with output=cells needs a family whose queries determine "
          + "every cell (IDENTITY, PREFIX, ALL_RANGES, or k equal to the number of columns); the "
          + "cells of " + query.describe() + " are least-squares estimates without a standard "
          + "error: drop ci, or ask for its queries");
    }
    Answers a = answer(query.table(), query.hint(), family.cells(),
        List.of(Measurement.countStar()), List.of(family.workload()), statement, List.of(), ci,
        cellsOut);
    List<String> labels = family.rowDescriptions();
    double[] values = cellsOut ? a.cells[0] : a.values[0];
    double[] errors = null;
    if (ci) {
      errors = cellsOut ? cellErrors(a.estimates[0], a.cellRows[0], family.cells().size())
          : a.stdErrors[0];
    }
    List<Object[]> rows = new ArrayList<>(values.length);
    double z = ci ? WorkloadAnswer.normalQuantile((1 + query.hint().ci()) / 2) : 0;
    for (int i = 0; i < values.length; i++) {
      if (ci) {
        double m = z * errors[i];
        rows.add(new Object[] {labels.get(i), values[i], values[i] - m, values[i] + m});
      } else {
        rows.add(new Object[] {labels.get(i), values[i]});
      }
    }
    return new ResultTable(familyColumns(query.hint()), rows);
  }

  /** Whether every cell is a combination of the family's queries (so x̂ is unbiased per cell). */
  private static boolean determinesCells(FamilyQuery q) {
    return switch (q.family()) {
      case IDENTITY, PREFIX, ALL_RANGES -> true;
      case MARGINALS, RANGE_MARGINALS -> q.k() == q.columns().size();
    };
  }

  /**
   * The standard error of every cell estimate: of the unit vector of each cell, or of the sum of
   * the synopsis cells a coarser query cell holds ({@code members}, null when the synopsis has
   * these very cells).
   */
  private static double[] cellErrors(Estimate e, int[][] members, int cells) {
    double[] out = new double[cells];
    int n = e.strategy().cells();
    for (int c = 0; c < cells; c++) {
      double[] v = new double[n];
      if (members == null) {
        v[c] = 1;
      } else {
        for (int f : members[c]) {
          v[f] = 1;
        }
      }
      out[c] = Math.sqrt(e.variance(v));
    }
    return out;
  }

  /** The columns of a {@code DPSQL.WORKLOAD} result. */
  static List<ResultColumn> familyColumns(DpHint hint) {
    List<ResultColumn> cols = new ArrayList<>(List.of(ResultColumn.varchar("QUERY", false),
        ResultColumn.doubles("VALUE", false)));
    if (hint.ci() != null) {
      cols.add(ResultColumn.doubles("VALUE_LOW", false));
      cols.add(ResultColumn.doubles("VALUE_HIGH", false));
    }
    return cols;
  }

  /** The calibration a workload would use (for EXPLAIN); charges nothing, measures nothing. */
  WorkloadCalibration calibrate(TablePolicy table, DpHint hint, List<Measurement> ms,
      List<? extends Workload> ws) throws SQLException {
    return calibrate(table, hint, ms, ws, false);
  }

  /**
   * The same, for a release that must have cell estimates when {@code cellEstimates} ({@code
   * DPSQL.WORKLOAD} with {@code output=cells}).
   */
  WorkloadCalibration calibrate(TablePolicy table, DpHint hint, List<Measurement> ms,
      List<? extends Workload> ws, boolean cellEstimates) throws SQLException {
    for (Workload w : ws) {
      if (w.frobeniusSquared() == 0) {
        // no cell selected: there is nothing to measure (and no strategy to design)
        throw SqlStates.notSupported("the statement's filter selects no cell of the columns' "
            + "public domains (a range outside the domain, e.g. a date after its max), so its "
            + "answer does not depend on the data; widen the range or check its values "
            + "(CURRENT_DATE, NOW() and the other relative dates read the clock in UTC)");
      }
    }
    return WorkloadCalibration.calibrate(accountant.accounting(), policy.budget().defaultQuery(),
        reportingDelta, hint, ms, ws, table.maxRowsPerUnit(), cellEstimates);
  }

  /**
   * A single aggregate query answered from the synopses alone, or null when some of its data
   * vectors are not covered (or its filter cannot be evaluated on cells).
   */
  ResultTable fromSynopses(AggregateQuery q, String statement, List<Object> parameters) {
    if (releases.noSynopses() && published.isEmpty()) {
      return null;
    }
    WorkloadQuery wq = new WorkloadQuery(WorkloadQuery.Shape.UNION_ALL, q.table(), List.of(q),
        q.hint(), q.orderBy());
    WorkloadPlan plan;
    try {
      plan = WorkloadPlan.of(wq, parameters);
    } catch (SQLException e) {
      return null; // not expressible over cells: the query is measured as usual
    }
    boolean ci = q.hint().ci() != null;
    Answers a = covered(q.table(), plan.cells(), plan.measurements(),
        new ArrayList<>(plan.workloads()), ci, false);
    if (a == null) {
      return null;
    }
    accountant.recordFree(statement, a.mechanism, a.rmse);
    return WorkloadAnswer.build(plan, a.values, a.stdErrors);
  }

  // ---------------------------------------------------------------------------------------------
  // Roll-ups over a declared hierarchy: TopDown (InfTDA, seed 003)

  /**
   * The tree InfTDA releases for {@code q}, or null when it does not answer it: every part counts
   * rows ({@code COUNT(*)} only, no filter) grouped by a prefix of one declared hierarchy (a
   * roll-up), or by prefixes of two hierarchies (origin and destination, the origin's columns
   * first in the first part's GROUP BY); the accounting is zCDP or approx, there is no {@code ci},
   * and the mechanism is {@code auto}, {@code topdown} or {@code inftda}; likewise a roll-up over
   * calendar levels of one time column ({@link #calendarShape}). O/D trees are built only when
   * asked for by name. XDP03 when {@code topdown}/{@code inftda} was asked for and cannot be
   * used.
   */
  TopDownShape topDownShape(WorkloadQuery q) throws SQLException {
    Mechanism m = q.hint().mechanism();
    boolean asked = m == Mechanism.TOPDOWN || m == Mechanism.INFTDA;
    if (!asked && m != Mechanism.AUTO) {
      return null;
    }
    TopDownShape match = null;
    boolean countsOnly = q.parts().stream().allMatch(p -> p.where() == null
        && p.outputs().stream().allMatch(o -> o.isGroupKey()
            || o.aggregate() == org.dpsql.sql.AggregateKind.COUNT_STAR));
    List<List<ColumnPolicy>> hierarchies = q.table().hierarchies().values().stream()
        .map(h -> h.stream().map(c -> q.table().column(c).orElseThrow()).toList()).toList();
    if (countsOnly) {
      for (List<ColumnPolicy> cols : hierarchies) {
        int depth = prefixDepth(q, cols, List.of());
        if (depth > 0) {
          match = TopDownShape.of(cols.subList(0, depth));
          break;
        }
      }
      if (match == null && asked && !q.parts().get(0).groupBy().isEmpty()) {
        ColumnPolicy first = q.parts().get(0).groupBy().get(0);
        for (List<ColumnPolicy> o : hierarchies) {
          for (List<ColumnPolicy> d : hierarchies) {
            if (o == d || !o.get(0).equals(first)) {
              continue;
            }
            int depth = prefixDepth(q, o, d);
            if (depth > 0 && depth <= Math.min(o.size(), d.size())) {
              match = TopDownShape.originDestination(o.subList(0, depth), d.subList(0, depth));
            }
          }
        }
      }
    }
    if (match == null && countsOnly && (asked || q.parts().size() > 1)) {
      // a calendar roll-up (year > quarter > month > day, ...): its tree comes from the time
      // column's bins, as a declared hierarchy's does from the policy, so auto takes it too
      match = calendarShape(q);
    }
    String why = match == null ? "the query must count rows (COUNT(*), no WHERE) grouped by "
        + "prefixes of a hierarchy declared in the policy, e.g. GROUP BY ROLLUP(STATE, COUNTY), or "
        + "by prefixes of an origin and a destination hierarchy (origin columns first)"
        : accountant.accounting() == org.dpsql.accounting.Accounting.PURE
            ? "InfTDA is a zCDP mechanism and this policy uses pure accounting"
            : q.hint().ci() != null ? "ci is not available for TopDown releases" : null;
    if (why != null) {
      if (asked) {
        throw SqlStates.notSupported("mechanism '" + m.sqlName() + "' cannot answer this "
            + "statement: " + why);
      }
      return null;
    }
    return match;
  }

  /**
   * The calendar tree of a roll-up over truncations of one time column ({@code GROUP BY
   * ROLLUP(EXTRACT(YEAR FROM t), EXTRACT(QUARTER FROM t), DATE_TRUNC('month', t), CAST(t AS
   * DATE))}), or null when the parts are not such a roll-up: every part groups by expressions of
   * the same time column only; its groupings, from coarse to fine, each split the calendar into
   * consecutive runs of bins, each refining the one above; and the finest has one group per bin
   * of the policy, so that the tree's leaves are the column's cells. The tree comes from the
   * policy's bins and the expressions alone (public), never from the data.
   */
  private static TopDownShape calendarShape(WorkloadQuery q) {
    ColumnPolicy time = null;
    java.util.TreeMap<Integer, int[]> levels = new java.util.TreeMap<>();
    java.util.Map<Integer, String> names = new java.util.HashMap<>();
    for (AggregateQuery part : q.parts()) {
      List<int[]> values = new ArrayList<>();
      for (ColumnPolicy c : part.groupBy()) {
        java.util.Optional<org.dpsql.rewrite.PublicJoin.Derived> d = part.derived(c);
        ColumnPolicy key = d.map(org.dpsql.rewrite.PublicJoin.Derived::key).orElse(c);
        if (key.time().isEmpty() || (time != null && !time.equals(key))) {
          return null;
        }
        time = key;
        if (d.isPresent()) {
          values.add(d.get().valueOfKey());
        } else {
          int[] own = new int[key.domainSize()];
          for (int i = 0; i < own.length; i++) {
            own[i] = i;
          }
          values.add(own);
        }
      }
      if (values.isEmpty()) {
        continue; // the total: the tree's root
      }
      int cells = time.domainSize();
      int[] group = new int[cells];
      java.util.Map<java.util.List<Integer>, Integer> ids = new java.util.HashMap<>();
      for (int cell = 0; cell < cells; cell++) {
        List<Integer> tuple = new ArrayList<>();
        for (int[] v : values) {
          tuple.add(v[cell]);
        }
        Integer id = ids.get(tuple);
        if (id == null) {
          id = ids.size();
          ids.put(tuple, id);
          if (cell > 0 && id != group[cell - 1] + 1) {
            return null; // numbered by first appearance: a run must start right after the last
          }
        } else if (cell > 0 && id != group[cell - 1]) {
          return null; // a group that is not one run of consecutive bins
        }
        group[cell] = id;
      }
      int[] known = levels.get(ids.size());
      if (known != null && !java.util.Arrays.equals(known, group)) {
        return null;
      }
      levels.put(ids.size(), group);
      // the groupings are derived columns (DPSQL_X0, ...): named by what they cut
      names.put(ids.size(), ids.size() == time.domainSize() ? time.name() + " bins"
          : "runs of " + time.name() + " bins");
    }
    if (time == null || levels.isEmpty() || levels.lastKey() != time.domainSize()) {
      return null;
    }
    List<int[]> chain = new ArrayList<>(levels.values());
    int[][] fanOuts = new int[chain.size()][];
    fanOuts[0] = new int[] {levels.firstKey()};
    for (int l = 1; l < chain.size(); l++) {
      int[] coarse = chain.get(l - 1);
      int[] fine = chain.get(l);
      int[] f = new int[coarse[coarse.length - 1] + 1];
      for (int cell = 0; cell < fine.length; cell++) {
        if (cell > 0 && fine[cell] == fine[cell - 1]) {
          if (coarse[cell] != coarse[cell - 1]) {
            return null; // a finer group straddles two coarser ones: not a tree
          }
          continue;
        }
        f[coarse[cell]]++;
      }
      fanOuts[l] = f;
    }
    return TopDownShape.calendar(time, org.dpsql.hierarchy.Hierarchy.ofFanOuts(fanOuts),
        levels.keySet().stream().map(names::get).toList());
  }

  /**
   * The deepest level the parts group by when each part's GROUP BY is a prefix of {@code first}
   * followed (in any order) by a prefix of {@code second} (empty for one hierarchy); 0 when a part
   * is not of that form.
   */
  private static int prefixDepth(WorkloadQuery q, List<ColumnPolicy> first,
      List<ColumnPolicy> second) {
    int depth = 0;
    for (AggregateQuery part : q.parts()) {
      java.util.Set<ColumnPolicy> g = new java.util.HashSet<>(part.groupBy());
      int a = 0;
      while (a < first.size() && g.contains(first.get(a))) {
        a++;
      }
      int b = 0;
      while (b < second.size() && g.contains(second.get(b))) {
        b++;
      }
      if (a + b != g.size() || (!second.isEmpty() && (a == 0 || b == 0))) {
        return 0;
      }
      depth = Math.max(depth, Math.max(a, b));
    }
    return depth;
  }

  /** The TopDown budget of a roll-up: zCDP ρ (approx: the largest ρ implying the (ε, δ)). */
  TopDownBudget topDownBudget(WorkloadQuery q, int depth) throws SQLException {
    org.dpsql.accounting.PrivacyCost charge = topDownCharge(q);
    Rational rho = charge.rho().signum() > 0 ? Rational.of(charge.rho())
        : TopDownBudget.rhoForApproxDp(charge.epsilon(), charge.delta());
    return TopDownBudget.of(rho, depth, Neighbouring.UNBOUNDED,
        new Contribution(q.table().maxRowsPerUnit(), false), BudgetSplit.uniform());
  }

  /** What a roll-up answered by InfTDA is charged (for EXPLAIN). */
  org.dpsql.accounting.PrivacyCost topDownChargeForExplain(WorkloadQuery q) throws SQLException {
    return topDownCharge(q);
  }

  private org.dpsql.accounting.PrivacyCost topDownCharge(WorkloadQuery q) throws SQLException {
    return NoisePlan.zcdpCharge(accountant.accounting(), policy.budget().defaultQuery(),
        reportingDelta, q.hint());
  }

  private ResultTable releaseTopDown(WorkloadQuery query, TopDownShape tree,
      String statement, List<Object> parameters) throws SQLException {
    List<ColumnPolicy> levels = tree.leafColumns();
    WorkloadPlan plan = WorkloadPlan.of(query, parameters, CellDomain.MAX_TREE_CELLS);
    List<Workload> ws = new ArrayList<>(plan.workloads());
    Answers free = covered(query.table(), plan.cells(), plan.measurements(), ws, false, false);
    if (free != null) {
      accountant.recordFree(statement, free.mechanism, free.rmse);
      return WorkloadAnswer.build(plan, free.values, null);
    }
    TopDownBudget budget = topDownBudget(query, tree.depth());
    org.dpsql.accounting.PrivacyCost charge = topDownCharge(query);
    if (!accountant.canAfford(charge)) {
      throw new BudgetExceededException(accountant.accounting(), charge, accountant.remaining());
    }
    // its mixed-radix cell index is the leaf id
    CellDomain leaves = new CellDomain(levels, CellDomain.MAX_TREE_CELLS);
    AggregateQuery whole = new AggregateQuery(query.table(), levels, List.of(), null,
        query.hint(), List.of(), null, null);
    long[][] exact = measureWithheld(new MeasurementPlan(whole, leaves,
        List.of(Measurement.countStar())), parameters);
    int nonEmpty = 0;
    for (long c : exact[0]) {
      if (c > 0) {
        nonEmpty++;
      }
    }
    long[] ids = new long[nonEmpty];
    long[] counts = new long[nonEmpty];
    for (int leaf = 0, k = 0; leaf < exact[0].length; leaf++) {
      if (exact[0][leaf] > 0) {
        ids[k] = leaf;
        counts[k++] = exact[0][leaf];
      }
    }
    HierarchicalCounts data = HierarchicalCounts.fromLeafCounts(tree.domain(), ids, counts);
    accountant.charge(charge, statement, "inftda", null);
    TopDownRelease release = TopDownMechanism.infTda(budget).release(data, random);
    // the released leaves, laid out over the plan's cells (policy column order)
    int[] proj = new Synopsis(query.table(), leaves, Measurement.countStar(), null,
        new double[leaves.size()], "inftda").projectionOnto(plan.cells());
    double[] xhat = new double[plan.cells().size()];
    for (int leaf = 0; leaf < proj.length; leaf++) {
      xhat[proj[leaf]] += release.tree().count(tree.depth(), leaf);
    }
    releases.addSynopsis(new Synopsis(query.table(), plan.cells(), Measurement.countStar(), null,
        xhat, "inftda"));
    double[][] answers = {ws.get(0).answer(xhat)};
    return WorkloadAnswer.build(plan, answers, null);
  }

  // ---------------------------------------------------------------------------------------------

  /** Estimated answers per measurement and row, their standard errors, and what produced them. */
  private static final class Answers {
    final double[][] values;
    final double[][] stdErrors;
    /** Per measurement: the estimate of every cell of the query's cells (x̂, summed if finer). */
    final double[][] cells;
    /** Per measurement: the estimate the answers come from (null for a TopDown release). */
    final Estimate[] estimates;
    /** Per measurement: the synopsis cells in each query cell, null when they are the same. */
    final int[][][] cellRows;
    String mechanism;
    Double rmse;

    Answers(int measurements) {
      values = new double[measurements][];
      stdErrors = new double[measurements][];
      cells = new double[measurements][];
      estimates = new Estimate[measurements];
      cellRows = new int[measurements][][];
    }
  }

  /**
   * Answers every vector from the synopses or measures it; {@code cellEstimates}: every vector's
   * answer must come with cell estimates (a synopsis or strategy without them is not used).
   */
  private Answers answer(TablePolicy table, DpHint hint, CellDomain cells, List<Measurement> ms,
      List<Workload> ws, String statement, List<Object> parameters, boolean ci,
      boolean cellEstimates) throws SQLException {
    Answers free = covered(table, cells, ms, ws, ci, cellEstimates);
    if (free != null) {
      accountant.recordFree(statement, free.mechanism, free.rmse);
      return free;
    }
    // measure the vectors no synopsis covers; answer the others from their synopses
    List<Integer> todo = new ArrayList<>();
    Answers out = new Answers(ms.size());
    List<String> mechanisms = new ArrayList<>();
    for (int i = 0; i < ms.size(); i++) {
      if (!answerFromSynopsis(table, cells, ms.get(i), ws.get(i), ci, cellEstimates, out, i,
          mechanisms)) {
        todo.add(i);
      }
    }
    List<Measurement> toMeasure = todo.stream().map(ms::get).toList();
    List<Workload> toAnswer = todo.stream().map(ws::get).toList();
    WorkloadCalibration cal = calibrate(table, hint, toMeasure, toAnswer, cellEstimates);
    if (!accountant.canAfford(cal.charge())) {
      throw new BudgetExceededException(accountant.accounting(), cal.charge(),
          accountant.remaining());
    }
    AggregateQuery whole = new AggregateQuery(table, cells.columns(), List.of(), null, hint,
        List.of(), null, null);
    MeasurementPlan mplan = new MeasurementPlan(whole, cells, toMeasure);
    long[][] exact = measureWithheld(mplan, parameters);
    // prepare the strategies (data-independent) before charging, so a failure charges nothing
    List<MatrixMechanism> prepared = new ArrayList<>();
    for (WorkloadCalibration.VectorPlan vp : cal.perMeasurement()) {
      prepared.add(vp.chosen().prepared().get());
    }
    double rmse = 0;
    for (WorkloadCalibration.VectorPlan vp : cal.perMeasurement()) {
      rmse = Math.max(rmse, vp.expectedRmse());
    }
    accountant.charge(cal.charge(), statement, cal.mechanism().sqlName(), rmse);
    for (int j = 0; j < todo.size(); j++) {
      int i = todo.get(j);
      WorkloadCalibration.VectorPlan vp = cal.perMeasurement().get(j);
      Estimate e = prepared.get(j).run(exact[j], vp.noise(), random);
      releases.addSynopsis(new Synopsis(table, cells, ms.get(i), e,
          vp.chosen().mechanism().sqlName()));
      Workload w = ws.get(i);
      // least squares: W x̂; own measurements (no cells): each query's own measured rows
      out.values[i] = e.hasCells() ? w.answer(e.cells()) : e.answers(w);
      out.cells[i] = e.hasCells() ? e.cells() : null;
      out.estimates[i] = e;
      if (ci) {
        out.stdErrors[i] = stdErrors(e, w, null);
      }
    }
    return out;
  }

  /** All vectors answered from synopses, or null. */
  private Answers covered(TablePolicy table, CellDomain cells, List<Measurement> ms,
      List<Workload> ws, boolean ci, boolean cellEstimates) {
    Answers out = new Answers(ms.size());
    List<String> mechanisms = new ArrayList<>();
    for (int i = 0; i < ms.size(); i++) {
      if (!answerFromSynopsis(table, cells, ms.get(i), ws.get(i), ci, cellEstimates, out, i,
          mechanisms)) {
        return null;
      }
    }
    out.mechanism = "synopsis:" + String.join("+", mechanisms.stream().distinct().toList());
    return out;
  }

  private boolean answerFromSynopsis(TablePolicy table, CellDomain cells, Measurement m,
      Workload w, boolean ci, boolean cellEstimates, Answers out, int i,
      List<String> mechanisms) {
    for (Synopsis s : allSynopses()) {
      if (!s.covers(table, cells.columns(), m)) {
        continue;
      }
      Estimate e = s.estimate();
      if (e == null && ci) {
        continue; // a TopDown release has no error estimate to build intervals from
      }
      double[] xhat = s.values();
      if (xhat == null && cellEstimates) {
        continue; // answers its own queries only: no cell estimates to return
      }
      boolean sameCells = s.cells().columns().equals(cells.columns());
      if (sameCells) {
        if (e != null && !e.covers(w)) {
          continue;
        }
        out.values[i] = xhat != null ? w.answer(xhat) : e.answers(w);
        out.stdErrors[i] = ci ? stdErrors(e, w, null) : null;
        out.cells[i] = xhat;
        out.estimates[i] = e;
        mechanisms.add(s.mechanism());
        return true;
      }
      if (!(w instanceof SparseWorkload sw)) {
        continue;
      }
      int[] proj = s.projectionOnto(cells);
      // group the synopsis cells by the query cell they fall in
      int[][] members = invert(proj, cells.size());
      int rows = (int) sw.queries();
      double[][] lifted = new double[rows][];
      boolean ok = true;
      for (int r = 0; r < rows && ok; r++) {
        double[] v = new double[proj.length];
        for (int c : sw.row(r)) {
          for (int f : members[c]) {
            v[f] = 1;
          }
        }
        ok = e == null || e.covers(v);
        lifted[r] = v;
      }
      if (!ok) {
        continue;
      }
      double[] values = new double[rows];
      for (int r = 0; r < rows; r++) {
        if (xhat == null) {
          values[r] = e.answer(lifted[r]); // one of its own measured queries
          continue;
        }
        double sum = 0;
        for (int f = 0; f < xhat.length; f++) {
          sum += lifted[r][f] * xhat[f];
        }
        values[r] = sum;
      }
      out.values[i] = values;
      out.stdErrors[i] = ci ? stdErrors(e, null, lifted) : null;
      double[] summed = null;
      if (xhat != null) {
        summed = new double[cells.size()];
        for (int f = 0; f < xhat.length; f++) {
          summed[proj[f]] += xhat[f];
        }
      }
      out.cells[i] = summed;
      out.estimates[i] = e;
      out.cellRows[i] = members;
      mechanisms.add(s.mechanism());
      return true;
    }
    return false;
  }

  /** The synopses a statement may be answered from: this connection's releases, then published. */
  private List<Synopsis> allSynopses() {
    List<Synopsis> all = new ArrayList<>(releases.synopses());
    all.addAll(published);
    return all;
  }

  /**
   * The synopsis that would answer workload {@code w} of measurement {@code m} over {@code cells}
   * for free (the same rule as a release uses), or null when it would be measured: for EXPLAIN,
   * which computes no answer.
   */
  Synopsis covering(TablePolicy table, CellDomain cells, Measurement m, Workload w) {
    return covering(table, cells, m, w, false);
  }

  /** The same, with cell estimates when {@code cellEstimates} (as {@link #answer} uses). */
  Synopsis covering(TablePolicy table, CellDomain cells, Measurement m, Workload w,
      boolean cellEstimates) {
    for (Synopsis s : allSynopses()) {
      if (!s.covers(table, cells.columns(), m)) {
        continue;
      }
      Estimate e = s.estimate();
      if (s.values() == null && cellEstimates) {
        continue;
      }
      if (e == null || (e.hasCells() && e.inference().fullColumnRank())) {
        if (s.cells().columns().equals(cells.columns()) || w instanceof SparseWorkload) {
          return s;
        }
        continue;
      }
      if (s.cells().columns().equals(cells.columns())) {
        if (e.covers(w)) {
          return s;
        }
        continue;
      }
      if (w instanceof SparseWorkload sw) {
        int[] proj = s.projectionOnto(cells);
        int[][] members = invert(proj, cells.size());
        boolean ok = true;
        for (int r = 0; r < sw.queries() && ok; r++) {
          double[] v = new double[proj.length];
          for (int c : sw.row(r)) {
            for (int f : members[c]) {
              v[f] = 1;
            }
          }
          ok = e.covers(v);
        }
        if (ok) {
          return s;
        }
      }
    }
    return null;
  }

  private static int[][] invert(int[] proj, int coarseCells) {
    int[] counts = new int[coarseCells];
    for (int p : proj) {
      counts[p]++;
    }
    int[][] out = new int[coarseCells][];
    for (int c = 0; c < coarseCells; c++) {
      out[c] = new int[counts[c]];
      counts[c] = 0;
    }
    for (int f = 0; f < proj.length; f++) {
      out[proj[f]][counts[proj[f]]++] = f;
    }
    return out;
  }

  /** Standard errors of every query: of {@code w}'s rows, or of the given dense rows. */
  private static double[] stdErrors(Estimate e, Workload w, double[][] denseRows) {
    double[][] rows = denseRows != null ? denseRows : w.matrix();
    double[] out = new double[rows.length];
    for (int r = 0; r < rows.length; r++) {
      out[r] = Math.sqrt(e.variance(rows[r]));
    }
    return out;
  }

  private long[][] measureWithheld(MeasurementPlan plan, List<Object> parameters)
      throws SQLException {
    try {
      return measurer.measure(plan, parameters);
    } catch (SQLException e) {
      throw SqlStates.backendFailureWithheld("could not evaluate this private workload", e, "");
    }
  }
}
