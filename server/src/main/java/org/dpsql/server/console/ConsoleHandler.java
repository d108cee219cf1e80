package org.dpsql.server.console;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.Objects;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.dpsql.accounting.Accounting;
import org.dpsql.ledger.LedgerReader;
import org.dpsql.policy.Policy;
import org.dpsql.server.AnalystLoginService;
import org.dpsql.server.UsersFile;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.AbstractHandler;

/**
 * The data-owner console at {@value #PATH}: read-only HTML pages of the analysts' budgets, one
 * analyst's spending, ledger and releases, the audit log and the policy.
 *
 * <p>Guarantees: only a user with the role {@value AnalystLoginService#OWNER_ROLE} gets a page;
 * anyone else authenticated gets the same bodiless 403 for every console path (an analyst learns
 * nothing, not even which pages exist), and without credentials the security handler in front
 * answers 401 before this handler runs (checked here again). Only {@code GET} is served (anything
 * else: 405), and no page has a form or link that changes state: nothing here can change a budget.
 * Every answer carries {@link Layout#secure}'s headers ({@code no-store}, the strict CSP). Pages
 * read the ledger through a {@link LedgerReader} (its own connection, never an analyst's charging
 * lock) and the audit log through an {@link AuditTail} (its own file handle), so viewing them
 * never delays an analyst's statement.
 */
public final class ConsoleHandler extends AbstractHandler {
  /** Where the console is served. */
  public static final String PATH = "/console";
  private static final System.Logger LOG = System.getLogger(ConsoleHandler.class.getName());

  private final java.util.function.Supplier<UsersFile> users;
  private final LedgerReader ledger;
  private final AuditTail audit;
  private final CurrentPolicy policy;
  private final Policy startPolicy;

  /**
   * @param users the users file the server runs with
   * @param ledger the read-only view of the ledger
   * @param audit the audit log's tail
   * @param policy the policy in force now
   * @param startPolicy the policy the server started with (its accounting and δ are used when the
   *     policy file does not load now)
   */
  public ConsoleHandler(UsersFile users, LedgerReader ledger, AuditTail audit,
      CurrentPolicy policy, Policy startPolicy) {
    this(() -> users, ledger, audit, policy, startPolicy);
  }

  /** As the other constructor, with the users file in force at each request (it is re-read). */
  public ConsoleHandler(java.util.function.Supplier<UsersFile> users, LedgerReader ledger,
      AuditTail audit, CurrentPolicy policy, Policy startPolicy) {
    this.users = Objects.requireNonNull(users, "users");
    this.ledger = Objects.requireNonNull(ledger, "ledger");
    this.audit = Objects.requireNonNull(audit, "audit");
    this.policy = Objects.requireNonNull(policy, "policy");
    this.startPolicy = Objects.requireNonNull(startPolicy, "startPolicy");
  }

  /** Whether a request path belongs to the console. */
  public static boolean owns(String path) {
    return path != null && (path.equals(PATH) || path.startsWith(PATH + "/"));
  }

  @Override
  public void handle(String target, Request baseRequest, HttpServletRequest request,
      HttpServletResponse response) throws IOException {
    baseRequest.setHandled(true);
    Layout.secure(response);
    if (request.getRemoteUser() == null) { // the security handler lets none through; be sure
      plain(response, HttpServletResponse.SC_UNAUTHORIZED, "401 Unauthorized");
      return;
    }
    if (!request.isUserInRole(AnalystLoginService.OWNER_ROLE)) {
      plain(response, HttpServletResponse.SC_FORBIDDEN, "403 Forbidden");
      return;
    }
    if (!"GET".equals(request.getMethod())) {
      response.setHeader("Allow", "GET");
      plain(response, HttpServletResponse.SC_METHOD_NOT_ALLOWED,
          "405 Method Not Allowed: the console is read-only");
      return;
    }
    String path = target; // decoded and normalised, as the security constraints saw it
    try {
      switch (path) {
        case PATH, PATH + "/", PATH + "/analysts" -> html(response, analysts(request));
        case PATH + "/analyst" -> {
          String page = analyst(request.getParameter("name"));
          if (page == null) {
            notFound(response);
          } else {
            html(response, page);
          }
        }
        case PATH + "/audit" -> html(response, audit(request));
        case PATH + "/policy" -> html(response, policyPage());
        default -> notFound(response);
      }
    } catch (SQLException | IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "console page " + path + " failed", e);
      response.reset();
      Layout.secure(response);
      plain(response, HttpServletResponse.SC_INTERNAL_SERVER_ERROR, "500: the console could not "
          + "read the ledger, the audit log or the policy: " + e.getMessage());
    }
  }

  private String analysts(HttpServletRequest request) throws SQLException {
    Policy p = policyOrStart();
    BudgetFigures.SortKey sort = BudgetFigures.SortKey.parse(request.getParameter("sort"));
    boolean descending = "desc".equals(request.getParameter("dir"));
    return AnalystsPage.render(BudgetFigures.all(ledger.summaries(), users.get(), delta(p)),
        Accounting.parse(p.budget().accounting()), delta(p), sort, descending);
  }

  private String analyst(String name) throws SQLException {
    if (name == null || name.isEmpty()) {
      return null;
    }
    LedgerReader.History history = ledger.history(name, AnalystPage.MAX_POINTS,
        AnalystPage.MAX_ROWS, AnalystPage.MAX_RELEASES);
    if (history == null) {
      return null;
    }
    String fingerprint;
    BigDecimal delta;
    try {
      CurrentPolicy.Loaded loaded = policy.get();
      fingerprint = loaded.fingerprint();
      delta = delta(loaded.policy());
    } catch (SQLException e) {
      fingerprint = null;
      delta = delta(startPolicy);
    }
    return AnalystPage.render(history, BudgetFigures.of(history.summary(), users.get(), delta),
        fingerprint);
  }

  private String audit(HttpServletRequest request) throws IOException {
    String analyst = request.getParameter("analyst");
    String outcome = request.getParameter("outcome");
    AuditTail.Result result = audit.latest(AuditPage.LIMIT, AuditPage.filter(analyst, outcome));
    return AuditPage.render(result, users.get().passwords().keySet(), analyst, outcome);
  }

  private String policyPage() {
    try {
      return PolicyPage.render(policy.get(), policy.source(), users.get());
    } catch (SQLException e) {
      return PolicyPage.failed(policy.source(), e.getMessage());
    }
  }

  /** The policy now, or the one the server started with if it does not load now. */
  private Policy policyOrStart() {
    try {
      return policy.get().policy();
    } catch (SQLException e) {
      return startPolicy;
    }
  }

  /** The δ at which ε is reported under zCDP (the policy's per-connection δ), else null. */
  private static BigDecimal delta(Policy p) {
    return Accounting.parse(p.budget().accounting()) == Accounting.ZCDP
        ? p.budget().perConnection().delta() : null;
  }

  private static void html(HttpServletResponse response, String page) throws IOException {
    byte[] bytes = page.getBytes(StandardCharsets.UTF_8);
    response.setStatus(HttpServletResponse.SC_OK);
    response.setContentType("text/html; charset=utf-8");
    response.setContentLength(bytes.length);
    response.getOutputStream().write(bytes);
  }

  private static void notFound(HttpServletResponse response) throws IOException {
    byte[] bytes = Layout.page("Not found", null, "<h2>Not found</h2><p>No such console page or "
        + "analyst.</p>").getBytes(StandardCharsets.UTF_8);
    response.setStatus(HttpServletResponse.SC_NOT_FOUND);
    response.setContentType("text/html; charset=utf-8");
    response.setContentLength(bytes.length);
    response.getOutputStream().write(bytes);
  }

  /** A short text answer (errors and refusals). */
  static void plain(HttpServletResponse response, int status, String text) throws IOException {
    byte[] bytes = (text + "\n").getBytes(StandardCharsets.UTF_8);
    response.setStatus(status);
    response.setContentType("text/plain; charset=utf-8");
    response.setContentLength(bytes.length);
    response.getOutputStream().write(bytes);
  }
}
