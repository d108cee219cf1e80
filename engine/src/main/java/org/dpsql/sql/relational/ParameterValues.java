package org.dpsql.sql.relational;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;

/**
 * Binds the values a statement's plan depends on into it: every dynamic parameter becomes a
 * literal of its value in the parameter's type, every call of the clock ({@code CURRENT_DATE},
 * {@code CURRENT_TIMESTAMP}, {@code NOW()}, {@code LOCALTIMESTAMP}, {@code CURRENT_TIME}, {@code
 * LOCALTIME}) the literal of one reading of the clock in UTC, and the date arithmetic and exact
 * arithmetic over literals that results is folded ({@code DATE '2024-03-08' - INTERVAL '7' DAY}
 * becomes {@code DATE '2024-03-01'}), so that the bound plan is the plan of the statement written
 * with those literals. A plan is planned once; values that decide what is released (a time bound,
 * a CASE threshold, an aggregated expression, a relative date) are bound into it at execute.
 *
 * <p>Guarantees: the plan's shape and types are unchanged (only parameters, clock calls and their
 * constant arithmetic are replaced; a parameter projected as it is keeps its column's type); a
 * value is never written as text and parsed again; a folded literal has the value SQL gives the
 * expression (calendar arithmetic with month ends clamped as SQL does).
 */
final class ParameterValues {
  private ParameterValues() {}

  /** The clock functions (their operator names). */
  private static final Set<String> CLOCK = Set.of("CURRENT_DATE", "CURRENT_TIMESTAMP",
      "LOCALTIMESTAMP", "NOW", "CURRENT_TIME", "LOCALTIME");

  /** Whether {@code plan} calls the clock. */
  static boolean readsClock(RelNode plan) {
    return !clockCalls(plan).isEmpty();
  }

  /**
   * The literals the clock calls of {@code plan} read at {@code now} (UTC), as SQL writes them,
   * in plan order: the values a statement that reads the clock is identified by.
   */
  static List<String> clockValues(RelNode plan, Instant now) {
    RexBuilder rex = plan.getCluster().getRexBuilder();
    LocalDateTime utc = LocalDateTime.ofInstant(now, ZoneOffset.UTC);
    List<String> out = new ArrayList<>();
    for (RexCall call : clockCalls(plan)) {
      RexNode value = clock(rex, call, utc);
      out.add(call.getOperator().getName() + " = "
          + value.getType().getSqlTypeName().getName() + " '" + value + "'");
    }
    return out;
  }

  /** The clock calls of {@code plan}, in plan order. */
  private static List<RexCall> clockCalls(RelNode plan) {
    List<RexCall> out = new ArrayList<>();
    RexShuttle finder = new RexShuttle() {
      @Override
      public RexNode visitCall(RexCall call) {
        if (isClock(call)) {
          out.add(call);
        }
        return super.visitCall(call);
      }
    };
    plan.accept(new RelHomogeneousShuttle() {
      @Override
      public RelNode visit(RelNode other) {
        other.accept(finder);
        return super.visit(other);
      }
    });
    return out;
  }

  private static boolean isClock(RexCall call) {
    return call.getOperands().isEmpty() && CLOCK.contains(call.getOperator().getName());
  }

  /**
   * {@code plan} with {@code values} (by parameter index) in place of its parameters and {@code
   * now} (read in UTC) in place of its clock calls, constant arithmetic folded.
   */
  static RelNode bind(RelNode plan, List<Object> values, Instant now) {
    RexBuilder rex = plan.getCluster().getRexBuilder();
    LocalDateTime utc = LocalDateTime.ofInstant(now, ZoneOffset.UTC);
    RexShuttle literals = new RexShuttle() {
      @Override
      public RexNode visitDynamicParam(RexDynamicParam param) {
        return literal(rex, values.get(param.getIndex()), param.getType());
      }

      @Override
      public RexNode visitCall(RexCall call) {
        if (isClock(call)) {
          return clock(rex, call, utc);
        }
        RexNode visited = super.visitCall(call);
        return visited instanceof RexCall c ? folded(rex, c) : visited;
      }
    };
    return plan.accept(new RelHomogeneousShuttle() {
      @Override
      public RelNode visit(RelNode other) {
        RelNode visited = super.visit(other);
        if (!(visited instanceof Project p)) {
          return visited.accept(literals);
        }
        // a projected value keeps its column's type (the literal's may be narrower)
        List<RexNode> projects = new ArrayList<>();
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
    if (value instanceof LocalDate d) {
      v = new DateString(d.toString());
    } else if (value instanceof LocalDateTime t) {
      v = timestamp(t);
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

  private static TimestampString timestamp(LocalDateTime t) {
    return new TimestampString(t.getYear(), t.getMonthValue(), t.getDayOfMonth(), t.getHour(),
        t.getMinute(), t.getSecond()).withNanos(t.getNano());
  }

  /** The literal a clock call reads at {@code utc}, in the call's type and precision. */
  private static RexNode clock(RexBuilder rex, RexCall call, LocalDateTime utc) {
    RelDataType type = rex.getTypeFactory().createTypeWithNullability(call.getType(), false);
    return switch (type.getSqlTypeName()) {
      case DATE -> rex.makeLiteral(new DateString(utc.toLocalDate().toString()), type, false);
      case TIME, TIME_WITH_LOCAL_TIME_ZONE -> rex.makeLiteral(new TimeString(utc.getHour(),
          utc.getMinute(), utc.getSecond()), type, false);
      default -> rex.makeLiteral(timestamp(truncated(utc, type.getPrecision())), type, false);
    };
  }

  /** {@code t} with {@code digits} fractional digits of a second. */
  private static LocalDateTime truncated(LocalDateTime t, int digits) {
    if (digits <= 0) {
      return t.truncatedTo(ChronoUnit.SECONDS);
    }
    long unit = (long) Math.pow(10, 9 - Math.min(9, digits));
    return t.withNano((int) (t.getNano() / unit * unit));
  }

  /**
   * {@code call} folded when it is date arithmetic ({@code +}, {@code -} of a date or timestamp
   * literal and an interval literal) or exact arithmetic of numeric literals, else itself.
   */
  private static RexNode folded(RexBuilder rex, RexCall call) {
    if (call.getOperands().size() != 2 || !(call.getKind() == SqlKind.PLUS
        || call.getKind() == SqlKind.MINUS || call.getKind() == SqlKind.TIMES)
        || !(call.getOperands().get(0) instanceof RexLiteral a)
        || !(call.getOperands().get(1) instanceof RexLiteral b) || a.isNull() || b.isNull()) {
      return call;
    }
    SqlTypeName ta = a.getType().getSqlTypeName();
    SqlTypeName tb = b.getType().getSqlTypeName();
    RelDataType type = rex.getTypeFactory().createTypeWithNullability(call.getType(), false);
    int sign = call.getKind() == SqlKind.MINUS ? -1 : 1;
    if (call.getKind() != SqlKind.TIMES && (ta == SqlTypeName.DATE || ta == SqlTypeName.TIMESTAMP)
        && SqlTypeName.INTERVAL_TYPES.contains(tb)) {
      LocalDateTime at = ta == SqlTypeName.DATE
          ? LocalDate.parse(a.getValueAs(DateString.class).toString()).atStartOfDay()
          : LocalDateTime.parse(a.getValueAs(TimestampString.class).toString().replace(' ', 'T'));
      long amount = b.getValueAs(BigDecimal.class).longValueExact() * sign;
      LocalDateTime result = SqlTypeName.YEAR_INTERVAL_TYPES.contains(tb)
          ? at.plusMonths(amount) : at.plus(amount, ChronoUnit.MILLIS);
      if (type.getSqlTypeName() == SqlTypeName.DATE) {
        return result.toLocalTime().equals(java.time.LocalTime.MIDNIGHT)
            ? rex.makeLiteral(new DateString(result.toLocalDate().toString()), type, false)
            : call;
      }
      return type.getSqlTypeName() == SqlTypeName.TIMESTAMP
          ? rex.makeLiteral(timestamp(result), type, false) : call;
    }
    if (SqlTypeName.EXACT_TYPES.contains(ta) && SqlTypeName.EXACT_TYPES.contains(tb)
        && SqlTypeName.EXACT_TYPES.contains(type.getSqlTypeName())) {
      BigDecimal x = a.getValueAs(BigDecimal.class);
      BigDecimal y = b.getValueAs(BigDecimal.class);
      BigDecimal r = call.getKind() == SqlKind.TIMES ? x.multiply(y)
          : sign > 0 ? x.add(y) : x.subtract(y);
      return rex.makeLiteral(r, type, false);
    }
    return call;
  }
}
