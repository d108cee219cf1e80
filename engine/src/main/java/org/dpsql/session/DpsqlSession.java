package org.dpsql.session;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.calcite.sql.SqlDialect;
import org.dpsql.accounting.Accountant;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.BudgetExceededException;
import org.dpsql.accounting.ChargeMeter;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.backend.BackendCatalog;
import org.dpsql.backend.BackendDialects;
import org.dpsql.backend.UniqueUnits;
import org.dpsql.backend.ExactMeasurer;
import org.dpsql.backend.MeasurementSql;
import org.dpsql.errors.SqlStates;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.mechanism.SecureRandomBits;
import org.dpsql.mechanism.SeededRandomBits;
import org.dpsql.policy.BudgetAmount;
import org.dpsql.policy.Policy;
import org.dpsql.policy.PolicyLoader;
import org.dpsql.release.DomainListing;
import org.dpsql.release.MixedRelease;
import org.dpsql.release.NoiseMechanism;
import org.dpsql.release.NoisePlan;
import org.dpsql.release.PartitionRelease;
import org.dpsql.release.PartitionSelection;
import org.dpsql.release.PrivateAnswer;
import org.dpsql.release.QuantileRelease;
import org.dpsql.release.ResultColumn;
import org.dpsql.release.ResultTable;
import org.dpsql.rewrite.MeasurementPlan;
import org.dpsql.rewrite.ReleasedCells;
import org.dpsql.release.WorkloadAnswer;
import org.dpsql.rewrite.FamilyWorkload;
import org.dpsql.rewrite.WorkloadPlan;
import org.dpsql.rewrite.SpatialRange;
import org.dpsql.sql.AggregateQuery;
import org.dpsql.sql.Mechanism;
import org.dpsql.sql.WorkloadQuery;
import org.dpsql.sql.AnalyzedStatement;
import org.dpsql.sql.FrontEnd;
import org.dpsql.sql.relational.ReleasePlan;

/**
 * One dpsql connection: the backend connection, the data owner's policy, the connection's budget
 * (its {@link Accountant}) and its released answers. Every statement of the connection enters here.
 *
 * <p>Guarantees: a private query is analysed and calibrated before anything runs (refusals charge
 * nothing); the exact aggregation runs in the backend; the cost is charged atomically after the
 * backend succeeded and before any noise is drawn (a backend failure charges nothing); an identical
 * statement with identical parameters returns the released answer again at no cost, so repeating
 * a query never averages its noise away. The data owner's {@code limits} hold for every statement:
 * each backend statement is cancelled after {@code statement_timeout_s} ({@code HYT00}, nothing
 * charged) and a private query over more than {@code max_cells} cells is refused at prepare
 * ({@code XDP03}).
 */
public final class DpsqlSession implements SessionView, AutoCloseable {
  /** Connection property: the policy file path or {@code classpath:NAME}. */
  public static final String POLICY = "policy";
  /** Connection property: fixes the noise (only if the policy allows it). */
  public static final String SEED = "seed";

  private final Connection backend;
  private final Policy policy;
  private final BackendCatalog catalog;
  private final FrontEnd analyzer;
  private final Accountant accountant;
  private final BigDecimal reportingDelta;
  private final RandomBits random;
  private final ExactMeasurer measurer;
  private final WorkloadExecutor workloads;
  private final SpatialExecutor spatial;
  private final AdaptiveExecutor adaptive;
  private final SystemCatalog systemCatalog = new SystemCatalog();
  private final PostProcessor postProcessor = new PostProcessor();
  private final Releases releases;
  /**
   * The clock that {@code CURRENT_DATE}, {@code CURRENT_TIMESTAMP}, {@code NOW()} and {@code
   * LOCALTIMESTAMP} read, in UTC, once per execution: public input.
   */
  private volatile java.time.Clock clock = java.time.Clock.systemUTC();
  /**
   * Statements with their values bound ({@link AnalyzedStatement.Deferred}), prepared, by bound
   * text: executing a prepared statement again with the same values (or the same clock reading)
   * does not analyse it again. At most {@link #BOUND_CACHE} entries, least recently used first
   * out.
   */
  private final Map<String, PreparedQuery> boundStatements = java.util.Collections.synchronizedMap(
      new java.util.LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PreparedQuery> eldest) {
          return size() > BOUND_CACHE;
        }
      });
  private static final int BOUND_CACHE = 128;

  private DpsqlSession(Connection backend, Policy policy, BackendCatalog catalog,
      FrontEnd analyzer, Accountant accountant, BigDecimal reportingDelta, RandomBits random,
      SqlDialect dialect, Releases releases) {
    this.backend = backend;
    this.policy = policy;
    this.catalog = catalog;
    this.analyzer = analyzer;
    this.accountant = accountant;
    this.reportingDelta = reportingDelta;
    this.random = random;
    this.measurer = new ExactMeasurer(backend, dialect, policy.limits().measurementChoice(),
        policy.limits().streamingMaxRowsOrDefault(), boundingRandom(random));
    // unit IN (SELECT unit FROM t ...) is the join on the unit when t has one row per unit
    analyzer.oneRowPerUnit(measurer::oneRowPerUnit);
    this.releases = releases;
    this.workloads = new WorkloadExecutor(policy, accountant, reportingDelta, random, measurer,
        releases);
    this.spatial = new SpatialExecutor(policy, accountant, reportingDelta, random, measurer,
        releases);
    this.adaptive = new AdaptiveExecutor(policy, accountant, random, backend, dialect);
  }

  /**
   * Opens a session on {@code backendUrl} (a JDBC URL, e.g. {@code jdbc:h2:mem:demo}). Properties:
   * {@code policy} (required), {@code seed}, and everything else (user, password, ...) for the
   * backend.
   */
  public static DpsqlSession open(String backendUrl, Properties info) throws SQLException {
    return open(backendUrl, info, AccountantSource.PER_CONNECTION, ReleaseSource.PER_CONNECTION);
  }

  /**
   * As {@link #open(String, Properties)}, with the accountant taken from {@code accountants} and
   * the already released answers and synopses from {@code releases} (a server's per-analyst
   * budgets and releases, for instance) instead of fresh per-connection ones. The two must belong
   * to the same budget holder.
   */
  public static DpsqlSession open(String backendUrl, Properties info, AccountantSource accountants,
      ReleaseSource releases) throws SQLException {
    String policySource = info.getProperty(POLICY);
    if (policySource == null || policySource.isBlank()) {
      throw SqlStates.policyError("no policy: set the connection property 'policy' to the data "
          + "owner's policy file (a path or classpath:NAME)");
    }
    Properties backendProps = new Properties();
    for (String key : info.stringPropertyNames()) {
      if (!key.equals(POLICY) && !key.equals(SEED)) {
        backendProps.setProperty(key, info.getProperty(key));
      }
    }
    Connection backend = DriverManager.getConnection(backendUrl, backendProps);
    try {
      backend.setReadOnly(true);
    } catch (SQLException ignored) {
      // advisory only: dpsql refuses writes itself
    }
    try {
      Policy policy = PolicyLoader.load(policySource, backend);
      RandomBits random = randomSource(policy, info.getProperty(SEED));
      Integer timeout = policy.limits().statementTimeoutSeconds();
      // from here on every backend statement carries the owner's timeout
      Connection limited = timeout == null ? backend : StatementTimeout.wrap(backend, timeout);
      BackendCatalog catalog = BackendCatalog.read(limited, policy);
      SqlDialect dialect = BackendDialects.of(backend.getMetaData());
      refuseUnsupportedBounding(policy, dialect, backend);
      ExactMeasurer.checkChoice(policy.limits().measurementChoice(), dialect,
          backend.getMetaData().getDatabaseProductName());
      FrontEnd analyzer = new FrontEnd(policy, catalog, backend.getSchema(), dialect,
          sql -> runOn(limited, sql, List.of()).rows());
      Accounting accounting = Accounting.parse(policy.budget().accounting());
      BudgetAmount total = policy.budget().perConnection();
      PrivacyCost budget = switch (accounting) {
        case PURE -> PrivacyCost.pure(total.epsilon());
        case APPROX -> PrivacyCost.approx(total.epsilon(), total.delta());
        // half the reporting δ may be spent by approximately zCDP releases (partition
        // selection), so that ε is always reported at a δ of at least the other half
        case ZCDP -> new PrivacyCost(BigDecimal.ZERO, total.delta() == null ? BigDecimal.ZERO
            : total.delta().divide(BigDecimal.valueOf(2)), total.rho());
      };
      BigDecimal reportingDelta = accounting == Accounting.ZCDP ? total.delta() : null;
      // metered: a release knows whether it was paid for (only those are kept, see releaseOnce)
      Accountant accountant = ChargeMeter.metered(
          accountants.open(policy, info, accounting, budget, reportingDelta));
      DpsqlSession session = new DpsqlSession(limited, policy, catalog, analyzer, accountant,
          reportingDelta, random, dialect, releases.open(policy, info));
      session.workloads.publish(
          PublishedSynopses.load(policy, analyzer, session.measurer, reportingDelta));
      return session;
    } catch (SQLException | RuntimeException e) {
      backend.close();
      throw e;
    }
  }

  /**
   * Refuses (XDP04, when the connection opens) a policy whose {@code bounding: snapshot} the
   * backend cannot honour: Trino has no temporary tables. A table whose unit the backend declares
   * unique needs no snapshot and passes.
   */
  private static void refuseUnsupportedBounding(Policy policy, SqlDialect dialect,
      Connection backend) throws SQLException {
    if (BackendDialects.supportsTemporaryTables(dialect)) {
      return;
    }
    UniqueUnits unique = new UniqueUnits(backend);
    for (org.dpsql.policy.TablePolicy t : policy.tables().values()) {
      if (!t.isPublic() && !t.unitIsRow()
          && t.bounding() == org.dpsql.policy.Bounding.SNAPSHOT && !unique.oneRowPerUnit(t)) {
        throw SqlStates.policyError("policy " + policy.source() + ": tables." + t.name()
            + ".bounding: snapshot needs a temporary table per connection, which this backend ("
            + backend.getMetaData().getDatabaseProductName() + ") does not have; use bounding: "
            + "per_query (the default), which bounds inside each query");
      }
    }
  }

  /**
   * The randomness that chooses each unit's rows when they are bounded in the JVM: a stream of
   * its own, so that bounding never shifts the noise's draws; seeded (from the noise's seed) when
   * the noise is.
   */
  private static RandomBits boundingRandom(RandomBits noise) {
    if (noise instanceof org.dpsql.mechanism.SeededRandomBits s) {
      return new org.dpsql.mechanism.SeededRandomBits(s.seed() ^ 0x626f756e64696e67L);
    }
    return new org.dpsql.mechanism.SecureRandomBits();
  }

  private static RandomBits randomSource(Policy policy, String seed) throws SQLException {
    if (seed == null || seed.isBlank()) {
      return new SecureRandomBits();
    }
    if (!policy.allowSeed()) {
      throw SqlStates.badPrivacyParameter("the 'seed' connection property fixes the noise and is "
          + "refused by this policy (allow_seed is false); remove it");
    }
    try {
      return new SeededRandomBits(Long.parseLong(seed.trim()));
    } catch (NumberFormatException e) {
      throw SqlStates.badPrivacyParameter("seed must be an integer, got '" + seed + "'");
    }
  }

  @Override
  public Policy policy() {
    return policy;
  }

  @Override
  public Accountant accountant() {
    return accountant;
  }

  @Override
  public BigDecimal reportingDelta() {
    return reportingDelta;
  }

  public BackendCatalog catalog() {
    return catalog;
  }

  public Connection backend() {
    return backend;
  }

  /** The system tables installed (through {@link java.util.ServiceLoader}). */
  public List<SystemTable> systemTables() {
    return systemCatalog.tables();
  }

  /**
   * Analyses a statement and describes its result and parameters; runs and charges nothing. A
   * private query whose data vector has more cells than the policy's {@code limits.max_cells} is
   * refused (XDP03).
   */
  public PreparedQuery prepare(String sql) throws SQLException {
    try {
      return prepareWithinLimits(sql);
    } catch (SQLException e) {
      throw StatementTimeout.translate(e, policy.limits().statementTimeoutSeconds());
    }
  }

  private PreparedQuery prepareWithinLimits(String sql) throws SQLException {
    return prepareAnalyzed(sql, analyzer.analyze(sql));
  }

  /** The front end of this session (its analysis of statements). */
  public FrontEnd analyzer() {
    return analyzer;
  }

  /**
   * Sets the clock that relative dates ({@code CURRENT_DATE}, {@code NOW()}, ...) read: for tests
   * and for servers that pin the time of a request. Read in UTC.
   */
  public void setClock(java.time.Clock clock) {
    this.clock = java.util.Objects.requireNonNull(clock, "clock");
  }

  private PreparedQuery prepareAnalyzed(String sql, AnalyzedStatement st) throws SQLException {
    AnalyzedStatement.Released answeredBy = releasedBy(st);
    if (answeredBy != null) {
      // answered by the release of its private aggregate, shown as the statement asks
      PreparedQuery release = prepareAnalyzed(sql, answeredBy.release());
      return new PreparedQuery(sql, st, presentation(st, release, null).columns(),
          st instanceof AnalyzedStatement.PrivateAggregate p ? p.parameters()
              : ((AnalyzedStatement.PrivateWorkload) st).parameters(),
          null, null, List.of(release));
    }
    if (st instanceof AnalyzedStatement.Deferred d) {
      List<ResultColumn> columns = new ArrayList<>();
      for (AnalyzedStatement.ColumnInfo c : d.columns()) {
        columns.add(describedColumn(c));
      }
      return new PreparedQuery(sql, st, columns, d.parameters());
    }
    if (st instanceof AnalyzedStatement.Composite c) {
      List<PreparedQuery> parts = prepareReleases(c);
      List<List<ResultColumn>> released = new ArrayList<>();
      for (PreparedQuery part : parts) {
        released.add(part.columns());
      }
      return new PreparedQuery(sql, st, postProcessor.describe(c.plan(), released),
          c.parameters(), null, null, parts);
    }
    if (st instanceof AnalyzedStatement.ExplainComposite) {
      return new PreparedQuery(sql, st, List.of(ResultColumn.varchar("PLAN", false)), List.of());
    }
    if (st instanceof AnalyzedStatement.PrivateWorkload w) {
      checkBudgetParameters(w.query().hint()); // bad privacy parameters are refused at prepare
      checkCells(WorkloadPlan.cellCount(w.query()), "this workload");
      // InfTDA releases integral counts (a roll-up over a hierarchy): BIGINT; least-squares
      // estimates of the matrix mechanism stay DOUBLE
      List<ResultColumn> columns = !w.query().listsDomain()
          && workloads.topDownShape(w.query()) != null
          ? WorkloadAnswer.integralCounts(w.query()) : WorkloadAnswer.columns(w.query());
      return new PreparedQuery(sql, st, columns, w.parameters());
    }
    if (st instanceof AnalyzedStatement.NamedWorkload w) {
      checkBudgetParameters(w.query().hint());
      // refuses too large families before anything runs
      checkCells(FamilyWorkload.of(w.query()).cells().size(), "this workload family");
      return new PreparedQuery(sql, st, WorkloadExecutor.familyColumns(w.query().hint()),
          List.of());
    }
    if (st instanceof AnalyzedStatement.AdaptiveTable a) {
      adaptive.cost(a); // refuses (XDP05) an accounting that cannot express the mechanism
      return new PreparedQuery(sql, st, AdaptiveExecutor.COLUMNS, List.of());
    }
    if (st instanceof AnalyzedStatement.ExplainFunction) {
      return new PreparedQuery(sql, st, ExplainTable.COLUMNS, List.of());
    }
    if (st instanceof AnalyzedStatement.ExplainWorkload) {
      return new PreparedQuery(sql, st, List.of(ResultColumn.varchar("PLAN", false)), List.of());
    }
    if (st instanceof AnalyzedStatement.PrivateAggregate p && p.query().listsDomain()) {
      // SELECT DISTINCT / GROUP BY of declared domains, no aggregate: the domain, free
      MeasurementPlan plan = MeasurementPlan.of(p.query());
      checkCells(plan.cells().size(), "this query's GROUP BY");
      return new PreparedQuery(sql, st, PrivateAnswer.columns(plan), p.parameters(), plan, null);
    }
    if (st instanceof AnalyzedStatement.PrivateAggregate p
        && PartitionRelease.asks(p.query())) {
      if (QuantileRelease.asks(p.query())) {
        throw SqlStates.notSupported("quantiles (PERCENTILE_CONT, MEDIAN, MIN, MAX) are not yet "
            + "answered per group of a column declared keys: private; group by columns with "
            + "declared values, or ask for COUNT/SUM/AVG");
      }
      MeasurementPlan plan = MeasurementPlan.of(p.query());
      partitions(plan); // refuses bad privacy parameters at prepare
      return new PreparedQuery(sql, st, PrivateAnswer.columns(plan), p.parameters(), plan, null);
    }
    if (st instanceof AnalyzedStatement.PrivateAggregate p
        && QuantileRelease.asks(p.query())) {
      MeasurementPlan plan = MeasurementPlan.of(p.query());
      QuantileRelease quantiles = MixedRelease.asks(p.query()) ? mixed(plan).quantiles()
          : quantiles(plan); // refuses bad privacy parameters at prepare
      long points = 0;
      for (org.dpsql.policy.ColumnPolicy c : quantiles.columns()) {
        points += quantiles.grid(c).size();
      }
      checkCells(plan.cells().size() * points, "this query's GROUP BY times its quantiles' grids");
      return new PreparedQuery(sql, st, PrivateAnswer.columns(plan), p.parameters(), plan, null);
    }
    if (st instanceof AnalyzedStatement.PrivateAggregate p) {
      MeasurementPlan plan = MeasurementPlan.of(p.query());
      NoisePlan noise = null; // none for TopDown and HTF, released at execution
      WorkloadQuery tree = topDown(p.query());
      SpatialRange rectangle = tree == null ? htf(p.query()) : null;
      if (tree != null) {
        // GROUP BY one level of a hierarchy with mechanism 'topdown'/'inftda': one tree release
        TopDownShape shape = workloads.topDownShape(tree); // refuses what InfTDA cannot answer
        checkCells(cellsOf(shape.leafColumns()), "the tree's leaves");
      } else if (rectangle != null) {
        // a rectangle count over a spatial index: the data vector is the index's grid
        checkCells(cellsOf(List.of(rectangle.x(), rectangle.y())), "the spatial index's grid");
        spatial.parameters(rectangle, p.query().hint());
      } else {
        checkCells(plan.cells().size(), "this query's GROUP BY");
        noise = calibrate(plan); // refuses bad privacy parameters at prepare time
      }
      return new PreparedQuery(sql, st, PrivateAnswer.columns(plan), p.parameters(), plan, noise);
    }
    if (st instanceof AnalyzedStatement.Explain) {
      return new PreparedQuery(sql, st, List.of(ResultColumn.varchar("PLAN", false)), List.of());
    }
    Connection target = st instanceof AnalyzedStatement.SystemQuery
        ? systemCatalog.refreshed(this, catalog) : backend;
    String runSql = st instanceof AnalyzedStatement.PassThrough pt ? pt.backendSql() : sql;
    try (PreparedStatement ps = target.prepareStatement(runSql)) {
      List<ResultColumn> cols = ps.getMetaData() == null ? List.of() : columnsOf(ps.getMetaData());
      List<AnalyzedStatement.ParameterInfo> params = new ArrayList<>();
      ParameterMetaData pmd = ps.getParameterMetaData();
      for (int i = 1; i <= pmd.getParameterCount(); i++) {
        params.add(new AnalyzedStatement.ParameterInfo(pmd.getParameterType(i),
            pmd.getParameterTypeName(i), pmd.getPrecision(i), pmd.getScale(i)));
      }
      return new PreparedQuery(sql, st, cols, params);
    }
  }

  /**
   * Runs a prepared statement with its parameters (use {@link ExactMeasurer#UNSET} for unset). A
   * backend statement that runs longer than the policy's {@code limits.statement_timeout_s} is
   * cancelled and reported as {@code HYT00}; nothing is charged for it.
   */
  public ResultTable execute(PreparedQuery q, List<Object> parameters) throws SQLException {
    try {
      return executeWithinLimits(q, boundValues(q, parameters));
    } catch (SQLException e) {
      throw StatementTimeout.translate(e, policy.limits().statementTimeoutSeconds());
    }
  }

  /**
   * The values of a private statement planned with its parameters kept, each in the type
   * validation inferred for it (22018/22007 naming the parameter when it cannot be, before
   * anything is read or charged), so that the same values bound as different Java types are the
   * same release; other statements' values as they are.
   */
  private static List<Object> boundValues(PreparedQuery q, List<Object> parameters)
      throws SQLException {
    AnalyzedStatement st = q.statement();
    if (parameters.isEmpty() || !(st instanceof AnalyzedStatement.PrivateAggregate
        || st instanceof AnalyzedStatement.PrivateWorkload
        || st instanceof AnalyzedStatement.Composite
        || st instanceof AnalyzedStatement.Deferred d && d.binder() != null)) {
      return parameters;
    }
    List<Object> out = new ArrayList<>(parameters.size());
    for (int i = 0; i < parameters.size(); i++) {
      out.add(org.dpsql.sql.ParameterLiteral.value(i + 1, parameters.get(i),
          i < q.parameters().size() ? q.parameters().get(i) : null));
    }
    return out;
  }

  /**
   * Refuses (XDP03) a data vector of more cells than the policy's {@code limits.max_cells}, before
   * anything runs.
   */
  private void checkCells(long cells, String what) throws SQLException {
    Integer max = policy.limits().maxCells();
    if (max != null && cells > max) {
      throw SqlStates.notSupported(what + " spans " + cells + " cells, more than the data "
          + "owner's limit of " + max + " (policy limits.max_cells); group or filter by fewer or "
          + "coarser columns");
    }
  }

  /** The cells of the cross product of the columns' domains (saturating). */
  private static long cellsOf(List<org.dpsql.policy.ColumnPolicy> columns) {
    long n = 1;
    for (org.dpsql.policy.ColumnPolicy c : columns) {
      int size = Math.max(1, c.domainSize());
      n = n > Long.MAX_VALUE / size ? Long.MAX_VALUE : n * size;
    }
    return n;
  }

  /** The private aggregates of a composite statement, each prepared as a statement of its own. */
  private List<PreparedQuery> prepareReleases(AnalyzedStatement.Composite c) throws SQLException {
    List<PreparedQuery> parts = new ArrayList<>();
    for (int i = 0; i < c.releases().size(); i++) {
      parts.add(prepareAnalyzed(c.plan().releases().get(i).statementText(), c.releases().get(i)));
    }
    return parts;
  }

  /**
   * A composite statement: every private aggregate is released (each paid once, repeats free),
   * the public inputs are read from the backend, and the post-processing statement computes the
   * result from them. Before anything is measured, the parts not yet released must fit the budget
   * together, so a statement is never half paid for want of budget.
   */
  private ResultTable executeComposite(AnalyzedStatement.Composite c, List<PreparedQuery> parts,
      List<Object> values) throws SQLException {
    if (c.plan().empty()) {
      return postProcessor.run(c.plan(), List.of(), List.of(), List.of());
    }
    PrivacyCost total = null;
    for (int i = 0; i < parts.size(); i++) {
      PreparedQuery part = parts.get(i);
      PrivacyCost cost = chargeOf(part);
      if (cost != null && !releases.isAnswered(
          answerKey(part.statement().normalizedSql(), c.releaseValues(i, values)))) {
        total = total == null ? cost : total.plus(cost);
      }
    }
    if (total != null && !accountant.canAfford(total)) {
      throw new BudgetExceededException(accountant.accounting(), total, accountant.remaining());
    }
    List<ResultTable> released = new ArrayList<>();
    for (int i = 0; i < parts.size(); i++) {
      released.add(executeWithinLimits(parts.get(i), c.releaseValues(i, values)));
    }
    List<ResultTable> inputs = new ArrayList<>();
    for (int i = 0; i < c.plan().publicInputs().size(); i++) {
      try {
        inputs.add(runOn(backend, c.plan().publicInputs().get(i).backendSql(),
            c.inputValues(i, values)));
      } catch (SQLException e) {
        throw StatementTimeout.isTimeout(e) ? e : SqlStates.publicStatementFailure(e);
      }
    }
    return postProcessor.run(c.plan(), released, inputs, c.postValues(values));
  }

  /** What releasing a prepared private aggregate costs, or null for other statements. */
  private PrivacyCost chargeOf(PreparedQuery part) throws SQLException {
    if (part.noise() != null) {
      return part.noise().charge();
    }
    if (part.statement() instanceof AnalyzedStatement.PrivateAggregate p) {
      if (PartitionRelease.asks(p.query())) {
        return partitions(part.plan()).charge();
      }
      if (QuantileRelease.asks(p.query())) {
        return quantileCharge(part.plan());
      }
    }
    return null;
  }

  /** EXPLAIN of a composite statement: its relational plan, then each release's own plan. */
  private ResultTable explainComposite(AnalyzedStatement.Composite c) throws SQLException {
    List<Object[]> rows = new ArrayList<>();
    long listings = c.releases().stream().filter(r -> r instanceof AnalyzedStatement.PrivateAggregate p
        ? p.query().listsDomain() : r instanceof AnalyzedStatement.PrivateWorkload w
        && w.query().listsDomain()).count();
    long n = c.plan().releases().size() - listings;
    rows.add(new Object[] {"statement with " + n + " private aggregate" + (n == 1 ? "" : "s")
        + (n > 1 ? ", the statement's budget split equally among them" : "")
        + (listings == 0 ? "" : " and " + listings + " listing" + (listings == 1 ? "" : "s")
            + " of declared domains (free)")
        + "; everything else is post-processing of the released rows (no budget)"});
    for (String line : c.plan().plan().split("\\R")) {
      if (!line.isBlank()) {
        rows.add(new Object[] {"  " + line});
      }
    }
    for (ReleasePlan.PublicInput p : c.plan().publicInputs()) {
      rows.add(new Object[] {"public input " + p.table() + " (backend): " + p.backendSql()});
    }
    for (int i = 0; i < c.releases().size(); i++) {
      ReleasePlan.Release r = c.plan().releases().get(i);
      rows.add(new Object[] {"release " + r.table() + ": " + r.statementText()});
      AnalyzedStatement part = c.releases().get(i);
      AnalyzedStatement explained = part instanceof AnalyzedStatement.PrivateWorkload w
          ? new AnalyzedStatement.ExplainWorkload(w.query(), w.normalizedSql())
          : new AnalyzedStatement.Explain(((AnalyzedStatement.PrivateAggregate) part).query(),
              part.normalizedSql());
      ResultTable inner = executeWithinLimits(new PreparedQuery(r.statementText(), explained,
          List.of(ResultColumn.varchar("PLAN", false)), List.of()), List.of());
      for (Object[] row : inner.rows()) {
        rows.add(new Object[] {"  " + row[0]});
      }
    }
    return new ResultTable(List.of(ResultColumn.varchar("PLAN", false)), rows);
  }

  /**
   * A column as validation describes it before a statement with bound values runs: counts as
   * BIGINT (released as integers), other released numbers as DOUBLE (noisy), text, dates,
   * timestamps and booleans as themselves.
   */
  private static ResultColumn describedColumn(AnalyzedStatement.ColumnInfo c) {
    if (c.count()) {
      return ResultColumn.bigint(c.label(), true);
    }
    return switch (c.jdbcType()) {
      case java.sql.Types.CHAR, java.sql.Types.VARCHAR -> ResultColumn.varchar(c.label(), true);
      case java.sql.Types.DATE -> ResultColumn.date(c.label(), true);
      case java.sql.Types.TIMESTAMP -> ResultColumn.timestamp(c.label(), true);
      case java.sql.Types.BOOLEAN -> ResultColumn.bool(c.label(), true);
      default -> ResultColumn.doubles(c.label(), true);
    };
  }

  /**
   * A statement whose values are bound at execute: its parameters and clock calls are written as
   * literals, and the bound statement is prepared (once per bound text) and run like a statement
   * written with those literals, so its release identity includes the values. A refusal that
   * depends on a value keeps its SQLState and names the parameter; nothing is charged for it.
   */
  private ResultTable executeBound(AnalyzedStatement.Deferred d, List<Object> parameters)
      throws SQLException {
    if (d.binder() != null) {
      return executeBoundPlan(d, parameters);
    }
    org.dpsql.sql.StatementTemplate.Bound bound =
        d.template().bind(parameters, d.parameters(), clock.instant());
    PreparedQuery prepared = boundStatements.get(bound.sql());
    try {
      if (prepared == null) {
        prepared = prepareWithinLimits(bound.sql());
        boundStatements.put(bound.sql(), prepared);
      }
      return executeWithinLimits(prepared, List.of());
    } catch (SQLException e) {
      throw aboutValues(e) ? bound.explain(e) : e;
    }
  }

  /**
   * Whether a refusal of a statement with bound values may be about the values (a data
   * exception, a syntax or access rule, a policy refusal, a bad privacy parameter): it is then
   * reported with the values named.
   */
  private static boolean aboutValues(SQLException e) {
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    return state.startsWith("22") || state.startsWith("42")
        || state.equals(SqlStates.NOT_ALLOWED) || state.equals(SqlStates.NOT_SUPPORTED)
        || state.equals(SqlStates.BAD_PRIVACY_PARAMETER);
  }

  /**
   * A statement planned once whose values decide what it releases: the values (converted to
   * their parameters' types) are bound into its plan and its releases analysed with them, once per
   * distinct values (kept like bound statements), then run like the statement written with them.
   * A refusal that depends on a value keeps its SQLState and names the values; nothing is charged
   * for it.
   */
  private ResultTable executeBoundPlan(AnalyzedStatement.Deferred d, List<Object> values)
      throws SQLException {
    for (int i = 0; i < d.parameters().size(); i++) {
      if (i >= values.size() || values.get(i) == org.dpsql.sql.ParameterLiteral.UNSET) {
        throw new SQLException("parameter " + (i + 1) + " is not set: set every ? before "
            + "executing the statement", "07001");
      }
    }
    java.time.Instant now = clock.instant(); // read once for every clock call
    List<String> clockValues = d.binder().clock(now);
    String key = d.normalizedSql() + "\u0000" + values + "\u0000" + clockValues;
    PreparedQuery prepared = boundStatements.get(key);
    try {
      if (prepared == null) {
        prepared = prepareAnalyzed(d.normalizedSql(), d.binder().bind(values, now));
        boundStatements.put(key, prepared);
      }
      return executeWithinLimits(prepared, List.of());
    } catch (SQLException e) {
      if (!aboutValues(e)) {
        throw e;
      }
      List<String> literals = new ArrayList<>();
      for (int i = 0; i < values.size(); i++) {
        literals.add(org.dpsql.sql.ParameterLiteral.of(i + 1, values.get(i),
            d.parameters().get(i)));
      }
      throw new org.dpsql.sql.StatementTemplate.Bound("", literals, clockValues).explain(e);
    }
  }

  /**
   * An EXPLAIN listing with the canonical statement of the release that answers the statement
   * after its first line.
   */
  private static ResultTable withRelease(ResultTable plan, String release) {
    List<Object[]> rows = new ArrayList<>(plan.rows());
    rows.add(Math.min(1, rows.size()), new Object[] {"release: " + release});
    return new ResultTable(plan.columns(), rows);
  }

  /** EXPLAIN's one-column result: one row per line. */
  private static ResultTable planOf(List<String> lines) {
    List<Object[]> rows = new ArrayList<>();
    lines.forEach(line -> rows.add(new Object[] {line}));
    return new ResultTable(List.of(ResultColumn.varchar("PLAN", false)), rows);
  }

  /**
   * The release that answers {@code st} when st is a statement over one private aggregate that
   * shows its rows in its own way ({@link AnalyzedStatement.Released}), else null. A listing of
   * declared domains reads nothing and is answered as it is.
   */
  private static AnalyzedStatement.Released releasedBy(AnalyzedStatement st) {
    if (st instanceof AnalyzedStatement.PrivateAggregate p && !p.query().listsDomain()) {
      return p.released();
    }
    if (st instanceof AnalyzedStatement.PrivateWorkload w && !w.query().listsDomain()) {
      return w.released();
    }
    return null;
  }

  /**
   * How {@code st} shows the rows of its prepared {@code release}; {@code values}: the statement's
   * bound values (null when describing it), for an offset or limit given by a parameter.
   */
  private static PresentedRelease presentation(AnalyzedStatement st, PreparedQuery release,
      List<Object> values) throws SQLException {
    AnalyzedStatement.Released r = releasedBy(st);
    if (st instanceof AnalyzedStatement.PrivateAggregate p) {
      AggregateQuery shown = p.query();
      AggregateQuery own = ((AnalyzedStatement.PrivateAggregate) r.release()).query();
      Long offset = r.offsetParameter() < 0 || values == null ? shown.offset()
          : rowCount(values, r.offsetParameter(), "OFFSET", "2201X");
      Long fetch = r.fetchParameter() < 0 || values == null ? shown.fetch()
          : rowCount(values, r.fetchParameter(), "LIMIT/FETCH", "2201W");
      return new PresentedRelease(own.outputs(), release.columns(), own.hint().ci() != null,
          shown.outputs(), r.pick(), shown.orderBy(), offset, fetch);
    }
    WorkloadQuery shown = ((AnalyzedStatement.PrivateWorkload) st).query();
    WorkloadQuery own = ((AnalyzedStatement.PrivateWorkload) r.release()).query();
    return new PresentedRelease(own.outputs(), release.columns(), own.hint().ci() != null,
        shown.outputs(), r.pick(), shown.orderBy(), null, null);
  }

  /**
   * The row count a parameter gives an {@code OFFSET} or {@code LIMIT}: a whole number, at least
   * 0; else {@code state} (SQL's invalid row count in a fetch or offset clause), naming the
   * parameter. Nothing has been charged when it is refused.
   */
  private static Long rowCount(List<Object> values, int index, String clause, String state)
      throws SQLException {
    Object v = values.get(index);
    java.math.BigDecimal n = null;
    if (v instanceof Number number) {
      try {
        n = new java.math.BigDecimal(number.toString());
      } catch (NumberFormatException e) {
        n = null;
      }
    }
    if (n == null || n.signum() < 0 || n.stripTrailingZeros().scale() > 0
        || n.compareTo(java.math.BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
      throw new SQLException("parameter " + (index + 1) + " gives the " + clause + " row count "
          + v + ": bind a whole number of rows, 0 or more", state);
    }
    return n.longValueExact();
  }

  private ResultTable executeWithinLimits(PreparedQuery q, List<Object> parameters)
      throws SQLException {
    AnalyzedStatement st = q.statement();
    AnalyzedStatement.Released by = releasedBy(st);
    if (by != null) {
      PreparedQuery release = q.parts().get(0);
      PresentedRelease shown = presentation(st, release, parameters); // refuses a bad LIMIT ?
      return shown.answer(executeWithinLimits(release, by.releaseValues(parameters)));
    }
    if (st instanceof AnalyzedStatement.Deferred d) {
      return executeBound(d, parameters);
    }
    if (st instanceof AnalyzedStatement.Composite c) {
      return executeComposite(c, q.parts(), parameters);
    }
    if (st instanceof AnalyzedStatement.ExplainComposite e) {
      return explainComposite(e.composite());
    }
    if (st instanceof AnalyzedStatement.PrivateAggregate p && p.query().listsDomain()) {
      return DomainListing.answer(q.plan(), parameters); // public: nothing read, nothing charged
    }
    if (st instanceof AnalyzedStatement.PrivateAggregate p) {
      return releaseOnce(p.normalizedSql(), q, parameters);
    }
    if (st instanceof AnalyzedStatement.PrivateWorkload w && w.query().listsDomain()) {
      return DomainListing.answer(WorkloadPlan.of(w.query(), parameters)); // free, reads nothing
    }
    if (st instanceof AnalyzedStatement.PrivateWorkload w) {
      return releaseOnce(w.normalizedSql(), q, parameters);
    }
    if (st instanceof AnalyzedStatement.NamedWorkload w) {
      return releaseOnce(w.normalizedSql(), q, parameters);
    }
    if (st instanceof AnalyzedStatement.AdaptiveTable a) {
      ResultTable t = releaseOnce(a.normalizedSql(), q, parameters);
      return a.nonNegative() ? AdaptiveExecutor.nonNegative(t) : t;
    }
    if (st instanceof AnalyzedStatement.Explain e && e.release() != null) {
      return withRelease(executeWithinLimits(new PreparedQuery(q.sql(),
          new AnalyzedStatement.Explain(e.query(), e.normalizedSql()), q.columns(),
          q.parameters()), parameters), e.release());
    }
    if (st instanceof AnalyzedStatement.ExplainWorkload e && e.release() != null) {
      return withRelease(executeWithinLimits(new PreparedQuery(q.sql(),
          new AnalyzedStatement.ExplainWorkload(e.query(), e.normalizedSql()), q.columns(),
          q.parameters()), parameters), e.release());
    }
    if (st instanceof AnalyzedStatement.Explain e && e.query().listsDomain()) {
      return planOf(DomainListing.describe(MeasurementPlan.of(e.query()), parameters));
    }
    if (st instanceof AnalyzedStatement.Explain e) {
      WorkloadQuery tree = topDown(e.query());
      if (tree != null) {
        return ExplainTable.plan(tree, this);
      }
      SpatialRange rectangle = htf(e.query());
      if (rectangle != null) {
        return ExplainTable.spatialPlan(rectangle, e.query(), this);
      }
      MeasurementPlan plan = MeasurementPlan.of(e.query());
      if (PartitionRelease.asks(e.query())) {
        return explainPartitions(plan);
      }
      return MixedRelease.asks(e.query()) ? explainMixed(plan)
          : QuantileRelease.asks(e.query()) ? explainQuantiles(plan) : explain(plan);
    }
    if (st instanceof AnalyzedStatement.ExplainWorkload e && e.query().listsDomain()) {
      return planOf(DomainListing.describe(WorkloadPlan.of(e.query(), parameters)));
    }
    if (st instanceof AnalyzedStatement.ExplainWorkload e) {
      return ExplainTable.plan(e.query(), this);
    }
    if (st instanceof AnalyzedStatement.ExplainFunction e) {
      if (e.explained() instanceof AnalyzedStatement.AdaptiveTable a) {
        return adaptive.explain(a);
      }
      return ExplainTable.table(e.explained(), this);
    }
    if (st instanceof AnalyzedStatement.SystemQuery) {
      synchronized (systemCatalog) {
        try {
          return runOn(systemCatalog.refreshed(this, catalog), q.sql(), parameters);
        } catch (SQLException e) {
          throw StatementTimeout.isTimeout(e) ? e : SqlStates.publicStatementFailure(e);
        }
      }
    }
    try {
      return runOn(backend, ((AnalyzedStatement.PassThrough) st).backendSql(), parameters);
    } catch (SQLException e) {
      throw StatementTimeout.isTimeout(e) ? e : SqlStates.publicStatementFailure(e);
    }
  }

  private ResultTable releaseOnce(String normalizedSql, PreparedQuery q, List<Object> parameters)
      throws SQLException {
    Releases.AnswerKey key = answerKey(normalizedSql, parameters);
    CompletableFuture<ResultTable> mine = new CompletableFuture<>();
    CompletableFuture<ResultTable> existing = releases.claim(key, mine);
    if (existing != null) {
      try {
        return existing.get(); // post-processing of an answer already paid for
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SQLException("interrupted while waiting for the same query", "HY008", e);
      } catch (ExecutionException e) {
        // the other attempt failed and was forgotten: try ourselves
        return releaseOnce(normalizedSql, q, parameters);
      }
    }
    try {
      ResultTable t;
      PrivacyCost charged;
      ChargeMeter.start();
      try {
        t = release(q, parameters);
      } finally {
        charged = ChargeMeter.stop();
      }
      if (charged.isZero()) {
        // derived from synopses only: recomputed (free) when asked again, not kept, so that free
        // statements do not pile up in memory or in a server's release store
        releases.forget(key, mine);
        mine.complete(t);
      } else {
        releases.answered(key, mine, t);
      }
      return t;
    } catch (SQLException | RuntimeException e) {
      releases.forget(key, mine);
      mine.completeExceptionally(e);
      throw e;
    }
  }

  /** The identity of a release: the normalised statement and its parameters' values. */
  private static Releases.AnswerKey answerKey(String normalizedSql, List<Object> parameters) {
    return new Releases.AnswerKey(normalizedSql, Arrays.asList(parameters.toArray()));
  }

  private ResultTable release(PreparedQuery q, List<Object> parameters) throws SQLException {
    AnalyzedStatement st = q.statement();
    if (st instanceof AnalyzedStatement.PrivateWorkload w) {
      // in the types described at prepare (InfTDA's integral counts as BIGINT)
      return PrivateAnswer.conform(workloads.release(w.query(), q.sql().strip(), parameters),
          q.columns(), null, null);
    }
    if (st instanceof AnalyzedStatement.NamedWorkload w) {
      return workloads.release(w.query(), q.sql().strip());
    }
    if (st instanceof AnalyzedStatement.AdaptiveTable a) {
      return adaptive.release(a, q.sql().strip());
    }
    AggregateQuery query = ((AnalyzedStatement.PrivateAggregate) st).query();
    if (PartitionRelease.asks(query)) {
      return releasePartitions(q, parameters);
    }
    if (QuantileRelease.asks(query)) {
      return releaseQuantiles(q, parameters);
    }
    if (q.noise() == null) {
      WorkloadQuery tree = topDown(query);
      if (tree != null) {
        return PrivateAnswer.conform(workloads.release(tree, q.sql().strip(), parameters),
            q.columns(), query.offset(), query.fetch());
      }
      return PrivateAnswer.estimates(q.plan(),
          spatial.answer(htf(query), query, q.plan().cells(), q.sql().strip(), parameters),
          ReleasedCells.of(q.plan(), parameters));
    }
    ResultTable fromSynopsis = workloads.fromSynopses(query, q.sql().strip(), parameters);
    if (fromSynopsis != null) {
      return PrivateAnswer.conform(fromSynopsis, q.columns(), query.offset(), query.fetch());
    }
    MeasurementPlan plan = q.plan();
    NoisePlan noise = q.noise();
    long[][] exact = paidMeasurement(noise.charge(), q.sql(), noise.mechanism().sqlName(),
        expectedRmse(noise, plan), () -> measurer.measure(plan, parameters));
    return PrivateAnswer.release(plan, exact, noise, random, ReleasedCells.of(plan, parameters));
  }

  /**
   * The expected RMSE the ledger records for a release: its first measurement's noise standard
   * deviation, in the measured value's units.
   */
  private static double expectedRmse(NoisePlan noise, MeasurementPlan plan) {
    return Math.sqrt(noise.perMeasurement().get(0).variance())
        * plan.measurements().get(0).resolution().doubleValue();
  }

  /** One backend measurement of a release: the exact values noise is added to. */
  @FunctionalInterface
  private interface BackendMeasurement<T> {
    T run() throws SQLException;
  }

  /**
   * Measures what a release needs and pays for it: the cost is checked against the remaining
   * budget, the exact values are measured in the backend (a failure is refused with its message
   * withheld, and charges nothing), and the cost is charged atomically; only then may the caller
   * add noise and release.
   */
  private <T> T paidMeasurement(PrivacyCost cost, String statement, String mechanism,
      Double expectedRmse, BackendMeasurement<T> measurement) throws SQLException {
    if (!accountant.canAfford(cost)) {
      throw new BudgetExceededException(accountant.accounting(), cost, accountant.remaining());
    }
    T exact;
    try {
      exact = measurement.run();
    } catch (SQLException e) {
      throw SqlStates.backendFailureWithheld("could not evaluate this private query", e,
          "Check the types of the filter's literals and parameters. ");
    }
    accountant.charge(cost, statement.strip(), mechanism, expectedRmse);
    return exact;
  }

  /** Each quantile column's exact histogram over its grid, per cell of {@code plan}. */
  private java.util.Map<org.dpsql.policy.ColumnPolicy, long[][]> histograms(
      QuantileRelease quantiles, MeasurementPlan plan, List<Object> parameters)
      throws SQLException {
    java.util.Map<org.dpsql.policy.ColumnPolicy, long[][]> out = new java.util.LinkedHashMap<>();
    for (org.dpsql.policy.ColumnPolicy c : quantiles.columns()) {
      out.put(c, measurer.histogram(plan, c, quantiles.grid(c), parameters));
    }
    return out;
  }

  /**
   * Quantiles: the cost is checked against the remaining budget, every column's exact histogram
   * is measured in the backend (with the same bounding as any aggregate), the cost is charged
   * atomically (a backend failure charges nothing), and only then are the points sampled.
   */
  private ResultTable releaseQuantiles(PreparedQuery q, List<Object> parameters)
      throws SQLException {
    MeasurementPlan plan = q.plan();
    if (MixedRelease.asks(plan.query())) {
      return releaseMixed(q, parameters);
    }
    QuantileRelease quantiles = quantiles(plan);
    return quantiles.release(paidMeasurement(quantiles.charge(), q.sql(),
        quantiles.mechanismName(), null, () -> histograms(quantiles, plan, parameters)), random,
        ReleasedCells.of(plan, parameters));
  }

  /**
   * Groups over private keys: the cost is checked against the remaining budget, every non-empty
   * group's unit count and aggregates are measured in the backend over the bounded rows, the
   * cost is charged atomically (a backend failure charges nothing), and only then are the groups
   * selected and their aggregates released with noise.
   */
  private ResultTable releasePartitions(PreparedQuery q, List<Object> parameters)
      throws SQLException {
    MeasurementPlan plan = q.plan();
    PartitionRelease release = partitions(plan);
    List<org.dpsql.rewrite.MeasuredGroup> groups = paidMeasurement(release.charge(), q.sql(),
        release.mechanismName(), release.aggregates() == null ? null
            : expectedRmse(release.aggregates(), plan),
        () -> measurer.partitions(plan, parameters));
    return release.release(groups, random);
  }

  /** A partition query's calibration (XDP05 for bad privacy parameters, XDP03 for bad hints). */
  PartitionRelease partitions(MeasurementPlan plan) throws SQLException {
    PartitionRelease release = PartitionRelease.of(plan, accountant.accounting(),
        policy.budget().defaultQuery(), reportingDelta);
    if (release.charge().delta().compareTo(accountant.total().delta()) > 0) {
      throw SqlStates.badPrivacyParameter("GROUP BY a column declared keys: private spends δ = "
          + PrivacyCost.format(release.charge().delta()) + ", more than this connection's whole δ "
          + "budget (" + PrivacyCost.format(accountant.total().delta()) + ")" + (accountant
              .accounting() == org.dpsql.accounting.Accounting.ZCDP ? "; under zCDP accounting "
              + "half of budget.per_connection.delta may be spent this way: ask the data owner "
              + "to set it (or a larger one), or give a smaller delta in the DP hint (in server "
              + "mode the analyst's budget and per_connection in the users file need a delta "
              + "too)" : ""));
    }
    return release;
  }

  /** A quantile query's calibration (XDP05 for bad privacy parameters, XDP03 for bad hints). */
  QuantileRelease quantiles(MeasurementPlan plan) throws SQLException {
    return QuantileRelease.of(plan, accountant.accounting(), policy.budget().defaultQuery(),
        reportingDelta);
  }

  /**
   * Quantiles with other aggregates ({@link MixedRelease}): the total cost is checked, the noisy
   * part's exact vectors and every quantile column's histogram are measured, the total is charged
   * once (a backend failure in either part charges nothing), and only then are both parts sampled.
   */
  private ResultTable releaseMixed(PreparedQuery q, List<Object> parameters)
      throws SQLException {
    MixedRelease mixed = mixed(q.plan());
    record Exact(long[][] vectors, java.util.Map<org.dpsql.policy.ColumnPolicy, long[][]> histograms) {}
    Exact exact = paidMeasurement(mixed.charge(), q.sql(), mixed.mechanismName(), null,
        () -> new Exact(measurer.measure(mixed.noisyPlan(), parameters),
            histograms(mixed.quantiles(), mixed.quantilePlan(), parameters)));
    return mixed.release(exact.vectors(), exact.histograms(), random,
        ReleasedCells.of(q.plan(), parameters));
  }

  /** The budget split of a query with quantiles and other aggregates (refusals as above). */
  MixedRelease mixed(MeasurementPlan plan) throws SQLException {
    return MixedRelease.of(plan, accountant.accounting(), policy.budget().defaultQuery(),
        reportingDelta);
  }

  /** What a statement with quantiles (and perhaps other aggregates) is charged. */
  private PrivacyCost quantileCharge(MeasurementPlan plan) throws SQLException {
    return MixedRelease.asks(plan.query()) ? mixed(plan).charge() : quantiles(plan).charge();
  }

  /**
   * The spatial rectangle count a private aggregate is, when HTF answers it ({@code auto} or
   * {@code htf}), else null; {@code mechanism='htf'} on another shape is refused (XDP03).
   */
  static SpatialRange htf(AggregateQuery q) throws SQLException {
    Mechanism m = q.hint().mechanism();
    if (m != Mechanism.AUTO && m != Mechanism.HTF) {
      return null;
    }
    SpatialRange r = SpatialRange.match(q);
    if (r == null && m == Mechanism.HTF) {
      throw SqlStates.notSupported("mechanism 'htf' answers SELECT COUNT(*) with range conditions "
          + "(BETWEEN, <, <=, >, >=) on the two columns of a spatial index of the policy "
          + "(spatial: {NAME: [X, Y]}), and nothing else");
    }
    return r;
  }

  /**
   * A single aggregate asked of TopDown ({@code mechanism='topdown'} or {@code 'inftda'}) as a
   * one-part workload, else null.
   */
  static WorkloadQuery topDown(AggregateQuery q) {
    Mechanism m = q.hint().mechanism();
    if ((m != Mechanism.TOPDOWN && m != Mechanism.INFTDA) || q.hasPrivateKeys()) {
      return null; // groups over private keys refuse the mechanism (PartitionRelease)
    }
    return new WorkloadQuery(WorkloadQuery.Shape.GROUPING_SETS, q.table(), List.of(q), q.hint(),
        q.orderBy());
  }

  /** The HTF executor of this connection (released spatial synopses). */
  SpatialExecutor spatial() {
    return spatial;
  }

  /** Refuses bad privacy parameters of a workload's hint (XDP05) before anything runs. */
  private void checkBudgetParameters(org.dpsql.sql.DpHint hint) throws SQLException {
    NoisePlan.checkBudget(accountant.accounting(), policy.budget().defaultQuery(), reportingDelta,
        hint);
  }

  /** The workload executor of this connection (released synopses, workload calibration). */
  WorkloadExecutor workloads() {
    return workloads;
  }

  NoisePlan calibrateForExplain(MeasurementPlan plan) throws SQLException {
    return calibrate(plan);
  }

  List<NoisePlan> candidatesForExplain(MeasurementPlan plan) throws SQLException {
    return NoisePlan.candidates(accountant.accounting(), policy.budget().defaultQuery(),
        reportingDelta, plan.query().hint(), shape(plan));
  }

  private NoisePlan calibrate(MeasurementPlan plan) throws SQLException {
    return NoisePlan.calibrate(accountant.accounting(), policy.budget().defaultQuery(),
        reportingDelta, plan.query().hint(), shape(plan));
  }

  private static NoisePlan.Shape shape(MeasurementPlan plan) {
    return new NoisePlan.Shape(plan.measurements(), plan.maxRowsPerUnit(), plan.cells().size(),
        plan.query().table().answerRange());
  }

  private ResultTable explain(MeasurementPlan plan) throws SQLException {
    NoisePlan noise = calibrate(plan);
    MeasurementSql sql = measurer.sqlFor(plan);
    List<Object[]> rows = new ArrayList<>();
    rows.add(new Object[] {releasedOver("private aggregate", plan)});
    int k = plan.maxRowsPerUnit();
    sql.scalingForm().ifPresent(form -> rows.add(new Object[] {"bounding by scaling (" + form
        + "): a unit with n > " + k + " filtered rows adds " + k + "/n of each of its cells "
        + "(counts rounded cumulatively, sums truncated toward zero), the sensitivity of " + k
        + " rows"}));
    rows.add(new Object[] {ReleasedCells.of(plan, List.of()).describe()});
    rows.add(new Object[] {"cost: " + noise.charge() + " (" + accountant.accounting().policyName()
        + " accounting; remaining " + accountant.remaining() + ")"});
    for (int i = 0; i < plan.measurements().size(); i++) {
      NoiseMechanism m = noise.perMeasurement().get(i);
      rows.add(new Object[] {"measure " + plan.measurements().get(i).describe() + " with "
          + m.describe() + ", noise std " + String.format("%.4g", Math.sqrt(m.variance()))
          + " (in resolution " + plan.measurements().get(i).resolution().toPlainString() + ")"});
    }
    for (NoisePlan candidate : NoisePlan.candidates(accountant.accounting(),
        policy.budget().defaultQuery(), reportingDelta, plan.query().hint(), shape(plan))) {
      StringBuilder rmse = new StringBuilder();
      for (NoiseMechanism m : candidate.perMeasurement()) {
        rmse.append(rmse.length() == 0 ? "" : ", ").append(String.format("%.4g", Math.sqrt(m.variance())));
      }
      rows.add(new Object[] {"candidate " + candidate.mechanism().sqlName() + ": cost "
          + candidate.charge() + ", RMSE per cell " + rmse + " (in resolution steps)"
          + (candidate.mechanism() == noise.mechanism() ? "  <- chosen" : "")});
    }
    rows.addAll(measurementLines(plan, () -> measurer.streamedRowsSqlFor(plan)));
    rows.add(new Object[] {"backend SQL: " + sql.sql()});
    return new ResultTable(List.of(ResultColumn.varchar("PLAN", false)), rows);
  }

  /**
   * EXPLAIN's lines on how a plan is measured: the strategy and why, and for streaming the
   * statement whose rows are streamed (the {@code backend SQL} line that follows is then the
   * push-down statement it falls back to).
   */
  private List<Object[]> measurementLines(MeasurementPlan plan,
      java.util.function.Supplier<MeasurementSql> streamed) {
    ExactMeasurer.Choice choice = measurer.choose(plan);
    List<Object[]> out = new ArrayList<>();
    out.add(new Object[] {"measurement: " + choice.strategy().name() + " (" + choice.reason()
        + ")"});
    if (choice.streams()) {
      // written only when it runs: a table whose unit is the row has no unit column to stream
      out.add(new Object[] {"streamed rows SQL: " + streamed.get().sql()});
    }
    return out;
  }

  /** EXPLAIN's first line: {@code what} is released over which table, and how it is bounded. */
  private String releasedOver(String what, MeasurementPlan plan) throws SQLException {
    org.dpsql.policy.TablePolicy table = plan.query().table();
    return what + " over " + table.name() + (table.unitIsRow() ? " (each row is a privacy unit)"
        : " (privacy unit " + table.privacyUnit() + ", at most " + plan.maxRowsPerUnit()
            + " rows per unit, bounding " + (measurer.oneRowPerUnit(table)
                ? "not needed: the backend declares " + table.privacyUnit()
                    + " unique (primary key or unique index)"
                    + (table.join() != null ? " in every joined table" : "") + ", one row per unit"
                : table.bounding().policyName()) + ")");
  }

  /** EXPLAIN PLAN FOR a GROUP BY over private keys: selection, noise, cost and backend SQL. */
  private ResultTable explainPartitions(MeasurementPlan plan) throws SQLException {
    PartitionRelease release = partitions(plan);
    PartitionSelection selection = release.selection();
    AggregateQuery query = plan.query();
    List<Object[]> rows = new ArrayList<>();
    rows.add(new Object[] {releasedOver("private aggregate", plan)});
    rows.add(new Object[] {"groups: selected privately over " + String.join(", ",
        query.privateGroupBy().stream().map(org.dpsql.policy.ColumnPolicy::name).toList())
        + " (declared keys: private)" + (plan.cells().columns().isEmpty() ? ""
            : " within each of the " + plan.cells().size() + " cells of " + String.join(", ",
                plan.cells().columns().stream().map(org.dpsql.policy.ColumnPolicy::name).toList()))
        + "; each unit reaches at most " + selection.groupsPerUnit() + " group"
        + (selection.groupsPerUnit() == 1 ? "" : "s") + " (max_groups_per_unit "
        + query.maxGroupsPerUnit() + ", max_rows_per_unit " + plan.maxRowsPerUnit() + ")"});
    rows.add(new Object[] {"cost: " + release.charge() + " (" + accountant.accounting()
        .policyName() + " accounting; remaining " + accountant.remaining() + ")"
        + (release.aggregates() == null ? ", all for the selection"
            : ", selection " + selection.charge() + " + aggregates "
                + release.aggregates().charge())});
    rows.add(new Object[] {"select a group when its distinct units + " + selection.noise()
        .describe() + " ≥ τ = " + selection.threshold() + ": a group with " + selection.threshold()
        + " units is released with probability about 1/2; the groups one unit alone holds with "
        + "probability ≤ " + String.format("%.3g", selection.releaseBound())});
    for (int i = 0; i < plan.measurements().size(); i++) {
      NoiseMechanism m = release.aggregates().perMeasurement().get(i);
      rows.add(new Object[] {"measure " + plan.measurements().get(i).describe() + " with "
          + m.describe() + ", noise std " + String.format("%.4g", Math.sqrt(m.variance()))
          + " (in resolution " + plan.measurements().get(i).resolution().toPlainString()
          + "), on the selected groups"});
    }
    rows.addAll(measurementLines(plan, () -> measurer.streamedRowsSqlFor(plan)));
    rows.add(new Object[] {"backend SQL: " + measurer.partitionSqlFor(plan).sql()});
    return new ResultTable(List.of(ResultColumn.varchar("PLAN", false)), rows);
  }

  /**
   * EXPLAIN PLAN FOR quantiles with other aggregates: the total cost and its split, then the plan
   * of each part at its share (as EXPLAIN shows it for a statement of that part alone).
   */
  private ResultTable explainMixed(MeasurementPlan plan) throws SQLException {
    MixedRelease mixed = mixed(plan);
    List<Object[]> rows = new ArrayList<>();
    rows.add(new Object[] {releasedOver("private aggregates and quantiles", plan)});
    int a = mixed.noisyPlan().measurements().size();
    int q = mixed.quantiles().releases();
    rows.add(new Object[] {"cost: " + mixed.charge() + " (" + accountant.accounting().policyName()
        + " accounting; remaining " + accountant.remaining() + "), charged once for both parts, "
        + "split in proportion to their releases (" + a + " noisy measurement" + (a == 1 ? "" : "s")
        + ", " + q + " quantile release" + (q == 1 ? "" : "s") + "): noisy aggregates "
        + mixed.noise().charge() + " + quantiles " + mixed.quantiles().charge()});
    List<Object[]> noisy = explain(mixed.noisyPlan()).rows();
    for (Object[] r : noisy.subList(1, noisy.size())) { // the first line is said above
      rows.add(new Object[] {"noisy aggregates: " + r[0]});
    }
    List<Object[]> quantiles = explainQuantiles(mixed.quantilePlan()).rows();
    for (Object[] r : quantiles.subList(1, quantiles.size())) {
      rows.add(new Object[] {"quantiles: " + r[0]});
    }
    return new ResultTable(List.of(ResultColumn.varchar("PLAN", false)), rows);
  }

  /** EXPLAIN PLAN FOR a quantile query: grids, mechanism, cost and rank-error bounds. */
  private ResultTable explainQuantiles(MeasurementPlan plan) throws SQLException {
    QuantileRelease quantiles = quantiles(plan);
    List<Object[]> rows = new ArrayList<>();
    rows.add(new Object[] {releasedOver("private quantiles", plan)});
    rows.add(new Object[] {ReleasedCells.of(plan, List.of()).describe()});
    rows.add(new Object[] {"cost: " + quantiles.charge() + " (" + accountant.accounting()
        .policyName() + " accounting; remaining " + accountant.remaining() + "), split equally "
        + "among " + quantiles.releases() + " release" + (quantiles.releases() == 1
            ? "" : "s") + " (a joint set of fractions counts once): ε = "
        + NoiseMechanism.decimal(quantiles.epsilonPerQuantile())
        + " each" + (accountant.accounting() == org.dpsql.accounting.Accounting.ZCDP
            ? " (ε²/8 ≤ ρ share: the exponential mechanism is ε-bounded-range)" : "")});
    for (QuantileRelease.Target t : quantiles.targets()) {
      boolean joint = quantiles.isJoint(t);
      rows.add(new Object[] {"quantile " + plan.query().outputs().get(t.output()).label()
          + " = the " + t.fraction().toPlainString() + "-quantile of " + t.column().name()
          + " with " + (joint ? "jointexp" : "exponential") + "(ε=" + NoiseMechanism.decimal(
              quantiles.epsilonPerQuantile()) + ", Δ=" + (joint ? 2 * plan.maxRowsPerUnit()
                  + ", one release with the column's other fractions in (0, 1), utility −Σ|gap − "
                  + "target gap|" : plan.maxRowsPerUnit() + ", utility −|rank − p·n|")
          + ") over the grid of " + t.grid().describe()
          + "; rank error ≤ " + String.format("%.4g", quantiles.rankErrorBound(t, 0.05))
          + " values with probability ≥ 0.95"});
    }
    ExactMeasurer.Choice choice = measurer.choose(plan);
    rows.add(new Object[] {"measurement: " + choice.strategy().name() + " (" + choice.reason()
        + ")"});
    for (org.dpsql.policy.ColumnPolicy c : quantiles.columns()) {
      if (choice.streams()) {
        rows.add(new Object[] {"streamed rows SQL (histogram of " + c.name() + "): "
            + measurer.streamedHistogramSqlFor(plan, c, quantiles.grid(c)).sql()});
      }
      rows.add(new Object[] {"backend SQL (histogram of " + c.name() + "): "
          + measurer.histogramSqlFor(plan, c, quantiles.grid(c)).sql()});
    }
    return new ResultTable(List.of(ResultColumn.varchar("PLAN", false)), rows);
  }

  private static ResultTable runOn(Connection c, String sql, List<Object> parameters)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < parameters.size(); i++) {
        if (parameters.get(i) == ExactMeasurer.UNSET) {
          throw new SQLException("parameter " + (i + 1) + " is not set", "07001");
        }
        ps.setObject(i + 1, parameters.get(i));
      }
      try (ResultSet rs = ps.executeQuery()) {
        List<ResultColumn> cols = columnsOf(rs.getMetaData());
        return new ResultTable(cols, rows(rs, cols.size()));
      }
    }
  }

  /** Every remaining row of {@code rs}, as objects. */
  static List<Object[]> rows(ResultSet rs, int columns) throws SQLException {
    List<Object[]> rows = new ArrayList<>();
    while (rs.next()) {
      Object[] row = new Object[columns];
      for (int i = 0; i < row.length; i++) {
        row[i] = rs.getObject(i + 1);
      }
      rows.add(row);
    }
    return rows;
  }

  /** The columns of a result set's metadata. */
  static List<ResultColumn> columnsOf(ResultSetMetaData md) throws SQLException {
    List<ResultColumn> cols = new ArrayList<>();
    for (int i = 1; i <= md.getColumnCount(); i++) {
      Class<?> cls;
      try {
        cls = Class.forName(md.getColumnClassName(i));
      } catch (ClassNotFoundException | RuntimeException e) {
        cls = Object.class;
      }
      cols.add(new ResultColumn(md.getColumnLabel(i), md.getColumnType(i), md.getColumnTypeName(i),
          cls, md.getPrecision(i), md.getScale(i),
          md.isNullable(i) != ResultSetMetaData.columnNoNulls));
    }
    return cols;
  }

  @Override
  public void close() throws SQLException {
    try {
      systemCatalog.close();
      postProcessor.close();
    } finally {
      backend.close();
    }
  }
}
