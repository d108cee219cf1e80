package org.dpsql.sql;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.dpsql.errors.SqlStates;
import org.dpsql.policy.AnswerRange;

/**
 * The per-query privacy choices of a {@code /*+ DP(...) *}{@code /} hint (contract §4).
 *
 * <p>Every component is optional; absent ones are {@code null} and filled from the policy's
 * {@code default_query}. Values are validated here: a non-positive epsilon or rho, a delta outside
 * (0,1), an unknown mechanism, a confidence outside (0,1), a malformed answer range or an unknown
 * key give XDP05. {@code answer_range='lo,hi'} declares the public range of every answer of the query
 * (for {@code optimal_pmf}; overrides the table's {@code answer_range}).
 */
public record DpHint(BigDecimal epsilon, BigDecimal delta, BigDecimal rho, Mechanism mechanism, Double ci,
    AnswerRange range) {

  /** No hint: everything from the policy. */
  public static final DpHint NONE = new DpHint(null, null, null, Mechanism.AUTO, null, null);

  private static final Set<String> KEYS =
      Set.of("epsilon", "delta", "rho", "mechanism", "ci", "answer_range");

  /** A hint without an answer range. */
  public DpHint(BigDecimal epsilon, BigDecimal delta, BigDecimal rho, Mechanism mechanism, Double ci) {
    this(epsilon, delta, rho, mechanism, ci, null);
  }

  /** Parses the key/value options of a DP hint. */
  public static DpHint parse(Map<String, String> options) throws SQLException {
    BigDecimal epsilon = null;
    BigDecimal delta = null;
    BigDecimal rho = null;
    Mechanism mechanism = Mechanism.AUTO;
    Double ci = null;
    AnswerRange range = null;
    for (Map.Entry<String, String> e : options.entrySet()) {
      String key = e.getKey().toLowerCase(Locale.ROOT);
      String value = e.getValue() == null ? "" : e.getValue().trim();
      switch (key) {
        case "epsilon" -> epsilon = positive(key, value);
        case "rho" -> rho = positive(key, value);
        case "delta" -> {
          delta = number(key, value);
          if (delta.signum() <= 0 || delta.compareTo(BigDecimal.ONE) >= 0) {
            throw SqlStates.badPrivacyParameter(
                "DP hint: delta must be in (0,1), got " + value + "; write e.g. delta='1e-7'");
          }
        }
        case "mechanism" -> mechanism = Mechanism.parse(value);
        case "ci" -> {
          BigDecimal c = number(key, value);
          if (c.signum() <= 0 || c.compareTo(BigDecimal.ONE) >= 0) {
            throw SqlStates.badPrivacyParameter(
                "DP hint: ci is a confidence level in (0,1), got " + value + "; write e.g. ci='0.95'");
          }
          ci = c.doubleValue();
        }
        case "answer_range" -> range = range(value);
        default -> throw SqlStates.badPrivacyParameter(
            "DP hint: unknown option '" + e.getKey() + "'; valid options are " + String.join(", ",
                KEYS.stream().sorted().toList()));
      }
    }
    return new DpHint(epsilon, delta, rho, mechanism, ci, range);
  }

  /** {@code answer_range='0,500'}: the public range of each answer, for {@code optimal_pmf}. */
  private static AnswerRange range(String value) throws SQLException {
    String[] parts = value.split("\\s*(,|\\.\\.)\\s*");
    try {
      if (parts.length == 2) {
        return new AnswerRange(Long.parseLong(parts[0].trim()), Long.parseLong(parts[1].trim()));
      }
    } catch (NumberFormatException e) {
      // fall through to the message below
    } catch (IllegalArgumentException e) {
      throw SqlStates.badPrivacyParameter("DP hint: answer_range: " + e.getMessage());
    }
    throw SqlStates.badPrivacyParameter("DP hint: answer_range is two integers 'lo,hi' (e.g. answer_range='0,500'), "
        + "got '" + value + "'");
  }

  private static BigDecimal positive(String key, String value) throws SQLException {
    BigDecimal v = number(key, value);
    if (v.signum() <= 0) {
      throw SqlStates.badPrivacyParameter(
          "DP hint: " + key + " must be > 0, got " + value + "; a smaller positive value spends less budget");
    }
    return v;
  }

  /** The range of privacy parameters dpsql accepts: wider than any meaningful value. */
  private static final BigDecimal SMALLEST = new BigDecimal("1e-30");
  private static final BigDecimal LARGEST = new BigDecimal("1e6");

  private static BigDecimal number(String key, String value) throws SQLException {
    BigDecimal v;
    try {
      v = new BigDecimal(value.strip());
    } catch (NumberFormatException ex) {
      throw SqlStates.badPrivacyParameter(
          "DP hint: " + key + " must be a number, got '" + value + "'; write e.g. " + key + "='0.1'");
    }
    // exact arithmetic on 1e-999999999 would take forever: refuse what no budget can mean
    if (v.signum() > 0 && (v.compareTo(SMALLEST) < 0 || v.compareTo(LARGEST) > 0
        || v.precision() > 40)) {
      throw SqlStates.badPrivacyParameter("DP hint: " + key + " = " + value + " is outside the "
          + "range dpsql accepts (1e-30 to 1e6, at most 40 digits)");
    }
    return v;
  }

  /**
   * This hint's share when one statement's budget is split equally among {@code parts} private
   * aggregates: the hint's own budget, or where it names none the data owner's {@code
   * defaultQuery}, divided by {@code parts} (every component: ε, δ and ρ). The other options are
   * kept. With one part the hint is returned unchanged.
   */
  public DpHint share(int parts, org.dpsql.policy.BudgetAmount defaultQuery) {
    if (parts <= 1) {
      return this;
    }
    BigDecimal e = epsilon;
    BigDecimal d = delta;
    BigDecimal r = rho;
    if (e == null && r == null) {
      e = defaultQuery.epsilon();
      r = defaultQuery.rho();
    }
    if (d == null && e != null) {
      d = defaultQuery.delta();
    }
    BigDecimal n = BigDecimal.valueOf(parts);
    java.math.MathContext mc = java.math.MathContext.DECIMAL64;
    return new DpHint(e == null ? null : e.divide(n, mc), d == null ? null : d.divide(n, mc),
        r == null ? null : r.divide(n, mc), mechanism, ci, range);
  }

  /**
   * The hint as SQL ({@code /*+ DP(epsilon='0.5', ...) *}{@code /}), or the empty string for
   * {@link #NONE}; {@link #parse} of its options gives this hint back.
   */
  public String sqlText() {
    java.util.List<String> kv = new java.util.ArrayList<>();
    if (epsilon != null) {
      kv.add("epsilon='" + epsilon.toString() + "'");
    }
    if (delta != null) {
      kv.add("delta='" + delta.toString() + "'");
    }
    if (rho != null) {
      kv.add("rho='" + rho.toString() + "'");
    }
    if (mechanism != Mechanism.AUTO) {
      kv.add("mechanism='" + mechanism.sqlName() + "'");
    }
    if (ci != null) {
      kv.add("ci='" + ci + "'");
    }
    if (range != null) {
      kv.add("answer_range='" + range.lo() + "," + range.hi() + "'");
    }
    return kv.isEmpty() ? "" : "/*+ DP(" + String.join(", ", kv) + ") */";
  }

  /** The DP hint of one SELECT ({@link DpHint#NONE} when it has none). */
  public static DpHint read(org.apache.calcite.sql.SqlSelect select) throws SQLException {
    DpHint hint = DpHint.NONE;
    if (select.getHints() == null) {
      return hint;
    }
    for (org.apache.calcite.sql.SqlNode h : select.getHints()) {
      org.apache.calcite.sql.SqlHint sqlHint = (org.apache.calcite.sql.SqlHint) h;
      if (!sqlHint.getName().equalsIgnoreCase("DP")) {
        throw SqlStates.badPrivacyParameter("unknown hint " + sqlHint.getName()
            + "; dpsql understands /*+ DP(epsilon='0.1', ...) */");
      }
      if (sqlHint.getOptionFormat() != org.apache.calcite.sql.SqlHint.HintOptionFormat.KV_LIST
          && !sqlHint.getOptionList().isEmpty()) {
        throw SqlStates.badPrivacyParameter("DP hint options are key='value' pairs, e.g. "
            + "DP(epsilon='0.1', mechanism='geometric')");
      }
      hint = parse(sqlHint.getOptionKVPairs());
    }
    return hint;
  }
}
