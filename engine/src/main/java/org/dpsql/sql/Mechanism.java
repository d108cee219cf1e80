package org.dpsql.sql;

import java.sql.SQLException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.dpsql.errors.SqlStates;

/**
 * The mechanism names of the contract (§4). Not every name is available for every query: the
 * engine says XDP03 when a known mechanism cannot answer a query, and XDP05 for an unknown name.
 */
public enum Mechanism {
  AUTO, GEOMETRIC, LAPLACE, GAUSSIAN, DISCRETE_GAUSSIAN, IDENTITY, HIERARCHICAL, WAVELET, FOURIER,
  EIGEN, TOPDOWN, INFTDA, OPTIMAL_PMF, SAFETAB, HTF,
  /** HDMM-style optimised strategies for pure ε-DP workloads (a dpsql extension of the contract). */
  HDMM;

  /** The name as written in SQL. */
  public String sqlName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Mechanism parse(String s) throws SQLException {
    for (Mechanism m : values()) {
      if (m.sqlName().equalsIgnoreCase(s.trim())) {
        return m;
      }
    }
    throw SqlStates.badPrivacyParameter("DP hint: unknown mechanism '" + s + "'; valid mechanisms are "
        + Arrays.stream(values()).map(Mechanism::sqlName).collect(Collectors.joining(", ")));
  }
}
