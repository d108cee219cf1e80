package org.dpsql.sql.relational;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.validate.SqlValidator;

/**
 * A check of validated statements: no comparison (in a WHERE or a join condition) between
 * different type families, e.g. a VARCHAR column with a number. Calcite accepts them, but the
 * backend would then convert each row's value, and a conversion that fails on some rows would
 * reveal them (H2 quotes the value in its error).
 *
 * <p>Guarantees: {@link #check} throws {@link IllegalArgumentException} naming the comparison and
 * what to write instead; comparisons with NULL or values of unknown type pass.
 */
final class ComparisonFamilies {
  private ComparisonFamilies() {}

  private static final Set<SqlKind> COMPARISONS = Set.of(SqlKind.EQUALS, SqlKind.NOT_EQUALS,
      SqlKind.LESS_THAN, SqlKind.LESS_THAN_OR_EQUAL, SqlKind.GREATER_THAN,
      SqlKind.GREATER_THAN_OR_EQUAL, SqlKind.BETWEEN, SqlKind.IN, SqlKind.NOT_IN, SqlKind.LIKE);

  /** Refuses a comparison across type families in {@code validated}'s filters and joins. */
  static void check(SqlNode validated, SqlValidator validator) {
    List<SqlNode> wheres = new ArrayList<>();
    validated.accept(new SqlBasicVisitor<Void>() {
      @Override
      public Void visit(SqlCall call) {
        if (call instanceof SqlSelect select && select.getWhere() != null) {
          wheres.add(select.getWhere());
        }
        if (call instanceof SqlJoin join && join.getCondition() != null) {
          wheres.add(join.getCondition());
        }
        return super.visit(call);
      }
    });
    for (SqlNode where : wheres) {
      checkFilterComparisons(where, validator);
    }
  }

  private static void checkFilterComparisons(SqlNode where, SqlValidator validator) {
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

}
