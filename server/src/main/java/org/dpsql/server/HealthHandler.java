package org.dpsql.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.AbstractHandler;

/**
 * {@code GET /health}: whether this server can answer statements now, for a load balancer or an
 * orchestrator. Needs no authentication.
 *
 * <p>Answers {@code 200} with {@code {"status":"up","ledger":"up","backend":"up"}} when the ledger
 * store and the backend both answer a trivial query, else {@code 503} with the part that is {@code
 * "down"}. Guarantees: the answer holds no data, no names and no error text (the reason is logged
 * on the server); the two probes run at most once per {@value #CACHE_MILLIS} ms whatever the
 * request rate (an unauthenticated caller cannot make the server open connections faster than
 * that); only {@code GET} and {@code HEAD} are served.
 */
final class HealthHandler extends AbstractHandler {
  /** The path served. */
  static final String PATH = "/health";
  static final long CACHE_MILLIS = 1000;

  private final BooleanSupplier ledger;
  private final BooleanSupplier backend;
  private long checkedAtNanos;
  private boolean ledgerUp;
  private boolean backendUp;
  private boolean checked;

  /**
   * @param ledger whether the ledger store answers now
   * @param backend whether the backend answers now
   */
  HealthHandler(BooleanSupplier ledger, BooleanSupplier backend) {
    this.ledger = Objects.requireNonNull(ledger, "ledger");
    this.backend = Objects.requireNonNull(backend, "backend");
  }

  @Override
  public void handle(String target, Request baseRequest, HttpServletRequest request,
      HttpServletResponse response) throws IOException {
    baseRequest.setHandled(true);
    response.setHeader("Cache-Control", "no-store");
    if (!"GET".equals(request.getMethod()) && !"HEAD".equals(request.getMethod())) {
      response.setHeader("Allow", "GET, HEAD");
      response.setStatus(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
      return;
    }
    boolean[] up = probe();
    boolean all = up[0] && up[1];
    byte[] body = ("{\"status\":\"" + (all ? "up" : "down") + "\",\"ledger\":\""
        + (up[0] ? "up" : "down") + "\",\"backend\":\"" + (up[1] ? "up" : "down") + "\"}\n")
        .getBytes(StandardCharsets.UTF_8);
    response.setStatus(all ? HttpServletResponse.SC_OK : HttpServletResponse.SC_SERVICE_UNAVAILABLE);
    response.setContentType("application/json");
    response.setContentLength(body.length);
    if ("GET".equals(request.getMethod())) {
      response.getOutputStream().write(body);
    }
  }

  /** The ledger's and the backend's state, probed at most once per {@link #CACHE_MILLIS}. */
  private synchronized boolean[] probe() {
    long now = System.nanoTime();
    if (!checked || now - checkedAtNanos >= CACHE_MILLIS * 1_000_000L) {
      ledgerUp = ledger.getAsBoolean();
      backendUp = backend.getAsBoolean();
      checkedAtNanos = System.nanoTime();
      checked = true;
    }
    return new boolean[] {ledgerUp, backendUp};
  }
}
