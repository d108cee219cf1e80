package org.dpsql.sql;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlDialect;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.TablePolicy;
import org.dpsql.rewrite.PublicJoin;
import org.dpsql.sql.relational.CoreAggregate;

/**
 * The derived and computed columns of a release as columns of its private table: each derived
 * expression is evaluated by the backend on every value of its column's domain (public data) and
 * becomes a public lookup of that column ({@link PublicJoin#ofCellValues}), so a derived value is
 * a function of the column's cells; each computed argument becomes a column with the bound its
 * expression propagates. The values must pass {@link DerivedValuesRule}.
 *
 * <p>Values of deterministic expressions that read neither clock nor session are kept (at most
 * {@link #CACHED} evaluations, least recently used first out): a statement prepared again does not
 * evaluate them again.
 */
final class DerivedColumns {
  private static final int CACHED = 256;

  private final SqlDialect backendDialect;
  private final FrontEnd.PublicRowReader publicRows;
  private final Map<String, List<Object[]>> values = java.util.Collections.synchronizedMap(
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, List<Object[]>> eldest) {
          return size() > CACHED;
        }
      });

  /** Evaluations written in {@code backendDialect} and run by {@code publicRows}. */
  DerivedColumns(SqlDialect backendDialect, FrontEnd.PublicRowReader publicRows) {
    this.backendDialect = backendDialect;
    this.publicRows = publicRows;
  }

  /** {@code table} with the {@code derived} and {@code computed} columns of a release. */
  PublicJoins.Joined of(TablePolicy table, List<CoreAggregate.Derived> derived,
      List<CoreAggregate.Computed> computed) throws SQLException {
    Map<String, List<CoreAggregate.Derived>> byColumn = new LinkedHashMap<>();
    for (CoreAggregate.Derived d : derived) {
      byColumn.computeIfAbsent(d.column(), k -> new ArrayList<>()).add(d);
    }
    LinkedHashMap<String, ColumnPolicy> columns = new LinkedHashMap<>(table.columns());
    List<PublicJoin> joins = new ArrayList<>();
    for (Map.Entry<String, List<CoreAggregate.Derived>> e : byColumn.entrySet()) {
      ColumnPolicy key = table.column(e.getKey()).orElseThrow();
      List<String> texts = e.getValue().stream().map(CoreAggregate.Derived::text).toList();
      LinkedHashMap<String, Integer> types = new LinkedHashMap<>();
      for (CoreAggregate.Derived d : e.getValue()) {
        types.put(d.name(), d.expression().getType().getSqlTypeName().getJdbcOrdinal());
      }
      List<Object[]> rows = evaluated(key, e.getValue(), String.join(", ", texts));
      DerivedValuesRule.check(texts, key, rows);
      PublicJoin join = PublicJoin.ofCellValues("(" + String.join(", ", texts) + ")", key, types,
          rows);
      joins.add(join);
      for (PublicJoin.Derived d : join.derived()) {
        columns.put(d.column().name().toUpperCase(Locale.ROOT), d.column());
      }
    }
    for (CoreAggregate.Computed c : computed) {
      columns.put(c.name().toUpperCase(Locale.ROOT),
          ColumnPolicy.ofComputed(c.name(), c.jdbcType(), c.range(), c.value()));
    }
    return new PublicJoins.Joined(null, table.withColumns(columns), table, joins);
  }

  /**
   * The rows (domain value, then one value per expression) of {@code derived}, expressions of
   * column {@code key}, on every value of its domain; XDP03 when the backend cannot evaluate them.
   */
  private List<Object[]> evaluated(ColumnPolicy key, List<CoreAggregate.Derived> derived,
      String texts) throws SQLException {
    StringBuilder sql = new StringBuilder("SELECT ").append(backendDialect.quoteIdentifier("K"));
    for (CoreAggregate.Derived d : derived) {
      sql.append(", ").append(CoreAggregate.sqlOf(d.expression(), i -> "K", backendDialect));
    }
    sql.append(" FROM (VALUES ");
    List<Object> domain = PublicJoin.representatives(key);
    for (int i = 0; i < domain.size(); i++) {
      sql.append(i == 0 ? "(" : ", (").append(DomainValues.literal(domain.get(i))).append(')');
    }
    sql.append(") AS ").append(backendDialect.quoteIdentifier("T")).append('(')
        .append(backendDialect.quoteIdentifier("K")).append(')');
    boolean cacheable = derived.stream().allMatch(d ->
        RexUtil.isDeterministic(d.expression()) && !hasDynamicFunction(d.expression()));
    List<Object[]> rows = cacheable ? values.get(sql.toString()) : null;
    if (rows != null) {
      return rows;
    }
    try {
      rows = publicRows.read(sql.toString());
    } catch (SQLException ex) {
      throw DerivedValuesRule.notEvaluated(texts, key, ex);
    }
    if (cacheable) {
      values.put(sql.toString(), rows);
    }
    return rows;
  }

  /** Whether {@code e} calls a function of the clock or session (CURRENT_DATE, NOW, ...). */
  private static boolean hasDynamicFunction(RexNode e) {
    boolean[] found = new boolean[1];
    e.accept(new RexVisitorImpl<Void>(true) {
      @Override
      public Void visitCall(RexCall call) {
        if (call.getOperator().isDynamicFunction()) {
          found[0] = true;
        }
        return super.visitCall(call);
      }
    });
    return found[0];
  }
}
