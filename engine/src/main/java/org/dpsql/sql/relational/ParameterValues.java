package org.dpsql.sql.relational;

import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;

/**
 * Binds the values of a statement's dynamic parameters into its plan: every {@link
 * RexDynamicParam} becomes a literal of its value in the parameter's type, so that the bound plan
 * is the plan of the statement written with those literals. A plan is planned once; values that
 * decide what is released (a time bound, a CASE threshold, an aggregated expression) are bound
 * into it at execute.
 *
 * <p>Guarantees: the plan's shape and types are unchanged (only parameters are replaced; a
 * parameter projected as it is keeps its column's type); a value is never written as text and
 * parsed again.
 */
final class ParameterValues {
  private ParameterValues() {}

  /** {@code plan} with {@code values} (by parameter index) in place of its parameters. */
  static RelNode bind(RelNode plan, List<Object> values) {
    RexBuilder rex = plan.getCluster().getRexBuilder();
    RexShuttle literals = new RexShuttle() {
      @Override
      public RexNode visitDynamicParam(RexDynamicParam param) {
        return literal(rex, values.get(param.getIndex()), param.getType());
      }
    };
    return plan.accept(new RelHomogeneousShuttle() {
      @Override
      public RelNode visit(RelNode other) {
        RelNode visited = super.visit(other);
        if (!(visited instanceof Project p)) {
          return visited.accept(literals);
        }
        // a projected parameter keeps its column's type (the literal's may be narrower)
        List<RexNode> projects = new java.util.ArrayList<>();
        for (RexNode e : p.getProjects()) {
          RexNode bound = e.accept(literals);
          projects.add(bound.getType().equals(e.getType()) ? bound
              : rex.makeCast(e.getType(), bound, true, false));
        }
        return p.copy(p.getTraitSet(), p.getInput(), projects, p.getRowType());
      }
    });
  }

  /** A literal of {@code value} (converted to {@code type} already) in {@code type}. */
  static RexNode literal(RexBuilder rex, Object value, RelDataType type) {
    if (value == null) {
      return rex.makeNullLiteral(type);
    }
    Object v = value;
    if (value instanceof java.time.LocalDate d) {
      v = new DateString(d.toString());
    } else if (value instanceof java.time.LocalDateTime t) {
      v = new TimestampString(t.getYear(), t.getMonthValue(), t.getDayOfMonth(), t.getHour(),
          t.getMinute(), t.getSecond()).withNanos(t.getNano());
    } else if (value instanceof java.time.LocalTime t) {
      v = new TimeString(t.getHour(), t.getMinute(), t.getSecond()).withNanos(t.getNano());
    } else if (value instanceof Long || value instanceof Integer || value instanceof Short
        || value instanceof Byte) {
      v = BigDecimal.valueOf(((Number) value).longValue());
    } else if (value instanceof Double || value instanceof Float) {
      v = new BigDecimal(value.toString());
    }
    // the literal a statement written with the value would hold (no cast around it)
    return rex.makeLiteral(v, rex.getTypeFactory().createTypeWithNullability(type, false), false);
  }
}
