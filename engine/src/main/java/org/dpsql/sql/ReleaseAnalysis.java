package org.dpsql.sql;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.util.SqlShuttle;
import org.dpsql.backend.BackendCatalog;
import org.dpsql.errors.SqlStates;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.Policy;
import org.dpsql.policy.TablePolicy;
import org.dpsql.rewrite.PublicJoin;

/**
 * The policy analysis of one private aggregate: its canonical statement (built from the plan by
 * {@link org.dpsql.sql.relational.CoreAggregate}, never read from text) becomes the typed release
 * specification the measurement layer consumes, an {@link AggregateQuery} or, for grouping sets
 * and joins with public lookup tables, a {@link WorkloadQuery}.
 *
 * <p>Guarantees: every column the specification names is a policy column (or a derived column, a
 * public function of one policy column's cells, or a computed argument with a propagated bound);
 * group keys have a public domain or are declared {@code keys: private}; the filter uses only
 * operators that cannot fail on a row value; aggregates are those dpsql answers privately. What
 * the policy forbids is XDP02, what cannot be answered privately XDP03, with what to change.
 */
final class ReleaseAnalysis {
  private final Policy policy;
  private final SqlDialect backendDialect;
  private final PublicJoins publicJoins;
  private final FrontEnd.PublicRowReader publicRows;
  /**
   * Derived columns' values on their domains, by evaluation SQL: public data (an expression of the
   * policy's domain values, deterministic and independent of the clock), so a statement prepared
   * again does not evaluate them again. At most {@link #DERIVED_CACHE} entries, least recently used
   * first out.
   */
  private final Map<String, List<Object[]>> derivedValues = java.util.Collections.synchronizedMap(
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, List<Object[]>> eldest) {
          return size() > DERIVED_CACHE;
        }
      });
  private static final int DERIVED_CACHE = 256;

  /**
   * The analysis for one connection: {@code backendDialect} writes the evaluation of derived
   * columns and the reads of public lookup tables, which {@code publicRows} runs.
   */
  ReleaseAnalysis(Policy policy, BackendCatalog catalog, SqlDialect backendDialect,
      FrontEnd.PublicRowReader publicRows) {
    this.policy = policy;
    this.backendDialect = backendDialect;
    this.publicJoins = new PublicJoins(policy, catalog, backendDialect, publicRows);
    this.publicRows = publicRows;
  }

  /**
   * A private aggregate over a join with public lookup tables that the lookup analysis ({@link
   * PublicJoins}) refuses; {@link #refusal} is its reason.
   */
  static final class LookupJoinRefusal extends SQLException {
    LookupJoinRefusal(SQLException refusal) {
      super(refusal.getMessage(), refusal.getSQLState(), refusal);
    }

    SQLException refusal() {
      return (SQLException) getCause();
    }
  }

  /**
   * A canonical single-aggregate statement, analysed without the relational fallback; its derived
   * columns are evaluated on their column's domain in the backend and become part of the release's
   * identity.
   */
  AnalyzedStatement analyze(org.dpsql.sql.relational.ReleasePlan.Release release, DpHint hint)
      throws SQLException {
    SqlSelect node = release.core().node();
    String normalized = release.coreSql();
    PublicJoins.Joined joined = null;
    if (!release.definitions().isEmpty()) {
      // the canonical statement was validated as part of the whole statement (and may name
      // derived and computed columns the backend does not have); the filter's operators and the
      // policy columns are checked below. The definitions are part of the release's identity.
      joined = derivedColumns(scannedTable(node), release.derived(), release.computed());
      normalized = normalized + " WITH " + String.join(", ", release.definitions());
    }
    Object q;
    try {
      q = analyzePrivate(node, joined, hint);
    } catch (SQLException e) {
      if (release.core().from() instanceof SqlJoin) {
        throw new LookupJoinRefusal(e);
      }
      throw e;
    }
    // a canonical statement has no parameters: statements that need one are refused before
    return q instanceof WorkloadQuery w
        ? new AnalyzedStatement.PrivateWorkload(w, normalized, List.of())
        : new AnalyzedStatement.PrivateAggregate((AggregateQuery) q, normalized, List.of());
  }

  /**
   * The derived columns of a canonical statement as public lookups of their columns: each
   * expression is evaluated by the backend on every value of its column's domain (public data),
   * so a derived value is a function of the column's cells.
   */
  private PublicJoins.Joined derivedColumns(TablePolicy table,
      List<org.dpsql.sql.relational.CoreAggregate.Derived> derived,
      List<org.dpsql.sql.relational.CoreAggregate.Computed> computed) throws SQLException {
    Map<String, List<org.dpsql.sql.relational.CoreAggregate.Derived>> byColumn =
        new LinkedHashMap<>();
    for (org.dpsql.sql.relational.CoreAggregate.Derived d : derived) {
      byColumn.computeIfAbsent(d.column(), k -> new ArrayList<>()).add(d);
    }
    LinkedHashMap<String, ColumnPolicy> columns = new LinkedHashMap<>(table.columns());
    List<PublicJoin> joins = new ArrayList<>();
    for (Map.Entry<String, List<org.dpsql.sql.relational.CoreAggregate.Derived>> e
        : byColumn.entrySet()) {
      ColumnPolicy key = table.column(e.getKey()).orElseThrow();
      List<Object> values = PublicJoin.representatives(key);
      StringBuilder sql = new StringBuilder("SELECT ").append(backendDialect.quoteIdentifier("K"));
      LinkedHashMap<String, Integer> types = new LinkedHashMap<>();
      for (org.dpsql.sql.relational.CoreAggregate.Derived d : e.getValue()) {
        sql.append(", ").append(org.dpsql.sql.relational.CoreAggregate.sqlOf(d.expression(),
            i -> "K", backendDialect));
        types.put(d.name(), d.expression().getType().getSqlTypeName().getJdbcOrdinal());
      }
      sql.append(" FROM (VALUES ");
      for (int i = 0; i < values.size(); i++) {
        sql.append(i == 0 ? "(" : ", (").append(DomainValues.literal(values.get(i))).append(')');
      }
      sql.append(") AS ").append(backendDialect.quoteIdentifier("T")).append('(')
          .append(backendDialect.quoteIdentifier("K")).append(')');
      boolean cacheable = e.getValue().stream().allMatch(d ->
          org.apache.calcite.rex.RexUtil.isDeterministic(d.expression())
              && !hasDynamicFunction(d.expression()));
      List<Object[]> rows = cacheable ? derivedValues.get(sql.toString()) : null;
      try {
        if (rows == null) {
          rows = publicRows.read(sql.toString());
          if (cacheable) {
            derivedValues.put(sql.toString(), rows);
          }
        }
      } catch (SQLException ex) {
        throw SqlStates.notSupported("cannot evaluate " + texts(e.getValue()) + " on the domain of "
            + key.name() + " (" + ex.getMessage() + "); use an expression that has a value for "
            + "every value of the domain");
      }
      for (Object[] row : rows) {
        for (int j = 1; j < row.length; j++) {
          if (row[j] == null) {
            throw SqlStates.notSupported(e.getValue().get(j - 1).text() + " is NULL for "
                + key.name() + " = " + row[0] + "; group and filter by expressions that have a "
                + "value for every value of the domain (add an ELSE, or COALESCE)");
          }
        }
      }
      PublicJoin join = PublicJoin.ofCellValues("(" + texts(e.getValue()) + ")", key, types,
          rows);
      joins.add(join);
      for (PublicJoin.Derived d : join.derived()) {
        columns.put(d.column().name().toUpperCase(Locale.ROOT), d.column());
      }
    }
    for (org.dpsql.sql.relational.CoreAggregate.Computed c : computed) {
      columns.put(c.name().toUpperCase(Locale.ROOT),
          ColumnPolicy.ofComputed(c.name(), c.jdbcType(), c.range(), c.value()));
    }
    return new PublicJoins.Joined(null, table.withColumns(columns), table, joins);
  }

  /** Whether {@code e} calls a function of the clock or session (CURRENT_DATE, NOW, ...). */
  private static boolean hasDynamicFunction(org.apache.calcite.rex.RexNode e) {
    boolean[] found = new boolean[1];
    e.accept(new org.apache.calcite.rex.RexVisitorImpl<Void>(true) {
      @Override
      public Void visitCall(org.apache.calcite.rex.RexCall call) {
        if (call.getOperator().isDynamicFunction()) {
          found[0] = true;
        }
        return super.visitCall(call);
      }
    });
    return found[0];
  }

  private static String texts(List<org.dpsql.sql.relational.CoreAggregate.Derived> derived) {
    return String.join(", ", derived.stream()
        .map(org.dpsql.sql.relational.CoreAggregate.Derived::text).toList());
  }


  /**
   * The policy analysis of a private aggregate's canonical statement (a SELECT over one private
   * table, or over its join with public lookup tables): an {@link AggregateQuery}, or a {@link
   * WorkloadQuery} for grouping sets and joins with public tables. {@code derived}, when not null,
   * gives the derived columns the statement names; {@code hint} is its share of the statement's
   * budget.
   */
  private Object analyzePrivate(SqlSelect select, PublicJoins.Joined derived, DpHint hint)
      throws SQLException {
    SelectAnalysis a = analyzeSelect(select, derived, hint);
    if (a.groupingSets() == null && a.query().joins().isEmpty()) {
      return a.query();
    }
    refusePrivateKeysInWorkload(a.query());
    refuseDistinctUnitsInWorkload(a.query());
    if (a.groupingSets() == null) {
      // a join with public tables is answered over its key's cells, as a one-query workload
      AggregateQuery q = a.query();
      return new WorkloadQuery(WorkloadQuery.Shape.UNION_ALL, q.table(), List.of(q), q.hint(),
          q.orderBy());
    }
    return new WorkloadQuery(WorkloadQuery.Shape.GROUPING_SETS, a.query().table(),
        a.partsByGroupingSet(), a.query().hint(), a.query().orderBy());
  }

  /** One SELECT over a private table, and its grouping sets when it has ROLLUP/CUBE/SETS. */
  private record SelectAnalysis(AggregateQuery query, List<List<ColumnPolicy>> groupingSets) {
    List<AggregateQuery> partsByGroupingSet() {
      List<AggregateQuery> parts = new ArrayList<>();
      for (List<ColumnPolicy> set : groupingSets) {
        AggregateQuery q = query;
        parts.add(new AggregateQuery(q.table(), set, q.outputs(), q.where(), q.hint(), List.of(),
            null, null, q.joins()));
      }
      return parts;
    }
  }

  /** The most grouping sets one statement may expand to. */
  private static final int MAX_GROUPING_SETS = 256;



  private SelectAnalysis analyzeSelect(SqlSelect select, PublicJoins.Joined derived,
      DpHint given) throws SQLException {
    PublicJoins.Joined joined = null;
    TablePolicy table;
    if (derived != null) {
      joined = derived; // expressions of point-domain columns, as derived columns of the table
      table = joined.augmented();
    } else if (PublicJoins.isJoin(select)) {
      joined = publicJoins.rewrite(select); // public columns become derived columns of the table
      table = joined.augmented();
    } else {
      table = scannedTable(select);
    }
    // a canonical statement: no DISTINCT, HAVING, window, ORDER BY or limit (the relational
    // planner leaves those to post-processing of the released rows)
    DpHint hint = given;

    // the canonical GROUP BY lists the keys (each a policy or derived column), or holds one
    // GROUPING SETS call whose sets are ROWs of keys (Calcite has expanded ROLLUP and CUBE)
    List<ColumnPolicy> groupBy = new ArrayList<>();
    List<List<ColumnPolicy>> groupingSets = null;
    SqlNodeList group = select.getGroup();
    if (group != null && group.size() == 1 && group.get(0).getKind() == SqlKind.GROUPING_SETS) {
      groupingSets = new ArrayList<>();
      for (SqlNode row : ((SqlCall) group.get(0)).getOperandList()) {
        List<ColumnPolicy> set = new ArrayList<>();
        for (SqlNode key : ((SqlCall) row).getOperandList()) {
          ColumnPolicy c = groupColumn(key, table);
          if (!set.contains(c)) {
            set.add(c);
          }
          if (!groupBy.contains(c)) {
            groupBy.add(c);
          }
        }
        groupingSets.add(set);
      }
      if (groupingSets.size() > MAX_GROUPING_SETS) {
        throw SqlStates.notSupported("GROUP BY expands to more than " + MAX_GROUPING_SETS
            + " grouping sets; use fewer CUBE columns");
      }
      for (ColumnPolicy c : groupBy) {
        if (c.hasPrivateKeys()) {
          throw SqlStates.notSupported("ROLLUP, CUBE and GROUPING SETS need group columns with "
              + "public domains; " + c.name() + " is declared keys: private, so its groups are "
              + "selected privately per statement: GROUP BY it in a plain GROUP BY");
        }
      }
    } else if (group != null) {
      for (SqlNode key : group) {
        ColumnPolicy c = groupColumn(key, table);
        if (groupBy.contains(c)) {
          throw SqlStates.notSupported("GROUP BY names " + c.name() + " twice");
        }
        groupBy.add(c);
      }
    }

    List<OutputItem> outputs = new ArrayList<>();
    Map<String, Integer> labels = new LinkedHashMap<>();
    boolean anyAggregate = false;
    for (SqlNode item : select.getSelectList()) {
      // every item is "key AS Cn" or "aggregate AS Cn"
      SqlNode expr = ((SqlCall) item).operand(0);
      String alias = ((SqlIdentifier) ((SqlCall) item).operand(1)).getSimple();
      OutputItem out;
      if (expr instanceof SqlIdentifier id) {
        ColumnPolicy c = policyColumn(table, id, "SELECT");
        if (!groupBy.contains(c)) {
          throw SqlStates.notAllowed("column " + c.name() + " of private table " + table.name()
              + " is selected without GROUP BY: raw values cannot be returned; "
              + "group by it or aggregate it");
        }
        out = new OutputItem(label(alias, c.name(), labels), c, null);
      } else {
        SqlCall call = (SqlCall) expr;
        if (joined != null) {
          refuseAggregateOfPublicColumn(call, joined);
        }
        out = aggregate(call, alias, table, labels);
        anyAggregate = true;
      }
      outputs.add(out);
    }
    // the groups over private keys are themselves a private release (the selected keys); the
    // groups over declared domains are the domain itself (public: the policy lists it)
    if (!anyAggregate && (groupBy.isEmpty() || groupingSets != null)
        && groupBy.stream().noneMatch(ColumnPolicy::hasPrivateKeys)) {
      throw SqlStates.notAllowed("raw rows of private table " + table.name()
          + " cannot be returned; ask for COUNT(*), COUNT(col), SUM(col) or AVG(col)");
    }

    SqlNode where = select.getWhere() == null ? null : checkedFilter(select.getWhere(), table);
    if (joined == null) {
      return new SelectAnalysis(new AggregateQuery(table, groupBy, outputs, where, hint, List.of(),
          null, null), groupingSets);
    }
    return new SelectAnalysis(new AggregateQuery(joined.privateTable(), groupBy, outputs, where,
        hint, List.of(), null, null, joined.joins()), groupingSets);
  }

  /** Refuses COUNT/SUM/AVG of a column of a joined public table (XDP03). */
  private static void refuseAggregateOfPublicColumn(SqlCall call, PublicJoins.Joined joined)
      throws SQLException {
    for (SqlNode o : call.getOperandList()) {
      if (o instanceof SqlIdentifier id && !id.isStar()) {
        String name = id.names.get(id.names.size() - 1);
        for (PublicJoin j : joined.joins()) {
          for (PublicJoin.Derived d : j.derived()) {
            if (d.column().name().equalsIgnoreCase(name)) {
              throw SqlStates.notSupported(call + " aggregates a column of public table "
                  + j.publicTable() + "; aggregate columns of private table "
                  + joined.privateTable().name() + " (or COUNT(*)) and group by public columns");
            }
          }
        }
      }
    }
  }

  /**
   * Refuses (XDP03) COUNT(DISTINCT unit) in a statement answered as a workload (grouping sets,
   * UNION ALL, joins, GROUP BY expressions): its sensitivity is derived per query.
   */
  private static void refuseDistinctUnitsInWorkload(AggregateQuery q) throws SQLException {
    for (OutputItem o : q.outputs()) {
      if (o.aggregate() == AggregateKind.QUANTILE) {
        throw SqlStates.notSupported(o.label() + " (a quantile of " + o.column().name() + ") is "
            + "answered in single aggregate queries (GROUP BY policy columns); not yet with "
            + "ROLLUP, CUBE, GROUPING SETS, UNION ALL batches, joins or GROUP BY expressions");
      }
      if (o.aggregate() == AggregateKind.COUNT_DISTINCT_UNIT
          || o.aggregate() == AggregateKind.COUNT_DISTINCT) {
        throw SqlStates.notSupported("COUNT(DISTINCT " + (o.column() == null
            ? q.table().privacyUnit() : o.column().name()) + ") is answered"
            + " in single aggregate queries (GROUP BY policy columns); not yet with ROLLUP, CUBE, "
            + "GROUPING SETS, UNION ALL batches, joins or GROUP BY expressions");
      }
    }
  }

  /**
   * Refuses (XDP03) a group key declared {@code keys: private} in a statement answered as a
   * workload (a UNION ALL batch, or a join with public tables): its groups are selected per
   * statement, so there is no common domain to answer the workload over.
   */
  private static void refusePrivateKeysInWorkload(AggregateQuery q) throws SQLException {
    for (ColumnPolicy c : q.groupBy()) {
      if (c.hasPrivateKeys()) {
        throw SqlStates.notSupported("GROUP BY " + c.name() + " (declared keys: private) is "
            + "answered in a single aggregate statement over the private table, not in a UNION "
            + "ALL batch or joined with public tables: its groups are selected privately per "
            + "statement");
      }
    }
  }

  /** A group key: a policy column with a public domain, or with private keys. */
  private static ColumnPolicy groupColumn(SqlNode key, TablePolicy table) throws SQLException {
    ColumnPolicy c = policyColumn(table, (SqlIdentifier) key, "GROUP BY");
    if (!c.hasDomain() && !c.hasPrivateKeys()) {
      throw SqlStates.notAllowed("column " + c.name() + " of " + table.name()
          + " has no public domain in the policy (values, or min/max/bin), so it cannot be a "
          + "group key; group by a column with a domain, or ask the data owner to declare it "
          + "keys: private (its groups are then selected privately)");
    }
    return c;
  }

  /**
   * The private table a canonical statement without joins reads: a table of the policy, or the
   * relation of private tables joined on their shared unit (named by their join).
   */
  private TablePolicy scannedTable(SqlSelect select) {
    SqlIdentifier from = (SqlIdentifier) select.getFrom();
    return policy.table(from.names.get(from.names.size() - 1)).orElseThrow(
        () -> new IllegalStateException("a canonical statement reads " + from
            + ", which the policy does not name"));
  }

  private OutputItem aggregate(SqlCall call, String alias, TablePolicy table,
      Map<String, Integer> labels) throws SQLException {
    QuantileCall.Parsed quantile = QuantileCall.parse(call);
    if (quantile != null) {
      ColumnPolicy c = policyColumn(table, quantile.column(), quantile.function());
      org.dpsql.rewrite.QuantileGrid.of(c, quantile.function()); // XDP02/03 without a range
      return new OutputItem(label(alias, quantile.function() + "_" + c.name(), labels), c,
          AggregateKind.QUANTILE, quantile.fraction());
    }
    // otherwise COUNT(*), COUNT([DISTINCT] col), SUM(col) or AVG(col) of a column (computed
    // arguments are named columns too): CoreAggregate writes no other aggregate
    SqlKind kind = SqlKind.valueOf(SqlCalls.name(call));
    SqlIdentifier id = (SqlIdentifier) call.operand(0);
    SqlLiteral quantifier = call.getFunctionQuantifier();
    if (quantifier != null && "DISTINCT".equalsIgnoreCase(quantifier.toValue())) {
      if (!table.unitIsRow()
          && id.names.get(id.names.size() - 1).equalsIgnoreCase(table.privacyUnit())) {
        return new OutputItem(label(alias, "COUNT_DISTINCT_" + table.privacyUnit(), labels), null,
            AggregateKind.COUNT_DISTINCT_UNIT);
      }
      ColumnPolicy c = policyColumn(table, id, "COUNT(DISTINCT ...)");
      return new OutputItem(label(alias, "COUNT_DISTINCT_" + c.name(), labels), c,
          AggregateKind.COUNT_DISTINCT);
    }
    if (id.isStar()) {
      return new OutputItem(label(alias, "COUNT", labels), null, AggregateKind.COUNT_STAR);
    }
    ColumnPolicy c = policyColumn(table, id, kind.name());
    AggregateKind k = switch (kind) {
      case COUNT -> AggregateKind.COUNT;
      case SUM -> AggregateKind.SUM;
      default -> AggregateKind.AVG;
    };
    if (k != AggregateKind.COUNT && c.clamp().isEmpty() && c.ordered().isEmpty()) {
      throw SqlStates.notAllowed(kind + "(" + c.name() + "): the policy gives no bounds for "
          + c.name() + "; the data owner must add clamp: [lo, hi] (or min/max) for it");
    }
    return new OutputItem(label(alias, kind.name() + "_" + c.name(), labels), c, k);
  }

  private static String label(String alias, String fallback, Map<String, Integer> labels) {
    String base = alias != null ? alias : fallback;
    int n = labels.merge(base.toUpperCase(Locale.ROOT), 1, Integer::sum);
    return n == 1 ? base : base + "_" + n;
  }

  private static ColumnPolicy policyColumn(TablePolicy table, SqlIdentifier id, String clause)
      throws SQLException {
    String name = id.names.get(id.names.size() - 1);
    ColumnPolicy c = table.column(name).orElseThrow(() -> SqlStates.notAllowed("column " + name
        + " (in " + clause + ") is not in the policy for private table " + table.name()
        + "; usable columns: " + String.join(", ",
            table.columns().values().stream().map(ColumnPolicy::name).toList())));
    if (c.time().isPresent()) {
      // answered by the relational front end, which turns each use into a function of the bins
      throw SqlStates.notSupported(c.name() + " (in " + clause + ") is a time column: use it "
          + "through its bins, e.g. GROUP BY DATE_TRUNC('month', " + c.name() + ") or WHERE "
          + c.name() + " >= DATE '2024-01-01'");
    }
    return c;
  }

  /**
   * The operators a filter on a private table may use: comparisons, boolean logic, ranges, IN,
   * LIKE, NULL tests and +, -, *. They cannot fail on a row value, so whether a query fails never
   * depends on the private data (division, casts and other functions could: a division by zero
   * for one row would reveal that the row exists).
   */
  private static final Set<SqlKind> FILTER_KINDS = Set.of(
      SqlKind.AND, SqlKind.OR, SqlKind.NOT, SqlKind.EQUALS, SqlKind.NOT_EQUALS,
      SqlKind.LESS_THAN, SqlKind.LESS_THAN_OR_EQUAL, SqlKind.GREATER_THAN,
      SqlKind.GREATER_THAN_OR_EQUAL, SqlKind.BETWEEN, SqlKind.IN, SqlKind.NOT_IN, SqlKind.LIKE,
      SqlKind.IS_NULL, SqlKind.IS_NOT_NULL, SqlKind.IS_TRUE, SqlKind.IS_FALSE, SqlKind.IS_NOT_TRUE,
      SqlKind.IS_NOT_FALSE, SqlKind.PLUS, SqlKind.MINUS, SqlKind.TIMES, SqlKind.MINUS_PREFIX,
      SqlKind.PLUS_PREFIX);

  /**
   * Checks a WHERE clause (policy columns, allowed operators) and strips qualifiers; it has no
   * subqueries (the planner expands them into joins).
   */
  private static SqlNode checkedFilter(SqlNode where, TablePolicy table) throws SQLException {
    SQLException[] failure = new SQLException[1];
    SqlNode rewritten = where.accept(new SqlShuttle() {
      @Override
      public SqlNode visit(SqlIdentifier id) {
        if (failure[0] != null) {
          return id;
        }
        try {
          ColumnPolicy c = policyColumn(table, id, "WHERE");
          return new SqlIdentifier(c.name(), id.getParserPosition());
        } catch (SQLException e) {
          failure[0] = e;
          return id;
        }
      }

      @Override
      public SqlNode visit(SqlCall call) {
        if (failure[0] != null) {
          return call;
        }
        if (!FILTER_KINDS.contains(call.getKind())) {
          failure[0] = SqlStates.notSupported("WHERE on a private table may use comparisons, "
              + "BETWEEN, IN, LIKE, IS [NOT] NULL, AND/OR/NOT and +, -, * over policy columns, "
              + "literals and parameters; not " + call.getOperator().getName() + " (" + call
              + "): an operator that can fail on some rows would reveal them");
          return call;
        }
        return super.visit(call);
      }
    });
    if (failure[0] != null) {
      throw failure[0];
    }
    return rewritten;
  }
}
