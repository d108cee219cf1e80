package org.dpsql.session;

import java.util.List;
import org.dpsql.release.NoisePlan;
import org.dpsql.release.ResultColumn;
import org.dpsql.rewrite.MeasurementPlan;
import org.dpsql.sql.AnalyzedStatement;

/**
 * A statement that has been analysed but not run: what it is, the columns it will return and the
 * parameters it takes; for a private aggregate also its measurement plan and calibrated noise
 * (null otherwise), which every execution reuses; for a statement with several private aggregates
 * ({@link AnalyzedStatement.Composite}) each of them prepared in {@code parts}. Preparing never
 * charges the budget.
 */
public record PreparedQuery(String sql, AnalyzedStatement statement, List<ResultColumn> columns,
    List<AnalyzedStatement.ParameterInfo> parameters, MeasurementPlan plan, NoisePlan noise,
    List<PreparedQuery> parts) {

  /** A statement that is not a private aggregate. */
  PreparedQuery(String sql, AnalyzedStatement statement, List<ResultColumn> columns,
      List<AnalyzedStatement.ParameterInfo> parameters) {
    this(sql, statement, columns, parameters, null, null, List.of());
  }

  /** A private aggregate, with its measurement plan and calibrated noise. */
  PreparedQuery(String sql, AnalyzedStatement statement, List<ResultColumn> columns,
      List<AnalyzedStatement.ParameterInfo> parameters, MeasurementPlan plan, NoisePlan noise) {
    this(sql, statement, columns, parameters, plan, noise, List.of());
  }

  public PreparedQuery {
    columns = List.copyOf(columns);
    parameters = List.copyOf(parameters);
    parts = List.copyOf(parts);
  }
}
