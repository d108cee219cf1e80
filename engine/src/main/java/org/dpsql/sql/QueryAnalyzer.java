package org.dpsql.sql;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.config.CalciteConnectionProperty;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlHint;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSelectKeyword;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.dialect.AnsiSqlDialect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.dpsql.backend.BackendCatalog;
import org.dpsql.errors.SqlStates;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.Policy;
import org.dpsql.policy.TablePolicy;

/**
 * The SQL front end: parses a statement with Calcite, validates it against the tables the policy
 * exposes, and checks it against the policy before anything runs.
 *
 * <p>Guarantees: a statement that touches a private table comes out either as a {@link
 * AggregateQuery} whose every referenced column is a policy column, or as an exception (XDP02 for
 * what the policy forbids, XDP03 for shapes dpsql cannot answer privately, XDP05 for bad privacy
 * parameters, 42xxx for ordinary SQL errors). Nothing has been charged or executed at that point.
 */
public final class QueryAnalyzer {
  /** The schema of the system tables (contract §5). */
  public static final String SYSTEM_SCHEMA = "DPSQL";

  private final SqlParser.Config parserConfig;

  private static final Set<String> DDL_WORDS = Set.of(
      "CREATE", "DROP", "ALTER", "TRUNCATE", "GRANT", "REVOKE", "RENAME", "COMMENT", "SET", "CALL",
      "RUNSCRIPT", "SCRIPT", "BACKUP", "SHUTDOWN", "INSERT", "UPDATE", "DELETE", "MERGE", "UPSERT");

  private final Policy policy;
  private final CalciteSchema rootSchema;
  private final List<String> defaultSchemaPath;
  private final JavaTypeFactory typeFactory = new JavaTypeFactoryImpl();
  private final CalciteConnectionConfig calciteConfig;

  private final SqlDialect backendDialect;

  /**
   * An analyser for one connection; {@code backendDialect} writes public-table queries back for
   * the backend.
   */
  public QueryAnalyzer(Policy policy, BackendCatalog catalog, String defaultSchema,
      SqlDialect backendDialect) {
    this.policy = policy;
    this.backendDialect = backendDialect;
    // unquoted identifiers fold the way the backend folds them (upper for H2, lower for
    // PostgreSQL), so public-table SQL written back for the backend names the same objects
    this.parserConfig = SqlParser.config()
        .withUnquotedCasing(backendDialect.getUnquotedCasing())
        .withQuotedCasing(Casing.UNCHANGED)
        .withCaseSensitive(false)
        .withConformance(SqlConformanceEnum.LENIENT);
    this.rootSchema = ValidationSchema.build(catalog);
    this.defaultSchemaPath = defaultSchema == null ? List.of() : List.of(defaultSchema);
    java.util.Properties p = new java.util.Properties();
    p.setProperty(CalciteConnectionProperty.CASE_SENSITIVE.camelName(), "false");
    this.calciteConfig = new CalciteConnectionConfigImpl(p);
  }

  /** Parses, validates and checks one statement. */
  public AnalyzedStatement analyze(String sql) throws SQLException {
    SqlNode node = parse(sql);
    String normalized = node.toSqlString(AnsiSqlDialect.DEFAULT).getSql();
    switch (node.getKind()) {
      case INSERT, UPDATE, DELETE, MERGE -> throw SqlStates.notAllowed(
          "dpsql connections are read-only: " + node.getKind() + " is not allowed; "
              + "the data owner changes data directly in the backend");
      case EXPLAIN -> {
        SqlNode inner = ((SqlExplain) node).getExplicandum();
        Tables t = tablesOf(inner);
        if (t.privateTables.isEmpty()) {
          throw SqlStates.notSupported(
              "EXPLAIN PLAN FOR is for queries over private tables; run queries on public tables directly");
        }
        AggregateQuery q = analyzePrivate(inner, parse(sql), t);
        return new AnalyzedStatement.Explain(q, normalized);
      }
      default -> { }
    }
    if (!node.isA(SqlKind.QUERY)) {
      throw SqlStates.notSupported("dpsql answers queries only; " + node.getKind() + " is not supported");
    }
    Tables t = tablesOf(node);
    if (t.system && (!t.privateTables.isEmpty() || !t.publicTables.isEmpty())) {
      throw SqlStates.notSupported(
          "a query over DPSQL system tables cannot also read backend tables; query them separately");
    }
    if (t.system) {
      return new AnalyzedStatement.SystemQuery(sql, normalized);
    }
    if (t.privateTables.isEmpty()) {
      return new AnalyzedStatement.PassThrough(node.toSqlString(backendDialect).getSql(), normalized);
    }
    SqlNode fresh = parse(sql);
    List<AnalyzedStatement.ParameterInfo> params = validate(fresh);
    AggregateQuery q = analyzePrivate(node, null, t);
    return new AnalyzedStatement.PrivateAggregate(q, normalized, params);
  }

  private SqlNode parse(String sql) throws SQLException {
    try {
      return SqlParser.create(sql, parserConfig).parseStmt();
    } catch (SqlParseException e) {
      String first = sql.strip().split("\\s+", 2)[0].toUpperCase(Locale.ROOT);
      if (DDL_WORDS.contains(first)) {
        throw SqlStates.notAllowed("dpsql connections are read-only: " + first
            + " statements are not allowed; the data owner changes the backend directly");
      }
      throw new SQLException("SQL syntax error: " + e.getMessage(), "42000", e);
    }
  }

  /** Validates the statement against the backend tables; returns the dynamic parameters' types. */
  private List<AnalyzedStatement.ParameterInfo> validate(SqlNode node) throws SQLException {
    CalciteCatalogReader reader =
        new CalciteCatalogReader(rootSchema, defaultSchemaPath, typeFactory, calciteConfig);
    SqlValidator validator = SqlValidatorUtil.newValidator(SqlStdOperatorTable.instance(), reader,
        typeFactory, SqlValidator.Config.DEFAULT
            .withConformance(SqlConformanceEnum.LENIENT)
            .withIdentifierExpansion(true)
            // no implicit casts: the backend would convert row values, and a conversion that
            // fails on some rows (or quotes them in its error) would reveal those rows
            .withTypeCoercionEnabled(false));
    try {
      SqlNode validated = validator.validate(node);
      checkComparisons(validated, validator);
      RelDataType paramRow = validator.getParameterRowType(validated);
      List<AnalyzedStatement.ParameterInfo> params = new ArrayList<>();
      for (RelDataTypeField f : paramRow.getFieldList()) {
        RelDataType t = f.getType();
        params.add(new AnalyzedStatement.ParameterInfo(t.getSqlTypeName().getJdbcOrdinal(),
            t.getSqlTypeName().getName(), Math.max(0, t.getPrecision()), Math.max(0, t.getScale())));
      }
      return params;
    } catch (CalciteContextException e) {
      String msg = e.getMessage();
      String state = "42000";
      if (msg != null && msg.contains("Object '") && msg.contains("not found")) {
        state = "42S02";
      } else if (msg != null && msg.contains("Column '") && msg.contains("not found")) {
        state = "42S22";
      }
      throw new SQLException(msg, state, e);
    } catch (IllegalArgumentException e) {
      throw new SQLException(e.getMessage(), "42000");
    } catch (RuntimeException e) {
      throw new SQLException("SQL validation error: " + e.getMessage(), "42000", e);
    }
  }

  private static final Set<SqlKind> COMPARISONS = Set.of(SqlKind.EQUALS, SqlKind.NOT_EQUALS,
      SqlKind.LESS_THAN, SqlKind.LESS_THAN_OR_EQUAL, SqlKind.GREATER_THAN,
      SqlKind.GREATER_THAN_OR_EQUAL, SqlKind.BETWEEN, SqlKind.IN, SqlKind.NOT_IN, SqlKind.LIKE);

  /**
   * Refuses comparisons between different type families (e.g. a VARCHAR column with a number):
   * Calcite accepts them, but the backend would then convert each row's value, and a conversion
   * that fails on some rows would reveal them (and H2 quotes the value in its error).
   */
  private static void checkComparisons(SqlNode validated, SqlValidator validator) {
    SqlNode where = null;
    SqlNode n = validated instanceof SqlOrderBy ob ? ob.query : validated;
    if (n instanceof SqlSelect select) {
      where = select.getWhere();
    }
    if (where == null) {
      return;
    }
    where.accept(new SqlBasicVisitor<Void>() {
      @Override
      public Void visit(SqlCall call) {
        if (COMPARISONS.contains(call.getKind())) {
          org.apache.calcite.sql.type.SqlTypeFamily family = null;
          for (SqlNode operand : call.getOperandList()) {
            for (SqlNode o : operand instanceof SqlNodeList list ? list.getList() : List.of(operand)) {
              RelDataType t = o == null ? null : validator.getValidatedNodeTypeIfKnown(o);
              if (t == null || t.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.NULL
                  || t.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.ANY) {
                continue;
              }
              org.apache.calcite.sql.type.SqlTypeFamily f = t.getSqlTypeName().getFamily();
              if (family == null) {
                family = f;
              } else if (f != null && f != family) {
                throw new IllegalArgumentException("cannot compare " + family + " with " + f
                    + " in " + call + "; write a literal of the column's type (e.g. '3' for a text "
                    + "column)");
              }
            }
          }
        }
        return super.visit(call);
      }
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Tables a statement touches

  private static final class Tables {
    final Set<TablePolicy> privateTables = new HashSet<>();
    final Set<TablePolicy> publicTables = new HashSet<>();
    boolean system;
  }

  private Tables tablesOf(SqlNode node) throws SQLException {
    Tables tables = new Tables();
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
      if (id.names.size() > 1 && id.names.get(0).equalsIgnoreCase(SYSTEM_SCHEMA)) {
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

  // ---------------------------------------------------------------------------------------------
  // Private aggregate queries

  private AggregateQuery analyzePrivate(SqlNode node, SqlNode validationCopy, Tables tables)
      throws SQLException {
    if (validationCopy != null) {
      SqlNode inner = validationCopy instanceof SqlExplain e ? e.getExplicandum() : validationCopy;
      validate(inner);
    }
    SqlNodeList orderList = null;
    SqlNode offset = null;
    SqlNode fetch = null;
    if (node instanceof SqlOrderBy ob) {
      orderList = ob.orderList;
      offset = ob.offset;
      fetch = ob.fetch;
      node = ob.query;
    }
    if (node instanceof SqlWith) {
      throw SqlStates.notSupported("WITH over a private table is not supported; "
          + "write the aggregate query over the table directly");
    }
    if (!(node instanceof SqlSelect select)) {
      throw SqlStates.notSupported(node.getKind() + " over a private table is not supported yet; "
          + "send each aggregate query separately");
    }
    TablePolicy table = singlePrivateTable(select, tables);
    if (select.isDistinct() || select.getModifierNode(SqlSelectKeyword.DISTINCT) != null) {
      throw SqlStates.notAllowed("SELECT DISTINCT over private table " + table.name()
          + " would reveal which values occur; use GROUP BY with COUNT(*) instead");
    }
    DpHint hint = readHint(select);
    if (select.getHaving() != null) {
      throw SqlStates.notSupported("HAVING is not supported on private tables yet; "
          + "filter the released rows in your client");
    }
    if (select.getWindowList() != null && !select.getWindowList().isEmpty()) {
      throw SqlStates.notSupported("WINDOW clauses are not supported on private tables");
    }
    if (select.getQualify() != null) {
      throw SqlStates.notSupported("QUALIFY is not supported on private tables");
    }
    if (select.getOrderList() != null && orderList == null) {
      orderList = select.getOrderList();
    }
    if (select.getOffset() != null && offset == null) {
      offset = select.getOffset();
    }
    if (select.getFetch() != null && fetch == null) {
      fetch = select.getFetch();
    }

    List<ColumnPolicy> groupBy = new ArrayList<>();
    if (select.getGroup() != null) {
      for (SqlNode g : select.getGroup()) {
        if (g.getKind() == SqlKind.ROLLUP || g.getKind() == SqlKind.CUBE
            || g.getKind() == SqlKind.GROUPING_SETS) {
          throw SqlStates.notSupported(g.getKind() + " is not supported yet; "
              + "send one GROUP BY query per grouping");
        }
        if (!(g instanceof SqlIdentifier id)) {
          throw SqlStates.notSupported("GROUP BY " + g + ": group by policy columns only, "
              + "not expressions; their cells come from the policy's domains");
        }
        ColumnPolicy c = policyColumn(table, id, "GROUP BY");
        if (!c.hasDomain()) {
          throw SqlStates.notAllowed("column " + c.name() + " of " + table.name()
              + " has no public domain in the policy (values, or min/max/bin), so it cannot be a "
              + "group key; group by a column with a domain");
        }
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
      String alias = null;
      SqlNode expr = item;
      if (item.getKind() == SqlKind.AS) {
        expr = ((SqlCall) item).operand(0);
        alias = ((SqlIdentifier) ((SqlCall) item).operand(1)).getSimple();
      }
      OutputItem out;
      if (expr instanceof SqlIdentifier id) {
        if (id.isStar()) {
          throw SqlStates.notAllowed("SELECT * would return raw rows of private table " + table.name()
              + "; ask for aggregates instead, e.g. SELECT COUNT(*) FROM " + table.name());
        }
        ColumnPolicy c = policyColumn(table, id, "SELECT");
        if (!groupBy.contains(c)) {
          throw SqlStates.notAllowed("column " + c.name() + " of private table " + table.name()
              + " is selected without GROUP BY: raw values cannot be returned; "
              + "group by it or aggregate it");
        }
        out = new OutputItem(label(alias, c.name(), labels), c, null);
      } else if (expr instanceof SqlCall call) {
        out = aggregate(call, alias, table, labels);
        anyAggregate = true;
      } else {
        throw SqlStates.notSupported("select item " + expr
            + " is not supported on a private table; select group columns and aggregates");
      }
      outputs.add(out);
    }
    if (!anyAggregate) {
      throw SqlStates.notAllowed("raw rows of private table " + table.name()
          + " cannot be returned; ask for COUNT(*), COUNT(col), SUM(col) or AVG(col)");
    }

    SqlNode where = select.getWhere() == null ? null : checkedFilter(select.getWhere(), table);
    List<SortKey> sort = orderList == null ? List.of() : sortKeys(orderList, outputs);
    return new AggregateQuery(table, groupBy, outputs, where, hint, sort,
        longLiteral(offset, "OFFSET"), longLiteral(fetch, "FETCH/LIMIT"));
  }

  private TablePolicy singlePrivateTable(SqlSelect select, Tables tables) throws SQLException {
    SqlNode from = select.getFrom();
    if (from != null && from.getKind() == SqlKind.AS) {
      from = ((SqlCall) from).operand(0);
    }
    if (!(from instanceof SqlIdentifier id) || tables.privateTables.size() != 1
        || !tables.publicTables.isEmpty()) {
      throw SqlStates.notSupported("a query over a private table must read that one table "
          + "directly (FROM table [alias]); joins and subqueries over private tables are not "
          + "supported yet");
    }
    return policy.table(id.names.get(id.names.size() - 1)).orElseThrow();
  }

  private static DpHint readHint(SqlSelect select) throws SQLException {
    DpHint hint = DpHint.NONE;
    if (select.getHints() == null) {
      return hint;
    }
    for (SqlNode h : select.getHints()) {
      SqlHint sqlHint = (SqlHint) h;
      if (!sqlHint.getName().equalsIgnoreCase("DP")) {
        throw SqlStates.badPrivacyParameter("unknown hint " + sqlHint.getName()
            + "; dpsql understands /*+ DP(epsilon='0.1', ...) */");
      }
      if (sqlHint.getOptionFormat() != SqlHint.HintOptionFormat.KV_LIST
          && !sqlHint.getOptionList().isEmpty()) {
        throw SqlStates.badPrivacyParameter("DP hint options are key='value' pairs, e.g. "
            + "DP(epsilon='0.1', mechanism='geometric')");
      }
      hint = DpHint.parse(sqlHint.getOptionKVPairs());
    }
    return hint;
  }

  private static final Set<String> OTHER_AGGREGATES = Set.of("MIN", "MAX", "STDDEV", "STDDEV_POP",
      "STDDEV_SAMP", "VARIANCE", "VAR_POP", "VAR_SAMP", "MEDIAN", "PERCENTILE_CONT",
      "PERCENTILE_DISC", "MODE", "LISTAGG", "ARRAY_AGG", "STRING_AGG", "GROUP_CONCAT", "COLLECT",
      "ANY_VALUE", "BIT_AND", "BIT_OR", "BIT_XOR", "EVERY", "SOME", "BOOL_AND", "BOOL_OR",
      "COUNTIF", "APPROX_COUNT_DISTINCT", "COVAR_POP", "COVAR_SAMP", "CORR", "REGR_COUNT",
      "REGR_SXX", "REGR_SYY", "FIRST_VALUE", "LAST_VALUE", "ARG_MIN", "ARG_MAX");

  /** The upper-case name of a function call (parsed calls are not yet resolved to kinds). */
  private static String functionName(SqlCall call) {
    return call.getOperator().getName().toUpperCase(Locale.ROOT);
  }

  private OutputItem aggregate(SqlCall call, String alias, TablePolicy table,
      Map<String, Integer> labels) throws SQLException {
    String name = functionName(call);
    if (!name.equals("COUNT") && !name.equals("SUM") && !name.equals("AVG")) {
      if (OTHER_AGGREGATES.contains(name) || call.getOperator().isAggregator()) {
        throw SqlStates.notSupported(name + " cannot be answered privately by dpsql; "
            + "supported aggregates are COUNT(*), COUNT(col), SUM(col) and AVG(col)");
      }
      throw SqlStates.notSupported("select item " + call + " is not supported on a private table; "
          + "select group columns and COUNT/SUM/AVG aggregates");
    }
    SqlKind kind = SqlKind.valueOf(name);
    SqlLiteral quantifier = call.getFunctionQuantifier();
    if (quantifier != null && "DISTINCT".equalsIgnoreCase(quantifier.toValue())) {
      throw SqlStates.notSupported(kind + "(DISTINCT ...) is not supported privately; "
          + "drop DISTINCT");
    }
    if (call.operandCount() != 1) {
      throw SqlStates.notSupported(kind + " takes one argument");
    }
    SqlNode arg = call.operand(0);
    if (arg instanceof SqlIdentifier id && id.isStar()) {
      if (kind != SqlKind.COUNT) {
        throw SqlStates.notSupported(kind + "(*) is not valid SQL");
      }
      return new OutputItem(label(alias, "COUNT", labels), null, AggregateKind.COUNT_STAR);
    }
    if (!(arg instanceof SqlIdentifier id)) {
      throw SqlStates.notSupported(kind + "(" + arg + "): aggregate a policy column directly, "
          + "not an expression");
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
    return table.column(name).orElseThrow(() -> SqlStates.notAllowed("column " + name
        + " (in " + clause + ") is not in the policy for private table " + table.name()
        + "; usable columns: " + String.join(", ",
            table.columns().values().stream().map(ColumnPolicy::name).toList())));
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

  /** Checks a WHERE clause (policy columns, allowed operators, no subqueries) and strips qualifiers. */
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
        if (call instanceof SqlSelect || call.getKind() == SqlKind.EXISTS
            || call.getKind() == SqlKind.SCALAR_QUERY) {
          failure[0] = SqlStates.notSupported("subqueries in WHERE on a private table are not "
              + "supported: " + call);
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

  private static List<SortKey> sortKeys(SqlNodeList orderList, List<OutputItem> outputs)
      throws SQLException {
    List<SortKey> keys = new ArrayList<>();
    for (SqlNode n : orderList) {
      boolean desc = false;
      while (n instanceof SqlBasicCall c && (c.getKind() == SqlKind.DESCENDING
          || c.getKind() == SqlKind.NULLS_FIRST || c.getKind() == SqlKind.NULLS_LAST)) {
        desc |= c.getKind() == SqlKind.DESCENDING;
        n = c.operand(0);
      }
      int index = -1;
      if (n instanceof SqlNumericLiteral lit) {
        index = lit.intValue(true) - 1;
      } else if (n instanceof SqlIdentifier id) {
        String name = id.names.get(id.names.size() - 1);
        for (int i = 0; i < outputs.size(); i++) {
          OutputItem o = outputs.get(i);
          if (o.label().equalsIgnoreCase(name)
              || (o.isGroupKey() && o.column().name().equalsIgnoreCase(name))) {
            index = i;
            break;
          }
        }
      } else {
        for (int i = 0; i < outputs.size(); i++) {
          if (outputs.get(i).aggregate() != null && n instanceof SqlCall call
              && matchesAggregate(call, outputs.get(i))) {
            index = i;
            break;
          }
        }
      }
      if (index < 0 || index >= outputs.size()) {
        throw SqlStates.notSupported("ORDER BY " + n + ": order by a column of the result "
            + "(its name, alias or position)");
      }
      keys.add(new SortKey(index, desc));
    }
    return keys;
  }

  private static boolean matchesAggregate(SqlCall call, OutputItem o) {
    String k = functionName(call);
    if (o.aggregate() == AggregateKind.COUNT_STAR) {
      return k.equals("COUNT") && call.operand(0) instanceof SqlIdentifier id && id.isStar();
    }
    return k.equals(o.aggregate().name()) && call.operand(0) instanceof SqlIdentifier id
        && !id.isStar() && id.names.get(id.names.size() - 1).equalsIgnoreCase(o.column().name());
  }

  private static Long longLiteral(SqlNode n, String what) throws SQLException {
    if (n == null) {
      return null;
    }
    if (n instanceof SqlNumericLiteral lit) {
      return lit.longValue(true);
    }
    throw SqlStates.notSupported(what + " must be a number literal on private queries");
  }
}
