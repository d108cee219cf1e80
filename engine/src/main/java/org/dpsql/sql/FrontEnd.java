package org.dpsql.sql;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.dialect.AnsiSqlDialect;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.dpsql.backend.BackendCatalog;
import org.dpsql.errors.SqlStates;
import org.dpsql.policy.Policy;
import org.dpsql.policy.TablePolicy;

/**
 * The SQL front end: the one path every statement takes. A statement is parsed once (Babel,
 * lenient); by the tables it reads it is refused (writes, DDL), answered from the system catalog,
 * passed through to the backend (public tables only, written back in the backend's dialect), a
 * {@code DPSQL.*} table function ({@link SystemFunctions}), or planned privately: validated and
 * converted to relational algebra once ({@link org.dpsql.sql.relational.RelationalPlanner}),
 * split at its private aggregates ({@link org.dpsql.sql.relational.PrivacyAnalysis}), each
 * aggregate checked against the policy once ({@link ReleaseAnalysis}), and answered by its one
 * release ({@link SingleRelease}) or by post-processing over its releases ({@link
 * AnalyzedStatement.Composite}).
 *
 * <p>Guarantees: a statement that touches a private table comes out as a release specification
 * whose every referenced column is a policy column, or as an exception (XDP02 for what the policy
 * forbids, XDP03 for shapes dpsql cannot answer privately, XDP05 for bad privacy parameters,
 * 42xxx for ordinary SQL errors). Nothing has been charged or executed at that point.
 */
public final class FrontEnd {

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
  private final ReleaseAnalysis releases;
  private final SystemFunctions systemFunctions;

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
  public FrontEnd(Policy policy, BackendCatalog catalog, String defaultSchema,
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
  public FrontEnd(Policy policy, BackendCatalog catalog, String defaultSchema,
      SqlDialect backendDialect, PublicRowReader publicRows) {
    this.releases = new ReleaseAnalysis(policy, catalog, backendDialect, publicRows);
    this.systemFunctions = new SystemFunctions(policy, this::analyze);
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

  /**
   * Parses, validates and checks one statement. A statement nested too deeply for the analysis's
   * tree walks (a {@code UNION ALL} of about a thousand branches) is refused with XDP03, not
   * with the stack overflow it causes.
   */
  public AnalyzedStatement analyze(String sql) throws SQLException {
    try {
      return analyzeStatement(sql);
    } catch (StackOverflowError e) {
      throw SqlStates.notSupported("this statement is nested too deeply for dpsql's analysis "
          + "(e.g. a UNION ALL of about a thousand branches): split it into several statements, "
          + "or ask a family of range counts as one DPSQL.WORKLOAD");
    }
  }

  private AnalyzedStatement analyzeStatement(String sql) throws SQLException {
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
        StatementTables t = StatementTables.of(inner, policy);
        if (t.privateTables.isEmpty()) {
          throw SqlStates.notSupported(
              "EXPLAIN PLAN FOR is for queries over private tables; run queries on public tables directly");
        }
        StatementTemplate template = StatementTemplate.of(sql);
        List<AnalyzedStatement.ColumnInfo> plan = List.of(new AnalyzedStatement.ColumnInfo(
            "PLAN", java.sql.Types.VARCHAR, "VARCHAR"));
        if (template.bindsAtExecute()) {
          // parameters and the clock are bound at execute; EXPLAIN then shows the bound values
          AnalyzedStatement.Deferred bound = null;
          try {
            bound = boundAtExecute(sql, inner, normalized, plan, p -> explained(p, normalized));
          } catch (SQLException e) {
            if (e.getMessage() == null || !e.getMessage().startsWith("SQL validation error")) {
              throw e;
            }
          }
          if (bound != null) {
            return bound;
          }
          // a parameter validation cannot type: bound as text at execute
          SqlNode explicandum = ((SqlExplain) parse(template.withNulls(java.time.Instant.now())))
              .getExplicandum();
          return new AnalyzedStatement.Deferred(template,
              parameterInfos(relationalPlanner.describe(explicandum).parameterTypes()), plan,
              normalized);
        }
        AnalyzedStatement planned = planned(sql, inner, normalized, t.namesPrivateTable);
        if (planned instanceof AnalyzedStatement.PassThrough) {
          throw SqlStates.notSupported("EXPLAIN PLAN FOR is for queries over private tables; "
              + "this one reads public tables only: run it directly");
        }
        return explained(planned, normalized);
      }
      default -> { }
    }
    if (!node.isA(SqlKind.QUERY)) {
      throw SqlStates.notSupported("dpsql answers queries only; " + node.getKind() + " is not supported");
    }
    AnalyzedStatement function = systemFunctions.of(node, normalized);
    if (function != null) {
      return function;
    }
    StatementTables t = StatementTables.of(node, policy);
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
      return passThrough(node, normalized);
    }
    StatementTemplate template = StatementTemplate.of(sql);
    if (template.bindsAtExecute()) {
      return deferred(sql, template, node, normalized, t);
    }
    return planned(sql, node, normalized, t.namesPrivateTable);
  }

  /**
   * EXPLAIN of an analysed private statement ({@code normalized}: the EXPLAIN statement's text):
   * describes it, spends nothing.
   */
  private static AnalyzedStatement explained(AnalyzedStatement planned, String normalized) {
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

  /**
   * The private statement {@code node} planned once now, its values and clock bound into the plan
   * at execute ({@link AnalyzedStatement.Binder}) and the bound analysis passed through {@code
   * then}; null when validation could not type a parameter (bound as text instead).
   */
  private AnalyzedStatement.Deferred boundAtExecute(String sql, SqlNode node, String normalized,
      List<AnalyzedStatement.ColumnInfo> columns,
      java.util.function.UnaryOperator<AnalyzedStatement> then) throws SQLException {
    planned.incrementAndGet();
    DpHint hint = statementHint(node);
    org.dpsql.sql.relational.RelationalPlanner.Planned plan = relationalPlanner.plan(node);
    return boundAtExecute(sql, plan, hint, node, normalized, columns, then);
  }

  private AnalyzedStatement.Deferred boundAtExecute(String sql,
      org.dpsql.sql.relational.RelationalPlanner.Planned plan, DpHint hint, SqlNode node,
      String normalized, List<AnalyzedStatement.ColumnInfo> columns,
      java.util.function.UnaryOperator<AnalyzedStatement> then) {
    List<AnalyzedStatement.ParameterInfo> parameters = parameterInfos(plan.parameterTypes());
    if (parameters.stream().anyMatch(p -> p.jdbcType() == java.sql.Types.OTHER)) {
      return null;
    }
    boolean clock = plan.readsClock();
    AnalyzedStatement.Binder binder = new AnalyzedStatement.Binder() {
      @Override
      public AnalyzedStatement bind(List<Object> values, java.time.Instant now)
          throws SQLException {
        return then.apply(fromPlan(plan.bound(values, now), hint, node, normalized));
      }

      @Override
      public List<String> clock(java.time.Instant now) {
        return clock ? plan.clockValues(now) : List.of();
      }
    };
    return new AnalyzedStatement.Deferred(StatementTemplate.of(sql), parameters, columns,
        normalized, binder);
  }

  /**
   * A private statement with parameters or clock calls. It is planned once now ({@link
   * #planned}): its values bound where they stand at each execution, or into its plan when they
   * decide what is released. Only a statement whose parameters validation cannot type (or one the
   * plan does not hold every parameter of) is described by validation here and bound as text at
   * execute (its values written as literals of their own types, the statement planned once per
   * distinct values).
   */
  private AnalyzedStatement deferred(String sql, StatementTemplate template, SqlNode node,
      String normalized, StatementTables t) throws SQLException {
    try {
      AnalyzedStatement probe = planned(sql, node, normalized, t.namesPrivateTable);
      if (probe instanceof AnalyzedStatement.PassThrough
          || probe instanceof AnalyzedStatement.Deferred) {
        return probe; // public after all, or its values bound into its plan at execute
      }
      List<AnalyzedStatement.ParameterInfo> params =
          probe instanceof AnalyzedStatement.PrivateAggregate p ? p.parameters()
              : probe instanceof AnalyzedStatement.PrivateWorkload w ? w.parameters()
              : probe instanceof AnalyzedStatement.Composite c ? c.parameters() : null;
      if (params != null && params.size() == template.parameterCount()) {
        return probe; // planned once: its values bound where they stand at each execution
      }
    } catch (NeedsBinding | org.dpsql.sql.relational.CoreAggregate.NeedsValues e) {
      // a parameter validation could not type: described below, bound as text
    } catch (SQLException e) {
      if (e.getMessage() == null || !e.getMessage().startsWith("SQL validation error")) {
        throw e;
      }
      // a parameter Calcite cannot type where it stands: described below with NULL in its
      // place, bound as text
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
    List<String> labels = ResultLabels.labels(parsedDescribed, d.rowType().getFieldNames());
    boolean[] counts = ResultLabels.counts(parsedDescribed, labels.size());
    List<AnalyzedStatement.ColumnInfo> columns = new ArrayList<>();
    for (int i = 0; i < labels.size(); i++) {
      RelDataType type = d.rowType().getFieldList().get(i).getType();
      columns.add(new AnalyzedStatement.ColumnInfo(labels.get(i),
          type.getSqlTypeName().getJdbcOrdinal(), type.getSqlTypeName().getName(), counts[i]));
    }
    return new AnalyzedStatement.Deferred(template, parameters, columns, normalized);
  }

  /**
   * A statement over public tables only, written back in the backend's dialect: the backend runs
   * exactly what was checked, backend-specific functions refused ({@link #checkStandardFunctions}).
   */
  private AnalyzedStatement passThrough(SqlNode node, String normalized) throws SQLException {
    checkStandardFunctions(node);
    return new AnalyzedStatement.PassThrough(node.toSqlString(backendDialect).getSql(), normalized);
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
   * aggregate's canonical statement checked against the policy once ({@link ReleaseAnalysis}). A
   * statement that only picks, names and orders the columns of its one release is that release
   * ({@link SingleRelease}); any other is a {@link AnalyzedStatement.Composite} whose
   * post-processing runs over the released rows. Dynamic parameters are kept where they stand (a
   * release's filter, its limit, the post-processing, a public input); a statement with a
   * parameter or a clock call that decides what is released (a time bound, a CASE, an aggregated
   * expression) is a {@link AnalyzedStatement.Deferred} whose values are bound into this plan at
   * execute.
   *
   * <p>Which tables a statement reads: the tables {@link StatementTables} finds in the parse tree
   * are an over-approximation that sends every statement that may read a private table here. One
   * that names a private table where only a table can stand is private whatever its plan
   * simplifies away (the backend runs the statement as written); one that only maybe reads one
   * (an identifier below a table operator) and whose plan reads none is public and passed
   * through.
   */
  private AnalyzedStatement planned(String sql, SqlNode node, String normalized,
      boolean namesPrivateTable) throws SQLException {
    planned.incrementAndGet();
    DpHint hint = statementHint(node);
    org.dpsql.sql.relational.RelationalPlanner.Planned plan = relationalPlanner.plan(node);
    if (!namesPrivateTable && !privacyAnalysis.readsPrivateTable(plan.rel())) {
      // a statement that only maybe reads a private table (an identifier below a table
      // operator) and whose plan reads none: public, as written (validation rewrote the tree)
      SqlNode written = parse(sql);
      if (written instanceof SqlExplain x) {
        written = x.getExplicandum();
      }
      return passThrough(written, normalized);
    }
    try {
      if (!plan.readsClock()) {
        return fromPlan(plan, hint, node, normalized);
      }
    } catch (NeedsBinding | org.dpsql.sql.relational.CoreAggregate.NeedsValues e) {
      if (plan.parameterTypes().isEmpty()) {
        throw e;
      }
    }
    // a parameter or the clock decides what is released: bound into this plan at execute
    RelDataType rowType = plan.rel().getRowType();
    List<String> labels = ResultLabels.labels(node, rowType.getFieldNames());
    boolean[] counts = ResultLabels.counts(node, labels.size());
    List<AnalyzedStatement.ColumnInfo> columns = new ArrayList<>();
    for (int i = 0; i < labels.size(); i++) {
      RelDataType type = rowType.getFieldList().get(i).getType();
      columns.add(new AnalyzedStatement.ColumnInfo(labels.get(i),
          type.getSqlTypeName().getJdbcOrdinal(), type.getSqlTypeName().getName(), counts[i]));
    }
    AnalyzedStatement.Deferred bound = boundAtExecute(sql, plan, hint, node, normalized,
        columns, java.util.function.UnaryOperator.identity());
    if (bound == null) {
      throw new NeedsBinding(); // a parameter validation could not type: bound as text
    }
    return bound;
  }

  /**
   * The statement of {@code plan} split at its private aggregates and analysed; a lookup join the
   * lookup analysis refuses is answered from the same plan normalised with the join split.
   */
  private AnalyzedStatement fromPlan(org.dpsql.sql.relational.RelationalPlanner.Planned plan,
      DpHint hint, SqlNode node, String normalized) throws SQLException {
    try {
      return released(plan.rel(), plan, hint, node, normalized);
    } catch (ReleaseAnalysis.LookupJoinRefusal e) {
      // the public table cannot be read as a function of the join key (a key that is not
      // unique, a public column aggregated, a table joined twice): the join is applied to the
      // released rows of the private table grouped by the key instead, if that reads it (the
      // statement converted once, normalised that other way)
      try {
        return released(plan.splittingLookupJoins().get(), plan, hint, node, normalized);
      } catch (SQLException other) {
        throw e.refusal(); // the reason the lookup was refused says best what to change
      }
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

  /** The statement planned as {@code rel}: split at its private aggregates, each analysed. */
  private AnalyzedStatement released(org.apache.calcite.rel.RelNode rel,
      org.dpsql.sql.relational.RelationalPlanner.Planned planned, DpHint hint, SqlNode node,
      String normalized) throws SQLException {
    org.dpsql.sql.relational.ReleasePlan split = privacyAnalysis.split(rel);
    // the statement's budget (its hint, or the policy's default_query) split equally among its
    // private aggregates, so that a statement costs the same whatever their number
    DpHint share = hint.share(split.chargedReleases(), policy.budget().defaultQuery());
    split = split.withHint(share.sqlText()).withLabels(ResultLabels.labels(node,
        split.rowType().getFieldNames()), rel.getCluster().getTypeFactory());
    List<AnalyzedStatement.ParameterInfo> parameters = parameterInfos(planned.parameterTypes());
    List<AnalyzedStatement> parts = new ArrayList<>();
    for (org.dpsql.sql.relational.ReleasePlan.Release r : split.releases()) {
      parts.add(withParameters(releases.analyze(r, share), r.parameters(), parameters));
    }
    AnalyzedStatement single = parts.size() == 1
        ? SingleRelease.of(split, parts.get(0), parameters, normalized)
        : SingleRelease.union(split, parts, hint, parameters, normalized);
    if (single != null) {
      return single;
    }
    split = org.dpsql.sql.relational.PrivacyAnalysis.postProcessed(split);
    if (!bindsEveryParameter(split, parameters.size())) {
      throw new NeedsBinding();
    }
    return new AnalyzedStatement.Composite(split, parts, normalized, parameters);
  }

  /**
   * A release's analysis with its own parameters ({@code own}: the statement's parameter each one
   * stands for) typed as the statement's are.
   */
  private static AnalyzedStatement withParameters(AnalyzedStatement part, List<Integer> own,
      List<AnalyzedStatement.ParameterInfo> statement) {
    if (own.isEmpty()) {
      return part;
    }
    List<AnalyzedStatement.ParameterInfo> types = new ArrayList<>();
    own.forEach(i -> types.add(statement.get(i)));
    if (part instanceof AnalyzedStatement.PrivateAggregate p) {
      return new AnalyzedStatement.PrivateAggregate(p.query(), p.normalizedSql(), types);
    }
    AnalyzedStatement.PrivateWorkload w = (AnalyzedStatement.PrivateWorkload) part;
    return new AnalyzedStatement.PrivateWorkload(w.query(), w.normalizedSql(), types);
  }

  /**
   * Whether every parameter of the statement stands where a composite statement binds it: in a
   * release's filter, the post-processing statement or a public input (a parameter the plan lost
   * would otherwise be silently ignored).
   */
  private static boolean bindsEveryParameter(org.dpsql.sql.relational.ReleasePlan split,
      int count) {
    java.util.BitSet bound = new java.util.BitSet();
    split.releases().forEach(r -> r.parameters().forEach(bound::set));
    split.postParameters().forEach(bound::set);
    split.publicInputs().forEach(p -> p.parameters().forEach(bound::set));
    return bound.cardinality() == count;
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
      DpHint h = DpHint.read(s);
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

  private SqlNode parse(String sql) throws SQLException {
    sql = SystemFunctions.quoteExplainFunction(sql);
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
    // NOW() as the CURRENT_TIMESTAMP it is in H2, PostgreSQL and Trino (the validator knows it)
    return FilterClauses.rewrite(ConstantFolding.fold(QuantileCall.rewrite(nowCalls(parsed))));
  }

  /** {@code node} with every {@code NOW()} written as {@code CURRENT_TIMESTAMP}. */
  private static SqlNode nowCalls(SqlNode node) {
    SqlNode out = node.accept(new org.apache.calcite.sql.util.SqlShuttle() {
      @Override
      public SqlNode visit(SqlCall call) {
        if (call.operandCount() == 0 && call.getOperator().getName().equalsIgnoreCase("NOW")
            && call.getOperator() instanceof org.apache.calcite.sql.SqlUnresolvedFunction) {
          return org.apache.calcite.sql.fun.SqlStdOperatorTable.CURRENT_TIMESTAMP.createCall(
              call.getParserPosition());
        }
        return super.visit(call);
      }
    });
    return out == null ? node : out;
  }
}
