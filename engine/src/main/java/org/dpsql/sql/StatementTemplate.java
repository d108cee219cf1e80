package org.dpsql.sql;

import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The text of a statement with the places whose values are known only when it runs: its dynamic
 * parameters ({@code ?}) and its calls of the clock ({@code CURRENT_DATE}, {@code
 * CURRENT_TIMESTAMP}, {@code LOCALTIMESTAMP}, {@code NOW()}, {@code CURRENT_TIME}, {@code
 * LOCALTIME}). {@link #bind} writes each of them as a typed SQL literal, so that the statement the
 * privacy analysis reads has literals only: one mechanism for every statement form, and a value is
 * checked (bin boundaries, domains, types) exactly as the same literal written by hand would be.
 *
 * <p>Guarantees: the places are found outside string literals, quoted identifiers and comments,
 * in the order the parser numbers dynamic parameters; the bound text differs from the original
 * only at those places; the clock is read once per {@link #bind} (one instant for every clock
 * call of the statement) and read in UTC, the clock being public input.
 */
public final class StatementTemplate {
  /** The clock functions, as SQL writes them. */
  private static final Set<String> CLOCK = Set.of("CURRENT_DATE", "CURRENT_TIMESTAMP",
      "LOCALTIMESTAMP", "NOW", "CURRENT_TIME", "LOCALTIME");

  /** One place of the text: {@code [start, end)}, and the clock function there (null for ?). */
  private record Place(int start, int end, String clock, int fraction) {}

  private final String sql;
  private final List<Place> places;
  private final int parameterCount;

  private StatementTemplate(String sql, List<Place> places) {
    this.sql = sql;
    this.places = List.copyOf(places);
    this.parameterCount = (int) places.stream().filter(p -> p.clock() == null).count();
  }

  /** The places of {@code sql} whose values are bound when it runs. */
  public static StatementTemplate of(String sql) {
    List<Place> places = new ArrayList<>();
    int n = sql.length();
    int i = 0;
    while (i < n) {
      int skip = LenientParser.endOfQuotedOrComment(sql, i);
      if (skip >= 0) {
        i = skip;
        continue;
      }
      char ch = sql.charAt(i);
      if (ch == '?') {
        places.add(new Place(i, i + 1, null, 0));
        i++;
      } else if (Character.isLetter(ch) || ch == '_') {
        int j = i;
        while (j < n && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_'
            || sql.charAt(j) == '$')) {
          j++;
        }
        String word = sql.substring(i, j).toUpperCase(Locale.ROOT);
        boolean qualified = i > 0 && sql.charAt(i - 1) == '.';
        if (CLOCK.contains(word) && !qualified) {
          int end = j;
          int fraction = word.equals("CURRENT_DATE") ? -1 : 0;
          // an argument list: NOW(), CURRENT_TIMESTAMP(3)
          int k = j;
          while (k < n && Character.isWhitespace(sql.charAt(k))) {
            k++;
          }
          if (k < n && sql.charAt(k) == '(') {
            int close = sql.indexOf(')', k);
            String arg = close < 0 ? "x" : sql.substring(k + 1, close).strip();
            if (arg.isEmpty() || arg.matches("\\d")) {
              fraction = arg.isEmpty() ? 0 : Integer.parseInt(arg);
              end = close + 1;
            }
          } else if (word.equals("NOW")) {
            i = j; // a column or alias named NOW, not the function
            continue;
          }
          places.add(new Place(i, end, word, fraction));
          i = end;
        } else {
          i = j;
        }
      } else {
        i++;
      }
    }
    return new StatementTemplate(sql, places);
  }

  /** The statement's text as written. */
  public String sql() {
    return sql;
  }

  /** The number of dynamic parameters ({@code ?}). */
  public int parameterCount() {
    return parameterCount;
  }

  /** Whether the statement has a dynamic parameter or a call of the clock. */
  public boolean bindsAtExecute() {
    return !places.isEmpty();
  }

  /** Whether the statement reads the clock. */
  public boolean readsClock() {
    return places.stream().anyMatch(p -> p.clock() != null);
  }

  /**
   * The statement with parameter {@code i} (0-based) written as the literal of {@code values[i]}
   * in the type {@code types[i]} (the validator's inference; null for unknown), and each clock call
   * as the literal of {@code now} in UTC. A parameter not set ({@link ParameterLiteral#UNSET})
   * is refused with 07001, a value that cannot be read as its type with 22018 (22007 for dates
   * and times), each naming the parameter.
   */
  public Bound bind(List<Object> values, List<AnalyzedStatement.ParameterInfo> types,
      Instant now) throws SQLException {
    StringBuilder out = new StringBuilder(sql.length() + 32);
    List<String> literals = new ArrayList<>();
    List<String> clocks = new ArrayList<>();
    int at = 0;
    int index = 0;
    LocalDateTime utc = LocalDateTime.ofInstant(now, ZoneOffset.UTC);
    for (Place p : places) {
      out.append(sql, at, p.start());
      String literal;
      if (p.clock() == null) {
        if (index >= values.size() || values.get(index) == ParameterLiteral.UNSET) {
          throw new SQLException("parameter " + (index + 1) + " is not set: set every ? before "
              + "executing the statement", "07001");
        }
        AnalyzedStatement.ParameterInfo type = index < types.size() ? types.get(index) : null;
        literal = ParameterLiteral.of(index + 1, values.get(index), type);
        literals.add(literal);
        index++;
      } else {
        literal = clockLiteral(p, utc);
        clocks.add(p.clock() + " = " + literal);
      }
      // spaces keep a negative number from forming a comment with a minus before it
      out.append(' ').append(literal).append(' ');
      at = p.end();
    }
    out.append(sql, at, sql.length());
    if (index < values.size()) {
      // more values than places: an application bug worth reporting
      for (int k = index; k < values.size(); k++) {
        if (values.get(k) != ParameterLiteral.UNSET) {
          throw new SQLException("the statement has " + index + " parameters, but parameter "
              + (k + 1) + " is set", "07001");
        }
      }
    }
    return new Bound(out.toString(), literals, clocks);
  }

  /**
   * The statement with its clock calls written as literals of {@code now} and its parameters
   * kept: what validation reads to describe a statement at prepare (types only).
   */
  public String withClock(Instant now) {
    return written(now, false);
  }

  /**
   * The statement with its clock calls written as literals of {@code now} and each parameter as
   * {@code NULL}: what validation reads when it cannot infer a parameter's type (the value's own
   * type is then used when it is bound).
   */
  public String withNulls(Instant now) {
    return written(now, true);
  }

  private String written(Instant now, boolean nulls) {
    StringBuilder out = new StringBuilder(sql.length() + 32);
    LocalDateTime utc = LocalDateTime.ofInstant(now, ZoneOffset.UTC);
    int at = 0;
    for (Place p : places) {
      if (p.clock() != null || nulls) {
        out.append(sql, at, p.start()).append(' ')
            .append(p.clock() == null ? "NULL" : clockLiteral(p, utc)).append(' ');
        at = p.end();
      }
    }
    return out.append(sql, at, sql.length()).toString();
  }

  private static String clockLiteral(Place p, LocalDateTime utc) {
    return switch (p.clock()) {
      case "CURRENT_DATE" -> "DATE '" + utc.toLocalDate() + "'";
      case "CURRENT_TIME", "LOCALTIME" -> "TIME '"
          + ParameterLiteral.time(utc.toLocalTime().truncatedTo(ChronoUnit.SECONDS)) + "'";
      default -> "TIMESTAMP '" + ParameterLiteral.timestamp(truncate(utc, p.fraction())) + "'";
    };
  }

  /** {@code t} with {@code digits} fractional digits of a second (at most nanoseconds). */
  private static LocalDateTime truncate(LocalDateTime t, int digits) {
    if (digits <= 0) {
      return t.truncatedTo(ChronoUnit.SECONDS);
    }
    long unit = (long) Math.pow(10, 9 - Math.min(9, digits));
    return t.withNano((int) (t.getNano() / unit * unit));
  }

  /**
   * A statement with its values written in: the text, the literal of each parameter (1-based
   * index = position + 1) and each clock call's evaluated value.
   */
  public record Bound(String sql, List<String> literals, List<String> clocks) {
    public Bound {
      literals = List.copyOf(literals);
      clocks = List.copyOf(clocks);
    }

    /**
     * {@code e}, a refusal of the bound statement, with the parameter (or clock value) it is about
     * named: the parameter whose literal the message quotes, else every bound value. The SQLState
     * is kept.
     */
    public SQLException explain(SQLException e) {
      if (literals.isEmpty() && clocks.isEmpty()) {
        return e;
      }
      String msg = e.getMessage() == null ? "" : e.getMessage();
      List<String> named = new ArrayList<>();
      for (int i = 0; i < literals.size(); i++) {
        String text = ParameterLiteral.inner(literals.get(i));
        if (text.length() > 1 && msg.contains(text)) {
          named.add("parameter " + (i + 1) + " (bound as " + literals.get(i) + ")");
        }
      }
      String context;
      if (!named.isEmpty()) {
        context = String.join(", ", named) + ": ";
      } else if (literals.size() == 1 && clocks.isEmpty()) {
        context = "parameter 1 (bound as " + literals.get(0) + "): ";
      } else {
        List<String> all = new ArrayList<>();
        for (int i = 0; i < literals.size(); i++) {
          all.add("parameter " + (i + 1) + " = " + literals.get(i));
        }
        all.addAll(clocks);
        context = "with the values bound (" + String.join(", ", all) + "): ";
      }
      SQLException out = new SQLException(context + msg, e.getSQLState(), e.getErrorCode(), e);
      return out;
    }
  }
}
