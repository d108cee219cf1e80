package org.dpsql.session;

import java.util.List;
import org.dpsql.hierarchy.Hierarchy;
import org.dpsql.hierarchy.OdTreeDomain;
import org.dpsql.hierarchy.TreeDomain;
import org.dpsql.policy.ColumnPolicy;

/**
 * The tree an InfTDA release builds for a statement: a prefix of one declared hierarchy (levels =
 * its columns), or an origin/destination tree of two (the paper's destination tree: at each depth
 * the destination is split first, then the origin). {@code leafColumns} are the columns whose
 * cross product is the leaf level, in the order whose mixed-radix cell index is the tree's leaf id.
 */
record TopDownShape(List<ColumnPolicy> leafColumns, TreeDomain domain, String description,
    List<String> levelNames) {

  /** A tree whose levels are named by its leaf columns (one per level, or origin x destination). */
  TopDownShape(List<ColumnPolicy> leafColumns, TreeDomain domain, String description) {
    this(leafColumns, domain, description, null);
  }

  /** One hierarchy, down to {@code levels}. */
  static TopDownShape of(List<ColumnPolicy> levels) {
    return new TopDownShape(List.copyOf(levels), Hierarchy.uniform(fanOuts(levels)),
        String.join(" > ", levels.stream().map(ColumnPolicy::name).toList()));
  }

  /**
   * A calendar tree over the bins of one time column: {@code calendar} has the column's cells as
   * its leaves (leaf id = cell index), and its levels are the roll-up's groupings, named {@code
   * names} from the coarsest down.
   */
  static TopDownShape calendar(ColumnPolicy time, Hierarchy calendar, List<String> names) {
    return new TopDownShape(List.of(time), calendar, "the calendar of " + time.name() + " ("
        + names.size() + " levels down to its bins)", List.copyOf(names));
  }

  /** The destination tree of an origin and a destination hierarchy, both down to the same depth. */
  static TopDownShape originDestination(List<ColumnPolicy> origin, List<ColumnPolicy> destination) {
    List<ColumnPolicy> leaves = new java.util.ArrayList<>(origin);
    leaves.addAll(destination); // leaf id = origin leaf · |destination leaves| + destination leaf
    return new TopDownShape(leaves, new OdTreeDomain(Hierarchy.uniform(fanOuts(origin)),
        Hierarchy.uniform(fanOuts(destination)), OdTreeDomain.SplitOrder.DESTINATION_FIRST),
        "origin " + String.join(" > ", origin.stream().map(ColumnPolicy::name).toList())
            + ", destination " + String.join(" > ",
                destination.stream().map(ColumnPolicy::name).toList()));
  }

  /** The tree's depth T (levels below the root). */
  int depth() {
    return domain.depth();
  }

  /** What a tree level holds, for EXPLAIN. */
  String levelName(int level) {
    if (levelNames != null) {
      return levelNames.get(level - 1);
    }
    if (domain instanceof OdTreeDomain od) {
      int g = leafColumns.size() / 2;
      int o = od.originLevel(level);
      int d = od.destinationLevel(level);
      return "origin " + (o == 0 ? "all" : leafColumns.get(o - 1).name()) + " x destination "
          + (d == 0 ? "all" : leafColumns.get(g + d - 1).name());
    }
    return leafColumns.get(level - 1).name();
  }

  private static int[] fanOuts(List<ColumnPolicy> cols) {
    return cols.stream().mapToInt(ColumnPolicy::domainSize).toArray();
  }
}
