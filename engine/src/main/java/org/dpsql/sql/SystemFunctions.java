package org.dpsql.sql;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.dpsql.errors.SqlStates;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.Policy;
import org.dpsql.policy.TablePolicy;

/**
 * The table functions of the {@code DPSQL} schema (contract §5): {@code
 * TABLE(DPSQL.WORKLOAD('table', 'FAMILY(cols[; k])', 'options'))}, a named family of queries
 * answered jointly; {@code TABLE(DPSQL.EXPLAIN('<statement>'))}, the candidate mechanisms of a
 * private statement without spending; {@code TABLE(DPSQL.ADAPTIVE_TABLE('NAME'[, 'options']))},
 * a SafeTab tabulation of the policy. Each is the whole statement ({@code SELECT * FROM
 * TABLE(...)}); its arguments are text literals, checked here against the policy (XDP02, XDP03,
 * XDP05 naming what to change).
 */
final class SystemFunctions {
  /** Analyses a statement, for {@code DPSQL.EXPLAIN('<statement>')}. */
  @FunctionalInterface
  interface Statements {
    AnalyzedStatement analyze(String sql) throws SQLException;
  }

  private final Policy policy;
  private final Statements statements;

  SystemFunctions(Policy policy, Statements statements) {
    this.policy = policy;
    this.statements = statements;
  }

  /**
   * {@code EXPLAIN} is a reserved word of Calcite's grammar, so the contract's {@code
   * DPSQL.EXPLAIN(...)} would not parse: outside string literals, quoted identifiers and comments,
   * {@code DPSQL . EXPLAIN (} becomes {@code DPSQL."EXPLAIN"(}.
   */
  static String quoteExplainFunction(String sql) {
    StringBuilder out = new StringBuilder(sql.length() + 2);
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char ch = sql.charAt(i);
      int skip = LenientParser.endOfQuotedOrComment(sql, i);
      if (skip >= 0) {
        out.append(sql, i, skip);
        i = skip;
      } else if (Character.isLetter(ch)) {
        int j = i;
        while (j < n && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_')) {
          j++;
        }
        String word = sql.substring(i, j);
        out.append(word);
        i = j;
        if (word.equalsIgnoreCase(FrontEnd.SYSTEM_SCHEMA)) {
          java.util.regex.Matcher m = EXPLAIN_CALL.matcher(sql).region(i, n);
          if (m.lookingAt()) {
            out.append(".\"EXPLAIN\"(");
            i = m.end();
          }
        }
      } else {
        out.append(ch);
        i++;
      }
    }
    return out.toString();
  }

  private static final java.util.regex.Pattern EXPLAIN_CALL =
      java.util.regex.Pattern.compile("\\s*\\.\\s*(?i:explain)\\s*\\(");

  private static final java.util.regex.Pattern FAMILY = java.util.regex.Pattern.compile(
      "\\s*([A-Za-z_]+)\\s*\\(([^;()]*)(?:;\\s*(\\d+)\\s*)?\\)\\s*");

  /**
   * The statement when it reads {@code TABLE(DPSQL.WORKLOAD(...))} or {@code
   * TABLE(DPSQL.EXPLAIN(...))}, else null. Both must be the whole statement: {@code SELECT * FROM
   * TABLE(...)}.
   */
  AnalyzedStatement of(SqlNode node, String normalized) throws SQLException {
    List<SqlCall> calls = new ArrayList<>();
    node.accept(new SqlBasicVisitor<Void>() {
      @Override
      public Void visit(SqlCall call) {
        if (call.getKind() == SqlKind.COLLECTION_TABLE && call.operandCount() == 1
            && call.operand(0) instanceof SqlCall f && isSystemFunction(f)) {
          calls.add(f);
        }
        return super.visit(call);
      }
    });
    if (calls.isEmpty()) {
      return null;
    }
    SqlCall f = calls.get(0);
    String name = SqlCalls.name(f);
    if (calls.size() > 1 || !(node instanceof SqlSelect select)
        || select.getFrom() == null || select.getFrom().getKind() != SqlKind.COLLECTION_TABLE
        || select.getWhere() != null || select.getGroup() != null
        || select.getSelectList().size() != 1
        || !(select.getSelectList().get(0) instanceof SqlIdentifier star) || !star.isStar()) {
      throw SqlStates.notSupported("DPSQL." + name + " is used as a whole statement: SELECT * FROM "
          + "TABLE(DPSQL." + name + "(...)); filter or join its rows in your client");
    }
    List<String> args = new ArrayList<>();
    for (SqlNode o : f.getOperandList()) {
      if (!(o instanceof SqlLiteral lit) || !(lit.getValue() instanceof org.apache.calcite.util.NlsString str)) {
        throw SqlStates.notSupported("the arguments of DPSQL." + name + " are text literals, e.g. "
            + "DPSQL.WORKLOAD('TRIPS', 'ALL_RANGES(AGE)', 'epsilon=0.5')");
      }
      args.add(str.getValue());
    }
    if (name.equals("EXPLAIN")) {
      if (args.size() != 1) {
        throw SqlStates.notSupported("DPSQL.EXPLAIN takes one argument: the statement to explain, "
            + "as a text literal (double any single quotes inside it)");
      }
      AnalyzedStatement inner = statements.analyze(args.get(0));
      if (inner instanceof AnalyzedStatement.Composite c && c.releases().size() == 1) {
        // one private aggregate (a join of private tables, a subquery source): its release is
        // what the statement spends, with the statement's whole budget
        inner = c.releases().get(0);
      }
      if (inner instanceof AnalyzedStatement.Composite c && !c.releases().isEmpty()) {
        throw SqlStates.notSupported("DPSQL.EXPLAIN explains one private aggregate, workload or "
            + "adaptive table; this statement has " + c.releases().size() + " private "
            + "aggregates: use EXPLAIN PLAN FOR <statement>, which shows its plan, each release "
            + "and its cost");
      }
      if (!(inner instanceof AnalyzedStatement.PrivateAggregate
          || inner instanceof AnalyzedStatement.PrivateWorkload
          || inner instanceof AnalyzedStatement.NamedWorkload
          || inner instanceof AnalyzedStatement.AdaptiveTable)) {
        throw SqlStates.notSupported("DPSQL.EXPLAIN explains private queries (aggregates, "
            + "workloads, DPSQL.WORKLOAD, DPSQL.ADAPTIVE_TABLE); this statement spends no budget, "
            + "run it directly");
      }
      return new AnalyzedStatement.ExplainFunction(inner, args.get(0), normalized);
    }
    if (name.equals("ADAPTIVE_TABLE")) {
      return adaptiveTable(args);
    }
    if (args.size() < 2 || args.size() > 3) {
      throw SqlStates.notSupported("DPSQL.WORKLOAD takes ('table', 'FAMILY(col, ...)' [, "
          + "'options']), e.g. DPSQL.WORKLOAD('TRIPS', 'MARGINALS(REGION, AGE; 1)', 'rho=0.1')");
    }
    return new AnalyzedStatement.NamedWorkload(
        familyQuery(args.get(0), args.get(1), args.size() > 2 ? args.get(2) : ""), normalized);
  }

  private static boolean isSystemFunction(SqlCall f) {
    SqlIdentifier id = f.getOperator().getNameAsId();
    return id.names.size() == 2 && id.names.get(0).equalsIgnoreCase(FrontEnd.SYSTEM_SCHEMA)
        && (id.names.get(1).equalsIgnoreCase("WORKLOAD") || id.names.get(1).equalsIgnoreCase("EXPLAIN")
            || id.names.get(1).equalsIgnoreCase("ADAPTIVE_TABLE"));
  }

  /**
   * {@code DPSQL.ADAPTIVE_TABLE('NAME'[, 'options'])}: a SafeTab tabulation the policy declares
   * under {@code adaptive_tables}. Options: {@code delta}, the δ of the (ε, δ) charge under {@code
   * approx} accounting; {@code nonnegative=true}, negative counts shown as 0.
   */
  private AnalyzedStatement adaptiveTable(List<String> args) throws SQLException {
    if (args.isEmpty() || args.size() > 2) {
      throw SqlStates.notSupported("DPSQL.ADAPTIVE_TABLE takes ('NAME' [, 'delta=...']): the name "
          + "of an adaptive table of the policy, e.g. DPSQL.ADAPTIVE_TABLE('DHC')");
    }
    String tableName = args.get(0).strip();
    org.dpsql.policy.AdaptiveTablePolicy table = policy.adaptiveTable(tableName).orElseThrow(
        () -> SqlStates.notAllowed("DPSQL.ADAPTIVE_TABLE: no adaptive table '" + tableName
            + "' in the policy; " + (policy.adaptiveTables().isEmpty()
                ? "the policy declares none (section adaptive_tables)"
                : "it declares " + String.join(", ", policy.adaptiveTables().values().stream()
                    .map(org.dpsql.policy.AdaptiveTablePolicy::name).toList()))));
    java.math.BigDecimal delta = null;
    boolean nonNegative = false;
    Map<String, String> opts = options(args.size() > 1 ? args.get(1) : "");
    for (Map.Entry<String, String> o : opts.entrySet()) {
      if (o.getKey().equalsIgnoreCase("nonnegative")) {
        String v = o.getValue().strip().toLowerCase(java.util.Locale.ROOT);
        if (!v.equals("true") && !v.equals("false")) {
          throw SqlStates.badPrivacyParameter("DPSQL.ADAPTIVE_TABLE: nonnegative is true or "
              + "false, got '" + o.getValue() + "'");
        }
        nonNegative = v.equals("true");
        continue;
      }
      if (!o.getKey().equalsIgnoreCase("delta")) {
        throw SqlStates.badPrivacyParameter("DPSQL.ADAPTIVE_TABLE: unknown option '" + o.getKey()
            + "'; the options are delta (the δ of the charge under approx accounting) and "
            + "nonnegative (show negative counts as 0): every other parameter is the data "
            + "owner's, in the policy");
      }
      try {
        delta = new java.math.BigDecimal(o.getValue().strip());
      } catch (NumberFormatException e) {
        throw SqlStates.badPrivacyParameter("DPSQL.ADAPTIVE_TABLE: delta must be a number in "
            + "(0, 1), got '" + o.getValue() + "'");
      }
      if (delta.signum() <= 0 || delta.compareTo(java.math.BigDecimal.ONE) >= 0) {
        throw SqlStates.badPrivacyParameter("DPSQL.ADAPTIVE_TABLE: delta must be in (0, 1), got "
            + delta.toPlainString());
      }
    }
    // the release is identified by the table and δ: nonnegative is post-processing of it
    return new AnalyzedStatement.AdaptiveTable(table, delta, nonNegative, "DPSQL.ADAPTIVE_TABLE("
        + table.name() + (delta == null ? "" : ", delta=" + delta.stripTrailingZeros()
            .toPlainString()) + ")");
  }

  private FamilyQuery familyQuery(String tableName, String familyText, String options)
      throws SQLException {
    TablePolicy table = policy.table(tableName.trim()).orElseThrow(() -> new SQLException(
        "DPSQL.WORKLOAD: no table " + tableName + " in the policy; it exposes " + String.join(", ",
            policy.tables().values().stream().map(TablePolicy::name).toList()), "42S02"));
    if (table.isPublic()) {
      throw SqlStates.notSupported("DPSQL.WORKLOAD answers queries over private tables; "
          + table.name() + " is public, query it directly");
    }
    java.util.regex.Matcher m = FAMILY.matcher(familyText);
    if (!m.matches()) {
      throw SqlStates.notSupported("DPSQL.WORKLOAD: cannot read the family '" + familyText
          + "'; write e.g. ALL_RANGES(AGE), PREFIX(AGE), IDENTITY(REGION, AGE), "
          + "MARGINALS(REGION, PAYMENT, AGE; 2) or RANGE_MARGINALS(AGE, FARE_BAND; 1)");
    }
    FamilyQuery.Family family;
    try {
      family = FamilyQuery.Family.valueOf(m.group(1).toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw SqlStates.notSupported("DPSQL.WORKLOAD: unknown family " + m.group(1) + "; families are "
          + java.util.Arrays.toString(FamilyQuery.Family.values()));
    }
    List<ColumnPolicy> cols = new ArrayList<>();
    for (String c : m.group(2).split(",")) {
      if (c.isBlank()) {
        continue;
      }
      ColumnPolicy col = table.column(c.trim()).orElseThrow(() -> SqlStates.notAllowed("column "
          + c.trim() + " (in DPSQL.WORKLOAD) is not in the policy for private table " + table.name()
          + "; usable columns: " + String.join(", ",
              table.columns().values().stream().map(ColumnPolicy::name).toList())));
      if (!col.hasDomain()) {
        throw SqlStates.notAllowed("column " + col.name() + " has no public domain in the policy, "
            + "so it cannot be a cell of a workload; use a column with values or min/max/bin");
      }
      if (cols.contains(col)) {
        throw SqlStates.notSupported("DPSQL.WORKLOAD names " + col.name() + " twice");
      }
      cols.add(col);
    }
    if (cols.isEmpty()) {
      throw SqlStates.notSupported("DPSQL.WORKLOAD: " + family + " needs at least one column");
    }
    if (family == FamilyQuery.Family.PREFIX && cols.size() != 1) {
      throw SqlStates.notSupported("PREFIX takes one ordered column");
    }
    boolean marginal = family == FamilyQuery.Family.MARGINALS
        || family == FamilyQuery.Family.RANGE_MARGINALS;
    int k = cols.size();
    if (m.group(3) != null) {
      if (!marginal) {
        throw SqlStates.notSupported(family + " takes no '; k'");
      }
      k = Integer.parseInt(m.group(3));
      if (k > cols.size()) {
        throw SqlStates.notSupported(family + ": k = " + k + " is more than its " + cols.size()
            + " columns");
      }
    }
    Map<String, String> opts = options(options);
    FamilyQuery.Output output = FamilyQuery.Output.QUERIES;
    for (java.util.Iterator<Map.Entry<String, String>> it = opts.entrySet().iterator();
        it.hasNext(); ) {
      Map.Entry<String, String> o = it.next();
      if (!o.getKey().equalsIgnoreCase("output")) {
        continue;
      }
      String v = o.getValue().strip().toUpperCase(Locale.ROOT);
      if (!v.equals("CELLS") && !v.equals("QUERIES")) {
        throw SqlStates.badPrivacyParameter("DPSQL.WORKLOAD: output is 'queries' (one row per "
            + "query of the family, the default) or 'cells' (one row per cell of the released "
            + "synopsis), got '" + o.getValue() + "'");
      }
      output = FamilyQuery.Output.valueOf(v);
      it.remove(); // presentation, not a privacy parameter
    }
    return new FamilyQuery(table, family, cols, k, DpHint.parse(opts), output);
  }

  /** {@code 'epsilon=0.5, mechanism=eigen'} (values may be quoted) as hint options. */
  private static Map<String, String> options(String text) throws SQLException {
    Map<String, String> out = new LinkedHashMap<>();
    if (text == null || text.isBlank()) {
      return out;
    }
    for (String pair : text.split(",")) {
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw SqlStates.badPrivacyParameter("DPSQL.WORKLOAD options are key=value pairs separated "
            + "by commas, e.g. 'epsilon=0.5, mechanism=eigen'; got '" + pair.trim() + "'");
      }
      String v = pair.substring(eq + 1).trim();
      if (v.length() >= 2 && (v.startsWith("'") || v.startsWith("\"")) && v.endsWith(v.substring(0, 1))) {
        v = v.substring(1, v.length() - 1);
      }
      out.put(pair.substring(0, eq).trim(), v);
    }
    return out;
  }
}
