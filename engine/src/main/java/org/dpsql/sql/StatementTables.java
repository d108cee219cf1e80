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
import org.dpsql.policy.Policy;
import org.dpsql.policy.TablePolicy;

/**
 * The tables a statement reads, by the policy: its private tables, its public tables, and whether
 * it reads the {@code DPSQL} system schema or {@code INFORMATION_SCHEMA}. What decides how a
 * statement is answered: passed through (public tables only), read from the system catalog, or
 * planned privately.
 */
final class StatementTables {
  final Set<TablePolicy> privateTables = new HashSet<>();
  final Set<TablePolicy> publicTables = new HashSet<>();
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
    node.accept(new SqlBasicVisitor<Void>() {
      @Override
      public Void visit(SqlCall call) {
        if (call instanceof SqlSelect select && select.getFrom() != null) {
          collectFrom(select.getFrom(), fromIds);
        } else if (call instanceof SqlWithItem item) {
          cteNames.add(item.name.getSimple().toUpperCase(Locale.ROOT));
        }
        return super.visit(call);
      }
    });
    for (SqlIdentifier id : fromIds) {
      if (id.names.size() > 1 && (id.names.get(0).equalsIgnoreCase(FrontEnd.SYSTEM_SCHEMA)
          || id.names.get(0).equalsIgnoreCase(FrontEnd.INFORMATION_SCHEMA))) {
        tables.system = true;
        continue;
      }
      String name = id.names.get(id.names.size() - 1);
      if (id.names.size() == 1 && cteNames.contains(name.toUpperCase(Locale.ROOT))) {
        continue;
      }
      Optional<TablePolicy> t = policy.table(name);
      if (t.isEmpty()) {
        throw new SQLException("Object '" + id + "' not found: the policy exposes "
            + String.join(", ", policy.tables().values().stream().map(TablePolicy::name).toList())
            + " and the DPSQL system tables", "42S02");
      }
      (t.get().isPublic() ? tables.publicTables : tables.privateTables).add(t.get());
    }
    return tables;
  }

  private static void collectFrom(SqlNode from, List<SqlIdentifier> out) {
    switch (from.getKind()) {
      case IDENTIFIER -> out.add((SqlIdentifier) from);
      case AS -> collectFrom(((SqlCall) from).operand(0), out);
      case JOIN -> {
        SqlJoin j = (SqlJoin) from;
        collectFrom(j.getLeft(), out);
        collectFrom(j.getRight(), out);
      }
      default -> { } // subqueries are visited as SqlSelects; table functions reach no table
    }
  }
}
