package org.dpsql.server.console;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.dpsql.accounting.Accounting;

/**
 * The console's first page: one row per analyst with budget, spent, remaining, ε at the policy's
 * δ, paid and free answers and last activity, sorted by the column the owner chose.
 *
 * <p>Guarantees: every analyst the ledger knows is listed exactly once with the figures of one
 * ledger snapshot ({@link BudgetFigures}); sorting is done here, on the server, from the {@code
 * sort} and {@code dir} query parameters (unknown values fall back to name, ascending); every name
 * is escaped. Each row carries {@code data-analyst} and each figure a class naming it, so that
 * tests can read them.
 */
final class AnalystsPage {
  private AnalystsPage() {}

  /**
   * The page.
   *
   * @param figures the analysts' figures
   * @param accounting the policy's accounting
   * @param delta the δ of the ε figures (the policy's reporting δ under zCDP), or null
   * @param sort the sort column
   * @param descending whether the order is descending
   */
  static String render(List<BudgetFigures> figures, Accounting accounting, BigDecimal delta,
      BudgetFigures.SortKey sort, boolean descending) {
    List<BudgetFigures> rows = new ArrayList<>(figures);
    Comparator<BudgetFigures> order = sort.order();
    rows.sort(descending ? order.reversed() : order);
    String unit = accounting == Accounting.ZCDP ? "ρ" : "ε";
    long paid = rows.stream().mapToLong(BudgetFigures::paid).sum();
    long free = rows.stream().mapToLong(BudgetFigures::free).sum();
    StringBuilder b = new StringBuilder(4096);
    b.append("<h2>Analysts</h2><div class=\"cards\">")
        .append(card("analysts", Integer.toString(rows.size())))
        .append(card("accounting", accounting.policyName() + " (" + unit + ")"))
        .append(card("ε reported at δ", delta == null ? "—" : Formats.exact(delta)))
        .append(card("paid answers", Long.toString(paid)))
        .append(card("free answers", Long.toString(free)))
        .append("</div>");
    b.append("<table id=\"analysts\"><thead><tr>");
    header(b, "analyst", BudgetFigures.SortKey.NAME, sort, descending);
    header(b, "budget " + unit, BudgetFigures.SortKey.BUDGET, sort, descending);
    header(b, "spent " + unit, BudgetFigures.SortKey.SPENT, sort, descending);
    header(b, "remaining " + unit, BudgetFigures.SortKey.REMAINING, sort, descending);
    header(b, "used", BudgetFigures.SortKey.SHARE, sort, descending);
    boolean deltas = accounting.usesDelta();
    b.append("<th>ε spent</th><th>ε budget</th>");
    if (deltas) {
      b.append("<th>δ spent</th><th>δ budget</th>");
    }
    b.append("<th>per connection</th>");
    header(b, "paid", BudgetFigures.SortKey.PAID, sort, descending);
    header(b, "free", BudgetFigures.SortKey.FREE, sort, descending);
    header(b, "last activity (UTC)", BudgetFigures.SortKey.LAST, sort, descending);
    b.append("</tr></thead><tbody>");
    for (BudgetFigures f : rows) {
      Double share = f.share();
      b.append("<tr data-analyst=\"").append(Html.text(f.analyst())).append("\">")
          .append("<td class=\"name\"><a href=\"/console/analyst?name=")
          .append(Html.query(f.analyst())).append("\">").append(Html.text(f.analyst()))
          .append("</a>").append(f.totalInUnit() == null
              ? " <span class=\"muted\">(no budget in the users file)</span>" : "").append("</td>")
          .append(num("total", Formats.exact(f.totalInUnit())))
          .append(num("spent", Formats.exact(f.spentInUnit())))
          .append(num("remaining", Formats.exact(f.remaining())))
          .append("<td class=\"share\">");
      if (share != null) {
        b.append("<span class=\"bar\"><i class=\"w").append(Math.round(share * 10))
            .append("\"></i></span> ").append(Math.round(share * 100)).append('%');
      }
      b.append("</td>")
          .append(num("eps-spent", Formats.approx(f.epsilonSpent())))
          .append(num("eps-total", Formats.approx(f.epsilonTotal())))
          .append(deltas ? num("delta-spent", Formats.exact(f.deltaSpent()))
              + num("delta-total", Formats.exact(f.deltaTotal())) : "")
          .append(num("cap", f.perConnection() == null ? "policy's"
              : Formats.exact(accounting == Accounting.ZCDP ? f.perConnection().rho()
                  : f.perConnection().epsilon())))
          .append(num("paid", Long.toString(f.paid())))
          .append(num("free", Long.toString(f.free())))
          .append("<td class=\"last\">")
          .append(Html.text(Formats.time(f.lastActivity())))
          .append("</td></tr>");
    }
    b.append("</tbody></table><p class=\"muted\">Remaining is the analyst's total minus their "
        + "spending over all connections; one connection may spend at most the smaller of it and "
        + "the per-connection cap (the users file's, else the policy's per_connection).</p>");
    return Layout.page("Analysts", Layout.Section.ANALYSTS, b.toString());
  }

  private static String card(String label, String value) {
    return "<div class=\"card\"><span class=\"muted\">" + Html.text(label) + "</span><b>"
        + Html.text(value) + "</b></div>";
  }

  private static String num(String cls, String value) {
    return "<td class=\"num " + cls + "\">" + Html.text(value) + "</td>";
  }

  private static void header(StringBuilder b, String label, BudgetFigures.SortKey key,
      BudgetFigures.SortKey sort, boolean descending) {
    boolean current = key == sort;
    boolean nextDescending = current && !descending;
    b.append("<th><a href=\"/console?sort=").append(key.param()).append("&amp;dir=")
        .append(nextDescending ? "desc" : "asc").append("\">").append(Html.text(label));
    if (current) {
      b.append(descending ? " ▼" : " ▲");
    }
    b.append("</a></th>");
  }
}
