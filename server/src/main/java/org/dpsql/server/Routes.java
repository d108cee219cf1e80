package org.dpsql.server;

import java.io.IOException;
import java.util.Objects;
import javax.servlet.ServletException;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.dpsql.server.console.ConsoleHandler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.AbstractHandler;

/**
 * Sends each request to the health check ({@code /health}), the metrics ({@code /metrics}), the
 * data-owner console ({@code /console} and below) or the Avatica endpoint (everything else).
 *
 * <p>Guarantee: each path reaches exactly one of them; the security handler in front has already
 * applied each path's constraint (none for {@code /health}, owners for {@code /metrics} and the
 * console, analysts for the rest).
 */
final class Routes extends AbstractHandler {
  private final AbstractHandler endpoint;
  private final ConsoleHandler console;
  private final AbstractHandler health;
  private final AbstractHandler metrics;

  Routes(AbstractHandler endpoint, ConsoleHandler console, AbstractHandler health,
      AbstractHandler metrics) {
    this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
    this.console = Objects.requireNonNull(console, "console");
    this.health = Objects.requireNonNull(health, "health");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  @Override
  public void handle(String target, Request baseRequest, HttpServletRequest request,
      HttpServletResponse response) throws IOException, ServletException {
    // target is the decoded, normalised path the security constraints were matched against
    if (HealthHandler.PATH.equals(target)) {
      health.handle(target, baseRequest, request, response);
    } else if (MetricsHandler.PATH.equals(target)) {
      metrics.handle(target, baseRequest, request, response);
    } else if (ConsoleHandler.owns(target)) {
      console.handle(target, baseRequest, request, response);
    } else {
      endpoint.handle(target, baseRequest, request, response);
    }
  }

  @Override
  protected void doStart() throws Exception {
    for (AbstractHandler h : new AbstractHandler[] {endpoint, console, health, metrics}) {
      h.setServer(getServer());
      h.start();
    }
    super.doStart();
  }

  @Override
  protected void doStop() throws Exception {
    super.doStop();
    metrics.stop();
    health.stop();
    console.stop();
    endpoint.stop();
  }
}
