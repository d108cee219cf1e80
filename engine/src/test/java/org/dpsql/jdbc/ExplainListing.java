package org.dpsql.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The rows of {@code SELECT * FROM TABLE(DPSQL.EXPLAIN('<statement>'))}: one per candidate
 * (MECHANISM, CHOSEN, ..., EXPECTED_RMSE, MEASURE), the {@code lower_bound} row and the {@code
 * query_class} rows, read as the tests of workloads ask them.
 */
record ExplainListing(List<List<Object>> rows) {

  /** The listing of {@code statement} (written as it would be run; quoted here). */
  static ExplainListing of(Connection c, String statement) throws SQLException {
    return new ExplainListing(ResultRows.of(c, "SELECT * FROM TABLE(DPSQL.EXPLAIN('"
        + statement.replace("'", "''") + "'))"));
  }

  /** The chosen row's mechanism, or null. */
  String chosenMechanism() {
    return rows.stream().filter(ExplainListing::chosen).map(r -> String.valueOf(r.get(0)))
        .findFirst().orElse(null);
  }

  /** The chosen row's expected RMSE, NaN when none is chosen. */
  double chosenRmse() {
    return rows.stream().filter(ExplainListing::chosen).mapToDouble(ExplainListing::rmse)
        .findFirst().orElse(Double.NaN);
  }

  /** The expected RMSE of the first row named {@code name} that is not chosen, else NaN. */
  double rmse(String name) {
    return rows.stream().filter(r -> !chosen(r) && r.get(0).equals(name))
        .mapToDouble(ExplainListing::rmse).findFirst().orElse(Double.NaN);
  }

  /** The {@code query_class} rows: expected RMSE by MEASURE, in MEASURE order. */
  Map<String, Double> classes() {
    Map<String, Double> out = new TreeMap<>();
    rows.stream().filter(r -> !chosen(r) && r.get(0).equals("query_class"))
        .forEach(r -> out.put(String.valueOf(r.get(6)), rmse(r)));
    return out;
  }

  /** The expected RMSE of the {@code query_class} row whose MEASURE contains {@code text}. */
  double classRmse(String text) {
    return classes().entrySet().stream().filter(e -> e.getKey().contains(text))
        .mapToDouble(Map.Entry::getValue).findFirst().orElse(Double.NaN);
  }

  private static boolean chosen(List<Object> r) {
    return (Boolean) r.get(1);
  }

  private static double rmse(List<Object> r) {
    return r.get(5) == null ? Double.NaN : ((Number) r.get(5)).doubleValue();
  }

  @Override
  public String toString() {
    return rows.toString();
  }
}
