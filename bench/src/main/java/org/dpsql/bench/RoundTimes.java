package org.dpsql.bench;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.function.IntFunction;

/**
 * One statement timed directly on a backend and through dpsql, back to back in every round, the
 * statement's text changed every round (so dpsql measures anew instead of answering from its
 * release of the previous round): the measured rounds' times and per-round ratios dpsql ÷ exact.
 */
record RoundTimes(double[] exact, double[] dpsql, double[] ratio) {

  /** Runs {@code warmup + measured} rounds of {@code sql.apply(round)} on both connections. */
  static RoundTimes of(Connection direct, Connection dpsql, int warmup, int measured,
      IntFunction<String> sql) throws SQLException {
    double[] exact = new double[measured];
    double[] priv = new double[measured];
    double[] ratio = new double[measured];
    for (int round = 0; round < warmup + measured; round++) {
      String statement = sql.apply(round);
      double e = FrontEndBench.run(direct, statement);
      double d = FrontEndBench.run(dpsql, statement);
      if (round >= warmup) {
        int i = round - warmup;
        exact[i] = e;
        priv[i] = d;
        ratio[i] = d / e;
      }
    }
    return new RoundTimes(exact, priv, ratio);
  }

  /**
   * E.g. {@code exact on H2 median 630 ms; through dpsql median 2310 ms; dpsql / exact: median of
   * per-round ratios 3.57 (min 3.26, max 4.58)}.
   */
  String summary(String backend) {
    return String.format("exact on %s median %.0f ms; through dpsql median %.0f ms; dpsql / exact: "
        + "median of per-round ratios %.2f (min %.2f, max %.2f)", backend,
        FrontEndBench.median(exact), FrontEndBench.median(dpsql), FrontEndBench.median(ratio),
        Arrays.stream(ratio).min().orElse(Double.NaN), Arrays.stream(ratio).max().orElse(Double.NaN));
  }
}
