package org.dpsql.sql;

/** An ORDER BY key over the released result: the index of an output column and its direction. */
public record SortKey(int outputIndex, boolean descending) {}
