package org.dpsql.sql;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;
import org.dpsql.backend.BackendCatalog;
import org.dpsql.backend.BackendColumn;
import org.dpsql.backend.BackendTable;
import org.dpsql.errors.SqlStates;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.Policy;
import org.dpsql.policy.TablePolicy;
import org.dpsql.rewrite.PublicJoin;

/**
 * Rewrites a SELECT over a private table joined with public lookup tables ({@code FROM T t JOIN R
 * r ON t.KEY = r.CODE [JOIN ...]}) into a SELECT over the private table alone, whose public columns
 * have become derived columns of the private table ({@link PublicJoin}).
 *
 * <p>Accepted: inner joins ({@code [INNER] JOIN ... ON a = b} or {@code USING (col)}), each public
 * table joined once, directly to the private table, by one equality between a private column with
 * a policy domain and a column of the public table; public columns used in the select list, WHERE,
 * GROUP BY and ORDER BY. Refused with XDP03, naming the construct: outer, cross and natural joins,
 * joins of two private tables or of public tables with each other, conditions other than one key
 * equality, aggregates of public columns. The public rows are read from the backend when the
 * statement is analysed (prepared).
 */
final class PublicJoins {

  /**
   * The rewritten SELECT, the private table's policy augmented with the derived columns (for the
   * analysis), the private table's own policy (for the query), and the joins.
   */
  record Joined(SqlSelect select, TablePolicy augmented, TablePolicy privateTable,
      List<PublicJoin> joins) {}

  private record Item(TablePolicy table, String alias, BackendTable backend) {
    boolean isPrivate() {
      return !table.isPublic();
    }
  }

  /** One public table's join: its item, the private key column and the public key column. */
  private static final class Link {
    final Item item;
    ColumnPolicy privateKey;
    String publicKey;
    final LinkedHashMap<String, String> used = new LinkedHashMap<>(); // public column -> derived

    Link(Item item) {
      this.item = item;
    }
  }

  private final Policy policy;
  private final BackendCatalog catalog;
  private final SqlDialect dialect;
  private final FrontEnd.PublicRowReader rows;

  PublicJoins(Policy policy, BackendCatalog catalog, SqlDialect dialect,
      FrontEnd.PublicRowReader rows) {
    this.policy = policy;
    this.catalog = catalog;
    this.dialect = dialect;
    this.rows = rows;
  }

  /** Whether the FROM clause of {@code select} is a join. */
  static boolean isJoin(SqlSelect select) {
    SqlNode from = select.getFrom();
    return from != null && from.getKind() == SqlKind.JOIN;
  }

  /** Rewrites {@code select} (in place) and reads the public lookups. */
  Joined rewrite(SqlSelect select) throws SQLException {
    List<Item> items = new ArrayList<>();
    List<SqlNode[]> equalities = new ArrayList<>();
    flatten(select.getFrom(), items, equalities);
    Item priv = null;
    for (Item i : items) {
      if (i.isPrivate()) {
        if (priv != null) {
          throw SqlStates.notSupported("joining two private tables (" + priv.table().name()
              + ", " + i.table().name() + ") is not supported: a person could contribute to "
              + "many joined rows. Join a private table with public lookup tables only");
        }
        priv = i;
      }
    }
    if (priv == null) {
      throw new IllegalStateException("a private join without a private table");
    }
    Map<String, Link> links = new LinkedHashMap<>();
    for (Item i : items) {
      if (!i.isPrivate()) {
        if (links.put(alias(i.alias()), new Link(i)) != null) {
          throw SqlStates.notSupported("the alias " + i.alias() + " names two tables of the join");
        }
      }
    }
    for (SqlNode[] eq : equalities) {
      Item a = itemOf((SqlIdentifier) eq[0], items);
      Item b = itemOf((SqlIdentifier) eq[1], items);
      SqlIdentifier privSide = a == priv ? (SqlIdentifier) eq[0] : b == priv ? (SqlIdentifier) eq[1]
          : null;
      Item pub = a == priv ? b : a;
      SqlIdentifier pubSide = a == priv ? (SqlIdentifier) eq[1] : (SqlIdentifier) eq[0];
      if (privSide == null || pub == priv) {
        throw SqlStates.notSupported("the join condition " + eq[0] + " = " + eq[1] + " must "
            + "relate a column of private table " + priv.table().name() + " to a column of one "
            + "public table; join public tables to the private table directly");
      }
      Link link = links.get(alias(pub.alias()));
      if (link.privateKey != null) {
        throw SqlStates.notSupported("public table " + pub.table().name() + " is joined by more "
            + "than one condition; join it by one key equality and filter in WHERE");
      }
      String keyName = last(privSide);
      link.privateKey = priv.table().column(keyName).filter(ColumnPolicy::hasDomain)
          .orElseThrow(() -> SqlStates.notAllowed("join column " + keyName + " of private table "
              + "is not in the policy with a public domain (values, or min/max/bin); join on a "
              + "column the data owner declared"));
      link.publicKey = backendColumn(pub, last(pubSide)).name();
    }
    for (Link link : links.values()) {
      if (link.privateKey == null) {
        throw SqlStates.notSupported("public table " + link.item.table().name() + " has no join "
            + "condition; write JOIN ... ON private.col = public.col (cross joins are refused)");
      }
    }

    Set<String> taken = new HashSet<>();
    priv.table().columns().values().forEach(c -> taken.add(alias(c.name())));
    priv.backend().columns().forEach(c -> taken.add(alias(c.name())));
    Item privateItem = priv;
    SQLException[] failure = new SQLException[1];
    SqlShuttle shuttle = new SqlShuttle() {
      @Override
      public SqlNode visit(SqlIdentifier id) {
        if (failure[0] != null || id.isStar()) {
          return id;
        }
        try {
          Item owner = itemOf(id, items);
          if (owner == privateItem) {
            return id;
          }
          Link link = links.get(alias(owner.alias()));
          String column = backendColumn(owner, last(id)).name();
          String derived = link.used.get(column);
          if (derived == null) {
            derived = alias(column);
            if (taken.contains(derived)) {
              derived = alias(owner.alias() + "_" + column);
            }
            if (!taken.add(derived)) {
              throw SqlStates.notSupported("public column " + owner.alias() + "." + column
                  + " collides with another column name; rename it in the backend");
            }
            link.used.put(column, derived);
          }
          return new SqlIdentifier(derived, id.getParserPosition());
        } catch (SQLException e) {
          failure[0] = e;
          return id;
        }
      }
    };
    SqlNodeList selectList = new SqlNodeList(SqlParserPos.ZERO);
    for (SqlNode item : select.getSelectList()) {
      if (item.getKind() == SqlKind.AS) {
        SqlCall as = (SqlCall) item;
        selectList.add(SqlStdOperatorTable.AS.createCall(as.getParserPosition(),
            as.operand(0).accept(shuttle), as.operand(1)));
      } else if (item instanceof SqlIdentifier id && !id.isStar()
          && itemOf(id, items) != privateItem) {
        // keep SQL's label for a public column: its own name
        selectList.add(SqlStdOperatorTable.AS.createCall(id.getParserPosition(), id.accept(shuttle),
            new SqlIdentifier(last(id), SqlParserPos.ZERO)));
      } else {
        selectList.add(item.accept(shuttle));
      }
    }
    select.setSelectList(selectList);
    if (select.getWhere() != null) {
      select.setWhere(select.getWhere().accept(shuttle));
    }
    if (select.getGroup() != null) {
      select.setGroupBy((SqlNodeList) select.getGroup().accept(shuttle));
    }
    if (select.getOrderList() != null) {
      Set<String> labels = new HashSet<>();
      for (SqlNode item : select.getSelectList()) {
        if (item.getKind() == SqlKind.AS) {
          labels.add(alias(((SqlIdentifier) ((SqlCall) item).operand(1)).getSimple()));
        }
      }
      SqlNodeList order = new SqlNodeList(SqlParserPos.ZERO);
      for (SqlNode o : select.getOrderList()) {
        order.add(o instanceof SqlIdentifier id && id.isSimple()
            && labels.contains(alias(id.getSimple())) ? o : o.accept(shuttle));
      }
      select.setOrderBy(order);
    }
    if (failure[0] != null) {
      throw failure[0];
    }
    select.setFrom(priv.alias().equalsIgnoreCase(priv.table().name())
        ? new SqlIdentifier(priv.table().name(), SqlParserPos.ZERO)
        : SqlStdOperatorTable.AS.createCall(SqlParserPos.ZERO,
            new SqlIdentifier(priv.table().name(), SqlParserPos.ZERO),
            new SqlIdentifier(priv.alias(), SqlParserPos.ZERO)));

    List<PublicJoin> joins = new ArrayList<>();
    LinkedHashMap<String, ColumnPolicy> columns = new LinkedHashMap<>();
    priv.table().columns().forEach((k, c) -> columns.put(k, c));
    for (Link link : links.values()) {
      LinkedHashMap<String, Integer> derivedTypes = new LinkedHashMap<>();
      StringBuilder sql = new StringBuilder("SELECT ").append(quote(link.publicKey));
      for (Map.Entry<String, String> u : link.used.entrySet()) {
        derivedTypes.put(u.getValue(), backendColumn(link.item, u.getKey()).jdbcType());
        sql.append(", ").append(quote(u.getKey()));
      }
      TablePolicy t = link.item.table();
      sql.append(" FROM ");
      if (t.schema() != null && !t.schema().isEmpty()) {
        sql.append(quote(t.schema())).append('.');
      }
      sql.append(quote(t.name()));
      PublicJoin join = PublicJoin.of(t.name(), link.publicKey, link.privateKey, derivedTypes,
          rows.read(sql.toString()));
      joins.add(join);
      for (PublicJoin.Derived d : join.derived()) {
        columns.put(alias(d.column().name()), d.column());
      }
    }
    TablePolicy p = priv.table();
    return new Joined(select, p.withColumns(columns), p, joins);
  }

  private void flatten(SqlNode from, List<Item> items, List<SqlNode[]> equalities)
      throws SQLException {
    switch (from.getKind()) {
      case JOIN -> {
        SqlJoin j = (SqlJoin) from;
        if (j.isNatural()) {
          throw SqlStates.notSupported("NATURAL JOIN over a private table is not supported; "
              + "write JOIN ... ON private.col = public.col");
        }
        if (j.getJoinType() != JoinType.INNER) {
          throw SqlStates.notSupported(j.getJoinType() + " join over a private table is not "
              + "supported: dpsql answers inner joins of the private table with public lookup "
              + "tables (JOIN ... ON private.col = public.col)");
        }
        int before = items.size();
        flatten(j.getLeft(), items, equalities);
        int middle = items.size();
        flatten(j.getRight(), items, equalities);
        if (j.getConditionType() == JoinConditionType.ON) {
          SqlNode c = j.getCondition();
          if (c.getKind() != SqlKind.EQUALS
              || !(((SqlCall) c).operand(0) instanceof SqlIdentifier l)
              || !(((SqlCall) c).operand(1) instanceof SqlIdentifier r)) {
            throw SqlStates.notSupported("the join condition " + c + " is not supported: join a "
                + "public table by one equality of columns (ON private.col = public.col) and "
                + "put other conditions in WHERE");
          }
          equalities.add(new SqlNode[] {l, r});
        } else if (j.getConditionType() == JoinConditionType.USING) {
          SqlNodeList using = (SqlNodeList) j.getCondition();
          if (using.size() != 1 || middle - before != 1 || items.size() - middle != 1) {
            throw SqlStates.notSupported("JOIN ... USING over a private table takes one column "
                + "between two tables; write JOIN ... ON private.col = public.col");
          }
          String col = ((SqlIdentifier) using.get(0)).getSimple();
          equalities.add(new SqlNode[] {
              new SqlIdentifier(List.of(items.get(before).alias(), col), SqlParserPos.ZERO),
              new SqlIdentifier(List.of(items.get(middle).alias(), col), SqlParserPos.ZERO)});
        } else {
          throw SqlStates.notSupported("a join without a condition (a cross join) over a private "
              + "table is not supported; write JOIN ... ON private.col = public.col");
        }
      }
      case AS -> {
        SqlCall as = (SqlCall) from;
        if (!(as.operand(0) instanceof SqlIdentifier id)) {
          throw SqlStates.notSupported("subqueries in the FROM of a private query are not "
              + "supported; join tables by name");
        }
        items.add(item(id, ((SqlIdentifier) as.operand(1)).getSimple()));
      }
      case IDENTIFIER -> {
        SqlIdentifier id = (SqlIdentifier) from;
        items.add(item(id, last(id)));
      }
      default -> throw SqlStates.notSupported(from.getKind() + " in the FROM of a private query is "
          + "not supported; join tables by name");
    }
  }

  private Item item(SqlIdentifier id, String alias) throws SQLException {
    String name = last(id);
    if (id.names.size() > 1 && id.names.get(0).equalsIgnoreCase("DPSQL")) {
      throw SqlStates.notSupported("DPSQL system tables cannot be joined with backend tables");
    }
    TablePolicy t = policy.table(name).orElseThrow(() -> new SQLException("Object '" + id
        + "' not found", "42S02"));
    BackendTable b = catalog.table(name).orElseThrow(() -> new SQLException("Object '" + id
        + "' not found", "42S02"));
    return new Item(t, alias, b);
  }

  /** The table a column reference belongs to: by its qualifier, or the only table with it. */
  private static Item itemOf(SqlIdentifier id, List<Item> items) throws SQLException {
    if (id.names.size() > 1) {
      String q = id.names.get(id.names.size() - 2);
      for (Item i : items) {
        if (i.alias().equalsIgnoreCase(q)) {
          return i;
        }
      }
      throw new SQLException("no table " + q + " in the FROM clause (column " + id + ")", "42S22");
    }
    Item found = null;
    for (Item i : items) {
      if (i.backend().column(id.getSimple()).isPresent()) {
        if (found != null) {
          throw new SQLException("column " + id + " is ambiguous: qualify it with its table",
              "42702");
        }
        found = i;
      }
    }
    if (found == null) {
      throw new SQLException("no column " + id + " in the joined tables", "42S22");
    }
    return found;
  }

  private static BackendColumn backendColumn(Item item, String name) throws SQLException {
    return item.backend().column(name).orElseThrow(() -> new SQLException("no column " + name
        + " in table " + item.table().name(), "42S22"));
  }

  private String quote(String identifier) {
    return dialect.quoteIdentifier(identifier);
  }

  private static String last(SqlIdentifier id) {
    return id.names.get(id.names.size() - 1);
  }

  private static String alias(String name) {
    return name.toUpperCase(Locale.ROOT);
  }
}
