package org.dpsql.rewrite;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlNode;
import org.dpsql.policy.TablePolicy;
import org.dpsql.sql.AggregateQuery;

/**
 * Which cells of a GROUP BY a release returns: every cell of the policy domain that the
 * statement's own filter may contain, and none that it excludes. This is the one rule every path
 * that releases cells follows (single aggregates, the parts of composite statements, joins on the
 * unit, quantiles, {@code UNION ALL} batches and grouping sets, roll-ups).
 *
 * <p>A cell is excluded when the filter is false for every row the cell can hold: for every value
 * the policy lets its key columns take (a categorical value, the values of an ordered bin), decided
 * by {@link CellPredicate#bounding} from the filter, the statement's parameters and the domains
 * alone, on the bins and on the pieces {@link FilterPoints} cuts integer bins into (exact for
 * comparisons of integer or categorical columns with numbers and text). What cannot be decided (a condition on a column that is not a group key, an expression,
 * an unset parameter) counts as possibly true, so the cell is kept; a kept cell is released with
 * its noise, zeros included, exactly as before.
 *
 * <p>Privacy: the released set is a function of the statement, its parameters and the policy,
 * never of the data, so which rows appear reveals nothing about any unit: on two neighbouring
 * databases the same statement returns the same keys. Leaving cells out is post-processing of the
 * release: callers still measure and add noise to every cell of the domain (so the charge, the
 * sensitivity and the noise distribution of each returned cell are those of the full release,
 * and with a fixed seed the returned values are bit-identical to it) and only drop rows.
 * Immutable.
 */
public final class ReleasedCells {
  private final boolean[] released;
  private final int count;

  private ReleasedCells(boolean[] released) {
    this.released = released;
    int n = 0;
    for (boolean r : released) {
      n += r ? 1 : 0;
    }
    this.count = n;
  }

  /** Every cell of {@code cells} (no filter, or a statement without GROUP BY). */
  public static ReleasedCells all(int cells) {
    boolean[] r = new boolean[cells];
    java.util.Arrays.fill(r, true);
    return new ReleasedCells(r);
  }

  /**
   * The cells of {@code cells} (the group keys' domain) that {@code where} may contain, with the
   * statement's {@code parameters} and the columns of joined public tables it may name. A
   * statement without GROUP BY (one cell) always returns its one row, as SQL does.
   */
  public static ReleasedCells of(SqlNode where, CellDomain cells, List<Object> parameters,
      List<PublicJoin.Derived> derived) {
    return new ReleasedCells(possible(where, cells, parameters, derived));
  }

  /**
   * As {@link #of(SqlNode, CellDomain, List, List)} for a query of {@code table}, whose nested
   * hierarchy levels ({@link HierarchyNesting}) also leave out the cells of pairs the nesting rules
   * out, and let the filter name a coarser level than the cells' (decided through the nesting).
   */
  public static ReleasedCells of(SqlNode where, CellDomain cells, List<Object> parameters,
      List<PublicJoin.Derived> derived, TablePolicy table) {
    List<PublicJoin.Derived> all = new ArrayList<>(derived);
    all.addAll(HierarchyNesting.ancestors(table, cells.columns()));
    boolean[] released = possible(where, cells, parameters, all);
    boolean[] nested = HierarchyNesting.consistent(table, cells);
    for (int c = 0; nested != null && c < released.length; c++) {
      released[c] &= nested[c];
    }
    return new ReleasedCells(released);
  }

  private static boolean[] possible(SqlNode where, CellDomain cells, List<Object> parameters,
      List<PublicJoin.Derived> derived) {
    if (where == null || cells.columns().isEmpty()) {
      boolean[] r = new boolean[cells.size()];
      java.util.Arrays.fill(r, true);
      return r;
    }
    boolean[] byBin = CellPredicate.bounding(where, cells, parameters, derived).possible();
    FilterPoints points = FilterPoints.of(where, cells, parameters);
    if (points == null) {
      return byBin;
    }
    // the bins split where the filter's numbers cut them: exact for comparisons with numbers
    boolean[] byPoint = CellPredicate.bounding(where, points.domain(), parameters, derived)
        .possible();
    boolean[] released = new boolean[cells.size()];
    for (int p = 0; p < byPoint.length; p++) {
      if (byPoint[p]) {
        released[points.cellOf(p)] = true;
      }
    }
    for (int c = 0; c < released.length; c++) {
      released[c] &= byBin[c]; // each is sound on its own, so is what both keep
    }
    return released;
  }

  /** The cells of a single aggregate's plan that its filter may contain. */
  public static ReleasedCells of(MeasurementPlan plan, List<Object> parameters) {
    AggregateQuery q = plan.query();
    List<PublicJoin.Derived> derived = new ArrayList<>();
    q.joins().forEach(j -> derived.addAll(j.derived()));
    return of(q.where(), plan.cells(), parameters, derived, q.table());
  }

  /**
   * The groups of a workload part whose data cells the part's exact filter selects: {@code
   * rows[g]} lists the selected data cells of group g (see {@link WorkloadPlan}). In a workload
   * the filter is decided exactly on the data cells, whose columns include every filtered column,
   * so a group with no selected data cell has no row that passes the filter; a part without GROUP
   * BY ({@code grouped} false) keeps its one row. A group of a (coarse, fine) pair of nested
   * hierarchy levels that the nesting rules out is left out too (a roll-up returns the tree's
   * nodes only), and so is a group whose selected data cells ({@code cells}) all pair levels
   * the nesting rules out ({@code WHERE STATE = 'TX' GROUP BY COUNTY}: the counties of TX).
   */
  static ReleasedCells ofGroups(int[][] rows, boolean grouped, CellDomain cells,
      CellDomain groups, TablePolicy table) {
    boolean[] r = new boolean[rows.length];
    boolean[] nestedGroups = HierarchyNesting.consistent(table, groups);
    boolean[] nestedCells = HierarchyNesting.consistent(table, cells);
    for (int g = 0; g < rows.length; g++) {
      boolean any = nestedCells == null ? rows[g].length > 0 : false;
      for (int i = 0; !any && i < rows[g].length; i++) {
        any = nestedCells[rows[g][i]];
      }
      r[g] = !grouped || (any && (nestedGroups == null || nestedGroups[g]));
    }
    return new ReleasedCells(r);
  }

  /** Whether {@code cell} is returned. */
  public boolean released(int cell) {
    return released[cell];
  }

  /** The number of cells of the domain. */
  public int size() {
    return released.length;
  }

  /** The number of cells returned. */
  public int count() {
    return count;
  }

  /** The number of cells the filter excludes. */
  public int excluded() {
    return released.length - count;
  }

  /** The EXPLAIN line: how many cells are released and how many the filter excludes. */
  public String describe() {
    return "cells: " + count + " released of " + size() + " in the policy domain"
        + (excluded() == 0 ? "" : ", " + excluded() + " excluded by the statement's own filter "
            + "(decided from the filter and the domains, no data read)")
        + "; every released cell is returned with its noise, zeros included";
  }
}
