package org.dpsql.sql.relational;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.rel2sql.SqlImplementor;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.dpsql.errors.SqlStates;

/**
 * One private aggregate of a plan written as the canonical single-table statement that dpsql's
 * measurement layer answers: {@code SELECT keys, aggregates FROM table WHERE filter GROUP BY keys}.
 * The aggregate's input may be any stack of filters and projections over one private table (what
 * subqueries, CTEs and BI tools' "custom SQL" sources become), or over a join of private tables
 * on their shared unit, read as one private table ({@link UnitJoinInput}): each filter and each
 * aggregated or grouped field is traced through the projections back to the table's columns.
 *
 * <p>Guarantees: the canonical statement computes exactly the aggregate's rows (group keys first,
 * in the aggregate's order, then the aggregate calls), so its released rows can stand in for the
 * aggregate; every policy check (columns, domains, clamps, filter operators, bounding) is then made
 * on it by the same analyser as for statements written in that form, and the same aggregate
 * reached through different SQL has the same canonical text, so it is released once. What cannot
 * be traced is refused with XDP03 naming the construct.
 */
public final class CoreAggregate {
  private static final SqlDialect DIALECT = CalciteSqlDialect.DEFAULT;

  private CoreAggregate() {}

  /**
   * An expression of one column with a point domain (categorical values, or integer bins of width
   * 1), used as a group key or compared in a filter: the canonical statement names it {@code name}
   * and it is evaluated on the column's domain values, so that it is a public function of the
   * column's cells.
   *
   * @param name the derived column's name in the canonical statement
   * @param column the table column it is a function of
   * @param expression the expression over the table's columns
   * @param text the expression as SQL over the column (for messages and the release key)
   */
  public record Derived(String name, String column, RexNode expression, String text) {}

  /**
   * An aggregated argument that is an expression ({@code SUM(FARE * 1.2 + 1)}): the canonical
   * statement aggregates it as column {@code name}, measured as the value {@code expression}
   * (columns clamped, see {@link ValueBounds}) clamped to {@code range}.
   */
  public record Computed(String name, int jdbcType, org.dpsql.policy.Clamp range,
      org.dpsql.policy.ComputedValue value) {}

  /**
   * The canonical statement of a private aggregate, as a parse tree built from the plan (never
   * written as text and parsed again): its select list (group keys {@code C0, C1, ...} first, then
   * the aggregate calls), the relation it reads, its filter (null when none) and its grouping
   * (null when none), with its derived columns (none when every group key and compared value is a
   * plain column) and its computed arguments. {@code listsDomain}: it has no aggregate call and
   * every group key is (a function of) a column with a declared domain, so its answer is that
   * domain, free (see {@code org.dpsql.release.DomainListing}).
   *
   * <p>{@code parameters}: the canonical statement has parameters of its own, one per {@code ?}
   * it contains, numbered 0, 1, ... in the order the tree is visited (select list, relation,
   * filter, grouping); {@code parameters.get(k)} is the index of the statement's parameter that
   * its k-th stands for. Its text and the values bound to its own parameters identify the
   * release, so values the statement uses elsewhere (HAVING, LIMIT, another release) do not.
   */
  public record Canonical(List<SqlNode> select, SqlNode from, SqlNode where,
      SqlNodeList group, List<Derived> derived, List<Computed> computed, boolean listsDomain,
      List<Integer> parameters, ReleasePlan.Text body) {
    public Canonical {
      select = List.copyOf(select);
      derived = List.copyOf(derived);
      computed = List.copyOf(computed);
      parameters = List.copyOf(parameters);
    }

    /**
     * The canonical statement of these parts, whose {@code ?} stand for the statement's
     * parameters (at the statement's indexes): numbered as its own (see {@link #parameters}).
     */
    static Canonical numbered(List<SqlNode> select, SqlNode from, SqlNode where,
        SqlNodeList group, List<Derived> derived, List<Computed> computed, boolean listsDomain) {
      List<Integer> statementIndexes = new ArrayList<>();
      org.apache.calcite.sql.util.SqlShuttle own = new org.apache.calcite.sql.util.SqlShuttle() {
        @Override
        public SqlNode visit(org.apache.calcite.sql.SqlDynamicParam param) {
          statementIndexes.add(param.getIndex());
          return new org.apache.calcite.sql.SqlDynamicParam(statementIndexes.size() - 1,
              param.getParserPosition());
        }
      };
      List<SqlNode> items = new ArrayList<>();
      select.forEach(n -> items.add(n.accept(own)));
      SqlNode relation = from.accept(own);
      SqlNode filter = where == null ? null : where.accept(own);
      SqlNodeList grouping = group == null ? null : (SqlNodeList) group.accept(own);
      return new Canonical(items, relation, filter, grouping, derived, computed, listsDomain,
          statementIndexes, ReleasePlan.Text.of(() -> written(items, relation, filter, grouping)));
    }

    /** The statement as text, without a hint. */
    private static String written(List<SqlNode> select, SqlNode from, SqlNode where,
        SqlNodeList group) {
      return node(select, from, where, group).toSqlString(c -> c.withDialect(DIALECT)
          .withAlwaysUseParentheses(false).withSelectListItemsOnSeparateLines(false)
          .withUpdateSetListNewline(false).withIndentation(0)).getSql().replace('\n', ' ');
    }

    /**
     * A fresh parse tree of the statement (the analysis may rewrite the tree it is given), without
     * a DP hint: the statement's hint is passed to the analysis as a value.
     */
    public SqlSelect node() {
      return node(select, from, where, group);
    }

    private static SqlSelect node(List<SqlNode> select, SqlNode from, SqlNode where,
        SqlNodeList group) {
      SqlParserPos pos = SqlParserPos.ZERO;
      SqlNodeList items = new SqlNodeList(pos);
      select.forEach(n -> items.add(copy(n)));
      return new SqlSelect(pos, null, items, copy(from),
          where == null ? null : copy(where), group == null ? null : (SqlNodeList) copy(group),
          null, null, null, null, null, null, null);
    }

    /**
     * The statement as text with {@code hintText} ({@code /*+ DP(...) *}{@code /}, or empty) as its
     * DP hint: what the ledger and EXPLAIN show.
     */
    public String sql(String hintText) {
      String text = body.get(); // written once
      return hintText.isEmpty() ? text : "SELECT " + hintText + text.substring("SELECT".length());
    }

    private static SqlNode copy(SqlNode n) {
      return n.accept(DeepCopy.INSTANCE);
    }
  }

  /** A copy of a parse tree whose calls and lists are all new (identifiers and literals shared). */
  private static final class DeepCopy extends org.apache.calcite.sql.util.SqlShuttle {
    static final DeepCopy INSTANCE = new DeepCopy();

    @Override
    public SqlNode visit(org.apache.calcite.sql.SqlCall call) {
      CallCopyingArgHandler handler = new CallCopyingArgHandler(call, true);
      call.getOperator().acceptCall(this, call, false, handler);
      return handler.result();
    }

    @Override
    public SqlNode visit(SqlNodeList list) {
      SqlNodeList out = new SqlNodeList(list.getParserPosition());
      for (SqlNode n : list) {
        out.add(n == null ? null : n.accept(this));
      }
      return out;
    }

    @Override
    public SqlNode visit(SqlIdentifier id) {
      return id.clone(id.getParserPosition());
    }
  }

  /** A computed value written in each backend's dialect from its expression over the columns. */
  private record RexValue(RexNode expression, List<String> columns, String text)
      implements org.dpsql.policy.ComputedValue {
    @Override
    public String sql(SqlDialect dialect) {
      return sqlOf(expression, columns::get, dialect);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof RexValue r && r.text.equals(text);
    }

    @Override
    public int hashCode() {
      return text.hashCode();
    }
  }

  /**
   * The canonical statement of {@code aggregate} over the tables of {@code policy} (columns with a
   * point domain may be used through expressions, as derived columns). Its input may also join
   * private tables that share their unit: such an input is read as their {@link org.dpsql.policy.UnitJoin} relation
   * (see {@link UnitJoinInput}), and the canonical statement reads that relation; {@code
   * backend} is the dialect it will be measured in.
   */
  static Canonical of(Aggregate aggregate, org.dpsql.policy.Policy policy, SqlDialect backend)
      throws SQLException {
    if (UnitJoinInput.joinsPrivateTables(aggregate.getInput(), policy)) {
      UnitJoinInput.Traced t = UnitJoinInput.trace(aggregate.getInput(), policy, backend);
      org.dpsql.policy.TablePolicy r = t.relation();
      List<String> name = r.schema() == null ? List.of(r.name()) : List.of(r.schema(), r.name());
      return of(aggregate, r::column, new Input(t.columns(), t.fields(), t.conditions(),
          new SqlIdentifier(name, SqlParserPos.ZERO), java.util.Map.of()));
    }
    if (PublicJoinInput.isLookupJoin(aggregate.getInput(), policy)) {
      // a join with public lookup tables: kept in the canonical statement's FROM
      PublicJoinInput.Traced t = PublicJoinInput.trace(aggregate.getInput(), policy);
      java.util.Map<String, SqlIdentifier> qualified = new java.util.HashMap<>();
      for (int i = 0; i < t.columns().size(); i++) {
        qualified.putIfAbsent(t.columns().get(i), t.names().get(i));
      }
      org.dpsql.policy.TablePolicy table = t.privateTable();
      return of(aggregate, table == null ? c -> java.util.Optional.empty() : table::column,
          new Input(t.columns(), t.fields(), t.conditions(), t.from(), qualified));
    }
    SQLException semi = semiJoinRefusal(aggregate.getInput(), policy);
    if (semi != null) {
      throw semi;
    }
    List<String> scanned = tableName(aggregate.getInput());
    org.dpsql.policy.TablePolicy table = scanned == null ? null
        : policy.table(scanned.get(scanned.size() - 1)).orElse(null);
    return of(aggregate, table == null ? c -> java.util.Optional.empty() : table::column, null);
  }

  /** The qualified name of the table below a chain of filters and projections, or null. */
  private static List<String> tableName(RelNode node) {
    while (node instanceof Project || node instanceof Filter) {
      node = node.getInput(0);
    }
    return node instanceof TableScan scan ? scan.getTable().getQualifiedName() : null;
  }

  /**
   * An aggregate's input already traced: the columns of the relation it reads, its fields and
   * conditions over them, and the relation's qualified name.
   */
  private record Input(List<String> columns, List<RexNode> fields, List<RexNode> conditions,
      SqlNode from, java.util.Map<String, SqlIdentifier> qualified) {
    /** The identifier of column {@code column} in the canonical statement. */
    SqlIdentifier name(String column) {
      SqlIdentifier q = qualified.get(column);
      return q != null ? (SqlIdentifier) q.clone(SqlParserPos.ZERO) : id(column);
    }

    /** {@code n} with its column identifiers as {@link #name} gives them. */
    SqlNode qualify(SqlNode n) {
      if (qualified.isEmpty() || n == null) {
        return n;
      }
      return n.accept(new org.apache.calcite.sql.util.SqlShuttle() {
        @Override
        public SqlNode visit(SqlIdentifier id) {
          return id.isSimple() ? name(id.getSimple()) : id;
        }
      });
    }
  }

  private static Canonical of(Aggregate aggregate,
      java.util.function.Function<String, java.util.Optional<org.dpsql.policy.ColumnPolicy>> policy,
      Input traced) throws SQLException {
    Cells cells = new Cells(policy);
    RexShuttle unpadding = unpadding(aggregate.getCluster().getRexBuilder());
    Input input = traced != null ? traced : traceChain(aggregate, unpadding);
    List<String> columns = input.columns();
    List<RexNode> fields = new ArrayList<>();
    input.fields().forEach(f -> fields.add(f.accept(unpadding)));
    List<RexNode> conditions = new ArrayList<>();
    input.conditions().forEach(c -> conditions.add(c.accept(unpadding)));
    List<Derived> derived = new ArrayList<>();
    List<SqlNode> select = new ArrayList<>();
    List<SqlNode> groupBy = new ArrayList<>();
    List<Integer> keys = new ArrayList<>();
    int out = 0;
    boolean declaredKeys = true;
    for (int key : aggregate.getGroupSet()) {
      keys.add(key);
      RexNode e = fields.get(key);
      // a time column is grouped by its bins, labelled by their starts (a derived column)
      String column;
      if (e instanceof RexInputRef ref && !cells.isTime(columns.get(ref.getIndex()))) {
        column = columns.get(ref.getIndex());
        declaredKeys &= policy.apply(column).map(c -> !c.hasPrivateKeys()).orElse(false);
      } else {
        Derived d = derive(e, columns, cells, derived, "GROUP BY",
            aggregate.getCluster().getRexBuilder());
        column = d.name();
        declaredKeys &= policy.apply(d.column()).map(c -> !c.hasPrivateKeys()).orElse(false);
      }
      groupBy.add(id(column));
      select.add(as(id(column), out++));
    }
    List<Computed> computed = new ArrayList<>();
    ValueBounds bounds = new ValueBounds(aggregate.getCluster().getRexBuilder(), columns, policy);
    for (AggregateCall call : aggregate.getAggCallList()) {
      select.add(as(aggregate(call, fields, columns, bounds, computed), out++));
    }
    SqlNode whereNode = null;
    if (!conditions.isEmpty()) {
      RexNode where = RexUtil.composeConjunction(aggregate.getCluster().getRexBuilder(), conditions);
      if (RexUtil.containsCorrelation(where)) {
        throw SqlStates.notSupported("a subquery over a private table that refers to a column of "
            + "the outer query (a correlated subquery) is not supported; group the private "
            + "aggregate by that column and join it instead, e.g. (SELECT REGION, COUNT(*) AS n "
            + "FROM TRIPS GROUP BY REGION) t JOIN ZONES z ON z.REGION = t.REGION");
      }
      where = RexUtil.expandSearch(aggregate.getCluster().getRexBuilder(), null, where)
          .accept(unpadding).accept(uncastParameters(aggregate.getCluster().getRexBuilder()));
      where = derivedComparisons(where, columns, cells, derived,
          aggregate.getCluster().getRexBuilder());
      whereNode = nodeOf(where, i -> i < columns.size() ? input.name(columns.get(i))
          : id(derived.get(i - columns.size()).name()));
    }
    SqlNodeList group = null;
    SqlParserPos pos = SqlParserPos.ZERO;
    if (aggregate.getGroupType() != Aggregate.Group.SIMPLE) {
      // ROLLUP, CUBE, GROUPING SETS: every grouping set, over the same (derived) keys
      SqlNodeList sets = new SqlNodeList(pos);
      for (org.apache.calcite.util.ImmutableBitSet set : aggregate.getGroupSets()) {
        SqlNodeList cols = new SqlNodeList(pos);
        for (int key : set) {
          cols.add(groupBy.get(keys.indexOf(key)));
        }
        sets.add(SqlStdOperatorTable.ROW.createCall(cols));
      }
      group = SqlNodeList.of(SqlStdOperatorTable.GROUPING_SETS.createCall(sets));
    } else if (!groupBy.isEmpty()) {
      group = new SqlNodeList(groupBy, pos);
    }
    boolean listsDomain = aggregate.getAggCallList().isEmpty() && !keys.isEmpty()
        && aggregate.getGroupType() == Aggregate.Group.SIMPLE && declaredKeys;
    if (input.from() instanceof org.apache.calcite.sql.SqlJoin
        && (!derived.isEmpty() || !computed.isEmpty())) {
      throw SqlStates.notSupported("a private aggregate joined with public lookup tables groups, "
          + "filters and aggregates columns as they are: expressions of columns (time bins, "
          + "CASE, arithmetic) are not supported with such a join; aggregate the private table in "
          + "a subquery grouped by the join key, and join the public table with its released "
          + "rows");
    }
    List<SqlNode> items = new ArrayList<>();
    select.forEach(n -> items.add(input.qualify(n)));
    return Canonical.numbered(items, input.from(), whereNode,
        group == null ? null : (SqlNodeList) input.qualify(group), derived, computed,
        listsDomain);
  }

  private static SqlNode countStar() {
    return SqlStdOperatorTable.COUNT.createCall(SqlParserPos.ZERO,
        SqlIdentifier.star(SqlParserPos.ZERO));
  }

  private static SqlIdentifier id(String name) {
    return new SqlIdentifier(name, SqlParserPos.ZERO);
  }

  /** {@code e AS "C<i>"}. */
  private static SqlNode as(SqlNode e, int i) {
    return SqlStdOperatorTable.AS.createCall(SqlParserPos.ZERO, e, id("C" + i));
  }

  /** The input of an aggregate that reads one table through filters and projections. */
  private static Input traceChain(Aggregate aggregate, RexShuttle unpadding) throws SQLException {
    List<RelNode> chain = new ArrayList<>();
    RelNode node = aggregate.getInput();
    while (node instanceof Project || node instanceof Filter) {
      chain.add(node);
      node = node.getInput(0);
    }
    if (!(node instanceof TableScan scan)) {
      throw new ShapeRefusal(node instanceof org.apache.calcite.rel.core.Join, "an aggregate over "
          + "a private table may read that table through filters, projections, subqueries and "
          + "CTEs; this one reads " + describe(node) + " (unions below a private aggregate are "
          + "not supported: aggregate each branch separately and combine the released rows)");
    }
    List<String> columns = scan.getRowType().getFieldNames();
    List<RexNode> fields = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      fields.add(new RexInputRef(i, scan.getRowType().getFieldList().get(i).getType()));
    }
    List<RexNode> conditions = new ArrayList<>();
    for (int c = chain.size() - 1; c >= 0; c--) {
      RelNode r = chain.get(c);
      if (r instanceof Filter f) {
        conditions.add(traced(f.getCondition(), fields, unpadding));
      } else {
        List<RexNode> next = new ArrayList<>();
        for (RexNode e : ((Project) r).getProjects()) {
          next.add(traced(e, fields, unpadding));
        }
        fields = next;
      }
    }
    return new Input(columns, fields, conditions,
        new SqlIdentifier(scan.getTable().getQualifiedName(), SqlParserPos.ZERO),
        java.util.Map.of());
  }

  /** The policy columns whose cells expressions may be evaluated on. */
  private record Cells(
      java.util.function.Function<String, java.util.Optional<org.dpsql.policy.ColumnPolicy>>
          policies) {
    org.dpsql.policy.ColumnPolicy policy(String column) {
      return policies.apply(column).orElseThrow();
    }

    /** A column with one value per cell, or a time column (whose bins need a proof). */
    boolean derivable(String column) {
      return policies.apply(column).map(c -> org.dpsql.rewrite.PublicJoin.isPointDomain(c)
          || c.time().isPresent()).orElse(false);
    }

    boolean isTime(String column) {
      return policies.apply(column).map(c -> c.time().isPresent()).orElse(false);
    }
  }

  /** The comparisons that are valid filters on a private table once their operands are columns. */
  private static final java.util.Set<SqlKind> COMPARISONS = java.util.EnumSet.of(SqlKind.EQUALS,
      SqlKind.NOT_EQUALS, SqlKind.LESS_THAN, SqlKind.LESS_THAN_OR_EQUAL, SqlKind.GREATER_THAN,
      SqlKind.GREATER_THAN_OR_EQUAL, SqlKind.LIKE);

  /** The kinds a derived expression keeps as they are when they are a comparison's operand. */
  private static final java.util.Set<SqlKind> PLAIN = java.util.EnumSet.of(SqlKind.INPUT_REF,
      SqlKind.LITERAL, SqlKind.DYNAMIC_PARAM);

  /**
   * {@code condition} with every compared operand that is an expression of one point-domain
   * column (e.g. {@code UPPER(PAYMENT) = 'CASH'}, {@code FLOOR(AGE / 10) = 3}) replaced by a
   * derived column, which the measurement evaluates on the column's cells instead of on the rows.
   */
  private static RexNode derivedComparisons(RexNode condition, List<String> columns,
      Cells cells, List<Derived> derived, org.apache.calcite.rex.RexBuilder rex)
      throws SQLException {
    SQLException[] failure = new SQLException[1];
    RexNode out = condition.accept(new RexShuttle() {
      @Override
      public RexNode visitCall(org.apache.calcite.rex.RexCall call) {
        if (!COMPARISONS.contains(call.getKind()) || failure[0] != null) {
          return super.visitCall(call);
        }
        if (comparesTimeColumn(call)) {
          // the comparison itself becomes a derived column, true on the bins it selects
          try {
            Derived d = derive(call, columns, cells, derived, "WHERE", rex);
            return rex.makeCall(org.apache.calcite.sql.fun.SqlStdOperatorTable.EQUALS,
                new RexInputRef(columns.size() + derived.indexOf(d), call.getType()),
                rex.makeLiteral(true));
          } catch (SQLException e) {
            failure[0] = e;
            return call;
          }
        }
        List<RexNode> operands = new ArrayList<>();
        boolean changed = false;
        for (RexNode o : call.getOperands()) {
          java.util.BitSet used = org.apache.calcite.plan.RelOptUtil.InputFinder.bits(o).toBitSet();
          if (!PLAIN.contains(o.getKind()) && !arithmetic(o) && used.cardinality() == 1
              && cells.derivable(columns.get(used.nextSetBit(0)))) {
            try {
              Derived d = derive(o, columns, cells, derived, "WHERE", rex);
              operands.add(new RexInputRef(columns.size() + derived.indexOf(d), o.getType()));
              changed = true;
              continue;
            } catch (SQLException e) {
              failure[0] = e;
            }
          }
          operands.add(o);
        }
        return changed ? call.clone(call.getType(), operands) : call;
      }

      /** Whether an operand of the comparison is a time column itself (maybe cast). */
      private boolean comparesTimeColumn(org.apache.calcite.rex.RexCall call) {
        for (RexNode o : call.getOperands()) {
          RexNode e = o;
          while (e instanceof org.apache.calcite.rex.RexCall c && c.getKind() == SqlKind.CAST) {
            e = c.getOperands().get(0);
          }
          if (e instanceof RexInputRef ref && ref.getIndex() < columns.size()
              && cells.isTime(columns.get(ref.getIndex()))) {
            return true;
          }
        }
        return false;
      }
    });
    if (failure[0] != null) {
      throw failure[0];
    }
    return out;
  }

  /** The operators a filter may apply to rows as they are: they cannot fail on a value. */
  private static final java.util.Set<SqlKind> ARITHMETIC = java.util.EnumSet.of(SqlKind.PLUS,
      SqlKind.MINUS, SqlKind.TIMES, SqlKind.MINUS_PREFIX, SqlKind.PLUS_PREFIX);

  /**
   * Whether {@code e} is +, -, * over columns, literals and parameters: the backend evaluates it
   * on the rows, as a filter written on the table directly is, so it needs no derived column.
   */
  private static boolean arithmetic(RexNode e) {
    if (PLAIN.contains(e.getKind())) {
      return true;
    }
    return e instanceof org.apache.calcite.rex.RexCall c && ARITHMETIC.contains(c.getKind())
        && c.getOperands().stream().allMatch(CoreAggregate::arithmetic);
  }

  /**
   * The derived column for {@code e}, an expression of exactly one point-domain column (reused
   * when the statement derives the same expression twice), or XDP03 naming the expression.
   */
  private static Derived derive(RexNode e, List<String> columns, Cells cells,
      List<Derived> derived, String clause, org.apache.calcite.rex.RexBuilder rex)
      throws SQLException {
    if (hasParameter(e)) {
      throw new NeedsValues(); // evaluated on the domain once its values are bound
    }
    java.util.BitSet used = org.apache.calcite.plan.RelOptUtil.InputFinder.bits(e).toBitSet();
    if (used.cardinality() != 1 || !cells.derivable(columns.get(used.nextSetBit(0)))) {
      column(e, columns, clause); // throws, naming the expression
    }
    int index = used.nextSetBit(0);
    e = DateTrunc.portable(e, rex);
    String text = sqlOf(e, columns::get, DIALECT);
    if (!(e instanceof RexInputRef && clause.equals("GROUP BY"))) { // grouping labels the bins
      TimeBins.checkConstant(e, index, cells.policy(columns.get(index)), text);
    }
    for (Derived d : derived) {
      if (d.text().equals(text)) {
        return d;
      }
    }
    Derived d = new Derived("DPSQL_X" + derived.size(), columns.get(index), e, text);
    derived.add(d);
    return d;
  }

  /**
   * COUNT(*), COUNT(x), SUM(x) or AVG(x) of a traced aggregate call, where x is a column or a
   * computed argument (an expression with a propagated bound).
   */
  private static SqlNode aggregate(AggregateCall call, List<RexNode> fields, List<String> columns,
      ValueBounds bounds, List<Computed> computed) throws SQLException {
    String name = call.getAggregation().getName();
    if (call.filterArg >= 0) {
      // COUNT, SUM, AVG and the variances with a FILTER arrive as their conditional forms (see
      // org.dpsql.sql.FilterClauses); what remains has no conditional form that is answered
      throw SqlStates.notSupported(name + (call.isDistinct() ? "(DISTINCT ...)" : "(...)")
          + " FILTER (WHERE ...) over a private table is not supported (FILTER is answered on "
          + "COUNT, SUM, AVG, STDDEV and VARIANCE); move the condition into WHERE");
    }
    SqlKind kind = call.getAggregation().getKind();
    SqlNode quantile = quantile(call, kind, fields, columns);
    if (quantile != null) {
      return quantile;
    }
    if (call.isDistinct()) {
      if (kind == SqlKind.COUNT && call.getArgList().size() == 1
          && fields.get(call.getArgList().get(0)) instanceof RexInputRef ref) {
        // the single-table analysis checks the column (a policy column or the privacy unit)
        return SqlStdOperatorTable.COUNT.createCall(
            org.apache.calcite.sql.SqlSelectKeyword.DISTINCT.symbol(SqlParserPos.ZERO),
            SqlParserPos.ZERO, id(columns.get(ref.getIndex())));
      }
      throw SqlStates.notSupported(name + "(DISTINCT ...) is answered privately only as COUNT("
          + "DISTINCT <policy column or privacy unit>); drop DISTINCT otherwise");
    }
    if (kind == SqlKind.COUNT) {
      if (call.getArgList().isEmpty()) {
        return countStar();
      }
      RexNode arg = fields.get(call.getArgList().get(0));
      if (arg instanceof RexLiteral lit && !lit.isNull()) {
        return countStar(); // COUNT(1): every row
      }
      return SqlStdOperatorTable.COUNT.createCall(SqlParserPos.ZERO,
          id(argument(arg, columns, bounds, computed)));
    }
    if (kind == SqlKind.SUM || kind == SqlKind.SUM0 || kind == SqlKind.AVG) {
      RexNode arg = fields.get(call.getArgList().get(0));
      return (kind == SqlKind.AVG ? SqlStdOperatorTable.AVG : SqlStdOperatorTable.SUM).createCall(
          SqlParserPos.ZERO, id(argument(arg, columns, bounds, computed)));
    }
    throw SqlStates.notSupported(name + " cannot be answered privately by dpsql yet; supported "
        + "aggregates are COUNT(*), COUNT(col), SUM(col) and AVG(col)");
  }

  /**
   * {@code PERCENTILE_CONT(p) WITHIN GROUP (ORDER BY col [DESC])}, {@code PERCENTILE_DISC(...)},
   * {@code MIN(col)} or {@code MAX(col)} of a traced call (the single-table analysis checks the
   * column's public range), null for any other aggregate; XDP03 for a quantile of an expression.
   */
  private static SqlNode quantile(AggregateCall call, SqlKind kind, List<RexNode> fields,
      List<String> columns) throws SQLException {
    String name = call.getAggregation().getName();
    if (kind == SqlKind.MIN || kind == SqlKind.MAX) {
      return call.isDistinct() || call.getArgList().size() != 1 ? null
          : (kind == SqlKind.MIN ? SqlStdOperatorTable.MIN : SqlStdOperatorTable.MAX).createCall(
              SqlParserPos.ZERO, id(quantileColumn(fields.get(call.getArgList().get(0)), columns,
                  name)));
    }
    if (kind != SqlKind.PERCENTILE_CONT && kind != SqlKind.PERCENTILE_DISC) {
      return null;
    }
    if (call.getArgList().size() == 1 && hasParameter(fields.get(call.getArgList().get(0)))) {
      throw new NeedsValues(); // the fraction is checked once it is bound
    }
    if (call.getArgList().size() != 1 || call.getCollation().getFieldCollations().size() != 1
        || !(fields.get(call.getArgList().get(0)) instanceof RexLiteral p)) {
      throw SqlStates.notSupported(name + " over a private table takes a number literal and one "
          + "policy column: " + name + "(0.5) WITHIN GROUP (ORDER BY col)");
    }
    org.apache.calcite.rel.RelFieldCollation order =
        call.getCollation().getFieldCollations().get(0);
    SqlParserPos pos = SqlParserPos.ZERO;
    SqlNode key = id(quantileColumn(fields.get(order.getFieldIndex()), columns, name));
    if (order.getDirection().isDescending()) {
      key = SqlStdOperatorTable.DESC.createCall(pos, key);
    }
    return SqlStdOperatorTable.WITHIN_GROUP.createCall(pos,
        (kind == SqlKind.PERCENTILE_CONT ? SqlStdOperatorTable.PERCENTILE_CONT
            : SqlStdOperatorTable.PERCENTILE_DISC).createCall(pos, SqlLiteral.createExactNumeric(
                p.getValueAs(java.math.BigDecimal.class).toPlainString(), pos)),
        SqlNodeList.of(key));
  }

  /** The table column a quantile is taken of, or XDP03 naming the expression. */
  private static String quantileColumn(RexNode e, List<String> columns, String name)
      throws SQLException {
    if (e instanceof RexInputRef ref) {
      return columns.get(ref.getIndex());
    }
    throw SqlStates.notSupported(name + " of the expression " + sqlOf(e, columns::get, DIALECT)
        + " over a private table is not supported: a private quantile is taken of a policy "
        + "column with a public range");
  }

  /**
   * The column an aggregated argument is: a table column, or a computed column whose value and
   * bound {@link ValueBounds} derives (reused when the statement aggregates it twice).
   */
  private static String argument(RexNode arg, List<String> columns, ValueBounds bounds,
      List<Computed> computed) throws SQLException {
    if (arg instanceof RexInputRef ref) {
      return columns.get(ref.getIndex());
    }
    if (hasParameter(arg)) {
      throw new NeedsValues(); // its bound is propagated once its values are bound
    }
    String shown = sqlOf(arg, columns::get, DIALECT);
    ValueBounds.Bounded b = bounds.of(arg, shown);
    String text = sqlOf(b.expression(), columns::get, DIALECT);
    for (Computed c : computed) {
      if (c.value().text().equals(text)) {
        return c.name();
      }
    }
    org.apache.calcite.sql.type.SqlTypeName type = arg.getType().getSqlTypeName();
    int jdbc = org.apache.calcite.sql.type.SqlTypeName.INT_TYPES.contains(type)
        ? java.sql.Types.BIGINT : java.sql.Types.DECIMAL;
    Computed c = new Computed("DPSQL_V" + computed.size(), jdbc, b.range(),
        new RexValue(b.expression(), columns, text));
    computed.add(c);
    return c.name();
  }

  /** The table column an expression is, or XDP03 naming the expression. */
  private static String column(RexNode e, List<String> columns, String clause)
      throws SQLException {
    if (e instanceof RexInputRef ref) {
      return columns.get(ref.getIndex());
    }
    throw SqlStates.notSupported(clause + " of the expression " + sqlOf(e, columns::get, DIALECT) + " over a private table"
        + " is not supported: " + clause + " a policy column, or an expression of one column whose"
        + " domain lists its values (categorical values, or integer bins of width 1)");
  }

  /** {@code e} as a parse tree, input field {@code i} named {@code name(i)}. */
  static SqlNode nodeOf(RexNode e, java.util.function.IntFunction<SqlIdentifier> name) {
    SqlImplementor.SimpleContext context = new SqlImplementor.SimpleContext(DIALECT,
        name::apply);
    return context.toSql(null, e);
  }

  /** {@code e} as SQL of {@code dialect}, input field {@code i} named {@code name(i)}. */
  public static String sqlOf(RexNode e, java.util.function.IntFunction<String> name,
      SqlDialect dialect) {
    SqlImplementor.SimpleContext context = new SqlImplementor.SimpleContext(dialect,
        i -> new SqlIdentifier(name.apply(i), SqlParserPos.ZERO));
    return context.toSql(null, e).toSqlString(dialect).getSql();
  }

  /** {@code e} with the input fields replaced by their expressions over the table's columns. */
  private static RexNode traced(RexNode e, List<RexNode> fields, RexShuttle unpadding) {
    return e.accept(new RexShuttle() {
      @Override
      public RexNode visitInputRef(RexInputRef ref) {
        return fields.get(ref.getIndex());
      }
    }).accept(unpadding);
  }

  /**
   * Removes the blank padding that SQL's CHAR typing adds to text literals: Calcite types the
   * literals of {@code CASE ... THEN 'many' ELSE 'few' END} or {@code IN ('N', 'SW')} as CHAR of
   * the longest, so 'few' becomes 'few '. A backend compares such a literal with a VARCHAR column
   * blank-sensitively ('N ' matches no row) and shows it padded, so every CHAR literal is written
   * without trailing blanks (CHAR comparison ignores them, so nothing else changes).
   */
  static RexShuttle unpadding(org.apache.calcite.rex.RexBuilder rex) {
    return new RexShuttle() {
      @Override
      public RexNode visitCall(org.apache.calcite.rex.RexCall call) {
        if (call.getKind() == SqlKind.CAST
            && call.getType().getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.CHAR
            && call.getOperands().get(0) instanceof RexLiteral lit
            && lit.getTypeName() == org.apache.calcite.sql.type.SqlTypeName.CHAR) {
          return visitLiteral(lit);
        }
        return super.visitCall(call);
      }

      @Override
      public RexNode visitLiteral(RexLiteral lit) {
        if (lit.getTypeName() == org.apache.calcite.sql.type.SqlTypeName.CHAR) {
          String v = lit.getValueAs(String.class);
          if (v != null && !v.equals(v.stripTrailing())) {
            return rex.makeLiteral(v.stripTrailing());
          }
        }
        return lit;
      }
    };
  }

  /**
   * Replaces {@code CAST(? AS type)} (jOOQ's rendering of a bound value) by a parameter of that
   * type: the value is bound in the parameter's type, so the cast cannot fail on a row.
   */
  private static RexShuttle uncastParameters(org.apache.calcite.rex.RexBuilder rex) {
    return new RexShuttle() {
      @Override
      public RexNode visitCall(org.apache.calcite.rex.RexCall call) {
        if (call.getKind() == SqlKind.CAST
            && call.getOperands().get(0) instanceof org.apache.calcite.rex.RexDynamicParam p) {
          return rex.makeDynamicParam(call.getType(), p.getIndex());
        }
        return super.visitCall(call);
      }
    };
  }

  /** Whether {@code e} has a dynamic parameter. */
  static boolean hasParameter(RexNode e) {
    boolean[] found = new boolean[1];
    e.accept(new org.apache.calcite.rex.RexVisitorImpl<Void>(true) {
      @Override
      public Void visitDynamicParam(org.apache.calcite.rex.RexDynamicParam param) {
        found[0] = true;
        return null;
      }
    });
    return found[0];
  }

  /**
   * A statement whose canonical statement depends on a parameter's value beyond its filter's
   * comparisons (a derived column, a time bin or a computed argument with a parameter): it is
   * planned once its values are bound (see {@code org.dpsql.sql.StatementTemplate}).
   */
  public static final class NeedsValues extends SQLException {
    NeedsValues() {
      super("this statement is planned once its parameters are bound", SqlStates.NOT_SUPPORTED);
    }
  }

  /**
   * XDP03 for an input of a private aggregate that is not filters and projections over one table;
   * {@code overJoin} tells whether that input is a join (the single-table analysis knows joins
   * with public lookup tables and names their problems more precisely).
   */
  static final class ShapeRefusal extends SQLException {
    private final boolean overJoin;

    ShapeRefusal(boolean overJoin, String message) {
      super(message, SqlStates.NOT_SUPPORTED);
      this.overJoin = overJoin;
    }

    boolean overJoin() {
      return overJoin;
    }
  }

  /**
   * Whether {@code e} refuses a private aggregate over a join with public tables (which the
   * single-table analysis explains better), not a join of private tables.
   */
  public static boolean refusesJoin(SQLException e) {
    return e instanceof ShapeRefusal s && s.overJoin();
  }

  /** Whether {@code e} refuses a join of private tables (its reason is the one to show). */
  public static boolean refusesPrivateJoin(SQLException e) {
    return e instanceof UnitJoinInput.Refusal;
  }

  /**
   * XDP03 for a join with the distinct values of a private table's column, which is what {@code
   * col IN (SELECT col FROM other WHERE ...)} and {@code EXISTS (...)} become, when it is left in
   * the plan (the distinct units of a table with one row per unit are its rows, see {@code
   * PrivacyAnalysis}); the message shows the join on the shared unit to write instead. Null when
   * the input is not such a join.
   */
  private static SQLException semiJoinRefusal(RelNode input, org.dpsql.policy.Policy policy) {
    RelNode node = input;
    while (node instanceof Project || node instanceof Filter) {
      node = node.getInput(0);
    }
    if (node instanceof org.apache.calcite.rel.core.Correlate c) {
      List<String> inner = privateTable(c.getRight(), policy);
      List<String> outer = tableName(c.getLeft());
      return inner == null || outer == null ? null
          : semiJoin(outer.get(outer.size() - 1), inner.get(inner.size() - 1));
    }
    if (!(node instanceof org.apache.calcite.rel.core.Join join)) {
      return null;
    }
    for (RelNode side : join.getInputs()) {
      RelNode n = side;
      while (n instanceof Project || n instanceof Filter) {
        n = n.getInput(0);
      }
      if (!(n instanceof Aggregate a) || !a.getAggCallList().isEmpty()) {
        continue;
      }
      List<String> inner = privateTable(a.getInput(), policy);
      List<String> outer = tableName(join.getInputs().get(side == join.getLeft() ? 1 : 0));
      if (inner != null && outer != null) {
        return semiJoin(outer.get(outer.size() - 1), inner.get(inner.size() - 1));
      }
    }
    return null;
  }

  /** The name of the table below filters and projections when it is private, else null. */
  private static List<String> privateTable(RelNode node, org.dpsql.policy.Policy policy) {
    while (node instanceof Project || node instanceof Filter || node instanceof Aggregate) {
      node = node.getInput(0);
    }
    List<String> name = tableName(node);
    return name == null || policy.table(name.get(name.size() - 1)).map(
        org.dpsql.policy.TablePolicy::isPublic).orElse(false) ? null : name;
  }

  /** The refusal of a filter of table {@code self} by the values of table {@code other}. */
  private static SQLException semiJoin(String self, String other) {
    return SqlStates.notSupported("a filter by the values of another private table's column "
          + "(col IN (SELECT col FROM " + other + " WHERE ...), or EXISTS) is answered only as "
          + "unit IN (SELECT unit FROM " + other + " WHERE ...) when the backend declares "
          + other + "'s unit column unique and NOT NULL (one row per unit): it is then the join "
          + "on the shared privacy unit. Write that join instead, e.g. SELECT COUNT(*) FROM "
          + self + " t JOIN " + other + " o ON t.<unit> = o.<unit> WHERE <condition on o> (a row "
          + "of " + self + " then counts once per matching row of " + other + ")");
  }

  static String describe(RelNode node) {
    return node.getRelTypeName().replace("Logical", "").toLowerCase(java.util.Locale.ROOT);
  }
}
