package org.dpsql.sql.relational;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.dpsql.errors.SqlStates;
import org.dpsql.policy.Policy;
import org.dpsql.policy.TablePolicy;
import org.dpsql.policy.UnitJoin;

/**
 * The input of a private aggregate that joins private tables, read as one private relation: the
 * {@link UnitJoin} of its tables, with the input's fields and conditions as expressions over the
 * relation's columns.
 *
 * <p>Guarantees: an input is accepted only when it is joins, filters and projections over two or
 * more distinct private tables with the same {@code unit:} name, linked by unit equalities, and
 * it is then exactly the relation's rows that satisfy the remaining conditions:
 *
 * <ul>
 *   <li>Inner joins only: the top-level conjuncts of the join and filter conditions must equate
 *       the tables' privacy-unit columns so that every table is linked to every other; the unit
 *       equalities are dropped (the relation joins on them) and every other conjunct is a filter
 *       of the relation. The members are taken in policy order, so the same join has one name.
 *   <li>With outer joins: the join must be left-deep (each join adds one table), each outer join
 *       {@code ON} exactly one unit equality with an earlier table; a filter, or a computed
 *       projection, is accepted only where no outer join above it null-extends its rows (there it
 *       commutes with the joins); the members keep the written order.
 * </ul>
 *
 * <p>Anything else (a table joined twice, tables of different persons, a join on another key, a
 * semi- or anti-join, a public table below the aggregate, {@code FULL JOIN} on H2) is refused with
 * XDP03 naming the reason ({@link Refusal}).
 */
final class UnitJoinInput {
  /** The relation, its column names, and the input's fields and conditions over them. */
  record Traced(TablePolicy relation, List<String> columns, List<RexNode> fields,
      List<RexNode> conditions) {}

  /** XDP03 for a join of private tables that cannot be read as one person's rows. */
  static final class Refusal extends SQLException {
    Refusal(String message) {
      super(message, SqlStates.NOT_SUPPORTED);
    }
  }

  private UnitJoinInput() {}

  /**
   * Whether {@code node} is read as a unit join: a tree of joins, filters and projections with
   * private tables on both sides of some join (joins with public tables alone are not).
   */
  static boolean joinsPrivateTables(RelNode node, Policy policy) {
    List<TableScan> read = new ArrayList<>();
    collect(node, read, true);
    return read.stream().filter(s -> isPrivate(s, policy)).count() >= 2;
  }

  /**
   * Whether {@code join} equates the privacy-unit column of a private table on its left with that
   * of a private table on its right (a top-level conjunct of its condition, columns traced to
   * their tables through Calcite's column origins): a join of one person's rows, which is
   * aggregated as one relation. Other joins of private tables are split into one aggregate per
   * side, grouped by the join keys, and combined from the released rows.
   */
  static boolean joinsOnUnits(Join join, Policy policy) {
    org.apache.calcite.rel.metadata.RelMetadataQuery mq = join.getCluster().getMetadataQuery();
    int left = join.getLeft().getRowType().getFieldCount();
    for (RexNode conjunct : RelOptUtil.conjunctions(join.getCondition())) {
      if (conjunct.getKind() != SqlKind.EQUALS) {
        continue;
      }
      List<RexNode> ops = ((RexCall) conjunct).getOperands();
      int a = fieldOf(ops.get(0));
      int b = fieldOf(ops.get(1));
      if (a < 0 || b < 0 || (a < left) == (b < left)) {
        continue;
      }
      if (isUnitColumn(mq.getColumnOrigin(join, a), policy)
          && isUnitColumn(mq.getColumnOrigin(join, b), policy)) {
        return true;
      }
    }
    return false;
  }

  /** The field a (maybe cast) input reference reads, or -1. */
  private static int fieldOf(RexNode e) {
    while (e instanceof RexCall c && c.getKind() == SqlKind.CAST) {
      e = c.getOperands().get(0);
    }
    return e instanceof RexInputRef ref ? ref.getIndex() : -1;
  }

  private static boolean isUnitColumn(org.apache.calcite.rel.metadata.RelColumnOrigin origin,
      Policy policy) {
    if (origin == null || origin.isDerived()) {
      return false;
    }
    List<String> name = origin.getOriginTable().getQualifiedName();
    TablePolicy t = policy.table(name.get(name.size() - 1)).orElse(null);
    if (t == null || t.isPublic() || t.unitIsRow()) {
      return false;
    }
    String column = origin.getOriginTable().getRowType().getFieldNames()
        .get(origin.getOriginColumnOrdinal());
    return column.equalsIgnoreCase(t.privacyUnit());
  }

  /**
   * One join of the input: its kind, the scans of its two sides (ranges of scan indexes in input
   * order), its condition over the column space, and whether its rows reach the top of the input
   * unchanged (no outer join above null-extends its side).
   */
  private record JoinStep(UnitJoin.Kind kind, int leftStart, int rightStart, int rightEnd,
      RexNode condition, boolean preserved) {}

  /**
   * {@code input} (joins, filters, projections) traced to its unit join, to be measured in the
   * {@code backend}'s dialect, or a {@link Refusal}.
   */
  static Traced trace(RelNode input, Policy policy, org.apache.calcite.sql.SqlDialect backend)
      throws SQLException {
    List<TableScan> scans = scans(input);
    List<TablePolicy> tables = new ArrayList<>();
    for (TableScan s : scans) {
      TablePolicy t = tableOf(s, policy).orElse(null);
      if (t == null || t.isPublic()) {
        throw new Refusal("a join of private tables with a public table below one aggregate is "
            + "not supported; join the public table on a group column of the aggregate (it is "
            + "then joined with the released rows), or aggregate the private join in a subquery "
            + "and join that");
      }
      tables.add(t);
    }
    checkMembers(tables);

    // every scan field, of every scan in input order, as one column space: (scan, field)
    List<int[]> origin = new ArrayList<>();
    List<RexNode> space = new ArrayList<>();
    for (int s = 0; s < scans.size(); s++) {
      TableScan scan = scans.get(s);
      for (int f = 0; f < scan.getRowType().getFieldCount(); f++) {
        origin.add(new int[] {s, f});
        space.add(new RexInputRef(space.size(),
            scan.getRowType().getFieldList().get(f).getType()));
      }
    }
    List<RexNode> conditions = new ArrayList<>();
    List<JoinStep> joins = new ArrayList<>();
    int[] next = {0, 0}; // next field, next scan
    List<RexNode> fields = traceNode(input, space, next, conditions, joins, true);
    boolean outer = joins.stream().anyMatch(j -> j.kind() != UnitJoin.Kind.INNER);
    if (backend instanceof org.apache.calcite.sql.dialect.H2SqlDialect
        && joins.stream().anyMatch(j -> j.kind() == UnitJoin.Kind.FULL)) {
      throw new Refusal("FULL JOIN of private tables needs a backend with full outer joins "
          + "(PostgreSQL, Trino); H2 has none: use LEFT JOIN or RIGHT JOIN");
    }

    List<TablePolicy> members;
    List<UnitJoin.Link> links = new ArrayList<>();
    List<RexNode> filters = new ArrayList<>();
    if (!outer) {
      // the members in policy order, so that the same inner join has one name
      members = new ArrayList<>();
      for (TablePolicy t : policy.tables().values()) {
        for (TablePolicy s : tables) {
          if (s.name().equals(t.name()) && !members.contains(t)) {
            members.add(t);
          }
        }
      }
      for (int i = 1; i < members.size(); i++) {
        links.add(new UnitJoin.Link(UnitJoin.Kind.INNER, 0));
      }
      joins.forEach(j -> conditions.add(j.condition()));
      // the unit equalities link the scans; every other conjunct filters the relation
      int[] linkedTo = new int[scans.size()];
      for (int i = 0; i < linkedTo.length; i++) {
        linkedTo[i] = i;
      }
      for (RexNode c : conditions) {
        for (RexNode conjunct : RelOptUtil.conjunctions(c)) {
          int[] pair = unitEquality(conjunct, origin, scans, tables);
          if (pair != null) {
            linkedTo[find(linkedTo, pair[0])] = find(linkedTo, pair[1]);
          } else if (!conjunct.isAlwaysTrue()) {
            filters.add(conjunct);
          }
        }
      }
      for (int s = 1; s < scans.size(); s++) {
        if (find(linkedTo, s) != find(linkedTo, 0)) {
          throw notOnUnits(tables);
        }
      }
    } else {
      members = tables; // as written: an outer join's sides are not interchangeable
      for (RexNode c : conditions) {
        for (RexNode conjunct : RelOptUtil.conjunctions(c)) {
          if (!conjunct.isAlwaysTrue()) {
            filters.add(conjunct);
          }
        }
      }
      links.addAll(outerLinks(joins, origin, scans, tables, filters));
    }
    TablePolicy relation = policy.unitJoin(members, links).orElseThrow(() -> new Refusal(
        "the private tables " + names(members) + " cannot be joined as one person's rows"));
    List<String> columns = new ArrayList<>(relation.join().columns().keySet());
    int unitIndex = columns.indexOf(relation.privacyUnit());

    // the column space mapped onto the relation's columns: each unit column onto the unit, or,
    // for a table an outer join may null-extend, onto that table's own unit column
    List<RexNode> toRelation = new ArrayList<>();
    for (int i = 0; i < origin.size(); i++) {
      TableScan scan = scans.get(origin.get(i)[0]);
      TablePolicy t = tables.get(origin.get(i)[0]);
      int member = members.indexOf(t);
      String field = scan.getRowType().getFieldNames().get(origin.get(i)[1]);
      int index = field.equalsIgnoreCase(t.privacyUnit())
          ? (relation.join().nullable(member) ? columns.indexOf(t.name() + "." + field)
              : unitIndex)
          : columnIndex(relation, columns, member, field);
      toRelation.add(new RexInputRef(index, space.get(i).getType()));
    }
    RexShuttle map = new RexShuttle() {
      @Override
      public RexNode visitInputRef(RexInputRef ref) {
        return toRelation.get(ref.getIndex());
      }
    };
    List<RexNode> mappedFields = new ArrayList<>();
    fields.forEach(f -> mappedFields.add(f.accept(map)));
    List<RexNode> mappedFilters = new ArrayList<>();
    filters.forEach(f -> mappedFilters.add(f.accept(map)));
    return new Traced(relation, columns, mappedFields, mappedFilters);
  }

  /**
   * The links of a join with outer joins: it must be left-deep (each join adds one table on its
   * right), every outer join must be on exactly one unit equality between the added table and an
   * earlier one, and an inner join's other conditions must reach the top unchanged (they are then
   * filters, added to {@code filters}). {@code FULL} joins need a backend that has them (H2 has
   * not).
   */
  private static List<UnitJoin.Link> outerLinks(List<JoinStep> joins, List<int[]> origin,
      List<TableScan> scans, List<TablePolicy> tables, List<RexNode> filters) throws SQLException {
    UnitJoin.Link[] links = new UnitJoin.Link[scans.size() - 1];
    for (JoinStep j : joins) {
      if (j.rightEnd() - j.rightStart() != 1 || j.leftStart() != 0 || j.rightStart() == 0) {
        throw new Refusal("an outer join of private tables is answered when each join adds one "
            + "table to the tables before it (FROM a LEFT JOIN b ON ... LEFT JOIN c ON ...); "
            + "this one joins a join on its right side");
      }
      int added = j.rightStart();
      Integer target = null;
      List<RexNode> others = new ArrayList<>();
      for (RexNode conjunct : RelOptUtil.conjunctions(j.condition())) {
        int[] pair = unitEquality(conjunct, origin, scans, tables);
        if (target == null && pair != null && (pair[0] == added || pair[1] == added)) {
          target = pair[0] == added ? pair[1] : pair[0];
        } else if (!conjunct.isAlwaysTrue()) {
          others.add(conjunct);
        }
      }
      if (target == null) {
        throw notOnUnits(tables);
      }
      if (!others.isEmpty() && (j.kind() != UnitJoin.Kind.INNER || !j.preserved())) {
        throw new Refusal(j.kind() + " JOIN of private tables on their units and on other "
            + "conditions is not supported: an outer join keeps the rows those conditions reject, "
            + "so they are not a filter; join ON the units alone and filter in WHERE, or filter "
            + "the table in a subquery");
      }
      filters.addAll(others);
      links[added - 1] = new UnitJoin.Link(j.kind(), target);
    }
    return List.of(links);
  }

  private static Refusal notOnUnits(List<TablePolicy> tables) {
    return new Refusal("the private tables " + names(tables) + " are joined on other columns "
        + "than their privacy units, so rows of one person could be paired with another "
        + "person's rows; join them on the units, e.g. ON " + unitEqualityExample(tables));
  }

  /** Refuses tables that are not distinct private tables sharing one unit name. */
  private static void checkMembers(List<TablePolicy> tables) throws SQLException {
    for (int i = 0; i < tables.size(); i++) {
      TablePolicy a = tables.get(i);
      for (int j = 0; j < i; j++) {
        if (tables.get(j).name().equals(a.name())) {
          throw new Refusal("private table " + a.name() + " is joined with itself; a self-join "
              + "pairs a person's rows with each other, which dpsql does not bound yet: "
              + "aggregate the table once and join the released rows");
        }
      }
    }
    for (TablePolicy t : tables) {
      if (t.sharedUnit() == null) {
        throw new Refusal("private tables " + names(tables) + " are joined, but " + t.name()
            + " declares no shared unit: the data owner can let tables that protect the same "
            + "person be joined by giving each the same unit name in the policy (unit: <name>, "
            + "next to privacy_unit)");
      }
    }
    TablePolicy first = tables.get(0);
    for (TablePolicy t : tables) {
      if (!t.sharedUnit().equalsIgnoreCase(first.sharedUnit())) {
        throw new Refusal("private table " + first.name() + " protects one kind of person (unit "
            + first.sharedUnit() + ") and " + t.name() + " another (unit " + t.sharedUnit()
            + "): a join would pair rows of different persons; aggregate each table on its own");
      }
    }
  }

  /**
   * The fields of {@code node} over the column space; filter conditions are added to {@code out}
   * and joins to {@code joins}. {@code preserved}: whether the rows of {@code node} reach the top
   * of the input unchanged; below an outer join's null-extended side, a filter or a computed
   * projection would not commute with the join and is refused.
   */
  private static List<RexNode> traceNode(RelNode node, List<RexNode> space, int[] next,
      List<RexNode> out, List<JoinStep> joins, boolean preserved) throws SQLException {
    if (node instanceof TableScan scan) {
      int start = next[0];
      next[0] += scan.getRowType().getFieldCount();
      next[1]++;
      return new ArrayList<>(space.subList(start, next[0]));
    }
    if (node instanceof Filter f) {
      if (!preserved) {
        throw nullExtended("filter");
      }
      List<RexNode> fields = traceNode(f.getInput(), space, next, out, joins, true);
      out.add(substitute(f.getCondition(), fields));
      return fields;
    }
    if (node instanceof Project p) {
      if (!preserved && p.getProjects().stream().anyMatch(e -> !(e instanceof RexInputRef))) {
        throw nullExtended("computed column");
      }
      List<RexNode> fields = traceNode(p.getInput(), space, next, out, joins, preserved);
      List<RexNode> projected = new ArrayList<>();
      for (RexNode e : p.getProjects()) {
        projected.add(substitute(e, fields));
      }
      return projected;
    }
    if (node instanceof Join j) {
      UnitJoin.Kind kind = switch (j.getJoinType()) {
        case INNER -> UnitJoin.Kind.INNER;
        case LEFT -> UnitJoin.Kind.LEFT;
        case RIGHT -> UnitJoin.Kind.RIGHT;
        case FULL -> UnitJoin.Kind.FULL;
        default -> throw new Refusal(j.getJoinType() + " join of private tables is not "
            + "supported (semi- and anti-joins of private tables reveal which persons match); "
            + "use an inner or outer JOIN on the units");
      };
      int leftStart = next[1];
      List<RexNode> fields = traceNode(j.getLeft(), space, next, out, joins,
          preserved && (kind == UnitJoin.Kind.INNER || kind == UnitJoin.Kind.LEFT));
      int rightStart = next[1];
      fields.addAll(traceNode(j.getRight(), space, next, out, joins,
          preserved && (kind == UnitJoin.Kind.INNER || kind == UnitJoin.Kind.RIGHT)));
      joins.add(new JoinStep(kind, leftStart, rightStart, next[1],
          substitute(j.getCondition(), fields), preserved));
      return fields;
    }
    throw new Refusal("a join of private tables may be read through joins, filters and "
        + "projections; this one reads " + CoreAggregate.describe(node)
        + " below the aggregate (aggregate each table on its own and combine the released rows)");
  }

  private static Refusal nullExtended(String what) {
    return new Refusal("a " + what + " on the side of an outer join of private tables that the "
        + "join may fill with NULLs is not supported: it would not mean the same after the join; "
        + "write it in the outer query's WHERE or SELECT instead");
  }

  private static RexNode substitute(RexNode e, List<RexNode> fields) {
    return e.accept(new RexShuttle() {
      @Override
      public RexNode visitInputRef(RexInputRef ref) {
        return fields.get(ref.getIndex());
      }
    });
  }

  /**
   * The two scans a conjunct {@code a.unit = b.unit} links (each operand the privacy-unit column of
   * a different scan, maybe cast), or null.
   */
  private static int[] unitEquality(RexNode conjunct, List<int[]> origin, List<TableScan> scans,
      List<TablePolicy> tables) {
    if (conjunct.getKind() != SqlKind.EQUALS) {
      return null;
    }
    List<RexNode> ops = ((RexCall) conjunct).getOperands();
    int[] scan = new int[2];
    for (int k = 0; k < 2; k++) {
      RexNode o = ops.get(k);
      while (o instanceof RexCall c && c.getKind() == SqlKind.CAST) {
        o = c.getOperands().get(0);
      }
      if (!(o instanceof RexInputRef ref)) {
        return null;
      }
      int[] at = origin.get(ref.getIndex());
      String field = scans.get(at[0]).getRowType().getFieldNames().get(at[1]);
      if (!field.equalsIgnoreCase(tables.get(at[0]).privacyUnit())) {
        return null;
      }
      scan[k] = at[0];
    }
    return scan[0] == scan[1] ? null : scan;
  }

  private static int find(int[] parent, int i) {
    while (parent[i] != i) {
      i = parent[i];
    }
    return i;
  }

  private static int columnIndex(TablePolicy relation, List<String> columns, int member,
      String field) throws SQLException {
    for (int c = 0; c < columns.size(); c++) {
      UnitJoin.Source s = relation.join().columns().get(columns.get(c));
      if (s.member() == member && s.column().equalsIgnoreCase(field)) {
        return c;
      }
    }
    throw new SQLException("column " + field + " is not a column of " + relation.name(), "42000");
  }

  private static String unitEqualityExample(List<TablePolicy> tables) {
    TablePolicy a = tables.get(0);
    TablePolicy b = tables.get(1);
    return a.name() + "." + a.privacyUnit() + " = " + b.name() + "." + b.privacyUnit();
  }

  private static String names(List<TablePolicy> tables) {
    return String.join(" and ", tables.stream().map(TablePolicy::name).distinct().toList());
  }

  private static Optional<TablePolicy> tableOf(TableScan scan, Policy policy) {
    List<String> name = scan.getTable().getQualifiedName();
    return policy.table(name.get(name.size() - 1));
  }

  private static boolean isPrivate(TableScan scan, Policy policy) {
    return tableOf(scan, policy).map(t -> !t.isPublic()).orElse(true);
  }

  private static List<TableScan> scans(RelNode node) {
    List<TableScan> out = new ArrayList<>();
    collect(node, out, false);
    return out;
  }

  private static void collect(RelNode node, List<TableScan> out, boolean stopAtAggregates) {
    node = node.stripped(); // a planner's vertex: the node it stands for
    if (node instanceof TableScan s) {
      out.add(s);
      return;
    }
    if (stopAtAggregates && node instanceof org.apache.calcite.rel.core.Aggregate) {
      return;
    }
    for (RelNode input : node.getInputs()) {
      collect(input, out, stopAtAggregates);
    }
  }
}
