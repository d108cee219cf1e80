package org.dpsql.server.console;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * How the console writes numbers and times (the results still need {@link Html#text}).
 *
 * <p>Guarantees: {@link #exact} never rounds (budgets and costs are exact decimals); {@link
 * #approx} is for derived doubles only (ε at δ, RMSE) and keeps six significant digits, enough to
 * compare with {@code DPSQL.BUDGET}'s doubles to 1e-5; {@link #time} is UTC with milliseconds.
 */
public final class Formats {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS", Locale.ROOT).withZone(ZoneOffset.UTC);

  private Formats() {}

  /** An exact decimal in plain notation without trailing zeros; "—" for null. */
  public static String exact(BigDecimal v) {
    if (v == null) {
      return "—";
    }
    return v.signum() == 0 ? "0" : v.stripTrailingZeros().toPlainString();
  }

  /** A derived double to six significant digits; "—" for null. */
  public static String approx(Double v) {
    return v == null ? "—" : String.format(Locale.ROOT, "%.6g", v);
  }

  /** An ISO-8601 instant as {@link #time} writes it; other text as it is. */
  public static String time(String iso) {
    try {
      return time(Instant.parse(iso));
    } catch (RuntimeException e) {
      return iso;
    }
  }

  /** A time in UTC, {@code yyyy-MM-dd HH:mm:ss.SSS}; "—" for null. */
  public static String time(Instant t) {
    return t == null ? "—" : TIME.format(t);
  }
}
