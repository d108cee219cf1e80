package org.dpsql.backend;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import org.dpsql.policy.TimeDomain;

/**
 * The SQL that puts a {@code DATE} or {@code TIMESTAMP} value into its cell of a {@link
 * TimeDomain}: the bin index as an integer expression, and the domain's range as a filter.
 *
 * <p>Guarantees: the index is written with {@code EXTRACT(YEAR|QUARTER|MONTH|DOY|HOUR FROM ...)},
 * integer arithmetic and one {@code CASE} over the domain's years (their lengths in days), which
 * H2, PostgreSQL and Trino evaluate alike, and equals {@link TimeDomain#cellOf} for every value
 * inside the range (whose bounds are literals of the column's own type, so that the backend compares
 * without casting the column). No time zone is involved.
 */
final class TimeBinSql {
  private TimeBinSql() {}

  /** The cell index of {@code col} (a quoted column), for values inside {@link #range}. */
  static String binIndex(String col, TimeDomain d) {
    LocalDateTime min = d.min();
    String year = "EXTRACT(YEAR FROM " + col + ")";
    String years = "(" + year + " - " + min.getYear() + ")";
    return switch (d.unit()) {
      case YEAR -> years;
      case QUARTER -> "(" + years + " * 4 + EXTRACT(QUARTER FROM " + col + ") - "
          + ((min.getMonthValue() - 1) / 3 + 1) + ")";
      case MONTH -> "(" + years + " * 12 + EXTRACT(MONTH FROM " + col + ") - "
          + min.getMonthValue() + ")";
      case DAY -> days(col, d);
      case WEEK -> "FLOOR(" + days(col, d) + " / 7)";
      case HOUR -> "(" + days(col, d) + " * 24 + EXTRACT(HOUR FROM " + col + ") - "
          + min.getHour() + ")";
    };
  }

  /** {@code col >= first bin start AND col < end}, with literals of the column's type. */
  static String range(String col, TimeDomain d, boolean dateColumn) {
    return col + " >= " + literal(d.min(), dateColumn) + " AND " + col + " < "
        + literal(d.end(), dateColumn);
  }

  /**
   * The number of days from {@code min}'s day to {@code col}'s: the days from {@code min}'s year's
   * first day to {@code col}'s year's first day (one CASE branch per year of the domain) plus the
   * day of the year, minus {@code min}'s day of the year.
   */
  private static String days(String col, TimeDomain d) {
    int first = d.min().getYear();
    int last = d.end().minusNanos(1).getYear();
    StringBuilder sb = new StringBuilder("(CASE EXTRACT(YEAR FROM ").append(col).append(")");
    LocalDate origin = LocalDate.of(first, 1, 1);
    for (int y = first; y <= last; y++) {
      sb.append(" WHEN ").append(y).append(" THEN ")
          .append(ChronoUnit.DAYS.between(origin, LocalDate.of(y, 1, 1)));
    }
    sb.append(" END + EXTRACT(DOY FROM ").append(col).append(") - ")
        .append(d.min().getDayOfYear()).append(")");
    return sb.toString();
  }

  /** A DATE or TIMESTAMP literal. */
  static String literal(LocalDateTime t, boolean date) {
    return date ? "DATE '" + t.toLocalDate() + "'"
        : "TIMESTAMP '" + t.toLocalDate() + " " + t.toLocalTime().withNano(0)
            + (t.toLocalTime().getSecond() == 0 ? ":00" : "") + "'";
  }
}
