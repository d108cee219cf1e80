package org.dpsql.sql;

import java.util.List;
import java.util.Optional;
import org.apache.calcite.sql.SqlNode;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.TablePolicy;
import org.dpsql.rewrite.PublicJoin;

/**
 * A private aggregate query, as the front end understood it: which private table, which policy
 * columns form the cells (group keys), which aggregates are asked for, the row filter, the privacy
 * hint and the post-processing (ORDER BY / OFFSET / FETCH) of the released table.
 *
 * <p>{@code where} refers to columns by bare name and may contain dynamic parameters; it has been
 * checked to use only policy columns and no subqueries.
 *
 * <p>{@code joins} lists the public lookup tables joined to the private table ({@link PublicJoin});
 * their columns appear in {@code groupBy}, {@code outputs} and {@code where} as derived categorical
 * columns (see {@link #column(String)}); {@code table} is the private table's own policy.
 */
public record AggregateQuery(
    TablePolicy table,
    List<ColumnPolicy> groupBy,
    List<OutputItem> outputs,
    SqlNode where,
    DpHint hint,
    List<SortKey> orderBy,
    Long offset,
    Long fetch,
    List<PublicJoin> joins) {

  public AggregateQuery {
    groupBy = List.copyOf(groupBy);
    outputs = List.copyOf(outputs);
    orderBy = List.copyOf(orderBy);
    joins = List.copyOf(joins);
  }

  /** A query over the private table alone (no joins with public tables). */
  public AggregateQuery(TablePolicy table, List<ColumnPolicy> groupBy, List<OutputItem> outputs,
      SqlNode where, DpHint hint, List<SortKey> orderBy, Long offset, Long fetch) {
    this(table, groupBy, outputs, where, hint, orderBy, offset, fetch, List.of());
  }

  /**
   * Whether a group key is declared {@code keys: private}: the released groups are then selected
   * privately (see {@code org.dpsql.release.PartitionRelease}) instead of listed by the policy.
   */
  public boolean hasPrivateKeys() {
    return groupBy.stream().anyMatch(ColumnPolicy::hasPrivateKeys);
  }

  /**
   * Whether the query asks for no aggregate, only group keys that all have a declared domain
   * ({@code SELECT DISTINCT c}, {@code GROUP BY c} without aggregates): its answer is the
   * policy's domain (the cells its filter may contain), public, measured on nothing and free.
   */
  public boolean listsDomain() {
    return !groupBy.isEmpty() && !hasPrivateKeys()
        && outputs.stream().allMatch(OutputItem::isGroupKey);
  }

  /** The group keys with a public domain (all of them unless {@link #hasPrivateKeys()}). */
  public List<ColumnPolicy> declaredGroupBy() {
    return groupBy.stream().filter(c -> !c.hasPrivateKeys()).toList();
  }

  /** The group keys declared {@code keys: private}, in GROUP BY order. */
  public List<ColumnPolicy> privateGroupBy() {
    return groupBy.stream().filter(ColumnPolicy::hasPrivateKeys).toList();
  }

  /**
   * The number of groups one unit may contribute to: the smallest {@code max_groups_per_unit} of
   * the private group keys ({@link Integer#MAX_VALUE} without private keys).
   */
  public int maxGroupsPerUnit() {
    return groupBy.stream().filter(ColumnPolicy::hasPrivateKeys)
        .mapToInt(c -> c.privateKeys().orElseThrow().maxGroupsPerUnit()).min()
        .orElse(Integer.MAX_VALUE);
  }

  /** A column the query may name: a column of a joined public table, or of the private table. */
  public Optional<ColumnPolicy> column(String name) {
    for (PublicJoin j : joins) {
      for (PublicJoin.Derived d : j.derived()) {
        if (d.column().name().equalsIgnoreCase(name)) {
          return Optional.of(d.column());
        }
      }
    }
    return table.column(name);
  }

  /**
   * The public column a group key or filter column stands for, when the query joins public tables
   * and {@code column} is one of their columns, else empty.
   */
  public Optional<PublicJoin.Derived> derived(ColumnPolicy column) {
    for (PublicJoin j : joins) {
      for (PublicJoin.Derived d : j.derived()) {
        if (d.column().equals(column)) {
          return Optional.of(d);
        }
      }
    }
    return Optional.empty();
  }
}
