package org.dpsql.sql;

import org.dpsql.policy.ColumnPolicy;

/**
 * One column of a private aggregate query's result: either a group key ({@code aggregate == null})
 * or an aggregate of a policy column ({@code column == null} for {@code COUNT(*)}); for a {@link
 * AggregateKind#QUANTILE} its fraction p in [0, 1] ({@code null} for every other aggregate).
 */
public record OutputItem(String label, ColumnPolicy column, AggregateKind aggregate,
    java.math.BigDecimal fraction) {

  /** A group key or an aggregate other than a quantile. */
  public OutputItem(String label, ColumnPolicy column, AggregateKind aggregate) {
    this(label, column, aggregate, null);
  }

  public boolean isGroupKey() {
    return aggregate == null;
  }
}
