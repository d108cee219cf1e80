package org.dpsql.session;

import java.util.List;
import org.dpsql.release.NoisePlan;
import org.dpsql.release.ResultColumn;
import org.dpsql.rewrite.MeasurementPlan;
import org.dpsql.sql.AnalyzedStatement;

/**
 * A statement that has been analysed but not run: what it is, the columns it will return and the
 * parameters it takes; for a private aggregate also its measurement plan and calibrated noise
 * (null otherwise), which every execution reuses. Preparing never charges the budget.
 */
public record PreparedQuery(String sql, AnalyzedStatement statement, List<ResultColumn> columns,
    List<AnalyzedStatement.ParameterInfo> parameters, MeasurementPlan plan, NoisePlan noise) {

  /** A statement that is not a private aggregate. */
  PreparedQuery(String sql, AnalyzedStatement statement, List<ResultColumn> columns,
      List<AnalyzedStatement.ParameterInfo> parameters) {
    this(sql, statement, columns, parameters, null, null);
  }

  public PreparedQuery {
    columns = List.copyOf(columns);
    parameters = List.copyOf(parameters);
  }
}
