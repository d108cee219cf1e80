package org.dpsql.sql.relational;

import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimestampString;
import org.dpsql.errors.SqlStates;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.TimeDomain;

/**
 * Proves that an expression of a {@code DATE} or {@code TIMESTAMP} column is constant on every
 * bin of the column's {@link TimeDomain}, so that its value at a bin's start is its value for every
 * row in the bin: then it is a public function of the column's cells, evaluated on the bin starts.
 *
 * <p>The proof is syntactic and sound: every use of the column must be the operand of a calendar
 * truncation whose unit the bins refine ({@code CAST(ts AS DATE)}, {@code DATE_TRUNC('month',
 * ts)}, {@code FLOOR(ts TO MONTH)}, {@code EXTRACT(YEAR|QUARTER|MONTH|WEEK|DAY|DOW|DOY|HOUR FROM
 * ts)}, {@code YEAR(ts)}, ...: day bins under a month truncation, never week bins under a month
 * truncation, since a week can straddle two months), or a comparison with a literal that cuts the
 * time line at a bin boundary ({@code ts >= TIMESTAMP '2024-03-01 00:00:00'} or {@code ts < ...}
 * with a bin start; {@code >} and {@code <=} only where the next instant is a bin start, i.e. on a
 * DATE column). A DATE column in bins of one day has one value per cell and needs no proof.
 * Anything else is refused with XDP03 naming the expression and what to write instead.
 */
final class TimeBins {
  private TimeBins() {}

  /** Whether {@code c} has a time domain whose cells hold more than one value. */
  static boolean needsProof(ColumnPolicy c) {
    return c.time().isPresent() && !org.dpsql.rewrite.PublicJoin.isPointDomain(c);
  }

  /**
   * Checks that {@code e}, an expression of input {@code column} (a column with a time domain),
   * is constant on the column's bins; {@code shown} is its SQL for the message.
   */
  static void checkConstant(RexNode e, int column, ColumnPolicy policy, String shown)
      throws SQLException {
    if (!needsProof(policy)) {
      return;
    }
    TimeDomain.Unit bins = policy.time().orElseThrow().unit();
    String problem = problem(e, null, column, bins, policy);
    if (problem != null) {
      throw SqlStates.notSupported(shown + " is not constant on the " + bins.sqlName()
          + " bins of " + policy.name() + " (" + problem + "); use " + policy.name()
          + " through a truncation at least as coarse as its bins, e.g. DATE_TRUNC('"
          + coarser(bins) + "', " + policy.name() + "), EXTRACT(YEAR FROM " + policy.name()
          + ") or CAST(" + policy.name() + " AS DATE), or compare it with a bin start "
          + "using >= and <");
    }
  }

  /** Why {@code e} (whose parent is {@code parent}) may vary inside a bin, or null if it cannot. */
  private static String problem(RexNode e, RexCall parent, int column, TimeDomain.Unit bins,
      ColumnPolicy policy) {
    if (e instanceof RexInputRef ref) {
      if (ref.getIndex() != column) {
        return null;
      }
      TimeDomain.Unit g = parent == null ? null : truncation(parent);
      if (g == null) {
        return "it uses " + policy.name() + " itself, not a truncation of it";
      }
      if (g == TimeDomain.Unit.WEEK && bins == TimeDomain.Unit.WEEK) {
        // backends disagree on the first day of a week (H2 follows the locale, PostgreSQL and
        // Trino take Monday), so only bins of a day or less are proven constant under it
        return "the backend's weeks may start on another day than the Monday that starts each "
            + "bin; group by " + policy.name() + " itself, which labels each week by its Monday";
      }
      if (bins.refines(g)) {
        return null;
      }
      return g.refines(bins) ? "a " + bins.sqlName() + " bin holds several " + g.sqlName() + "s"
          : "a " + bins.sqlName() + " bin can straddle two " + g.sqlName() + "s";
    }
    if (e instanceof RexCall call) {
      if (isComparison(call)) {
        String cut = cutProblem(call, column, bins, policy);
        if (cut != null) {
          return cut.isEmpty() ? null : cut;
        }
      }
      for (RexNode o : call.getOperands()) {
        // a cast between DATE and TIMESTAMP keeps the value (or truncates it to a day)
        RexNode operand = o;
        RexCall context = call;
        if (o instanceof RexCall c && c.getKind() == SqlKind.CAST
            && c.getOperands().get(0) instanceof RexInputRef
            && c.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP) {
          operand = c.getOperands().get(0);
        }
        String p = problem(operand, context, column, bins, policy);
        if (p != null) {
          return p;
        }
      }
    }
    return null;
  }

  /** The calendar unit that {@code call} truncates its time operand to, or null. */
  private static TimeDomain.Unit truncation(RexCall call) {
    switch (call.getKind()) {
      case CAST:
        return call.getType().getSqlTypeName() == SqlTypeName.DATE ? TimeDomain.Unit.DAY : null;
      case EXTRACT:
      case FLOOR:
      case CEIL: {
        if (call.getKind() == SqlKind.CEIL || call.getOperands().size() != 2) {
          return null;
        }
        RexNode flag = call.getKind() == SqlKind.EXTRACT ? call.getOperands().get(0)
            : call.getOperands().get(1);
        TimeUnitRange u = flag instanceof RexLiteral lit ? lit.getValueAs(TimeUnitRange.class)
            : null;
        return u == null ? null : unitOf(u);
      }
      default:
        break;
    }
    String name = call.getOperator().getName().toUpperCase(java.util.Locale.ROOT);
    if ((name.equals("DATE_TRUNC") || name.equals("TRUNC") || name.equals("TIMESTAMP_TRUNC"))
        && call.getOperands().size() == 2) {
      for (RexNode o : call.getOperands()) {
        if (o instanceof RexLiteral lit) {
          String text = lit.getValueAs(String.class);
          TimeUnitRange u = null;
          try {
            u = text == null ? lit.getValueAs(TimeUnitRange.class)
                : TimeUnitRange.valueOf(text.trim().toUpperCase(java.util.Locale.ROOT));
          } catch (RuntimeException e) {
            return null;
          }
          return u == null ? null : unitOf(u);
        }
      }
    }
    return null;
  }

  /** The bin unit a truncation or field stands for; null for finer fields (minutes, seconds). */
  private static TimeDomain.Unit unitOf(TimeUnitRange u) {
    return switch (u) {
      case YEAR -> TimeDomain.Unit.YEAR;
      case QUARTER -> TimeDomain.Unit.QUARTER;
      case MONTH -> TimeDomain.Unit.MONTH;
      case WEEK -> TimeDomain.Unit.WEEK;
      case DAY, DOW, DOY, ISODOW -> TimeDomain.Unit.DAY;
      case HOUR -> TimeDomain.Unit.HOUR;
      default -> null;
    };
  }

  private static boolean isComparison(RexCall call) {
    return switch (call.getKind()) {
      case EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN,
          GREATER_THAN_OR_EQUAL -> true;
      default -> false;
    };
  }

  /**
   * For a comparison of the column itself with a literal: "" when it cuts the time line at a bin
   * boundary (or outside the domain), else why not; null when the comparison is not of that form.
   */
  private static String cutProblem(RexCall call, int column, TimeDomain.Unit bins,
      ColumnPolicy policy) {
    List<RexNode> ops = call.getOperands();
    SqlKind kind = call.getKind();
    RexNode left = widened(ops.get(0));
    RexNode right = widened(ops.get(1));
    if (!(left instanceof RexInputRef) && right instanceof RexInputRef) {
      RexNode t = left;
      left = right;
      right = t;
      kind = kind.reverse();
    }
    if (!(left instanceof RexInputRef ref) || ref.getIndex() != column) {
      return null;
    }
    LocalDateTime at = instant(right);
    if (at == null) {
      return "it compares " + policy.name() + " with something other than a date or timestamp "
          + "literal";
    }
    TimeDomain d = policy.time().orElseThrow();
    boolean date = policy.sqlType() == java.sql.Types.DATE;
    LocalDateTime cut = switch (kind) {
      case GREATER_THAN_OR_EQUAL, LESS_THAN -> at;
      // a DATE column's next value after d is d + 1 day; a timestamp has no next bin start
      case GREATER_THAN, LESS_THAN_OR_EQUAL -> date ? at.plusDays(1) : null;
      default -> null;
    };
    if (cut != null && (TimeDomain.binStartOf(cut, bins).equals(cut) || !cut.isAfter(d.min())
        || !cut.isBefore(d.end()))) {
      return "";
    }
    if (cut == null && (at.isBefore(d.min()) || !at.isBefore(d.end()))) {
      return ""; // compares with an instant outside every bin
    }
    return "the comparison with " + TimeDomain.format(at) + " splits a bin; compare with a bin "
        + "start using >= or <";
  }

  /** {@code e} without casts to TIMESTAMP (which keep a date's or literal's value). */
  private static RexNode widened(RexNode e) {
    while (e instanceof RexCall c && c.getKind() == SqlKind.CAST
        && (c.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP
            || c.getOperands().get(0) instanceof RexLiteral)) {
      e = c.getOperands().get(0);
    }
    return e;
  }

  /** The instant a DATE or TIMESTAMP literal (possibly cast) stands for, or null. */
  private static LocalDateTime instant(RexNode e) {
    if (!(e instanceof RexLiteral lit) || lit.isNull()) {
      return null;
    }
    try {
      return switch (lit.getTypeName()) {
        case DATE -> LocalDate.parse(lit.getValueAs(DateString.class).toString()).atStartOfDay();
        case TIMESTAMP -> LocalDateTime.parse(
            lit.getValueAs(TimestampString.class).toString().replace(' ', 'T'));
        case CHAR, VARCHAR -> TimeDomain.parseInstant(lit.getValueAs(String.class));
        default -> null;
      };
    } catch (RuntimeException ex) {
      return null;
    }
  }

  private static String coarser(TimeDomain.Unit bins) {
    return bins == TimeDomain.Unit.HOUR ? "hour" : bins == TimeDomain.Unit.WEEK ? "week"
        : bins.sqlName();
  }
}
