package org.dpsql.server.console;

import java.math.BigDecimal;
import java.util.List;
import java.util.stream.Collectors;
import org.dpsql.adaptive.PopulationLevel;
import org.dpsql.policy.AdaptiveTablePolicy;
import org.dpsql.policy.BudgetAmount;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.Policy;
import org.dpsql.policy.SynopsisSpec;
import org.dpsql.policy.TablePolicy;
import org.dpsql.policy.TimeDomain;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.server.Analyst;
import org.dpsql.server.UsersFile;

/**
 * The policy page: what the policy in force exposes — tables with their privacy units and bounds,
 * columns with domains and clamps, hierarchies, spatial indexes, adaptive tables, published
 * synopses, budgets (the policy's and each user's) and limits — with the policy's release
 * fingerprint.
 *
 * <p>Guarantees: it shows the policy as checked against the backend now ({@link CurrentPolicy}),
 * or, if it does not load, the error instead of a stale policy; no password hash is shown; every
 * name and value is escaped.
 */
final class PolicyPage {
  /** Categorical values listed per column before the list is cut. */
  private static final int MAX_VALUES = 40;

  private PolicyPage() {}

  /** The page of a policy that loads. */
  static String render(CurrentPolicy.Loaded loaded, String source, UsersFile users) {
    Policy p = loaded.policy();
    StringBuilder b = new StringBuilder(8192);
    b.append("<h2>Policy</h2><div class=\"cards\">")
        .append(card("source", source))
        .append(card("accounting", p.budget().accounting()))
        .append(card("seed allowed", p.allowSeed() ? "yes (tests and demos only)" : "no"))
        .append("</div><p>Release fingerprint: <code id=\"fingerprint\">")
        .append(Html.text(loaded.fingerprint())).append("</code> <span class=\"muted\">(releases")
        .append(" stored under another fingerprint are no longer used)</span></p>");

    b.append("<h3>Budgets</h3><table id=\"budgets\"><thead><tr><th>who</th><th>role</th>")
        .append("<th>total</th><th>per connection</th></tr></thead><tbody>")
        .append("<tr><td>policy: every connection</td><td>—</td><td>—</td><td>")
        .append(Html.text(amount(p.budget().perConnection()))).append("</td></tr>")
        .append("<tr><td>policy: a query without a budget hint</td><td>—</td><td>")
        .append(Html.text(amount(p.budget().defaultQuery()))).append("</td><td>—</td></tr>");
    for (String name : users.passwords().keySet()) {
      Analyst a = users.analysts().get(name);
      String role = users.isOwner(name) ? (a == null ? "owner" : "owner, analyst") : "analyst";
      b.append("<tr><td>").append(Html.text(name)).append("</td><td>").append(role)
          .append("</td><td>").append(a == null ? "no budget" : Html.text(cost(a.total())))
          .append("</td><td>").append(a == null ? "—" : a.perConnection() == null
              ? "policy's" : Html.text(cost(a.perConnection()))).append("</td></tr>");
    }
    b.append("</tbody></table>");

    b.append("<h3>Limits</h3><table id=\"limits\"><tbody><tr><th>statement_timeout_s</th><td>")
        .append(p.limits().statementTimeoutSeconds() == null ? "none"
            : p.limits().statementTimeoutSeconds()).append("</td></tr><tr><th>max_cells</th><td>")
        .append(p.limits().maxCells() == null ? "engine's limit" : p.limits().maxCells())
        .append("</td></tr></tbody></table>");

    b.append("<h3>Tables</h3>");
    for (TablePolicy t : p.tables().values()) {
      b.append("<h4>").append(Html.text(t.qualifiedName())).append("</h4>");
      if (t.isPublic()) {
        b.append("<p>public: any read-only SQL, exact, free</p>");
        continue;
      }
      b.append("<table class=\"table-policy\"><tbody><tr><th>privacy unit</th><td>")
          .append(t.unitIsRow() ? "ROW (each row)" : Html.text(t.privacyUnit()))
          .append("</td></tr><tr><th>max rows per unit</th><td>").append(t.maxRowsPerUnit())
          .append("</td></tr><tr><th>bounding</th><td>").append(t.bounding().policyName())
          .append("</td></tr><tr><th>answer range</th><td>").append(t.answerRange() == null
              ? "—" : "[" + t.answerRange().lo() + ", " + t.answerRange().hi() + "]")
          .append("</td></tr></tbody></table>");
      b.append("<table class=\"columns\"><thead><tr><th>column</th><th>domain</th><th>cells</th>")
          .append("<th>clamp (SUM/AVG)</th></tr></thead><tbody>");
      for (ColumnPolicy c : t.columns().values()) {
        b.append("<tr><td>").append(Html.text(c.name())).append("</td><td>")
            .append(Html.text(domain(c))).append("</td><td class=\"num\">")
            .append(c.hasDomain() ? c.domainSize() : "—").append("</td><td>")
            .append(Html.text(c.clamp().map(k -> "[" + plain(k.lo()) + ", " + plain(k.hi()) + "]")
                .orElse(c.ordered().isPresent() ? "[min, max] of the domain"
                    : c.time().isPresent() ? "— (no SUM/AVG of a time)" : "—")))
            .append("</td></tr>");
      }
      b.append("</tbody></table>");
      if (!t.hierarchies().isEmpty()) {
        b.append("<p>Hierarchies: ").append(Html.text(t.hierarchies().entrySet().stream()
            .map(e -> e.getKey() + " = " + String.join(" → ", e.getValue()))
            .collect(Collectors.joining("; ")))).append("</p>");
      }
      if (!t.spatial().isEmpty()) {
        b.append("<p>Spatial indexes: ").append(Html.text(t.spatial().entrySet().stream()
            .map(e -> e.getKey() + " = (" + String.join(", ", e.getValue()) + ")")
            .collect(Collectors.joining("; ")))).append("</p>");
      }
    }

    b.append("<h3>Adaptive tables</h3>");
    if (p.adaptiveTables().isEmpty()) {
      b.append("<p class=\"muted\">none</p>");
    } else {
      b.append("<table id=\"adaptive\"><thead><tr><th>name</th><th>persons</th>")
          .append("<th>iterations</th><th>mechanism</th><th>γ, thresholds</th><th>levels</th>")
          .append("</tr></thead><tbody>");
      for (AdaptiveTablePolicy a : p.adaptiveTables().values()) {
        b.append("<tr><td>").append(Html.text(a.name())).append("</td><td>")
            .append(Html.text(a.persons().name() + " (person " + a.person().name() + ", sex "
                + a.sex().name() + ", age " + a.age().name() + ")"))
            .append("</td><td>").append(Html.text(a.iterations().name() + " ("
                + a.iteration().name() + ")")).append("</td><td>")
            .append(Html.text(a.spec().mechanism().toString())).append("</td><td>")
            .append(Html.text("γ=" + plain(a.spec().gamma()) + ", θ=" + a.spec().theta1() + ", "
                + a.spec().theta2() + ", " + a.spec().theta3())).append("</td><td>")
            .append(Html.text(levels(a.spec().levels()))).append("</td></tr>");
      }
      b.append("</tbody></table>");
    }

    b.append("<h3>Published synopses</h3>");
    if (p.synopses().isEmpty()) {
      b.append("<p class=\"muted\">none</p>");
    } else {
      b.append("<table id=\"synopses\"><thead><tr><th>name</th><th>table</th><th>workload</th>")
          .append("<th>budget (the owner's)</th><th>mechanism</th></tr></thead><tbody>");
      for (SynopsisSpec s : p.synopses().values()) {
        b.append("<tr><td>").append(Html.text(s.name())).append("</td><td>")
            .append(Html.text(s.table())).append("</td><td>").append(Html.text(s.workload()))
            .append("</td><td>").append(Html.text(amount(s.budget()))).append("</td><td>")
            .append(Html.text(s.mechanism())).append("</td></tr>");
      }
      b.append("</tbody></table>");
      if (p.synopsisStore() != null) {
        b.append("<p class=\"muted\">Synopsis store: ").append(Html.text(p.synopsisStore()))
            .append("</p>");
      }
    }
    return Layout.page("Policy", Layout.Section.POLICY, b.toString());
  }

  /** The page of a policy that does not load now. */
  static String failed(String source, String message) {
    return Layout.page("Policy", Layout.Section.POLICY, "<h2>Policy</h2><p class=\"bad\">The "
        + "policy " + Html.text(source) + " does not load now, so new connections are refused:</p>"
        + "<pre>" + Html.text(message) + "</pre>");
  }

  private static String domain(ColumnPolicy c) {
    if (c.categorical().isPresent()) {
      List<Object> values = c.categorical().get().values();
      String shown = values.stream().limit(MAX_VALUES).map(String::valueOf)
          .collect(Collectors.joining(", "));
      return "{" + shown + (values.size() > MAX_VALUES ? ", … " : "") + "}";
    }
    if (c.ordered().isPresent()) {
      var o = c.ordered().get();
      return "[" + plain(o.min()) + ", " + plain(o.max()) + "], bin " + plain(o.bin());
    }
    if (c.time().isPresent()) {
      TimeDomain t = c.time().get();
      return "[" + TimeDomain.format(t.min()) + ", " + TimeDomain.format(t.max()) + "], bin 1 "
          + t.unit().sqlName();
    }
    return "— (SUM/AVG only)";
  }

  private static String levels(List<PopulationLevel> levels) {
    return levels.stream().map(l -> l.name() + " (budget " + plain(l.budget()) + ", Δ="
        + l.stability() + ", " + l.geographies().size() + " geographies, "
        + l.iterations().size() + " iterations)").collect(Collectors.joining("; "));
  }

  private static String amount(BudgetAmount a) {
    List<String> parts = new java.util.ArrayList<>();
    if (a.epsilon() != null) {
      parts.add("ε=" + plain(a.epsilon()));
    }
    if (a.rho() != null) {
      parts.add("ρ=" + plain(a.rho()));
    }
    if (a.delta() != null) {
      parts.add("δ=" + plain(a.delta()));
    }
    return String.join(", ", parts);
  }

  private static String cost(PrivacyCost c) {
    return c.toString();
  }

  private static String plain(BigDecimal v) {
    return Formats.exact(v);
  }

  private static String card(String label, String value) {
    return "<div class=\"card\"><span class=\"muted\">" + Html.text(label) + "</span><b>"
        + Html.text(value) + "</b></div>";
  }
}
