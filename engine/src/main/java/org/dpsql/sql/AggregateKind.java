package org.dpsql.sql;

/** The aggregates dpsql answers privately over a private table (contract §4). */
public enum AggregateKind {
  /** {@code COUNT(*)}: rows per cell. */
  COUNT_STAR,
  /** {@code COUNT(col)}: non-null values per cell. */
  COUNT,
  /** {@code SUM(col)}: sum of values clamped to the policy bounds. */
  SUM,
  /** {@code AVG(col)}: noisy SUM over noisy COUNT of the same column. */
  AVG,
  /**
   * {@code COUNT(DISTINCT unit)} of the privacy-unit column: protected individuals per cell,
   * counted over each unit's bounded rows.
   */
  COUNT_DISTINCT_UNIT,
  /**
   * {@code COUNT(DISTINCT col)} of another policy column: distinct non-null values per cell,
   * counted over each unit's bounded rows.
   */
  COUNT_DISTINCT,
  /**
   * {@code PERCENTILE_CONT(p)}, {@code PERCENTILE_DISC(p)}, {@code MEDIAN}, {@code MIN} and {@code
   * MAX} of a column with a public range: a value of the range's public grid chosen by the
   * exponential mechanism (see {@code org.dpsql.release.QuantileRelease}); the fraction p is
   * {@link OutputItem#fraction()}.
   */
  QUANTILE
}
