package org.dpsql.sql;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.dpsql.errors.SqlStates;
import org.dpsql.policy.Policy;
import org.dpsql.policy.TablePolicy;

/**
 * The tables a statement may read, by the policy: its private tables, its public tables, and
 * whether it reads the {@code DPSQL} system schema or {@code INFORMATION_SCHEMA}. What decides how
 * a statement is answered: passed through (public tables only), read from the system catalog, or
 * planned privately.
 *
 * <p>Guarantees: an over-approximation of the backend tables the statement reads, so a statement
 * with no private table here reads none: every table named in a FROM clause (also below {@code
 * TABLESAMPLE}, {@code PIVOT} and other table operators, whose identifiers that name tables of
 * the policy all count: the relational plan of such a statement decides, see {@link FrontEnd}),
 * and every {@code TABLE t}. A CTE may not have a private table's name (XDP02): backends resolve
 * such a name differently (H2 reads the table), so no analysis of the statement could be sure
 * which one the backend reads.
 */
final class StatementTables {
  final Set<TablePolicy> privateTables = new HashSet<>();
  final Set<TablePolicy> publicTables = new HashSet<>();
  /**
   * Whether a private table is named where only a table can stand (a FROM item, {@code TABLE t}):
   * then the statement reads it, whatever its plan simplifies away; otherwise a private table is
   * only maybe read (an identifier below a table operator) and the plan decides.
   */
  boolean namesPrivateTable;
  boolean system;

  private StatementTables() {}

  /**
   * The tables {@code node} reads; 42S02 naming the tables the policy exposes for a table it does
   * not name (a CTE's name is no table).
   */
  static StatementTables of(SqlNode node, Policy policy) throws SQLException {
    StatementTables tables = new StatementTables();
    Set<String> cteNames = new HashSet<>();
    List<SqlIdentifier> fromIds = new ArrayList<>();
    List<SqlIdentifier> operatorIds = new ArrayList<>(); // below table operators: maybe tables
    node.accept(new SqlBasicVisitor<Void>() {
      @Override
      public Void visit(SqlCall call) {
        if (call instanceof SqlSelect select && select.getFrom() != null) {
          collectFrom(select.getFrom(), fromIds, operatorIds);
        } else if (call.getKind() == org.apache.calcite.sql.SqlKind.EXPLICIT_TABLE) {
          collectFrom(call.operand(0), fromIds, operatorIds); // TABLE t: all rows of t
        } else if (call instanceof SqlWithItem item) {
          cteNames.add(item.name.getSimple().toUpperCase(Locale.ROOT));
        }
        return super.visit(call);
      }
    });
    for (String cte : cteNames) {
      Optional<TablePolicy> shadowed = policy.table(cte);
      if (shadowed.isPresent() && !shadowed.get().isPublic()) {
        // which one a reference reads is the backend's choice (H2 reads the table): the
        // statement could be checked as reading the CTE and run reading the table
        throw SqlStates.notAllowed("the WITH query " + cte + " has the name of private table "
            + shadowed.get().name() + "; backends resolve such a name differently (some read "
            + "the table), so dpsql does not take it: give the WITH query another name");
      }
    }
    for (SqlIdentifier id : operatorIds) {
      // a table operator's operands name its table and its columns: the names of policy tables
      // count as read (a column's name is no table)
      policy.table(id.names.get(id.names.size() - 1)).ifPresent(table ->
          (table.isPublic() ? tables.publicTables : tables.privateTables).add(table));
    }
    for (SqlIdentifier id : fromIds) {
      if (id.names.size() > 1 && (id.names.get(0).equalsIgnoreCase(FrontEnd.SYSTEM_SCHEMA)
          || id.names.get(0).equalsIgnoreCase(FrontEnd.INFORMATION_SCHEMA))) {
        tables.system = true;
        continue;
      }
      String name = id.names.get(id.names.size() - 1);
      Optional<TablePolicy> t = policy.table(name);
      if (id.names.size() == 1 && cteNames.contains(name.toUpperCase(Locale.ROOT))) {
        continue; // a CTE's name is no table (none shares a private table's name: see above)
      }
      if (t.isEmpty()) {
        throw new SQLException("Object '" + id + "' not found: the policy exposes "
            + String.join(", ", policy.tables().values().stream().map(TablePolicy::name).toList())
            + " and the DPSQL system tables", "42S02");
      }
      (t.get().isPublic() ? tables.publicTables : tables.privateTables).add(t.get());
      tables.namesPrivateTable |= !t.get().isPublic();
    }
    return tables;
  }

  /**
   * Adds the tables a FROM item names to {@code out}, and every identifier below a table operator
   * to {@code operands} (maybe a table, maybe a column).
   */
  private static void collectFrom(SqlNode from, List<SqlIdentifier> out,
      List<SqlIdentifier> operands) {
    switch (from.getKind()) {
      case IDENTIFIER -> out.add((SqlIdentifier) from);
      case AS -> collectFrom(((SqlCall) from).operand(0), out, operands);
      case JOIN -> {
        SqlJoin j = (SqlJoin) from;
        collectFrom(j.getLeft(), out, operands);
        collectFrom(j.getRight(), out, operands);
      }
      default -> {
        // subqueries are visited as SqlSelects; any other table operator (TABLESAMPLE, PIVOT,
        // UNPIVOT, MATCH_RECOGNIZE, a snapshot, a table function) may read the tables it names
        if (from instanceof SqlCall call && !from.isA(org.apache.calcite.sql.SqlKind.QUERY)) {
          call.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier id) {
              operands.add(id);
              return null;
            }
          });
        }
      }
    }
  }
}
