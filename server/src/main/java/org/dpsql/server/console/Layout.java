package org.dpsql.server.console;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import javax.servlet.http.HttpServletResponse;

/**
 * The frame of every console page (navigation, style sheet) and the response headers every
 * console answer carries.
 *
 * <p>Guarantees: every page is a complete HTML5 document whose only style is the inline style
 * sheet {@link #CSS}, allowed by its SHA-256 hash in {@link #CONTENT_SECURITY_POLICY}; the policy
 * allows nothing else — no script, no frame, no image, no connection, no external style, no
 * {@code <base>}, forms only to this origin — so even markup that escaped escaping could not run or
 * load anything. {@link #secure} marks every answer {@code Cache-Control: no-store}, {@code
 * nosniff}, not frameable and without referrer. The title and the body are inserted as given: the
 * callers escape what they put in them.
 */
public final class Layout {
  /** The console's style sheet, inlined in every page. */
  static final String CSS = """
      body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d2733;background:#f6f8fa}
      header{background:#1d3557;color:#fff;padding:10px 24px;display:flex;align-items:center;gap:32px}
      header h1{font-size:18px;margin:0;font-weight:600}
      nav a{color:#dbe7f5;text-decoration:none;margin-right:18px;font-size:15px}
      nav a.active{color:#fff;font-weight:600;border-bottom:2px solid #f4a261}
      main{padding:16px 24px 40px}
      h2{font-size:20px;margin:8px 0 12px}
      h3{font-size:16px;margin:22px 0 8px}
      table{border-collapse:collapse;background:#fff;font-size:13px;margin-bottom:8px}
      th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}
      th{background:#eef2f6}
      th a{color:#1d3557;text-decoration:none}
      td.num{text-align:right;font-variant-numeric:tabular-nums}
      td.sql{font-family:ui-monospace,Menlo,Consolas,monospace;max-width:640px;white-space:pre-wrap;word-break:break-all}
      .muted{color:#6a737d;font-size:13px}
      .ok{color:#1a7f37}
      .bad{color:#cf222e}
      .cards{display:flex;gap:16px;margin:8px 0 16px;flex-wrap:wrap}
      .card{background:#fff;border:1px solid #d0d7de;padding:8px 14px;min-width:120px}
      .card b{display:block;font-size:18px}
      .bar{display:inline-block;width:90px;height:8px;background:#e1e4e8;vertical-align:middle}
      .bar i{display:block;height:8px;background:#e76f51}
      .w0{width:0}.w1{width:10%}.w2{width:20%}.w3{width:30%}.w4{width:40%}.w5{width:50%}.w6{width:60%}.w7{width:70%}.w8{width:80%}.w9{width:90%}.w10{width:100%}
      form.filters{margin:0 0 12px}
      form.filters label{margin-right:12px;font-size:14px}
      svg.chart{background:#fff;border:1px solid #d0d7de;width:760px;max-width:100%;height:auto}
      svg .axis{stroke:#57606a;stroke-width:1}
      svg .budget{stroke:#cf222e;stroke-width:1.5;stroke-dasharray:6 4}
      svg .spend{fill:none;stroke:#1d3557;stroke-width:2}
      svg .paid{fill:#f4a261;stroke:#1d3557;stroke-width:1}
      svg .tick{font-size:11px;fill:#57606a}
      .legend span{margin-right:16px;font-size:13px}
      .legend .lb{color:#cf222e}.legend .ls{color:#1d3557}
      code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}
      """;

  /** The Content-Security-Policy of every console answer. */
  public static final String CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'sha256-"
      + sha256(CSS) + "'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

  private Layout() {}

  /** Sets the headers every console answer carries, whatever its status. */
  public static void secure(HttpServletResponse response) {
    response.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    response.setHeader("Cache-Control", "no-store");
    response.setHeader("Pragma", "no-cache");
    response.setHeader("X-Content-Type-Options", "nosniff");
    response.setHeader("X-Frame-Options", "DENY");
    response.setHeader("Referrer-Policy", "no-referrer");
  }

  /** The navigation entries: path and label. */
  enum Section {
    ANALYSTS("/console", "Analysts"),
    AUDIT("/console/audit", "Audit"),
    POLICY("/console/policy", "Policy");

    final String path;
    final String label;

    Section(String path, String label) {
      this.path = path;
      this.label = label;
    }
  }

  /**
   * A whole page.
   *
   * @param title the page title, already escaped
   * @param active the highlighted section, or null
   * @param body the page's HTML, already escaped where needed
   */
  static String page(String title, Section active, String body) {
    StringBuilder b = new StringBuilder(body.length() + CSS.length() + 1024);
    b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        .append("<title>").append(title).append(" · dpsql console</title><style>").append(CSS)
        .append("</style></head><body><header><h1>dpsql console</h1><nav>");
    for (Section s : Section.values()) {
      b.append("<a href=\"").append(s.path).append('"')
          .append(s == active ? " class=\"active\"" : "").append('>').append(s.label)
          .append("</a>");
    }
    b.append("</nav><span class=\"muted\">read-only</span></header><main>").append(body)
        .append("</main></body></html>\n");
    return b.toString();
  }

  private static String sha256(String s) {
    try {
      return Base64.getEncoder().encodeToString(
          MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
