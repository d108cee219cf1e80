package org.dpsql.sql.relational;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.dpsql.errors.SqlStates;
import org.dpsql.policy.Policy;
import org.dpsql.policy.TablePolicy;

/**
 * The input of a private aggregate that joins one private table with public lookup tables
 * ({@code FROM TRIPS t JOIN ZONES z ON t.ZONE = z.CODE}), read back as the join it is: the
 * private aggregate's canonical statement keeps the join in its FROM, so that the policy analysis
 * of joins with public tables ({@code org.dpsql.sql.PublicJoins}) reads it. There, each public
 * column becomes a function of the private join key's cells (the public table is read when the
 * statement is prepared), and the aggregate is measured over the key's cells as one workload.
 *
 * <p>Guarantees: {@link #isLookupJoin} holds only for a tree of joins, filters and projections
 * over exactly one private table and at least one public table, nothing else (no aggregate: a join
 * with released rows is post-processing). {@link #trace} gives the input's fields and conditions
 * over a column space of every scanned column, the join tree as written (join types and ON
 * conditions, which the policy analysis checks: inner joins on one key equality only), and each
 * column's qualified name.
 */
final class PublicJoinInput {
  private PublicJoinInput() {}

  /** The traced input: column space, fields and conditions over it, the FROM clause. */
  record Traced(List<String> columns, List<SqlIdentifier> names, List<RexNode> fields,
      List<RexNode> conditions, SqlNode from, TablePolicy privateTable) {}

  /**
   * Whether {@code node} (the input of an aggregate) is joins, filters and projections over one
   * private table and public tables.
   */
  static boolean isLookupJoin(RelNode node, Policy policy) {
    List<TableScan> scans = new ArrayList<>();
    boolean[] joins = new boolean[1];
    if (!collect(node, scans, joins) || !joins[0]) {
      return false;
    }
    long privateScans = scans.stream().filter(s -> isPrivate(s, policy)).count();
    return privateScans == 1 && scans.size() >= 2;
  }

  private static boolean collect(RelNode node, List<TableScan> out, boolean[] joins) {
    node = node.stripped(); // the planner's vertex around a node
    if (node instanceof TableScan scan) {
      out.add(scan);
      return true;
    }
    if (node instanceof Join j) {
      joins[0] = true;
      return collect(j.getLeft(), out, joins) && collect(j.getRight(), out, joins);
    }
    if (node instanceof Project || node instanceof Filter) {
      return collect(node.getInput(0), out, joins);
    }
    return false;
  }

  /** Traces an input for which {@link #isLookupJoin} holds. */
  static Traced trace(RelNode input, Policy policy) throws SQLException {
    List<String> columns = new ArrayList<>();
    List<SqlIdentifier> names = new ArrayList<>();
    List<RexNode> space = new ArrayList<>();
    List<RexNode> conditions = new ArrayList<>();
    TablePolicy[] privateTable = new TablePolicy[1];
    SqlNode[] from = new SqlNode[1];
    List<RexNode> fields = traceNode(input, policy, columns, names, space, conditions, from,
        privateTable);
    return new Traced(columns, names, fields, conditions, from[0], privateTable[0]);
  }

  private static List<RexNode> traceNode(RelNode node, Policy policy, List<String> columns,
      List<SqlIdentifier> names, List<RexNode> space, List<RexNode> conditions, SqlNode[] from,
      TablePolicy[] privateTable) throws SQLException {
    SqlParserPos pos = SqlParserPos.ZERO;
    if (node instanceof TableScan scan) {
      List<String> qualified = scan.getTable().getQualifiedName();
      String alias = qualified.get(qualified.size() - 1);
      boolean isPrivate = isPrivate(scan, policy);
      if (isPrivate) {
        privateTable[0] = policy.table(alias).orElse(null);
      }
      List<RexNode> fields = new ArrayList<>();
      for (int f = 0; f < scan.getRowType().getFieldCount(); f++) {
        String column = scan.getRowType().getFieldNames().get(f);
        // a private column keeps its name (the policy names it); a public one cannot be
        // mistaken for a policy column
        columns.add(isPrivate ? column : alias + "." + column);
        names.add(new SqlIdentifier(List.of(alias, column), pos));
        RexNode ref = new RexInputRef(space.size(), scan.getRowType().getFieldList().get(f)
            .getType());
        space.add(ref);
        fields.add(ref);
      }
      from[0] = SqlStdOperatorTable.AS.createCall(pos, new SqlIdentifier(qualified, pos),
          new SqlIdentifier(alias, pos));
      return fields;
    }
    if (node instanceof Filter f) {
      List<RexNode> fields = traceNode(f.getInput(), policy, columns, names, space, conditions,
          from, privateTable);
      conditions.add(substitute(f.getCondition(), fields));
      return fields;
    }
    if (node instanceof Project p) {
      List<RexNode> fields = traceNode(p.getInput(), policy, columns, names, space, conditions,
          from, privateTable);
      List<RexNode> projected = new ArrayList<>();
      for (RexNode e : p.getProjects()) {
        projected.add(substitute(e, fields));
      }
      return projected;
    }
    Join j = (Join) node;
    JoinType type = switch (j.getJoinType()) {
      case INNER -> JoinType.INNER;
      case LEFT -> JoinType.LEFT;
      case RIGHT -> JoinType.RIGHT;
      case FULL -> JoinType.FULL;
      default -> throw SqlStates.notSupported(j.getJoinType() + " join of a private table with "
          + "a public table is not supported; join it by one key equality (JOIN ... ON "
          + "private.col = public.col)");
    };
    SqlNode[] left = new SqlNode[1];
    List<RexNode> fields = traceNode(j.getLeft(), policy, columns, names, space, conditions, left,
        privateTable);
    SqlNode[] right = new SqlNode[1];
    fields.addAll(traceNode(j.getRight(), policy, columns, names, space, conditions, right,
        privateTable));
    RexNode on = uncast(substitute(j.getCondition(), fields));
    from[0] = new SqlJoin(pos, left[0], SqlLiteral.createBoolean(false, pos), type.symbol(pos),
        right[0], JoinConditionType.ON.symbol(pos),
        CoreAggregate.nodeOf(on, names::get));
    return fields;
  }

  /** {@code e} with the casts of its columns removed (a join key compared through a cast). */
  private static RexNode uncast(RexNode e) {
    return e.accept(new RexShuttle() {
      @Override
      public RexNode visitCall(RexCall call) {
        if (call.getKind() == SqlKind.CAST && call.getOperands().get(0) instanceof RexInputRef) {
          return call.getOperands().get(0);
        }
        return super.visitCall(call);
      }
    });
  }

  private static RexNode substitute(RexNode e, List<RexNode> fields) {
    return e.accept(new RexShuttle() {
      @Override
      public RexNode visitInputRef(RexInputRef ref) {
        return fields.get(ref.getIndex());
      }
    });
  }

  private static boolean isPrivate(TableScan scan, Policy policy) {
    List<String> name = scan.getTable().getQualifiedName();
    return policy.table(name.get(name.size() - 1)).map(t -> !t.isPublic()).orElse(true);
  }
}
