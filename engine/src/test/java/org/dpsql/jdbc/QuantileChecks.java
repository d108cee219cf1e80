package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks of noise-free released quantiles against the data in a backend, computed here from the
 * rows themselves (so the same check serves backends with and without an exact PERCENTILE_DISC).
 *
 * <p>A noise-free release is an exact p-quantile of the group's values clamped into the grid's
 * range and rounded down to its step ({@link org.dpsql.release.QuantileRelease}): a point v with
 * #{x < v} ≤ t ≤ #{x ≤ v}, t = p·n clamped into [1/2, n − 1/2]. In terms of the raw values it lies
 * within one step below the order statistic x₍⌈t⌉₎ (PERCENTILE_DISC when p·n is not an integer)
 * and at most at x₍⌊t⌋+1₎ (the next value up when p·n is an integer, where any point in between is
 * an exact quantile).
 */
final class QuantileChecks {
  private QuantileChecks() {}

  /** The non-null values of {@code value} per value of {@code group}, read from the backend. */
  static Map<String, List<BigDecimal>> values(Connection backend, String table, String group,
      String value) throws SQLException {
    Map<String, List<BigDecimal>> out = new LinkedHashMap<>();
    try (Statement st = backend.createStatement(); ResultSet rs = st.executeQuery("SELECT "
        + group + ", " + value + " FROM " + table + " WHERE " + value + " IS NOT NULL")) {
      while (rs.next()) {
        out.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(rs.getBigDecimal(2));
      }
    }
    out.values().forEach(l -> l.sort(null));
    return out;
  }

  /** PERCENTILE_DISC(p) of sorted values: the smallest x with #{y ≤ x} ≥ p·n. */
  static BigDecimal disc(List<BigDecimal> sorted, double p) {
    int rank = (int) Math.max(1, Math.ceil(p * sorted.size() - 1e-9));
    return sorted.get(rank - 1);
  }

  /**
   * Asserts that {@code v} is an exact p-quantile of {@code sorted} clamped into [lo, hi] and
   * rounded down to {@code step} from lo, and that it lies between PERCENTILE_DISC minus one step
   * and the next order statistic, as the class comment says.
   */
  static void assertExactQuantile(List<BigDecimal> sorted, double p, double v, BigDecimal lo,
      BigDecimal hi, BigDecimal step, String what) {
    int n = sorted.size();
    double t = Math.min(Math.max(p * n, 0.5), n - 0.5);
    long below = 0;
    long atOrBelow = 0;
    BigDecimal point = BigDecimal.valueOf(v);
    for (BigDecimal x : sorted) {
      BigDecimal c = x.max(lo).min(hi);
      BigDecimal rounded = lo.add(c.subtract(lo).divide(step, 0, RoundingMode.FLOOR)
          .multiply(step));
      int cmp = rounded.compareTo(point);
      below += cmp < 0 ? 1 : 0;
      atOrBelow += cmp <= 0 ? 1 : 0;
    }
    String detail = what + " p=" + p + " v=" + v + " n=" + n + " #<v=" + below + " #<=v="
        + atOrBelow;
    assertTrue(below <= t && t <= atOrBelow, "not an exact quantile: " + detail);
    BigDecimal disc = disc(sorted, p);
    BigDecimal upper = sorted.get((int) Math.min(n - 1, Math.floor(t)));
    assertTrue(point.compareTo(disc.subtract(step)) >= 0 && point.compareTo(upper) <= 0,
        detail + ": not within a step of PERCENTILE_DISC " + disc + " (next " + upper + ")");
  }

  /**
   * Checks every row of {@code rs} (columns: the group, then the quartiles q1, q2, q3) as exact
   * quantiles of that group's {@code values} (see the class comment) and in order; returns the
   * number of rows.
   */
  static int assertExactQuartiles(ResultSet rs, Map<String, List<BigDecimal>> values,
      BigDecimal lo, BigDecimal hi, BigDecimal step) throws SQLException {
    int n = 0;
    double[] ps = {0.25, 0.5, 0.75};
    while (rs.next()) {
      n++;
      String group = rs.getString(1);
      for (int i = 0; i < 3; i++) {
        assertExactQuantile(values.get(group), ps[i], rs.getDouble(2 + i), lo, hi, step, group);
      }
      assertTrue(rs.getDouble(2) <= rs.getDouble(3) && rs.getDouble(3) <= rs.getDouble(4),
          "quartiles in order for " + group);
    }
    return n;
  }
}
