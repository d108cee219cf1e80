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
  AVG
}
