package org.dpsql.server.console;

import java.util.Collection;
import java.util.function.Predicate;

/**
 * The audit page: the latest statements the analysts sent, newest first, with outcome and
 * SQLState, filterable by analyst and outcome through a GET form.
 *
 * <p>Guarantees: every field of an audit line (the SQL above all) is escaped; the filter values
 * are echoed escaped; filtering is exact ({@code ok}, any failure, or one SQLState).
 */
final class AuditPage {
  /** Lines shown at most. */
  static final int LIMIT = 300;

  private AuditPage() {}

  /** The lines an analyst and outcome filter accept (blank: any). */
  static Predicate<AuditTail.Line> filter(String analyst, String outcome) {
    Predicate<AuditTail.Line> p = line -> true;
    if (analyst != null && !analyst.isBlank()) {
      p = p.and(line -> line.analyst().equals(analyst));
    }
    if (outcome != null && !outcome.isBlank()) {
      p = p.and(switch (outcome) {
        case "ok" -> line -> line.outcome().equals("ok");
        case "failed" -> line -> !line.outcome().equals("ok");
        default -> line -> line.outcome().equalsIgnoreCase(outcome);
      });
    }
    return p;
  }

  /**
   * The page.
   *
   * @param result the lines found
   * @param analysts the analysts offered in the filter
   * @param analyst the analyst filter, or null
   * @param outcome the outcome filter, or null
   */
  static String render(AuditTail.Result result, Collection<String> analysts, String analyst,
      String outcome) {
    String a = analyst == null ? "" : analyst;
    String o = outcome == null ? "" : outcome;
    StringBuilder b = new StringBuilder(16384);
    b.append("<h2>Audit log</h2>");
    b.append("<form class=\"filters\" method=\"get\" action=\"/console/audit\">")
        .append("<label>analyst <select name=\"analyst\" id=\"filter-analyst\">")
        .append(option("", "all", a));
    for (String name : analysts) {
      b.append(option(name, name, a));
    }
    if (!a.isEmpty() && !analysts.contains(a)) {
      b.append(option(a, a, a));
    }
    b.append("</select></label><label>outcome <select name=\"outcome\" id=\"filter-outcome\">")
        .append(option("", "all", o)).append(option("ok", "ok", o))
        .append(option("failed", "failed (any SQLState)", o));
    for (String state : new String[] {"XDP01", "XDP02", "XDP03", "XDP04", "XDP05", "HY000",
        "HYT00"}) {
      b.append(option(state, state, o));
    }
    if (!o.isEmpty() && !o.equals("ok") && !o.equals("failed") && !o.matches("XDP0[1-5]|HY000|HYT00")) {
      b.append(option(o, o, o));
    }
    b.append("</select></label><button type=\"submit\">filter</button></form>");
    b.append("<p class=\"muted\">").append(result.lines().size())
        .append(" latest matching statements (at most ").append(LIMIT).append(")");
    if (result.truncated()) {
      b.append("; older lines of a large log were not read");
    }
    if (result.skipped() > 0) {
      b.append("; ").append(result.skipped()).append(" unreadable lines skipped");
    }
    b.append(".</p>");
    b.append("<table id=\"audit\"><thead><tr><th>time (UTC)</th><th>analyst</th><th>request</th>")
        .append("<th>outcome</th><th>SQLState</th><th>cost charged</th><th>ms</th><th>SQL</th>")
        .append("</tr></thead><tbody>");
    for (AuditTail.Line l : result.lines()) {
      boolean ok = l.outcome().equals("ok");
      b.append("<tr><td>").append(Html.text(Formats.time(l.time()))).append("</td><td>")
          .append(Html.text(l.analyst())).append("</td><td>").append(Html.text(l.request()))
          .append("</td><td class=\"").append(ok ? "ok\">ok" : "bad\">failed")
          .append("</td><td class=\"state\">").append(ok ? "—" : Html.text(l.outcome()))
          .append("</td><td class=\"num\">").append(Html.text(l.cost()))
          .append("</td><td class=\"num\">").append(Html.text(l.durationMs()))
          .append("</td><td class=\"sql\">").append(Html.text(l.sql()))
          .append(l.sqlTruncated() ? " <span class=\"muted\">(cut)</span>" : "")
          .append("</td></tr>");
    }
    b.append("</tbody></table>");
    return Layout.page("Audit", Layout.Section.AUDIT, b.toString());
  }

  private static String option(String value, String label, String selected) {
    return "<option value=\"" + Html.text(value) + "\"" + (value.equals(selected) ? " selected" : "")
        + ">" + Html.text(label) + "</option>";
  }
}
