package org.dpsql.sql;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.dpsql.backend.BackendCatalog;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.Policy;
import org.dpsql.policy.TablePolicy;
import org.dpsql.sql.relational.ReleasePlan;

/**
 * The policy analysis of one private aggregate: its canonical statement (built from the plan by
 * {@link org.dpsql.sql.relational.CoreAggregate}, never read from text) becomes the typed release
 * specification the measurement layer consumes, an {@link AggregateQuery} or, for grouping sets,
 * derived columns and joins with public lookup tables, a {@link WorkloadQuery}.
 *
 * <p>The specification is assembled here; what it must satisfy is checked by the rules, in this
 * order: {@link DerivedValuesRule} (derived columns evaluated on their domains), or the lookup
 * analysis of a join with public tables ({@link PublicJoins}); per group key {@link
 * PolicyColumnRule} and {@link GroupKeyDomainRule}, then {@link GroupKeysOnceRule} or {@link
 * GroupingSetsRule}; per selected key {@link PolicyColumnRule} and {@link SelectedKeysRule}; per
 * aggregate {@link PublicColumnAggregateRule}, {@link PolicyColumnRule} for its column, the
 * quantile's range ({@link org.dpsql.rewrite.QuantileGrid}) or {@link SumBoundsRule}; then {@link
 * RawRowsRule}, {@link FilterOperatorsRule}, and for a workload {@link WorkloadKeysRule} and
 * {@link WorkloadAggregatesRule}. The first rule that fails refuses the release: XDP02 for what
 * the policy forbids, XDP03 for what cannot be answered privately, each with what to change.
 *
 * <p>Guarantees: every column the specification names is a policy column (or a derived column, a
 * public function of one policy column's cells, or a computed argument with a propagated bound).
 */
final class ReleaseAnalysis {
  private final Policy policy;
  private final PublicJoins publicJoins;
  private final DerivedColumns derivedColumns;

  /**
   * The analysis for one connection: {@code backendDialect} writes the evaluation of derived
   * columns and the reads of public lookup tables, which {@code publicRows} runs.
   */
  ReleaseAnalysis(Policy policy, BackendCatalog catalog, SqlDialect backendDialect,
      FrontEnd.PublicRowReader publicRows) {
    this.policy = policy;
    this.publicJoins = new PublicJoins(policy, catalog, backendDialect, publicRows);
    this.derivedColumns = new DerivedColumns(backendDialect, publicRows);
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
   * The specification of {@code release}, whose budget share is {@code hint}; its derived columns
   * are evaluated on their column's domain in the backend and their definitions become part of the
   * release's identity.
   */
  AnalyzedStatement analyze(ReleasePlan.Release release, DpHint hint) throws SQLException {
    SqlSelect node = release.core().node();
    String normalized = release.coreSql();
    PublicJoins.Joined joined = null;
    if (!release.definitions().isEmpty()) {
      // the canonical statement may name derived and computed columns the backend does not have
      joined = derivedColumns.of(scannedTable(node), release.derived(), release.computed());
      normalized = normalized + " WITH " + String.join(", ", release.definitions());
    }
    Object q;
    try {
      q = specification(node, joined, hint);
    } catch (SQLException e) {
      if (release.core().from() instanceof SqlJoin) {
        throw new LookupJoinRefusal(e);
      }
      throw e;
    }
    // the canonical statement's own parameters (kept in its filter) are typed by the front end
    return q instanceof WorkloadQuery w
        ? new AnalyzedStatement.PrivateWorkload(w, normalized, List.of())
        : new AnalyzedStatement.PrivateAggregate((AggregateQuery) q, normalized, List.of());
  }

  /**
   * The specification of a canonical statement (a SELECT over one private table, or over its join
   * with public lookup tables): an {@link AggregateQuery}, or a {@link WorkloadQuery} for grouping
   * sets, derived columns and joins with public tables. {@code derived}, when not null, gives the
   * derived columns the statement names; {@code hint} is its share of the statement's budget.
   */
  private Object specification(SqlSelect select, PublicJoins.Joined derived, DpHint hint)
      throws SQLException {
    Specified a = specified(select, derived, hint);
    if (a.groupingSets() == null && a.query().joins().isEmpty()) {
      return a.query();
    }
    WorkloadKeysRule.check(a.query());
    WorkloadAggregatesRule.check(a.query());
    AggregateQuery q = a.query();
    if (a.groupingSets() == null) {
      // a join with public tables is answered over its key's cells, as a one-query workload
      return new WorkloadQuery(WorkloadQuery.Shape.UNION_ALL, q.table(), List.of(q), q.hint(),
          q.orderBy());
    }
    List<AggregateQuery> parts = new ArrayList<>();
    for (List<ColumnPolicy> set : a.groupingSets()) {
      parts.add(new AggregateQuery(q.table(), set, q.outputs(), q.where(), q.hint(), List.of(),
          null, null, q.joins()));
    }
    return new WorkloadQuery(WorkloadQuery.Shape.GROUPING_SETS, q.table(), parts, q.hint(),
        q.orderBy());
  }

  /** One SELECT over a private table, and its grouping sets when it has them (else null). */
  private record Specified(AggregateQuery query, List<List<ColumnPolicy>> groupingSets) {}

  private Specified specified(SqlSelect select, PublicJoins.Joined derived, DpHint hint)
      throws SQLException {
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
    // planner leaves those to post-processing of the released rows). Its GROUP BY lists the keys
    // (each a policy or derived column), or holds one GROUPING SETS call whose sets are ROWs of
    // keys (Calcite has expanded ROLLUP and CUBE).
    List<ColumnPolicy> groupBy = new ArrayList<>();
    List<List<ColumnPolicy>> groupingSets = null;
    SqlNodeList group = select.getGroup();
    if (group != null && group.size() == 1 && group.get(0).getKind() == SqlKind.GROUPING_SETS) {
      groupingSets = new ArrayList<>();
      for (SqlNode row : ((SqlCall) group.get(0)).getOperandList()) {
        List<ColumnPolicy> set = new ArrayList<>();
        for (SqlNode key : ((SqlCall) row).getOperandList()) {
          ColumnPolicy c = groupKey(key, table);
          if (!set.contains(c)) {
            set.add(c);
          }
          if (!groupBy.contains(c)) {
            groupBy.add(c);
          }
        }
        groupingSets.add(set);
      }
      GroupingSetsRule.check(groupingSets, groupBy);
    } else if (group != null) {
      for (SqlNode key : group) {
        GroupKeysOnceRule.add(groupBy, groupKey(key, table));
      }
    }

    List<OutputItem> outputs = new ArrayList<>();
    Map<String, Integer> labels = new LinkedHashMap<>();
    boolean anyAggregate = false;
    for (SqlNode item : select.getSelectList()) {
      // every item is "key AS Cn" or "aggregate AS Cn"
      SqlNode expr = ((SqlCall) item).operand(0);
      String alias = ((SqlIdentifier) ((SqlCall) item).operand(1)).getSimple();
      if (expr instanceof SqlIdentifier id) {
        ColumnPolicy c = SelectedKeysRule.check(column(table, id, "SELECT"), groupBy, table);
        outputs.add(new OutputItem(label(alias, c.name(), labels), c, null));
      } else {
        SqlCall call = (SqlCall) expr;
        if (joined != null) {
          PublicColumnAggregateRule.check(call, joined.joins(), joined.privateTable().name());
        }
        outputs.add(aggregate(call, alias, table, labels));
        anyAggregate = true;
      }
    }
    RawRowsRule.check(anyAggregate, groupBy, groupingSets != null, table);
    SqlNode where = select.getWhere() == null ? null
        : FilterOperatorsRule.check(select.getWhere(), table);
    if (joined == null) {
      return new Specified(new AggregateQuery(table, groupBy, outputs, where, hint, List.of(),
          null, null), groupingSets);
    }
    return new Specified(new AggregateQuery(joined.privateTable(), groupBy, outputs, where,
        hint, List.of(), null, null, joined.joins()), groupingSets);
  }

  /** A group key of a release over {@code table}. */
  private static ColumnPolicy groupKey(SqlNode key, TablePolicy table) throws SQLException {
    return GroupKeyDomainRule.check(column(table, (SqlIdentifier) key, "GROUP BY"), table);
  }

  /** The policy of column {@code id} of {@code table}, named in {@code clause}. */
  private static ColumnPolicy column(TablePolicy table, SqlIdentifier id, String clause)
      throws SQLException {
    return PolicyColumnRule.resolve(table, id.names.get(id.names.size() - 1), clause);
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

  /**
   * The output of an aggregate of the canonical statement: a quantile (MIN, MAX, PERCENTILE_CONT
   * or _DISC) of a column, or COUNT(*), COUNT([DISTINCT] col), SUM(col) or AVG(col) of a column
   * (computed arguments are named columns too): CoreAggregate writes no other aggregate.
   */
  private static OutputItem aggregate(SqlCall call, String alias, TablePolicy table,
      Map<String, Integer> labels) throws SQLException {
    QuantileCall.Parsed quantile = QuantileCall.parse(call);
    if (quantile != null) {
      ColumnPolicy c = column(table, quantile.column(), quantile.function());
      org.dpsql.rewrite.QuantileGrid.of(c, quantile.function()); // XDP02/03 without a range
      return new OutputItem(label(alias, quantile.function() + "_" + c.name(), labels), c,
          AggregateKind.QUANTILE, quantile.fraction());
    }
    SqlKind kind = SqlKind.valueOf(SqlCalls.name(call));
    SqlIdentifier id = (SqlIdentifier) call.operand(0);
    SqlLiteral quantifier = call.getFunctionQuantifier();
    if (quantifier != null && "DISTINCT".equalsIgnoreCase(quantifier.toValue())) {
      if (!table.unitIsRow()
          && id.names.get(id.names.size() - 1).equalsIgnoreCase(table.privacyUnit())) {
        return new OutputItem(label(alias, "COUNT_DISTINCT_" + table.privacyUnit(), labels), null,
            AggregateKind.COUNT_DISTINCT_UNIT);
      }
      ColumnPolicy c = column(table, id, "COUNT(DISTINCT ...)");
      return new OutputItem(label(alias, "COUNT_DISTINCT_" + c.name(), labels), c,
          AggregateKind.COUNT_DISTINCT);
    }
    if (id.isStar()) {
      return new OutputItem(label(alias, "COUNT", labels), null, AggregateKind.COUNT_STAR);
    }
    ColumnPolicy c = column(table, id, kind.name());
    if (kind == SqlKind.COUNT) {
      return new OutputItem(label(alias, "COUNT_" + c.name(), labels), c, AggregateKind.COUNT);
    }
    SumBoundsRule.check(kind.name(), c);
    return new OutputItem(label(alias, kind.name() + "_" + c.name(), labels), c,
        kind == SqlKind.SUM ? AggregateKind.SUM : AggregateKind.AVG);
  }

  private static String label(String alias, String fallback, Map<String, Integer> labels) {
    String base = alias != null ? alias : fallback;
    int n = labels.merge(base.toUpperCase(Locale.ROOT), 1, Integer::sum);
    return n == 1 ? base : base + "_" + n;
  }
}
