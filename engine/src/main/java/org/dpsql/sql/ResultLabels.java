package org.dpsql.sql;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;

/**
 * The names and integer-ness of a statement's result columns as its text shows them: an unaliased
 * aggregate of one column is named as SQL engines name it ({@code COUNT}, {@code SUM_FARE}, {@code
 * MIN_AGE}) instead of Calcite's {@code EXPR$1}, and a {@code COUNT(...)} of the outermost SELECT
 * (without grouping sets) is released as an integer.
 */
final class ResultLabels {
  private ResultLabels() {}

  /**
   * Which result columns of a statement are counts released as integers, as far as its text
   * shows before its values are bound: a {@code COUNT(...)} item of the outermost SELECT of a
   * statement without grouping sets (a roll-up's counts may be least-squares estimates).
   */
  static boolean[] counts(SqlNode node, int width) {
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
          org.apache.calcite.sql.SqlFunction && SqlCalls.name(call).equals("COUNT");
    }
    return out;
  }

  /**
   * The result labels of a statement: Calcite's names, except that an unaliased {@code COUNT(*)},
   * {@code COUNT(col)}, {@code SUM(col)} or {@code AVG(col)} of the outermost SELECT is named as
   * in single-table statements ({@code COUNT}, {@code SUM_FARE}, ...) instead of {@code EXPR$1}.
   */
  static List<String> labels(SqlNode node, List<String> names) {
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
          ? SqlCalls.name(f) + "_" + id.names.get(id.names.size() - 1) : null;
    }
    if (call.operandCount() != 1 || !(call.operand(0) instanceof SqlIdentifier id)) {
      return null;
    }
    String fn = SqlCalls.name(call);
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
}
