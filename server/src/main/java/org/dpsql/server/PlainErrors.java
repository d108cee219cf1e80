package org.dpsql.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.dpsql.server.console.Layout;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.ErrorHandler;

/**
 * The body of the errors Jetty answers itself (401 without or with wrong credentials, 403 for a
 * role the path does not allow, 400 for malformed requests): one line with the status code and
 * its standard reason, nothing else.
 *
 * <p>Guarantees: the body names no path, user, role or server version and has no stack trace, so
 * a refused request learns only its status; the answer carries the console's security headers
 * ({@code no-store}, the strict Content-Security-Policy); headers set before the error (such as
 * {@code WWW-Authenticate}) are kept.
 */
final class PlainErrors extends ErrorHandler {
  PlainErrors() {
    setShowStacks(false);
    setShowServlet(false);
    setShowMessageInTitle(false);
  }

  @Override
  protected void generateAcceptableResponse(Request baseRequest, HttpServletRequest request,
      HttpServletResponse response, int code, String message) throws IOException {
    Layout.secure(response);
    byte[] body = (code + " " + HttpStatus.getMessage(code) + "\n")
        .getBytes(StandardCharsets.UTF_8);
    response.setContentType("text/plain; charset=utf-8");
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
    baseRequest.setHandled(true);
  }
}
