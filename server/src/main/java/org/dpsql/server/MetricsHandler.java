package org.dpsql.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Objects;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.AbstractHandler;

/**
 * {@code GET /metrics}: the {@link ServerMetrics} in the Prometheus text format, for owners only
 * (on the server's own port and TLS: a Prometheus scrape job gives an owner's name and password as
 * {@code basic_auth}).
 *
 * <p>Guarantees: only a user with the role {@value AnalystLoginService#OWNER_ROLE} gets the metrics
 * (the security handler in front asks for credentials; an analyst gets 403, checked here again),
 * since the metrics name the analysts and what they spent; only {@code GET} is served.
 */
final class MetricsHandler extends AbstractHandler {
  /** The path served. */
  static final String PATH = "/metrics";

  private final ServerMetrics metrics;

  MetricsHandler(ServerMetrics metrics) {
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  @Override
  public void handle(String target, Request baseRequest, HttpServletRequest request,
      HttpServletResponse response) throws IOException {
    baseRequest.setHandled(true);
    response.setHeader("Cache-Control", "no-store");
    if (request.getRemoteUser() == null) {
      response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
      return;
    }
    if (!request.isUserInRole(AnalystLoginService.OWNER_ROLE)) {
      response.setStatus(HttpServletResponse.SC_FORBIDDEN);
      return;
    }
    if (!"GET".equals(request.getMethod())) {
      response.setHeader("Allow", "GET");
      response.setStatus(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
      return;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
    metrics.write(out);
    response.setStatus(HttpServletResponse.SC_OK);
    response.setContentType(metrics.contentType());
    response.setContentLength(out.size());
    out.writeTo(response.getOutputStream());
  }
}
