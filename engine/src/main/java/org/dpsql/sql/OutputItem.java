package org.dpsql.sql;

import org.dpsql.policy.ColumnPolicy;

/**
 * One column of a private aggregate query's result: either a group key ({@code aggregate == null})
 * or an aggregate of a policy column ({@code column == null} for {@code COUNT(*)}).
 */
public record OutputItem(String label, ColumnPolicy column, AggregateKind aggregate) {
  public boolean isGroupKey() {
    return aggregate == null;
  }
}
