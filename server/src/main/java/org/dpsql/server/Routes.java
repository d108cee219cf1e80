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
 * Sends each authenticated request to the data-owner console ({@code /console} and below) or to
 * the Avatica endpoint (everything else).
 *
 * <p>Guarantee: a console path never reaches the Avatica endpoint and no other path reaches the
 * console; the security handler in front has already applied each path's role constraint.
 */
final class Routes extends AbstractHandler {
  private final AbstractHandler endpoint;
  private final ConsoleHandler console;

  Routes(AbstractHandler endpoint, ConsoleHandler console) {
    this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
    this.console = Objects.requireNonNull(console, "console");
  }

  @Override
  public void handle(String target, Request baseRequest, HttpServletRequest request,
      HttpServletResponse response) throws IOException, ServletException {
    // target is the decoded, normalised path the security constraints were matched against
    if (ConsoleHandler.owns(target)) {
      console.handle(target, baseRequest, request, response);
    } else {
      endpoint.handle(target, baseRequest, request, response);
    }
  }

  @Override
  protected void doStart() throws Exception {
    endpoint.setServer(getServer());
    console.setServer(getServer());
    endpoint.start();
    console.start();
    super.doStart();
  }

  @Override
  protected void doStop() throws Exception {
    super.doStop();
    console.stop();
    endpoint.stop();
  }
}
