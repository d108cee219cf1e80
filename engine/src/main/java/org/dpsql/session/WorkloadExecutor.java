package org.dpsql.session;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.dpsql.accounting.Accountant;
import org.dpsql.accounting.BudgetExceededException;
import org.dpsql.backend.ExactMeasurer;
import org.dpsql.errors.SqlStates;
import org.dpsql.matrix.SparseWorkload;
import org.dpsql.matrix.Workload;
import org.dpsql.matrix.mechanism.Estimate;
import org.dpsql.matrix.mechanism.MatrixMechanism;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.policy.Policy;
import org.dpsql.policy.TablePolicy;
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

  /** Newest first. */
  private final List<Synopsis> synopses = new CopyOnWriteArrayList<>();

  WorkloadExecutor(Policy policy, Accountant accountant, BigDecimal reportingDelta,
      RandomBits random, ExactMeasurer measurer) {
    this.policy = policy;
    this.accountant = accountant;
    this.reportingDelta = reportingDelta;
    this.random = random;
    this.measurer = measurer;
  }

  /** The released synopses of the connection, newest first. */
  List<Synopsis> synopses() {
    return List.copyOf(synopses);
  }

  /** Answers a UNION ALL / grouping-sets workload. */
  ResultTable release(WorkloadQuery query, String statement, List<Object> parameters)
      throws SQLException {
    WorkloadPlan plan = WorkloadPlan.of(query, parameters);
    Answers a = answer(query.table(), query.hint(), plan.cells(), plan.measurements(),
        new ArrayList<>(plan.workloads()), statement, parameters, query.hint().ci() != null);
    return WorkloadAnswer.build(plan, a.values, a.stdErrors);
  }

  /** Answers a {@code DPSQL.WORKLOAD} family: one row per query, QUERY and VALUE. */
  ResultTable release(FamilyQuery query, String statement) throws SQLException {
    FamilyWorkload family = FamilyWorkload.of(query);
    boolean ci = query.hint().ci() != null;
    if (ci && family.workload().queries() * (double) family.cells().size() > MAX_CI_ENTRIES) {
      throw SqlStates.notSupported("ci for " + query.describe() + " (" + family.workload().queries()
          + " queries over " + family.cells().size() + " cells) is too costly to compute; ask "
          + "without ci, or for fewer queries");
    }
    Answers a = answer(query.table(), query.hint(), family.cells(),
        List.of(Measurement.countStar()), List.of(family.workload()), statement, List.of(), ci);
    List<String> labels = family.descriptions();
    double[] values = a.values[0];
    List<Object[]> rows = new ArrayList<>(values.length);
    double z = ci ? WorkloadAnswer.normalQuantile((1 + query.hint().ci()) / 2) : 0;
    for (int i = 0; i < values.length; i++) {
      if (ci) {
        double m = z * a.stdErrors[0][i];
        rows.add(new Object[] {labels.get(i), values[i], values[i] - m, values[i] + m});
      } else {
        rows.add(new Object[] {labels.get(i), values[i]});
      }
    }
    return new ResultTable(familyColumns(query.hint()), rows);
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
    return WorkloadCalibration.calibrate(accountant.accounting(), policy.budget().defaultQuery(),
        reportingDelta, hint, ms, ws, table.maxRowsPerUnit());
  }

  /**
   * A single aggregate query answered from the synopses alone, or null when some of its data
   * vectors are not covered (or its filter cannot be evaluated on cells).
   */
  ResultTable fromSynopses(AggregateQuery q, String statement, List<Object> parameters) {
    if (synopses.isEmpty()) {
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
        new ArrayList<>(plan.workloads()), ci);
    if (a == null) {
      return null;
    }
    accountant.recordFree(statement, a.mechanism, a.rmse);
    return WorkloadAnswer.build(plan, a.values, a.stdErrors);
  }

  // ---------------------------------------------------------------------------------------------

  /** Estimated answers per measurement and row, their standard errors, and what produced them. */
  private static final class Answers {
    final double[][] values;
    final double[][] stdErrors;
    String mechanism;
    Double rmse;

    Answers(int measurements) {
      values = new double[measurements][];
      stdErrors = new double[measurements][];
    }
  }

  private Answers answer(TablePolicy table, DpHint hint, CellDomain cells, List<Measurement> ms,
      List<Workload> ws, String statement, List<Object> parameters, boolean ci)
      throws SQLException {
    Answers free = covered(table, cells, ms, ws, ci);
    if (free != null) {
      accountant.recordFree(statement, free.mechanism, free.rmse);
      return free;
    }
    // measure the vectors no synopsis covers; answer the others from their synopses
    List<Integer> todo = new ArrayList<>();
    Answers out = new Answers(ms.size());
    List<String> mechanisms = new ArrayList<>();
    for (int i = 0; i < ms.size(); i++) {
      if (!answerFromSynopsis(table, cells, ms.get(i), ws.get(i), ci, out, i, mechanisms)) {
        todo.add(i);
      }
    }
    List<Measurement> toMeasure = todo.stream().map(ms::get).toList();
    List<Workload> toAnswer = todo.stream().map(ws::get).toList();
    WorkloadCalibration cal = calibrate(table, hint, toMeasure, toAnswer);
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
      synopses.add(0, new Synopsis(table, cells, ms.get(i), e, vp.chosen().mechanism().sqlName()));
      Workload w = ws.get(i);
      out.values[i] = w.answer(e.cells());
      if (ci) {
        out.stdErrors[i] = stdErrors(e, w, null);
      }
    }
    return out;
  }

  /** All vectors answered from synopses, or null. */
  private Answers covered(TablePolicy table, CellDomain cells, List<Measurement> ms,
      List<Workload> ws, boolean ci) {
    Answers out = new Answers(ms.size());
    List<String> mechanisms = new ArrayList<>();
    for (int i = 0; i < ms.size(); i++) {
      if (!answerFromSynopsis(table, cells, ms.get(i), ws.get(i), ci, out, i, mechanisms)) {
        return null;
      }
    }
    out.mechanism = "synopsis:" + String.join("+", mechanisms.stream().distinct().toList());
    return out;
  }

  private boolean answerFromSynopsis(TablePolicy table, CellDomain cells, Measurement m,
      Workload w, boolean ci, Answers out, int i, List<String> mechanisms) {
    for (Synopsis s : synopses) {
      if (!s.covers(table, cells.columns(), m)) {
        continue;
      }
      Estimate e = s.estimate();
      boolean sameCells = s.cells().columns().equals(cells.columns());
      double[] xhat = e.cells();
      if (sameCells) {
        if (!e.inference().fullColumnRank()) {
          try {
            e.inference().requireInRowSpace(w);
          } catch (IllegalArgumentException notCovered) {
            continue;
          }
        }
        out.values[i] = w.answer(xhat);
        out.stdErrors[i] = ci ? stdErrors(e, w, null) : null;
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
        ok = e.inference().fullColumnRank() || e.inference().inRowSpace(v);
        lifted[r] = v;
      }
      if (!ok) {
        continue;
      }
      double[] values = new double[rows];
      for (int r = 0; r < rows; r++) {
        double sum = 0;
        for (int f = 0; f < xhat.length; f++) {
          sum += lifted[r][f] * xhat[f];
        }
        values[r] = sum;
      }
      out.values[i] = values;
      out.stdErrors[i] = ci ? stdErrors(e, null, lifted) : null;
      mechanisms.add(s.mechanism());
      return true;
    }
    return false;
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
      if ("07001".equals(e.getSQLState())) {
        throw e;
      }
      throw new SQLException("the backend could not evaluate this private workload (backend "
          + "SQLState " + e.getSQLState() + "); its message is withheld because it may quote "
          + "private values. Nothing was charged.",
          e.getSQLState() == null ? "HY000" : e.getSQLState());
    }
  }
}
