package org.dpsql.policy;

import org.apache.calcite.sql.SqlDialect;

/**
 * A value computed from the columns of one row of a private table, such as {@code FARE * 1.2 + 1}
 * or {@code CASE WHEN PAYMENT = 'CASH' THEN FARE ELSE 0 END}: the argument of an aggregate that
 * the front end turned into a column of its own (see {@link ColumnPolicy#computed()}).
 *
 * <p>Guarantees of the front end that builds one: every clamped column in it is already clamped
 * to its policy bounds, it uses only operators that cannot fail on any row (no division by a
 * column, no casts), and the clamp of the computed column contains every value it can take.
 * Two computed values are equal when their {@link #text()} is.
 */
public interface ComputedValue {
  /** The value as an SQL expression over the table's columns, in {@code dialect}. */
  String sql(SqlDialect dialect);

  /** A dialect-independent text of the expression (for messages and equality). */
  String text();
}
