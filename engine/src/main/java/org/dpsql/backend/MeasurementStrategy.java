package org.dpsql.backend;

import java.sql.SQLException;
import java.util.List;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.rewrite.MeasuredGroup;
import org.dpsql.rewrite.MeasurementPlan;
import org.dpsql.rewrite.QuantileGrid;

/**
 * How the exact, bounded measurements a release asks for are computed: {@link
 * PushDownMeasurement} (one SQL statement per measurement, the backend bounds and aggregates) or
 * {@link StreamingMeasurement} (the backend filters, the JVM bounds and aggregates in one pass).
 *
 * <p>Contract shared by every strategy (and so the privacy guarantee the release planner relies
 * on): each privacy unit's contribution to every returned value is computed from that unit's own
 * rows that pass the statement's filter alone, and is at most {@code max_rows_per_unit} (k) of
 * them (in at most {@code max_groups_per_unit} groups for private keys), each clamped as the
 * policy says; a unit whose rows number at most k (or that is unique) contributes all of them.
 * So every vector has the sensitivity {@link org.dpsql.rewrite.Measurement#sensitivity(int)}
 * states, whichever strategy computed it. Nothing is charged here: a failure (timeout,
 * cancellation) throws before the caller charges.
 */
public interface MeasurementStrategy {
  /** The strategy's name as EXPLAIN shows it ({@code push-down}, {@code streaming}). */
  String name();

  /** {@code result[m][cell]}: measurement m (counts, or sums in resolution steps) of each cell. */
  long[][] measure(MeasurementPlan plan, List<Object> parameters) throws SQLException;

  /**
   * Every non-empty group of a plan that groups by private keys, with its exact distinct-unit
   * count and measurements over the bounded rows.
   */
  List<MeasuredGroup> partitions(MeasurementPlan plan, List<Object> parameters)
      throws SQLException;

  /**
   * {@code result[cell][point]}: the number of the cell's bounded, non-null values of {@code
   * column} that count at each point of {@code grid}.
   */
  long[][] histogram(MeasurementPlan plan, ColumnPolicy column, QuantileGrid grid,
      List<Object> parameters) throws SQLException;
}
