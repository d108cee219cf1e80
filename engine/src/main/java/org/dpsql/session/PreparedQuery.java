package org.dpsql.session;

import java.util.List;
import org.dpsql.release.ResultColumn;
import org.dpsql.sql.AnalyzedStatement;

/**
 * A statement that has been analysed but not run: what it is, the columns it will return and the
 * parameters it takes. Preparing never charges the budget.
 */
public record PreparedQuery(String sql, AnalyzedStatement statement, List<ResultColumn> columns,
    List<AnalyzedStatement.ParameterInfo> parameters) {
  public PreparedQuery {
    columns = List.copyOf(columns);
    parameters = List.copyOf(parameters);
  }
}
