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
import org.dpsql.rewrite.PublicJoin;

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

  /**
   * The standard catalog views, answered like the system tables (free, on the connection's scratch
   * database) from the policy's view of the backend: see {@code session.CatalogMirror}.
   */
  public static final String INFORMATION_SCHEMA = "INFORMATION_SCHEMA";

  private final LenientParser parser;
  private final org.dpsql.sql.relational.RelationalPlanner relationalPlanner;
  private final org.dpsql.sql.relational.PrivacyAnalysis privacyAnalysis;

  private static final Set<String> DDL_WORDS = Set.of(
      "CREATE", "DROP", "ALTER", "TRUNCATE", "GRANT", "REVOKE", "RENAME", "COMMENT", "SET", "CALL",
      "RUNSCRIPT", "SCRIPT", "BACKUP", "SHUTDOWN", "INSERT", "UPDATE", "DELETE", "MERGE", "UPSERT");

  private final Policy policy;
  private final PublicJoins publicJoins;
  private final PublicRowReader publicRows;
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

  /** Reads rows of public tables from the backend: one SQL statement, all rows as objects. */
  @FunctionalInterface
  public interface PublicRowReader {
    List<Object[]> read(String sql) throws SQLException;
  }
  private final SqlDialect backendDialect;

  /**
   * An analyser for one connection; {@code backendDialect} writes public-table queries back for
   * the backend.
   */
  public QueryAnalyzer(Policy policy, BackendCatalog catalog, String defaultSchema,
      SqlDialect backendDialect) {
    this(policy, catalog, defaultSchema, backendDialect, sql -> {
      throw SqlStates.notSupported("joins with public tables need the backend connection; "
          + "this analyzer has none");
    });
  }

  /**
   * An analyzer that reads public lookup tables through {@code publicRows} when a private query
   * joins them (one SQL statement, all rows returned as objects).
   */
  public QueryAnalyzer(Policy policy, BackendCatalog catalog, String defaultSchema,
      SqlDialect backendDialect, PublicRowReader publicRows) {
    this.publicJoins = new PublicJoins(policy, catalog, backendDialect, publicRows);
    this.publicRows = publicRows;
    this.policy = policy;
    this.backendDialect = backendDialect;
    // unquoted identifiers fold the way the backend folds them (upper for H2, lower for
    // PostgreSQL), so public-table SQL written back for the backend names the same objects
    this.parser = new LenientParser(backendDialect.getUnquotedCasing());
    this.relationalPlanner = new org.dpsql.sql.relational.RelationalPlanner(policy, catalog,
        defaultSchema);
    this.privacyAnalysis = new org.dpsql.sql.relational.PrivacyAnalysis(policy, backendDialect);
  }

  /**
   * Tells the analysis which private tables the backend declares to have one row per unit, so
   * that {@code unit IN (SELECT unit FROM table ...)} over such a table is answered as the join on
   * the unit (see {@link org.dpsql.sql.relational.PrivacyAnalysis#oneRowPerUnit}).
   */
  public void oneRowPerUnit(java.util.function.Predicate<TablePolicy> declaredUnique) {
    privacyAnalysis.oneRowPerUnit(declaredUnique);
  }

  /** Parses, validates and checks one statement. */
  public AnalyzedStatement analyze(String sql) throws SQLException {
    SqlNode node = parse(sql);
    String normalized = node.toSqlString(AnsiSqlDialect.DEFAULT).getSql();
    if (node.isA(SqlKind.DDL)) {
      throw SqlStates.notAllowed("dpsql connections are read-only: " + node.getKind()
          + " statements are not allowed; the data owner changes the backend directly");
    }
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
        StatementTemplate template = StatementTemplate.of(sql);
        if (template.bindsAtExecute()) {
          // parameters and the clock are bound at execute; EXPLAIN then shows the bound values
          SqlNode explicandum = ((SqlExplain) parse(template.withClock(java.time.Instant.now())))
              .getExplicandum();
          return new AnalyzedStatement.Deferred(template,
              parameterInfos(relationalPlanner.describe(explicandum).parameterTypes()),
              List.of(new AnalyzedStatement.ColumnInfo("PLAN", java.sql.Types.VARCHAR,
                  "VARCHAR")), normalized);
        }
        AnalyzedStatement planned = planned(sql, inner, normalized);
        if (planned instanceof AnalyzedStatement.PrivateAggregate p) {
          return new AnalyzedStatement.Explain(p.query(), normalized,
              p.released() == null ? null : p.released().statement());
        }
        if (planned instanceof AnalyzedStatement.PrivateWorkload w) {
          return new AnalyzedStatement.ExplainWorkload(w.query(), normalized,
              w.released() == null ? null : w.released().statement());
        }
        return new AnalyzedStatement.ExplainComposite((AnalyzedStatement.Composite) planned,
            normalized);
      }
      default -> { }
    }
    if (!node.isA(SqlKind.QUERY)) {
      throw SqlStates.notSupported("dpsql answers queries only; " + node.getKind() + " is not supported");
    }
    AnalyzedStatement function = systemFunction(node, normalized);
    if (function != null) {
      return function;
    }
    Tables t = tablesOf(node);
    if (t.system && (!t.privateTables.isEmpty() || !t.publicTables.isEmpty())) {
      throw SqlStates.notSupported(
          "a query over the DPSQL system tables or INFORMATION_SCHEMA cannot also read backend "
              + "tables; query them separately");
    }
    if (t.system) {
      checkStandardFunctions(node);
      return new AnalyzedStatement.SystemQuery(sql, normalized);
    }
    if (t.privateTables.isEmpty()) {
      checkStandardFunctions(node);
      return new AnalyzedStatement.PassThrough(node.toSqlString(backendDialect).getSql(), normalized);
    }
    StatementTemplate template = StatementTemplate.of(sql);
    if (template.bindsAtExecute()) {
      return deferred(sql, template, node, normalized, t);
    }
    return planned(sql, node, normalized);
  }

  /**
   * A private statement with parameters or clock calls, bound at execute. A single aggregate
   * statement is analysed at prepare with its parameters kept (its checks and result columns come
   * from that analysis, as before); any other statement is validated (its result and parameter
   * types), and analysed once its values are bound.
   */
  private AnalyzedStatement deferred(String sql, StatementTemplate template, SqlNode node,
      String normalized, Tables t) throws SQLException {
    if (!template.readsClock()) {
      try {
        AnalyzedStatement probe = planned(sql, node, normalized);
        List<AnalyzedStatement.ParameterInfo> params =
            probe instanceof AnalyzedStatement.PrivateAggregate p ? p.parameters()
                : probe instanceof AnalyzedStatement.PrivateWorkload w ? w.parameters() : null;
        if (params != null && params.size() == template.parameterCount()) {
          // planned once: its values are bound to the release's filter at each execution
          return probe;
        }
      } catch (NeedsBinding | org.dpsql.sql.relational.CoreAggregate.NeedsValues e) {
        // post-processing or a derived column with a parameter: described below, planned with
        // its values bound
      } catch (SQLException e) {
        if (e.getMessage() == null || !e.getMessage().startsWith("SQL validation error")) {
          throw e;
        }
        // a parameter Calcite cannot type where it stands: described below with NULL in its
        // place, planned with its values bound
      }
    }
    // the clock's values do not change the types: any instant describes the statement
    String described = template.withClock(java.time.Instant.now());
    org.dpsql.sql.relational.RelationalPlanner.Description d;
    List<AnalyzedStatement.ParameterInfo> parameters;
    try {
      d = relationalPlanner.describe(parse(described));
      parameters = parameterInfos(d.parameterTypes());
    } catch (SQLException e) {
      if (e.getMessage() == null || !e.getMessage().startsWith("SQL validation error")) {
        throw e;
      }
      // Calcite could not type a parameter (e.g. one compared inside a CASE inside an
      // aggregate): described with NULL in its place, and bound by its value's own type
      described = template.withNulls(java.time.Instant.now());
      d = relationalPlanner.describe(parse(described));
      parameters = new ArrayList<>();
      for (int i = 0; i < template.parameterCount(); i++) {
        parameters.add(new AnalyzedStatement.ParameterInfo(java.sql.Types.OTHER, "OTHER", 0, 0));
      }
    }
    SqlNode parsedDescribed = parse(described);
    List<String> labels = labels(parsedDescribed, d.rowType().getFieldNames());
    boolean[] counts = counts(parsedDescribed, labels.size());
    List<AnalyzedStatement.ColumnInfo> columns = new ArrayList<>();
    for (int i = 0; i < labels.size(); i++) {
      RelDataType type = d.rowType().getFieldList().get(i).getType();
      columns.add(new AnalyzedStatement.ColumnInfo(labels.get(i),
          type.getSqlTypeName().getJdbcOrdinal(), type.getSqlTypeName().getName(), counts[i]));
    }
    return new AnalyzedStatement.Deferred(template, parameters, columns, normalized);
  }

  /** Refusal of a statement that is answered once its parameters are bound to literals. */
  private static final class NeedsBinding extends SQLException {
    NeedsBinding() {
      super("parameters are bound at execute", SqlStates.NOT_SUPPORTED);
    }
  }

  private static List<AnalyzedStatement.ParameterInfo> parameterInfos(List<RelDataType> types) {
    List<AnalyzedStatement.ParameterInfo> params = new ArrayList<>();
    for (RelDataType t : types) {
      if (t == null || t.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.UNKNOWN) {
        params.add(new AnalyzedStatement.ParameterInfo(java.sql.Types.OTHER, "OTHER", 0, 0));
        continue;
      }
      params.add(new AnalyzedStatement.ParameterInfo(t.getSqlTypeName().getJdbcOrdinal(),
          t.getSqlTypeName().getName(), Math.max(0, t.getPrecision()), Math.max(0, t.getScale())));
    }
    return params;
  }

  /**
   * A statement over private tables, on the one path every such statement takes: validated and
   * converted to relational algebra once ({@link org.dpsql.sql.relational.RelationalPlanner}),
   * split at its private aggregates ({@link org.dpsql.sql.relational.PrivacyAnalysis}), each
   * aggregate's canonical statement checked against the policy once ({@link
   * #analyzeCanonical}). A statement that only picks, names and orders the columns of its one
   * release is that release ({@link SingleRelease}); any other is a {@link
   * AnalyzedStatement.Composite} whose post-processing runs over the released rows. Dynamic
   * parameters are kept in a release's filter; a statement with parameters elsewhere (HAVING,
   * LIMIT, a derived column) is planned once its values are bound ({@link NeedsBinding}).
   */
  private AnalyzedStatement planned(String sql, SqlNode node, String normalized)
      throws SQLException {
    try {
      return planned(node, normalized, false);
    } catch (LookupJoinRefusal e) {
      // the public table cannot be read as a function of the join key (a key that is not
      // unique, a public column aggregated, a table joined twice): the join is applied to the
      // released rows of the private table grouped by the key instead, if that reads it
      SqlNode fresh = parse(sql);
      if (fresh instanceof SqlExplain x) {
        fresh = x.getExplicandum();
      }
      try {
        return planned(fresh, normalized, true);
      } catch (SQLException other) {
        throw e.refusal(); // the reason the lookup was refused says best what to change
      }
    }
  }

  /**
   * A private aggregate over a join with public lookup tables that the lookup analysis ({@link
   * PublicJoins}) refuses; {@link #refusal} is its reason.
   */
  private static final class LookupJoinRefusal extends SQLException {
    LookupJoinRefusal(SQLException refusal) {
      super(refusal.getMessage(), refusal.getSQLState(), refusal);
    }

    SQLException refusal() {
      return (SQLException) getCause();
    }
  }

  /**
   * How many statements this analyser has planned (relational conversion and privacy split): a
   * prepared statement whose values are bound to its releases' filters is planned once, however
   * often it is executed with new values.
   */
  public long plannedStatements() {
    return planned.get();
  }

  private final java.util.concurrent.atomic.AtomicLong planned =
      new java.util.concurrent.atomic.AtomicLong();

  private AnalyzedStatement planned(SqlNode node, String normalized, boolean splitLookupJoins)
      throws SQLException {
    planned.incrementAndGet();
    DpHint hint = statementHint(node);
    org.dpsql.sql.relational.RelationalPlanner.Planned planned =
        relationalPlanner.plan(node, splitLookupJoins);
    org.dpsql.sql.relational.ReleasePlan split = privacyAnalysis.split(planned.rel());
    // the statement's budget (its hint, or the policy's default_query) split equally among its
    // private aggregates, so that a statement costs the same whatever their number
    DpHint share = hint.share(split.chargedReleases(), policy.budget().defaultQuery());
    split = split.withHint(share.sqlText()).withLabels(labels(node,
        split.rowType().getFieldNames()), planned.rel().getCluster().getTypeFactory());
    List<AnalyzedStatement> parts = new ArrayList<>();
    for (org.dpsql.sql.relational.ReleasePlan.Release r : split.releases()) {
      parts.add(analyzeCanonical(r, share));
    }
    List<AnalyzedStatement.ParameterInfo> parameters = parameterInfos(planned.parameterTypes());
    AnalyzedStatement single = parts.size() == 1
        ? SingleRelease.of(split, parts.get(0), parameters, normalized)
        : SingleRelease.union(split, parts, hint, parameters, normalized);
    if (single != null) {
      return single;
    }
    if (!parameters.isEmpty()) {
      throw new NeedsBinding(); // post-processing with parameters: planned with its values bound
    }
    return new AnalyzedStatement.Composite(split, parts, normalized);
  }

  /**
   * A canonical single-aggregate statement, analysed without the relational fallback; its derived
   * columns are evaluated on their column's domain in the backend and become part of the release's
   * identity.
   */
  private AnalyzedStatement analyzeCanonical(org.dpsql.sql.relational.ReleasePlan.Release release,
      DpHint hint) throws SQLException {
    SqlSelect node = release.core().node();
    Tables t = tablesOf(node);
    String normalized = release.coreSql();
    PublicJoins.Joined joined = null;
    if (!release.definitions().isEmpty()) {
      // the canonical statement was validated as part of the whole statement (and may name
      // derived and computed columns the backend does not have); the filter's operators and the
      // policy columns are checked below. The definitions are part of the release's identity.
      joined = derivedColumns(t.privateTables.iterator().next(), release.derived(),
          release.computed());
      normalized = normalized + " WITH " + String.join(", ", release.definitions());
    }
    Object q;
    try {
      q = analyzePrivate(node, t, joined, hint);
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
   * Which result columns of a statement are counts released as integers, as far as its text
   * shows before its values are bound: a {@code COUNT(...)} item of the outermost SELECT of a
   * statement without grouping sets (a roll-up's counts may be least-squares estimates).
   */
  private static boolean[] counts(SqlNode node, int width) {
    boolean[] out = new boolean[width];
    SqlNode n = node instanceof SqlOrderBy ob ? ob.query : node;
    if (!(n instanceof SqlSelect select) || select.getSelectList().size() != width) {
      return out;
    }
    if (select.getGroup() != null) {
      for (SqlNode g : select.getGroup()) {
        if (g.getKind() == SqlKind.ROLLUP || g.getKind() == SqlKind.CUBE
            || g.getKind() == SqlKind.GROUPING_SETS) {
          return out;
        }
      }
    }
    for (int i = 0; i < width; i++) {
      SqlNode item = select.getSelectList().get(i);
      if (item.getKind() == SqlKind.AS) {
        item = ((SqlCall) item).operand(0);
      }
      // unvalidated: the function is known by its name
      out[i] = item instanceof SqlCall call && call.getOperator() instanceof
          org.apache.calcite.sql.SqlFunction && functionName(call).equals("COUNT");
    }
    return out;
  }

  /**
   * The result labels of a statement: Calcite's names, except that an unaliased {@code COUNT(*)},
   * {@code COUNT(col)}, {@code SUM(col)} or {@code AVG(col)} of the outermost SELECT is named as
   * in single-table statements ({@code COUNT}, {@code SUM_FARE}, ...) instead of {@code EXPR$1}.
   */
  private static List<String> labels(SqlNode node, List<String> names) {
    SqlNode n = node instanceof SqlOrderBy ob ? ob.query : node;
    if (!(n instanceof SqlSelect select) || select.getSelectList().size() != names.size()) {
      return names;
    }
    List<String> out = new ArrayList<>(names);
    Set<String> used = new HashSet<>();
    names.forEach(name -> used.add(name.toUpperCase(Locale.ROOT)));
    for (int i = 0; i < names.size(); i++) {
      if (!names.get(i).matches("EXPR\\$\\d+")
          || !(select.getSelectList().get(i) instanceof SqlCall call)) {
        continue;
      }
      String label = defaultLabel(call);
      if (label != null && used.add(label.toUpperCase(Locale.ROOT))) {
        out.set(i, label);
      }
    }
    return out;
  }

  /**
   * The name an unaliased aggregate of one column gets, as SQL engines name them: {@code COUNT}
   * for {@code COUNT(*)}, {@code SUM_FARE}, {@code COUNT_DISTINCT_REGION}, {@code MIN_AGE}, {@code
   * PERCENTILE_CONT_AGE}; null for any other expression.
   */
  private static String defaultLabel(SqlCall call) {
    if (call.getKind() == SqlKind.WITHIN_GROUP && call.operand(0) instanceof SqlCall f
        && call.operand(1) instanceof SqlNodeList order && order.size() == 1) {
      SqlNode key = order.get(0);
      while (key instanceof SqlCall c && (c.getKind() == SqlKind.DESCENDING
          || c.getKind() == SqlKind.NULLS_FIRST || c.getKind() == SqlKind.NULLS_LAST)) {
        key = c.operand(0);
      }
      return key instanceof SqlIdentifier id && !id.isStar()
          ? functionName(f) + "_" + id.names.get(id.names.size() - 1) : null;
    }
    if (call.operandCount() != 1 || !(call.operand(0) instanceof SqlIdentifier id)) {
      return null;
    }
    String fn = functionName(call);
    boolean distinct = call.getFunctionQuantifier() != null
        && "DISTINCT".equalsIgnoreCase(call.getFunctionQuantifier().toValue());
    if (id.isStar()) {
      return fn.equals("COUNT") && !distinct ? fn : null;
    }
    String column = id.names.get(id.names.size() - 1);
    if (distinct) {
      return fn.equals("COUNT") ? "COUNT_DISTINCT_" + column : null;
    }
    return Set.of("COUNT", "SUM", "AVG", "MIN", "MAX").contains(fn) ? fn + "_" + column : null;
  }


  /** The one DP hint of a statement (on any of its SELECTs), or {@link DpHint#NONE}. */
  private static DpHint statementHint(SqlNode node) throws SQLException {
    List<SqlSelect> selects = new ArrayList<>();
    node.accept(new SqlBasicVisitor<Void>() {
      @Override
      public Void visit(SqlCall call) {
        if (call instanceof SqlSelect s && s.getHints() != null && !s.getHints().isEmpty()) {
          selects.add(s);
        }
        return super.visit(call);
      }
    });
    DpHint hint = DpHint.NONE;
    for (SqlSelect s : selects) {
      DpHint h = readHint(s);
      if (!hint.equals(DpHint.NONE) && !h.equals(hint)) {
        throw SqlStates.badPrivacyParameter("a statement has one DP budget: put one DP hint on "
            + "one of its SELECTs (this one has different hints); its budget is split among the "
            + "statement's private aggregates");
      }
      hint = h;
    }
    return hint;
  }

  /**
   * Refuses (XDP02) a statement passed to the backend that calls a function neither standard SQL
   * nor the common dialects (Calcite's function libraries: MySQL, PostgreSQL, Oracle, BigQuery,
   * ...) have. Backend-specific functions can read and write files or run SQL given as a string (H2's
   * {@code CSVWRITE('f', 'SELECT ... FROM PRIVATE_TABLE')}, {@code FILE_READ}, {@code LINK_SCHEMA};
   * PostgreSQL's {@code pg_read_file}, {@code dblink}), which would reach private rows without
   * passing through dpsql's checks.
   */
  private static final org.apache.calcite.sql.SqlOperatorTable KNOWN_FUNCTIONS =
      org.apache.calcite.sql.fun.SqlLibraryOperatorTableFactory.INSTANCE.getOperatorTable(
          java.util.EnumSet.allOf(org.apache.calcite.sql.fun.SqlLibrary.class));

  private static void checkStandardFunctions(SqlNode node) throws SQLException {
    SQLException[] refused = new SQLException[1];
    node.accept(new SqlBasicVisitor<Void>() {
      @Override
      public Void visit(SqlCall call) {
        org.apache.calcite.sql.SqlOperator op = call.getOperator();
        if (refused[0] == null && op instanceof org.apache.calcite.sql.SqlFunction f
            && (op instanceof org.apache.calcite.sql.SqlUnresolvedFunction
                || f.getFunctionType()
                    == org.apache.calcite.sql.SqlFunctionCategory.USER_DEFINED_FUNCTION)) {
          List<org.apache.calcite.sql.SqlOperator> found = new ArrayList<>();
          KNOWN_FUNCTIONS.lookupOperatorOverloads(
              new SqlIdentifier(op.getName(), org.apache.calcite.sql.parser.SqlParserPos.ZERO),
              null, org.apache.calcite.sql.SqlSyntax.FUNCTION, found,
              org.apache.calcite.sql.validate.SqlNameMatchers.withCaseSensitive(false));
          if (found.isEmpty()) {
            refused[0] = SqlStates.notAllowed("function " + op.getName() + " is not allowed: "
                + "statements on public and system tables may call the functions of standard SQL "
                + "and of the common dialects only (backend-specific functions can read files or "
                + "run unchecked SQL)");
          }
        }
        return super.visit(call);
      }
    });
    if (refused[0] != null) {
      throw refused[0];
    }
  }

  // ---------------------------------------------------------------------------------------------
  // DPSQL.WORKLOAD and DPSQL.EXPLAIN table functions (contract §5)

  /**
   * {@code EXPLAIN} is a reserved word of Calcite's grammar, so the contract's {@code
   * DPSQL.EXPLAIN(...)} would not parse: outside string literals, quoted identifiers and comments,
   * {@code DPSQL . EXPLAIN (} becomes {@code DPSQL."EXPLAIN"(}.
   */
  static String quoteExplainFunction(String sql) {
    StringBuilder out = new StringBuilder(sql.length() + 2);
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char ch = sql.charAt(i);
      int skip = LenientParser.endOfQuotedOrComment(sql, i);
      if (skip >= 0) {
        out.append(sql, i, skip);
        i = skip;
      } else if (Character.isLetter(ch)) {
        int j = i;
        while (j < n && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_')) {
          j++;
        }
        String word = sql.substring(i, j);
        out.append(word);
        i = j;
        if (word.equalsIgnoreCase(SYSTEM_SCHEMA)) {
          java.util.regex.Matcher m = EXPLAIN_CALL.matcher(sql).region(i, n);
          if (m.lookingAt()) {
            out.append(".\"EXPLAIN\"(");
            i = m.end();
          }
        }
      } else {
        out.append(ch);
        i++;
      }
    }
    return out.toString();
  }

  private static final java.util.regex.Pattern EXPLAIN_CALL =
      java.util.regex.Pattern.compile("\\s*\\.\\s*(?i:explain)\\s*\\(");

  private static final java.util.regex.Pattern FAMILY = java.util.regex.Pattern.compile(
      "\\s*([A-Za-z_]+)\\s*\\(([^;()]*)(?:;\\s*(\\d+)\\s*)?\\)\\s*");

  /**
   * The statement when it reads {@code TABLE(DPSQL.WORKLOAD(...))} or {@code
   * TABLE(DPSQL.EXPLAIN(...))}, else null. Both must be the whole statement: {@code SELECT * FROM
   * TABLE(...)}.
   */
  private AnalyzedStatement systemFunction(SqlNode node, String normalized) throws SQLException {
    List<SqlCall> calls = new ArrayList<>();
    node.accept(new SqlBasicVisitor<Void>() {
      @Override
      public Void visit(SqlCall call) {
        if (call.getKind() == SqlKind.COLLECTION_TABLE && call.operandCount() == 1
            && call.operand(0) instanceof SqlCall f && isSystemFunction(f)) {
          calls.add(f);
        }
        return super.visit(call);
      }
    });
    if (calls.isEmpty()) {
      return null;
    }
    SqlCall f = calls.get(0);
    String name = functionName(f);
    if (calls.size() > 1 || !(node instanceof SqlSelect select)
        || select.getFrom() == null || select.getFrom().getKind() != SqlKind.COLLECTION_TABLE
        || select.getWhere() != null || select.getGroup() != null
        || select.getSelectList().size() != 1
        || !(select.getSelectList().get(0) instanceof SqlIdentifier star) || !star.isStar()) {
      throw SqlStates.notSupported("DPSQL." + name + " is used as a whole statement: SELECT * FROM "
          + "TABLE(DPSQL." + name + "(...)); filter or join its rows in your client");
    }
    List<String> args = new ArrayList<>();
    for (SqlNode o : f.getOperandList()) {
      if (!(o instanceof SqlLiteral lit) || !(lit.getValue() instanceof org.apache.calcite.util.NlsString str)) {
        throw SqlStates.notSupported("the arguments of DPSQL." + name + " are text literals, e.g. "
            + "DPSQL.WORKLOAD('TRIPS', 'ALL_RANGES(AGE)', 'epsilon=0.5')");
      }
      args.add(str.getValue());
    }
    if (name.equals("EXPLAIN")) {
      if (args.size() != 1) {
        throw SqlStates.notSupported("DPSQL.EXPLAIN takes one argument: the statement to explain, "
            + "as a text literal (double any single quotes inside it)");
      }
      AnalyzedStatement inner = analyze(args.get(0));
      if (inner instanceof AnalyzedStatement.Composite c && c.releases().size() == 1) {
        // one private aggregate (a join of private tables, a subquery source): its release is
        // what the statement spends, with the statement's whole budget
        inner = c.releases().get(0);
      }
      if (inner instanceof AnalyzedStatement.Composite c && !c.releases().isEmpty()) {
        throw SqlStates.notSupported("DPSQL.EXPLAIN explains one private aggregate, workload or "
            + "adaptive table; this statement has " + c.releases().size() + " private "
            + "aggregates: use EXPLAIN PLAN FOR <statement>, which shows its plan, each release "
            + "and its cost");
      }
      if (!(inner instanceof AnalyzedStatement.PrivateAggregate
          || inner instanceof AnalyzedStatement.PrivateWorkload
          || inner instanceof AnalyzedStatement.NamedWorkload
          || inner instanceof AnalyzedStatement.AdaptiveTable)) {
        throw SqlStates.notSupported("DPSQL.EXPLAIN explains private queries (aggregates, "
            + "workloads, DPSQL.WORKLOAD, DPSQL.ADAPTIVE_TABLE); this statement spends no budget, "
            + "run it directly");
      }
      return new AnalyzedStatement.ExplainFunction(inner, args.get(0), normalized);
    }
    if (name.equals("ADAPTIVE_TABLE")) {
      return adaptiveTable(args);
    }
    if (args.size() < 2 || args.size() > 3) {
      throw SqlStates.notSupported("DPSQL.WORKLOAD takes ('table', 'FAMILY(col, ...)' [, "
          + "'options']), e.g. DPSQL.WORKLOAD('TRIPS', 'MARGINALS(REGION, AGE; 1)', 'rho=0.1')");
    }
    return new AnalyzedStatement.NamedWorkload(
        familyQuery(args.get(0), args.get(1), args.size() > 2 ? args.get(2) : ""), normalized);
  }

  private static boolean isSystemFunction(SqlCall f) {
    SqlIdentifier id = f.getOperator().getNameAsId();
    return id.names.size() == 2 && id.names.get(0).equalsIgnoreCase(SYSTEM_SCHEMA)
        && (id.names.get(1).equalsIgnoreCase("WORKLOAD") || id.names.get(1).equalsIgnoreCase("EXPLAIN")
            || id.names.get(1).equalsIgnoreCase("ADAPTIVE_TABLE"));
  }

  /**
   * {@code DPSQL.ADAPTIVE_TABLE('NAME'[, 'options'])}: a SafeTab tabulation the policy declares
   * under {@code adaptive_tables}. Options: {@code delta}, the δ of the (ε, δ) charge under {@code
   * approx} accounting; {@code nonnegative=true}, negative counts shown as 0.
   */
  private AnalyzedStatement adaptiveTable(List<String> args) throws SQLException {
    if (args.isEmpty() || args.size() > 2) {
      throw SqlStates.notSupported("DPSQL.ADAPTIVE_TABLE takes ('NAME' [, 'delta=...']): the name "
          + "of an adaptive table of the policy, e.g. DPSQL.ADAPTIVE_TABLE('DHC')");
    }
    String tableName = args.get(0).strip();
    org.dpsql.policy.AdaptiveTablePolicy table = policy.adaptiveTable(tableName).orElseThrow(
        () -> SqlStates.notAllowed("DPSQL.ADAPTIVE_TABLE: no adaptive table '" + tableName
            + "' in the policy; " + (policy.adaptiveTables().isEmpty()
                ? "the policy declares none (section adaptive_tables)"
                : "it declares " + String.join(", ", policy.adaptiveTables().values().stream()
                    .map(org.dpsql.policy.AdaptiveTablePolicy::name).toList()))));
    java.math.BigDecimal delta = null;
    boolean nonNegative = false;
    Map<String, String> opts = options(args.size() > 1 ? args.get(1) : "");
    for (Map.Entry<String, String> o : opts.entrySet()) {
      if (o.getKey().equalsIgnoreCase("nonnegative")) {
        String v = o.getValue().strip().toLowerCase(java.util.Locale.ROOT);
        if (!v.equals("true") && !v.equals("false")) {
          throw SqlStates.badPrivacyParameter("DPSQL.ADAPTIVE_TABLE: nonnegative is true or "
              + "false, got '" + o.getValue() + "'");
        }
        nonNegative = v.equals("true");
        continue;
      }
      if (!o.getKey().equalsIgnoreCase("delta")) {
        throw SqlStates.badPrivacyParameter("DPSQL.ADAPTIVE_TABLE: unknown option '" + o.getKey()
            + "'; the options are delta (the δ of the charge under approx accounting) and "
            + "nonnegative (show negative counts as 0): every other parameter is the data "
            + "owner's, in the policy");
      }
      try {
        delta = new java.math.BigDecimal(o.getValue().strip());
      } catch (NumberFormatException e) {
        throw SqlStates.badPrivacyParameter("DPSQL.ADAPTIVE_TABLE: delta must be a number in "
            + "(0, 1), got '" + o.getValue() + "'");
      }
      if (delta.signum() <= 0 || delta.compareTo(java.math.BigDecimal.ONE) >= 0) {
        throw SqlStates.badPrivacyParameter("DPSQL.ADAPTIVE_TABLE: delta must be in (0, 1), got "
            + delta.toPlainString());
      }
    }
    // the release is identified by the table and δ: nonnegative is post-processing of it
    return new AnalyzedStatement.AdaptiveTable(table, delta, nonNegative, "DPSQL.ADAPTIVE_TABLE("
        + table.name() + (delta == null ? "" : ", delta=" + delta.stripTrailingZeros()
            .toPlainString()) + ")");
  }

  private FamilyQuery familyQuery(String tableName, String familyText, String options)
      throws SQLException {
    TablePolicy table = policy.table(tableName.trim()).orElseThrow(() -> new SQLException(
        "DPSQL.WORKLOAD: no table " + tableName + " in the policy; it exposes " + String.join(", ",
            policy.tables().values().stream().map(TablePolicy::name).toList()), "42S02"));
    if (table.isPublic()) {
      throw SqlStates.notSupported("DPSQL.WORKLOAD answers queries over private tables; "
          + table.name() + " is public, query it directly");
    }
    java.util.regex.Matcher m = FAMILY.matcher(familyText);
    if (!m.matches()) {
      throw SqlStates.notSupported("DPSQL.WORKLOAD: cannot read the family '" + familyText
          + "'; write e.g. ALL_RANGES(AGE), PREFIX(AGE), IDENTITY(REGION, AGE), "
          + "MARGINALS(REGION, PAYMENT, AGE; 2) or RANGE_MARGINALS(AGE, FARE_BAND; 1)");
    }
    FamilyQuery.Family family;
    try {
      family = FamilyQuery.Family.valueOf(m.group(1).toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw SqlStates.notSupported("DPSQL.WORKLOAD: unknown family " + m.group(1) + "; families are "
          + java.util.Arrays.toString(FamilyQuery.Family.values()));
    }
    List<ColumnPolicy> cols = new ArrayList<>();
    for (String c : m.group(2).split(",")) {
      if (c.isBlank()) {
        continue;
      }
      ColumnPolicy col = table.column(c.trim()).orElseThrow(() -> SqlStates.notAllowed("column "
          + c.trim() + " (in DPSQL.WORKLOAD) is not in the policy for private table " + table.name()
          + "; usable columns: " + String.join(", ",
              table.columns().values().stream().map(ColumnPolicy::name).toList())));
      if (!col.hasDomain()) {
        throw SqlStates.notAllowed("column " + col.name() + " has no public domain in the policy, "
            + "so it cannot be a cell of a workload; use a column with values or min/max/bin");
      }
      if (cols.contains(col)) {
        throw SqlStates.notSupported("DPSQL.WORKLOAD names " + col.name() + " twice");
      }
      cols.add(col);
    }
    if (cols.isEmpty()) {
      throw SqlStates.notSupported("DPSQL.WORKLOAD: " + family + " needs at least one column");
    }
    if (family == FamilyQuery.Family.PREFIX && cols.size() != 1) {
      throw SqlStates.notSupported("PREFIX takes one ordered column");
    }
    boolean marginal = family == FamilyQuery.Family.MARGINALS
        || family == FamilyQuery.Family.RANGE_MARGINALS;
    int k = cols.size();
    if (m.group(3) != null) {
      if (!marginal) {
        throw SqlStates.notSupported(family + " takes no '; k'");
      }
      k = Integer.parseInt(m.group(3));
      if (k > cols.size()) {
        throw SqlStates.notSupported(family + ": k = " + k + " is more than its " + cols.size()
            + " columns");
      }
    }
    Map<String, String> opts = options(options);
    FamilyQuery.Output output = FamilyQuery.Output.QUERIES;
    for (java.util.Iterator<Map.Entry<String, String>> it = opts.entrySet().iterator();
        it.hasNext(); ) {
      Map.Entry<String, String> o = it.next();
      if (!o.getKey().equalsIgnoreCase("output")) {
        continue;
      }
      String v = o.getValue().strip().toUpperCase(Locale.ROOT);
      if (!v.equals("CELLS") && !v.equals("QUERIES")) {
        throw SqlStates.badPrivacyParameter("DPSQL.WORKLOAD: output is 'queries' (one row per "
            + "query of the family, the default) or 'cells' (one row per cell of the released "
            + "synopsis), got '" + o.getValue() + "'");
      }
      output = FamilyQuery.Output.valueOf(v);
      it.remove(); // presentation, not a privacy parameter
    }
    return new FamilyQuery(table, family, cols, k, DpHint.parse(opts), output);
  }

  /** {@code 'epsilon=0.5, mechanism=eigen'} (values may be quoted) as hint options. */
  private static Map<String, String> options(String text) throws SQLException {
    Map<String, String> out = new LinkedHashMap<>();
    if (text == null || text.isBlank()) {
      return out;
    }
    for (String pair : text.split(",")) {
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw SqlStates.badPrivacyParameter("DPSQL.WORKLOAD options are key=value pairs separated "
            + "by commas, e.g. 'epsilon=0.5, mechanism=eigen'; got '" + pair.trim() + "'");
      }
      String v = pair.substring(eq + 1).trim();
      if (v.length() >= 2 && (v.startsWith("'") || v.startsWith("\"")) && v.endsWith(v.substring(0, 1))) {
        v = v.substring(1, v.length() - 1);
      }
      out.put(pair.substring(0, eq).trim(), v);
    }
    return out;
  }

  private SqlNode parse(String sql) throws SQLException {
    sql = quoteExplainFunction(sql);
    SqlNode parsed;
    try {
      parsed = parser.parse(sql);
    } catch (SqlParseException e) {
      String first = sql.strip().split("\\s+", 2)[0].toUpperCase(Locale.ROOT);
      if (DDL_WORDS.contains(first)) {
        throw SqlStates.notAllowed("dpsql connections are read-only: " + first
            + " statements are not allowed; the data owner changes the backend directly");
      }
      throw new SQLException("SQL syntax error: " + e.getMessage(), "42000", e);
    }
    // MEDIAN, which Calcite does not know (fractions checked); constants folded into literals
    // FILTER (WHERE ...) of COUNT and SUM as the conditional aggregates they equal
    return FilterClauses.rewrite(ConstantFolding.fold(QuantileCall.rewrite(parsed)));
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
      if (id.names.size() > 1 && (id.names.get(0).equalsIgnoreCase(SYSTEM_SCHEMA)
          || id.names.get(0).equalsIgnoreCase(INFORMATION_SCHEMA))) {
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

  /**
   * The policy analysis of a private aggregate's canonical statement (a SELECT over one private
   * table, or over its join with public lookup tables): an {@link AggregateQuery}, or a {@link
   * WorkloadQuery} for grouping sets and joins with public tables. {@code derived}, when not null,
   * gives the derived columns the statement names; {@code hint} is its share of the statement's
   * budget.
   */
  private Object analyzePrivate(SqlSelect select, Tables tables, PublicJoins.Joined derived,
      DpHint hint) throws SQLException {
    SelectAnalysis a = analyzeSelect(select, tables, derived, hint);
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



  private SelectAnalysis analyzeSelect(SqlSelect select, Tables tables, PublicJoins.Joined derived,
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
      table = singlePrivateTable(select, tables);
    }
    // a canonical statement: no DISTINCT, HAVING, window, ORDER BY or limit (the relational
    // planner leaves those to post-processing of the released rows)
    DpHint hint = given;

    List<ColumnPolicy> groupBy = new ArrayList<>();
    List<List<ColumnPolicy>> groupingSets = null;
    if (select.getGroup() != null) {
      // every GROUP BY item is a list of alternative column sets; the statement's grouping sets
      // are their cross product (a plain column is the single set {column})
      List<List<ColumnPolicy>> sets = new ArrayList<>();
      sets.add(List.of());
      boolean anySets = false;
      for (SqlNode g : select.getGroup()) {
        List<List<ColumnPolicy>> alternatives;
        if (g.getKind() == SqlKind.ROLLUP || g.getKind() == SqlKind.CUBE
            || g.getKind() == SqlKind.GROUPING_SETS) {
          anySets = true;
          alternatives = groupingAlternatives((SqlCall) g, table);
        } else {
          alternatives = List.of(List.of(groupColumn(g, table)));
        }
        List<List<ColumnPolicy>> next = new ArrayList<>();
        for (List<ColumnPolicy> prefix : sets) {
          for (List<ColumnPolicy> alt : alternatives) {
            List<ColumnPolicy> combined = new ArrayList<>(prefix);
            for (ColumnPolicy c : alt) {
              if (!combined.contains(c)) {
                combined.add(c);
              } else if (!anySets) {
                throw SqlStates.notSupported("GROUP BY names " + c.name() + " twice");
              }
            }
            next.add(combined);
          }
        }
        if (next.size() > MAX_GROUPING_SETS) {
          throw SqlStates.notSupported("GROUP BY expands to more than " + MAX_GROUPING_SETS
              + " grouping sets; use fewer CUBE columns");
        }
        sets = next;
        for (ColumnPolicy c : alternatives.stream().flatMap(List::stream).toList()) {
          if (!groupBy.contains(c)) {
            groupBy.add(c);
          }
        }
      }
      if (anySets) {
        for (ColumnPolicy c : groupBy) {
          if (c.hasPrivateKeys()) {
            throw SqlStates.notSupported("ROLLUP, CUBE and GROUPING SETS need group columns with "
                + "public domains; " + c.name() + " is declared keys: private, so its groups are "
                + "selected privately per statement: GROUP BY it in a plain GROUP BY");
          }
        }
        groupingSets = sets;
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
        if (joined != null) {
          refuseAggregateOfPublicColumn(call, joined);
        }
        out = aggregate(call, alias, table, labels);
        anyAggregate = true;
      } else {
        throw SqlStates.notSupported("select item " + expr
            + " is not supported on a private table; select group columns and aggregates");
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

  /** A plain GROUP BY item: a policy column with a public domain, or with private keys. */
  private static ColumnPolicy groupColumn(SqlNode g, TablePolicy table) throws SQLException {
    if (!(g instanceof SqlIdentifier id)) {
      throw SqlStates.notSupported("GROUP BY " + g + ": group by policy columns only, "
          + "not expressions; their cells come from the policy's domains");
    }
    ColumnPolicy c = policyColumn(table, id, "GROUP BY");
    if (!c.hasDomain() && !c.hasPrivateKeys()) {
      throw SqlStates.notAllowed("column " + c.name() + " of " + table.name()
          + " has no public domain in the policy (values, or min/max/bin), so it cannot be a "
          + "group key; group by a column with a domain, or ask the data owner to declare it "
          + "keys: private (its groups are then selected privately)");
    }
    return c;
  }

  /**
   * The column sets a ROLLUP, CUBE or GROUPING SETS item stands for: ROLLUP(a, b) is {a,b}, {a},
   * {}; CUBE(a, b) is {a,b}, {a}, {b}, {}; GROUPING SETS lists them (each element a column, a
   * parenthesised list of columns, or a nested ROLLUP/CUBE).
   */
  private static List<List<ColumnPolicy>> groupingAlternatives(SqlCall g, TablePolicy table)
      throws SQLException {
    List<List<ColumnPolicy>> elements = new ArrayList<>();
    for (SqlNode o : g.getOperandList()) {
      if (g.getKind() == SqlKind.GROUPING_SETS
          && (o.getKind() == SqlKind.ROLLUP || o.getKind() == SqlKind.CUBE)) {
        elements.addAll(groupingAlternatives((SqlCall) o, table));
        continue;
      }
      elements.add(columnList(o, table));
    }
    List<List<ColumnPolicy>> out = new ArrayList<>();
    switch (g.getKind()) {
      case GROUPING_SETS -> out.addAll(elements);
      case ROLLUP -> {
        for (int k = elements.size(); k >= 0; k--) {
          List<ColumnPolicy> set = new ArrayList<>();
          elements.subList(0, k).forEach(set::addAll);
          out.add(set);
        }
      }
      default -> { // CUBE: every subset, largest first, in element order
        int e = elements.size();
        if (e > 8) {
          throw SqlStates.notSupported("CUBE over more than 8 columns is not supported");
        }
        List<Integer> masks = new ArrayList<>();
        for (int mask = (1 << e) - 1; mask >= 0; mask--) {
          masks.add(mask);
        }
        masks.sort((a, b) -> Integer.bitCount(b) - Integer.bitCount(a));
        for (int mask : masks) {
          List<ColumnPolicy> set = new ArrayList<>();
          for (int i = 0; i < e; i++) {
            if ((mask & (1 << (e - 1 - i))) != 0) {
              set.addAll(elements.get(i));
            }
          }
          out.add(set);
        }
      }
    }
    return out;
  }

  private static List<ColumnPolicy> columnList(SqlNode o, TablePolicy table) throws SQLException {
    List<SqlNode> items;
    if (o instanceof SqlNodeList list) {
      items = list.getList();
    } else if (o.getKind() == SqlKind.ROW) {
      items = ((SqlCall) o).getOperandList();
    } else {
      items = List.of(o);
    }
    List<ColumnPolicy> cols = new ArrayList<>();
    for (SqlNode i : items) {
      ColumnPolicy c = groupColumn(i, table);
      if (!cols.contains(c)) {
        cols.add(c);
      }
    }
    return cols;
  }

  private TablePolicy singlePrivateTable(SqlSelect select, Tables tables) throws SQLException {
    SqlNode from = select.getFrom();
    if (from != null && from.getKind() == SqlKind.AS) {
      from = ((SqlCall) from).operand(0);
    }
    Optional<TablePolicy> table = from instanceof SqlIdentifier id
        ? policy.table(id.names.get(id.names.size() - 1)) : Optional.empty();
    if (table.isEmpty() || table.get().isPublic() || tables.privateTables.isEmpty()) {
      throw SqlStates.notSupported("a query over a private table must read that table directly "
          + "(FROM table [alias]) or join it with public lookup tables (JOIN ... ON private.col = "
          + "public.col); subqueries over private tables are not supported");
    }
    return table.get();
  }

  /** The DP hint of one SELECT ({@link DpHint#NONE} when it has none). */
  public static DpHint readHint(SqlSelect select) throws SQLException {
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
    QuantileCall.Parsed quantile = QuantileCall.parse(call);
    if (quantile != null) {
      ColumnPolicy c = policyColumn(table, quantile.column(), quantile.function());
      org.dpsql.rewrite.QuantileGrid.of(c, quantile.function()); // XDP02/03 without a range
      return new OutputItem(label(alias, quantile.function() + "_" + c.name(), labels), c,
          AggregateKind.QUANTILE, quantile.fraction());
    }
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
      if (kind == SqlKind.COUNT && call.operandCount() == 1
          && call.operand(0) instanceof SqlIdentifier u && !u.isStar() && !table.unitIsRow()
          && u.names.get(u.names.size() - 1).equalsIgnoreCase(table.privacyUnit())) {
        return new OutputItem(label(alias, "COUNT_DISTINCT_" + table.privacyUnit(), labels), null,
            AggregateKind.COUNT_DISTINCT_UNIT);
      }
      if (kind == SqlKind.COUNT && call.operandCount() == 1
          && call.operand(0) instanceof SqlIdentifier col && !col.isStar()) {
        ColumnPolicy c = policyColumn(table, col, "COUNT(DISTINCT ...)");
        return new OutputItem(label(alias, "COUNT_DISTINCT_" + c.name(), labels), c,
            AggregateKind.COUNT_DISTINCT);
      }
      throw SqlStates.notSupported(kind + "(DISTINCT ...) is answered privately only as COUNT("
          + "DISTINCT <policy column>): the number of distinct values, or of protected "
          + "individuals for the privacy unit " + (table.unitIsRow() ? "" : table.privacyUnit())
          + "; drop DISTINCT otherwise");
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



}
