package org.dpsql.sql.relational;

import java.sql.SQLException;
import java.util.EnumSet;
import java.util.List;
import java.util.Properties;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.config.CalciteConnectionProperty;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.fun.SqlLibrary;
import org.apache.calcite.sql.fun.SqlLibraryOperatorTableFactory;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.sql2rel.StandardConvertletTable;
import org.dpsql.backend.BackendCatalog;
import org.dpsql.policy.Policy;
import org.dpsql.policy.TablePolicy;

/**
 * Turns a parsed statement into relational algebra: validates it against the tables the policy
 * exposes (private tables show their policy columns and privacy unit only), converts it with
 * Calcite's {@link SqlToRelConverter} (subqueries in expressions become joins) and normalises the
 * plan with a few of Calcite's rules (merging adjacent projections and filters, removing trivial
 * projections) so that the privacy analysis sees each private aggregate with the filters and
 * projections below it; an aggregate over a join is pushed below the join (Calcite's extended
 * aggregate–join transposition), so that each private side is aggregated on its own, grouped by
 * the join keys, and the join combines released rows.
 *
 * <p>Guarantees: the plan has the statement's result type with the validated column names; nothing
 * is read from the backend. Validation errors are {@code 42xxx} {@link SQLException}s.
 */
public final class RelationalPlanner {
  /**
   * Standard SQL plus the PostgreSQL and MySQL functions BI tools generate, and PostgreSQL's {@code
   * DATE_TRUNC}.
   */
  private static final SqlOperatorTable OPERATORS = org.apache.calcite.sql.util.SqlOperatorTables
      .chain(DateTrunc.table(), SqlLibraryOperatorTableFactory.INSTANCE.getOperatorTable(
          EnumSet.of(SqlLibrary.STANDARD, SqlLibrary.POSTGRESQL, SqlLibrary.MYSQL)));

  /**
   * The normalisation; the aggregate–join transposition leaves joins of private tables on their
   * units alone (their aggregate is one private aggregate over the tables' {@link
   * org.dpsql.policy.UnitJoin}, not one per table).
   */
  private static HepProgram normalise(Policy policy, boolean lookupJoins) {
    return HepProgram.builder()
        .addRuleInstance(CoreRules.PROJECT_MERGE)
        .addRuleInstance(CoreRules.FILTER_MERGE)
        .addRuleInstance(CoreRules.FILTER_PROJECT_TRANSPOSE)
        .addRuleInstance(CoreRules.PROJECT_REMOVE)
        .addRuleInstance(CoreRules.AGGREGATE_PROJECT_MERGE)
        .addRuleInstance(new PublicJoinTransposeRule(policy, lookupJoins))
        .addRuleInstance(CoreRules.PROJECT_MERGE)
        .addRuleInstance(CoreRules.PROJECT_REMOVE)
        .build();
  }

  /**
   * Calcite's extended aggregate–join transposition, except over a join of private tables on their
   * privacy units (such a join pairs rows of one person and is aggregated as one relation, after
   * the join: a transposition would group each side by the unit, which cannot be released) and
   * over a join of one private table with public lookup tables (measured over the join key's
   * cells, see {@link PublicJoinInput}).
   */
  private static final class PublicJoinTransposeRule
      extends org.apache.calcite.rel.rules.AggregateJoinTransposeRule {
    private final Policy policy;
    private final boolean lookupJoins;

    PublicJoinTransposeRule(Policy policy, boolean lookupJoins) {
      super(org.apache.calcite.rel.rules.AggregateJoinTransposeRule.Config.EXTENDED);
      this.policy = policy;
      this.lookupJoins = lookupJoins;
    }

    @Override
    public boolean matches(org.apache.calcite.plan.RelOptRuleCall call) {
      org.apache.calcite.rel.core.Join join = call.rel(1);
      // a join of private tables on their units is one person's rows; a join of one private
      // table with public lookup tables is measured over the join key's cells
      return !UnitJoinInput.joinsOnUnits(join, policy)
          && !(lookupJoins && PublicJoinInput.isLookupJoin(join, policy));
    }
  }

  /**
   * Leaves constant expressions as they are. Calcite's default executor compiles Java code (Janino)
   * to fold constants such as {@code CAST('low' AS CHAR(4))} while converting, which took a quarter
   * of a prepare; nothing here needs them folded (the backend and the post-processing database
   * evaluate them), and literal casts are recognised where it matters.
   */
  private static final org.apache.calcite.rex.RexExecutor UNREDUCED =
      (rexBuilder, constExps, reducedValues) -> reducedValues.addAll(constExps);

  private final Policy policy;
  private final BackendCatalog catalog;
  private final HepProgram normalise;
  private final HepProgram normaliseSplittingJoins;
  private final CalciteSchema rootSchema;
  private final List<String> defaultSchemaPath;
  private final JavaTypeFactory typeFactory = new JavaTypeFactoryImpl();
  private final CalciteConnectionConfig calciteConfig;

  /** A planner over the backend tables the policy names. */
  public RelationalPlanner(Policy policy, BackendCatalog catalog, String defaultSchema) {
    this.policy = policy;
    this.catalog = catalog;
    this.normalise = normalise(policy, true);
    this.normaliseSplittingJoins = normalise(policy, false);
    this.rootSchema = ValidationSchema.build(catalog, policy);
    this.defaultSchemaPath = defaultSchema == null ? List.of() : List.of(defaultSchema);
    Properties p = new Properties();
    p.setProperty(CalciteConnectionProperty.CASE_SENSITIVE.camelName(), "false");
    this.calciteConfig = new CalciteConnectionConfigImpl(p);
  }

  /** A validated statement and the validator that read it. */
  private record Validated(SqlValidator validator, SqlNode node, CalciteCatalogReader reader) {}

  /**
   * What a statement returns and takes, as validation infers it: the result's row type and the
   * type of each dynamic parameter in order (a statement whose parameters are bound at execute is
   * described so at prepare).
   */
  public record Description(org.apache.calcite.rel.type.RelDataType rowType,
      List<org.apache.calcite.rel.type.RelDataType> parameterTypes) {}

  /** Validates {@code query} (which it may rewrite) and describes its result and parameters. */
  public Description describe(SqlNode query) throws SQLException {
    Validated v = validate(query);
    return new Description(v.validator().getValidatedNodeType(v.node()), parameterTypes(v));
  }

  /**
   * The type of each dynamic parameter of a validated statement, in order, where validation
   * inferred one (Calcite's getParameterRowType fails on the first it did not, e.g. a comparison
   * inside a CASE inside an aggregate); an unknown type is null, and the value's own type is used
   * when it is bound.
   */
  private static List<org.apache.calcite.rel.type.RelDataType> parameterTypes(Validated v) {
    java.util.TreeMap<Integer, org.apache.calcite.rel.type.RelDataType> byIndex =
        new java.util.TreeMap<>();
    v.node().accept(new org.apache.calcite.sql.util.SqlBasicVisitor<Void>() {
      @Override
      public Void visit(org.apache.calcite.sql.SqlDynamicParam param) {
        org.apache.calcite.rel.type.RelDataType t =
            v.validator().getValidatedNodeTypeIfKnown(param);
        if (t != null || !byIndex.containsKey(param.getIndex())) {
          byIndex.put(param.getIndex(), t);
        }
        return null;
      }
    });
    List<org.apache.calcite.rel.type.RelDataType> params = new java.util.ArrayList<>();
    for (int i = 0; i <= (byIndex.isEmpty() ? -1 : byIndex.lastKey()); i++) {
      params.add(byIndex.get(i));
    }
    return params;
  }

  private Validated validate(SqlNode query) throws SQLException {
    CalciteCatalogReader reader =
        new CalciteCatalogReader(rootSchema, defaultSchemaPath, typeFactory, calciteConfig);
    query = VarianceRewrite.rewrite(DateTrunc.oracleTrunc(query));
    SqlValidator validator;
    SqlNode validated;
    try {
      for (int attempt = 0; ; attempt++) {
        validator = SqlValidatorUtil.newValidator(OPERATORS, reader, typeFactory,
            SqlValidator.Config.DEFAULT
                .withConformance(SqlConformanceEnum.BABEL)
                .withIdentifierExpansion(true)
                // no implicit casts: comparing a text column with a number is an error, as in the
                // single-table analysis (a conversion failing on some rows would reveal them)
                .withTypeCoercionEnabled(false));
        try {
          validated = validator.validate(query);
          if (attempt < 16 && DateComparisons.textLiterals(validated, validator)) {
            continue; // date text compared with a date: now a date literal
          }
          break;
        } catch (CalciteContextException e) {
          // dates compared with timestamps or date text: widened, then validated again
          if (attempt >= 16 || !DateComparisons.widen(query, e)) {
            throw e;
          }
        }
      }
      // no comparison across type families (a conversion failing on some rows would reveal them)
      ComparisonFamilies.check(validated, validator);
    } catch (CalciteContextException e) {
      throw validationError(e);
    } catch (IllegalArgumentException e) {
      throw new SQLException(e.getMessage(), "42000");
    } catch (RuntimeException e) {
      throw new SQLException("SQL validation error: " + e.getMessage(), "42000", e);
    }
    return new Validated(validator, validated, reader);
  }

  /**
   * A statement's plan and the types of its dynamic parameters (in order; null where validation
   * inferred none), which the plan keeps as {@link org.apache.calcite.rex.RexDynamicParam}s. A
   * private aggregate over a join of its table with public lookup tables stays over the join in
   * {@code rel} ({@link PublicJoinInput}: measured over the join key's cells); {@code
   * splittingLookupJoins} normalises the same converted statement with such joins split like any
   * join (aggregated per join key below it, the join applied to released rows), for when the
   * lookup cannot be answered over the key's cells.
   */
  public record Planned(RelNode rel, List<org.apache.calcite.rel.type.RelDataType> parameterTypes,
      java.util.function.Supplier<RelNode> splittingLookupJoins) {
    public Planned {
      parameterTypes = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(
          parameterTypes));
    }

    /**
     * This plan with {@code values} bound: each dynamic parameter replaced by a literal of its
     * value in the parameter's type (values as {@code sql.ParameterLiteral.value} converts them:
     * {@code Long}, {@code BigDecimal}, {@code String}, {@code Boolean}, {@code LocalDate}, {@code
     * LocalDateTime}, {@code LocalTime}, null) and each clock call by {@code now} read in UTC, as
     * if the statement had been written with them ({@link ParameterValues}).
     */
    public Planned bound(List<Object> values, java.time.Instant now) {
      return new Planned(ParameterValues.bind(rel, values, now), List.of(),
          () -> ParameterValues.bind(splittingLookupJoins.get(), values, now));
    }

    /** Whether the plan calls the clock ({@code CURRENT_DATE}, {@code NOW()}, ...). */
    public boolean readsClock() {
      return ParameterValues.readsClock(rel);
    }

    /** What the plan's clock calls read at {@code now}, e.g. {@code CURRENT_DATE = 2024-03-08}. */
    public List<String> clockValues(java.time.Instant now) {
      return ParameterValues.clockValues(rel, now);
    }
  }

  /**
   * The validated, converted and normalised plan of a query (which it may rewrite), validated and
   * converted once (see {@link Planned} for its two normalisations).
   */
  public Planned plan(SqlNode query) throws SQLException {
    Validated v = validate(query);
    SqlValidator validator = v.validator();
    SqlNode validated = v.node();
    CalciteCatalogReader reader = v.reader();
    HepPlanner conversion = new HepPlanner(HepProgram.builder().build());
    conversion.setExecutor(UNREDUCED);
    RelOptCluster cluster = RelOptCluster.create(conversion, new RexBuilder(typeFactory));
    SqlToRelConverter converter = new SqlToRelConverter(
        (rowType, queryString, schemaPath, viewPath) -> {
          throw new UnsupportedOperationException("views");
        },
        validator, reader, cluster, StandardConvertletTable.INSTANCE,
        SqlToRelConverter.config().withExpand(true).withTrimUnusedFields(false));
    RelRoot root;
    try {
      root = converter.convertQuery(validated, false, true);
    } catch (RuntimeException e) {
      throw new SQLException("cannot plan this statement: " + e.getMessage(), "42000", e);
    }
    RelNode converted = root.project();
    return new Planned(normalised(converted, normalise), parameterTypes(v),
        () -> normalised(converted, normaliseSplittingJoins));
  }

  private static RelNode normalised(RelNode converted, HepProgram program) {
    HepPlanner hep = new HepPlanner(program);
    hep.setRoot(converted);
    return hep.findBestExp();
  }

  /** The text after {@code prefix} in {@code msg} up to the next quote, or null. */
  private static String quoted(String msg, String prefix) {
    int at = msg.indexOf(prefix);
    if (at < 0) {
      return null;
    }
    String rest = msg.substring(at + prefix.length());
    return rest.substring(0, Math.max(0, rest.indexOf('\'')));
  }

  /**
   * XDP02 when {@code column} is a column of a private table in the backend that the policy does
   * not name (its values are never released), else null.
   */
  private SQLException outsidePolicy(String column, Exception cause) {
    for (TablePolicy t : policy.tables().values()) {
      if (t.isPublic() || t.column(column).isPresent()
          || column.equalsIgnoreCase(t.privacyUnit())) {
        continue;
      }
      if (catalog.table(t.name()).flatMap(b -> b.column(column)).isPresent()) {
        return new SQLException("column " + column + " is not in the policy for private table "
            + t.name() + ": dpsql never releases its values; usable columns: " + String.join(", ",
                t.columns().values().stream().map(org.dpsql.policy.ColumnPolicy::name).toList()),
            org.dpsql.errors.SqlStates.NOT_ALLOWED, cause);
      }
    }
    return null;
  }

  /**
   * A validation error as a {@link SQLException}: unknown tables {@code 42S02}, unknown columns
   * {@code 42S22} (XDP02 when the column exists in the backend but not in the policy), else {@code
   * 42000}.
   */
  private SQLException validationError(CalciteContextException e) {
    String msg = e.getMessage();
    if (msg != null && msg.contains("Object '") && msg.contains("not found")) {
      return new SQLException(msg, "42S02", e);
    }
    String itself = msg == null ? null : quoted(msg, "definition of column '");
    if (itself != null && msg.contains("depends on itself")) {
      // GROUP BY x where x is no column: the validator took it for the select item's alias
      SQLException outside = outsidePolicy(itself, e);
      return outside != null ? outside : new SQLException("Column '" + itself + "' not found in "
          + "any table; " + msg, "42S22", e);
    }
    if (msg != null && msg.contains("Column '") && msg.contains("not found")) {
      String column = quoted(msg, "Column '");
      SQLException outside = outsidePolicy(column, e);
      if (outside != null) {
        return outside;
      }
      for (TablePolicy t : policy.tables().values()) {
        if (!t.isPublic() && t.column(column).isEmpty()) {
          return new SQLException(msg + "; a private table offers only the columns of the policy"
              + " (" + String.join(", ", t.columns().keySet()) + " in " + t.name() + ")", "42S22",
              e);
        }
      }
      return new SQLException(msg, "42S22", e);
    }
    return new SQLException(msg, "42000", e);
  }
}
