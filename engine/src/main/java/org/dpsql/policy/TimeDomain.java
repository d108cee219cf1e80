package org.dpsql.policy;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Objects;

/**
 * An ordered public domain of a {@code DATE} or {@code TIMESTAMP} column, declared as {@code {min:
 * 2024-01-01, max: 2025-12-31, bin: 1 day}}: the calendar from {@code min} to {@code max} cut into
 * bins of one hour, day, week (Monday to Sunday), month, quarter or year. Cell {@code i} holds the
 * instants {@code t} with {@code binStart(i) <= t < binStart(i + 1)}; the last cell is the bin that
 * holds {@code max}.
 *
 * <p>Guarantees: {@code min} is the start of a bin (midnight for days, a Monday for weeks, the
 * first day of a month, quarter or year), {@code min <= max}, and there are at most {@link
 * OrderedDomain#MAX_CELLS} cells. Bin starts are computed in the calendar (months and years have
 * their real lengths), never as fixed numbers of seconds, and no time zone is involved: values are
 * local date-times, as the backend's {@code DATE} and {@code TIMESTAMP} (without time zone) hold
 * them.
 */
public record TimeDomain(LocalDateTime min, LocalDateTime max, Unit unit) {

  /** The width of a bin. */
  public enum Unit {
    HOUR, DAY, WEEK, MONTH, QUARTER, YEAR;

    /** The unit's name as SQL writes it ({@code 'month'} in {@code DATE_TRUNC('month', ts)}). */
    public String sqlName() {
      return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Whether every bin of this unit lies inside one bin of {@code coarser} (days inside weeks,
     * months, quarters and years; weeks only inside weeks, since a week can straddle two months).
     */
    public boolean refines(Unit coarser) {
      if (this == coarser || this == HOUR) {
        return true;
      }
      return switch (this) {
        case DAY -> coarser != HOUR;
        case MONTH -> coarser == QUARTER || coarser == YEAR;
        case QUARTER -> coarser == YEAR;
        default -> false;
      };
    }

    /** The unit named {@code text} (singular or plural, any case), or null. */
    static Unit parse(String text) {
      String t = text.trim().toUpperCase(Locale.ROOT);
      if (t.endsWith("S")) {
        t = t.substring(0, t.length() - 1);
      }
      for (Unit u : values()) {
        if (u.name().equals(t)) {
          return u;
        }
      }
      return null;
    }
  }

  /** Checks the invariants; the policy loader reports friendlier messages before this can fail. */
  public TimeDomain {
    Objects.requireNonNull(min, "min");
    Objects.requireNonNull(max, "max");
    Objects.requireNonNull(unit, "unit");
    if (!binStartOf(min, unit).equals(min)) {
      throw new IllegalArgumentException("min " + min + " is not the start of a " + unit.sqlName());
    }
    if (max.isBefore(min)) {
      throw new IllegalArgumentException("min " + min + " must be <= max " + max);
    }
    long cells = index(max, min, unit) + 1;
    if (cells > OrderedDomain.MAX_CELLS) {
      throw new IllegalArgumentException(
          "domain has " + cells + " cells, more than " + OrderedDomain.MAX_CELLS);
    }
  }

  /** The number of cells: the bins from {@code min} up to the one holding {@code max}. */
  public int cells() {
    return (int) index(max, min, unit) + 1;
  }

  /**
   * The first instant of cell {@code cell}.
   *
   * @throws IndexOutOfBoundsException if {@code cell} is not in {@code [0, cells())}
   */
  public LocalDateTime binStart(int cell) {
    if (cell < 0 || cell >= cells()) {
      throw new IndexOutOfBoundsException("cell " + cell + " out of [0, " + cells() + ")");
    }
    return plus(min, cell, unit);
  }

  /** The first instant after the domain: the start of the bin after the one holding max. */
  public LocalDateTime end() {
    return plus(min, cells(), unit);
  }

  /** The cell holding {@code t}, or -1 outside the domain. */
  public int cellOf(LocalDateTime t) {
    if (t.isBefore(min) || !t.isBefore(end())) {
      return -1;
    }
    return (int) index(t, min, unit);
  }

  /** The start of the bin of {@code unit} that holds {@code t} (a calendar truncation). */
  public static LocalDateTime binStartOf(LocalDateTime t, Unit unit) {
    LocalDate d = t.toLocalDate();
    return switch (unit) {
      case HOUR -> t.truncatedTo(ChronoUnit.HOURS);
      case DAY -> d.atStartOfDay();
      case WEEK -> d.minusDays(d.getDayOfWeek().getValue() - DayOfWeek.MONDAY.getValue())
          .atStartOfDay();
      case MONTH -> d.withDayOfMonth(1).atStartOfDay();
      case QUARTER -> LocalDate.of(d.getYear(), 3 * ((d.getMonthValue() - 1) / 3) + 1, 1)
          .atStartOfDay();
      case YEAR -> LocalDate.of(d.getYear(), 1, 1).atStartOfDay();
    };
  }

  private static LocalDateTime plus(LocalDateTime t, long n, Unit unit) {
    return switch (unit) {
      case HOUR -> t.plusHours(n);
      case DAY -> t.plusDays(n);
      case WEEK -> t.plusWeeks(n);
      case MONTH -> t.plusMonths(n);
      case QUARTER -> t.plusMonths(3 * n);
      case YEAR -> t.plusYears(n);
    };
  }

  /** The number of whole bins from {@code origin} (a bin start) to the bin holding {@code t}. */
  private static long index(LocalDateTime t, LocalDateTime origin, Unit unit) {
    LocalDateTime s = binStartOf(t, unit);
    return switch (unit) {
      case HOUR -> ChronoUnit.HOURS.between(origin, s);
      case DAY -> ChronoUnit.DAYS.between(origin, s);
      case WEEK -> ChronoUnit.WEEKS.between(origin, s);
      case MONTH -> ChronoUnit.MONTHS.between(origin, s);
      case QUARTER -> ChronoUnit.MONTHS.between(origin, s) / 3;
      case YEAR -> ChronoUnit.YEARS.between(origin, s);
    };
  }

  /**
   * A date ({@code 2024-01-01}) or date-time ({@code 2024-01-01 06:00}, {@code
   * 2024-01-01T06:00:00}) as written in a policy, or null when {@code text} is neither.
   */
  public static LocalDateTime parseInstant(String text) {
    String t = text.trim();
    try {
      if (t.length() == 10) {
        return LocalDate.parse(t).atStartOfDay();
      }
      return LocalDateTime.parse(t.replace(' ', 'T'));
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /**
   * The unit of a bin written {@code "1 day"}, {@code "day"} or {@code "1 months"}; null when the
   * text is not one of hour, day, week, month, quarter, year with an optional count of 1.
   */
  public static Unit parseBin(String text) {
    String t = text.trim();
    int space = t.indexOf(' ');
    if (space > 0) {
      if (!t.substring(0, space).trim().equals("1")) {
        return null;
      }
      t = t.substring(space + 1);
    }
    return Unit.parse(t);
  }

  /** The instant as a policy writes it: the date alone at midnight, else date and time. */
  public static String format(LocalDateTime t) {
    return t.toLocalTime().equals(LocalTime.MIDNIGHT) ? t.toLocalDate().toString()
        : t.toLocalDate() + " " + t.toLocalTime();
  }
}
