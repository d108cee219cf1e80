package org.dpsql.server.console;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.LedgerEntry;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.ledger.LedgerReader;

/**
 * One analyst's page: the budget figures, the cumulative spend over time against the budget
 * ({@link SpendChart}, one point per paid answer shown), the ledger entries and the releases the
 * analyst holds.
 *
 * <p>Guarantees: the figures, chart, entries and releases come from one ledger snapshot ({@link
 * LedgerReader.History}), so the chart's last point is the balance shown; every statement, key and
 * name is escaped (an analyst's SQL is untrusted input); at most {@value #MAX_SQL_SHOWN}
 * characters of a statement are shown. The chart covers the latest {@value #MAX_POINTS} entries
 * (starting at the exact spend before them), the tables the latest {@value #MAX_ROWS} entries and
 * {@value #MAX_RELEASES} releases, so a page costs the same however long the ledger is.
 */
final class AnalystPage {
  /** Longest statement text shown per row. */
  static final int MAX_SQL_SHOWN = 600;
  /** Ledger entries listed at most (the latest; the chart shows more). */
  static final int MAX_ROWS = 100;
  /** Paid answers drawn in the chart at most (the latest). */
  static final int MAX_POINTS = 1_000;
  /** Releases listed at most (the latest). */
  static final int MAX_RELEASES = 100;

  private AnalystPage() {}

  /**
   * The page.
   *
   * @param history the analyst's history
   * @param figures the analyst's budget figures (from the same snapshot)
   * @param fingerprint the current policy's release fingerprint, or null if it does not load
   */
  static String render(LedgerReader.History history, BudgetFigures figures, String fingerprint) {
    String name = history.summary().analyst();
    String unit = figures.unit();
    boolean zcdp = figures.accounting() == Accounting.ZCDP;
    StringBuilder b = new StringBuilder(8192);
    b.append("<h2>Analyst <span id=\"analyst-name\">").append(Html.text(name)).append("</span></h2>");
    b.append("<div class=\"cards\">")
        .append(card("budget " + unit, Formats.exact(figures.totalInUnit()), "total"))
        .append(card("spent " + unit, Formats.exact(figures.spentInUnit()), "spent"))
        .append(card("remaining " + unit, Formats.exact(figures.remaining()), "remaining"))
        .append(card("ε spent" + (figures.delta() == null ? ""
            : " at δ=" + Formats.exact(figures.delta())),
            Formats.approx(figures.epsilonSpent()), "eps-spent"))
        .append(figures.usesDelta() ? card("δ spent", Formats.exact(figures.deltaSpent()),
            "delta-spent") + card("δ budget", Formats.exact(figures.deltaTotal()), "delta-total")
            : "")
        .append(card("paid answers", Long.toString(figures.paid()), "paid"))
        .append(card("free answers", Long.toString(figures.free()), "free"))
        .append("</div>");

    List<SpendChart.Point> points = new ArrayList<>();
    BigDecimal running = inUnit(history.spentBefore(), zcdp);
    for (LedgerReader.Charge c : history.charges()) {
      running = running.add(inUnit(c.cost(), zcdp));
      if (c.paid()) {
        points.add(new SpendChart.Point(c.time(), running.doubleValue(), Formats.exact(running),
            "#" + c.sequence()));
      }
    }
    BigDecimal total = figures.totalInUnit();
    b.append("<h3>Spending over time</h3>")
        .append("<p class=\"legend\"><span class=\"ls\">— cumulative spend (")
        .append(points.size()).append(" paid answers shown)</span><span class=\"lb\">- - budget")
        .append("</span></p>")
        .append(SpendChart.svg(points, inUnit(history.spentBefore(), zcdp).doubleValue(),
            total == null ? null : total.doubleValue(), unit));
    if (history.omitted() > 0) {
      b.append("<p class=\"muted\">The ").append(history.omitted())
          .append(" oldest entries are not drawn; the chart starts at their spend (")
          .append(Html.text(unit)).append(' ')
          .append(Html.text(Formats.exact(inUnit(history.spentBefore(), zcdp))))
          .append(").</p>");
    }

    int shown = history.entries().size();
    b.append("<h3>Ledger (newest first")
        .append(shown < figures.paid() + figures.free() ? ", the latest " + shown + " of "
            + (figures.paid() + figures.free()) : "")
        .append(")</h3><table id=\"ledger\"><thead><tr><th>#</th>")
        .append("<th>time (UTC)</th><th>statement</th><th>mechanism</th><th>cost</th>")
        .append("<th>source</th><th>expected RMSE</th></tr></thead><tbody>");
    for (int i = shown - 1; i >= 0; i--) {
      LedgerEntry e = history.entries().get(i);
      boolean free = LedgerEntry.SYNOPSIS.equals(e.source());
      b.append("<tr class=\"").append(free ? "free" : "paid").append("\"><td class=\"num\">")
          .append(e.sequence()).append("</td><td>").append(Html.text(Formats.time(e.time())))
          .append("</td><td class=\"sql\">").append(Html.text(cut(e.statement())))
          .append("</td><td>").append(Html.text(e.mechanism())).append("</td><td class=\"num\">")
          .append(Html.text(free ? "0" : e.cost().toString())).append("</td><td>")
          .append(free ? "free (synopsis)" : "paid").append("</td><td class=\"num\">")
          .append(e.expectedRmse() == null ? "—"
              : Html.text(String.format(Locale.ROOT, "%.4g", e.expectedRmse())))
          .append("</td></tr>");
    }
    b.append("</tbody></table>");

    b.append("<h3>Releases held (answers and synopses, newest first")
        .append(history.releases().size() == MAX_RELEASES ? ", the latest " + MAX_RELEASES : "")
        .append(")</h3>");
    if (history.releases().isEmpty()) {
      b.append("<p class=\"muted\">none</p>");
    } else {
      b.append("<table id=\"releases\"><thead><tr><th>#</th><th>released (UTC)</th><th>kind</th>")
          .append("<th>statement or synopsis</th><th>policy</th></tr></thead><tbody>");
      for (int i = history.releases().size() - 1; i >= 0; i--) {
        LedgerReader.Release r = history.releases().get(i);
        boolean current = r.policyFingerprint().equals(fingerprint);
        b.append("<tr><td class=\"num\">").append(r.number()).append("</td><td>")
            .append(Html.text(Formats.time(r.releasedAt()))).append("</td><td>")
            .append(Html.text(r.kind())).append("</td><td class=\"sql\">")
            .append(Html.text(cut(r.key()))).append("</td><td>")
            .append(current ? "<span class=\"ok\">current</span>"
                : "<span class=\"muted\">earlier policy (not used)</span>")
            .append("</td></tr>");
      }
      b.append("</tbody></table>");
    }
    return Layout.page("Analyst " + Html.text(name), Layout.Section.ANALYSTS, b.toString());
  }

  private static BigDecimal inUnit(PrivacyCost c, boolean zcdp) {
    return zcdp ? c.rho() : c.epsilon();
  }

  private static String cut(String s) {
    return s.length() <= MAX_SQL_SHOWN ? s : s.substring(0, MAX_SQL_SHOWN) + " …";
  }

  private static String card(String label, String value, String id) {
    return "<div class=\"card\"><span class=\"muted\">" + Html.text(label) + "</span><b id=\""
        + id + "\">" + Html.text(value) + "</b></div>";
  }
}
