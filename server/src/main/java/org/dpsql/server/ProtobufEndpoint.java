package org.dpsql.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import java.util.function.Function;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.remote.ProtobufTranslation;
import org.apache.calcite.avatica.remote.ProtobufTranslationImpl;
import org.apache.calcite.avatica.remote.Service;
import org.dpsql.accounting.ChargeMeter;
import org.dpsql.accounting.PrivacyCost;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.AbstractHandler;

/**
 * The HTTP endpoint of the Avatica protocol with Protobuf serialization, as the Avatica thin driver
 * speaks it ({@code jdbc:avatica:remote:url=...;serialization=protobuf}).
 *
 * <p>Guarantees: only POST requests of an HTTP-authenticated user reach the service, and each runs
 * as that user ({@link CurrentAnalyst}); request bodies over {@code maxRequestBytes} are refused
 * (413) unread; every failure is answered by an Avatica error response built by {@link
 * ClientErrors} (contract SQLState, no stack trace). Every statement request (prepare, execute,
 * prepare-and-execute, batches) gets its line in the {@link AuditLog} before its response leaves,
 * with the outcome the client receives and the cost the call charged ({@link ChargeMeter}); if
 * the line cannot be written the answer is withheld and the client gets {@code HY000}. The same
 * outcome, duration and charge are counted in the {@link ServerMetrics}.
 */
final class ProtobufEndpoint extends AbstractHandler {
  private final Service service;
  private final ProtobufTranslation translation = new ProtobufTranslationImpl();
  private final int maxRequestBytes;
  private final AuditLog audit;
  private final Function<Meta.StatementHandle, String> preparedSql;
  private final ServerMetrics metrics;

  /**
   * @param service the Avatica service
   * @param maxRequestBytes largest request body accepted
   * @param audit where statements are logged
   * @param preparedSql the SQL a statement of the current analyst was prepared with, or null
   * @param metrics where statements are counted
   */
  ProtobufEndpoint(Service service, int maxRequestBytes, AuditLog audit,
      Function<Meta.StatementHandle, String> preparedSql, ServerMetrics metrics) {
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.service = Objects.requireNonNull(service, "service");
    this.maxRequestBytes = maxRequestBytes;
    this.audit = Objects.requireNonNull(audit, "audit");
    this.preparedSql = Objects.requireNonNull(preparedSql, "preparedSql");
  }

  /** A statement request, as the audit log records it. */
  private record Audited(String request, String connection, String sql) {}

  /** The audit record of a statement request, or null for other requests. */
  private Audited audited(Service.Request r) {
    if (r instanceof Service.PrepareRequest q) {
      return new Audited("prepare", q.connectionId, q.sql);
    } else if (r instanceof Service.PrepareAndExecuteRequest q) {
      return new Audited("prepare_and_execute", q.connectionId, q.sql);
    } else if (r instanceof Service.ExecuteRequest q) {
      Meta.StatementHandle h = q.statementHandle;
      String sql = h == null ? null : preparedSql.apply(h);
      return new Audited("execute", h == null ? null : h.connectionId,
          sql == null ? "(no such prepared statement)" : sql);
    } else if (r instanceof Service.PrepareAndExecuteBatchRequest q) {
      return new Audited("prepare_and_execute_batch", q.connectionId,
          q.sqlCommands == null ? "" : String.join(";\n", q.sqlCommands));
    } else if (r instanceof Service.ExecuteBatchRequest q) {
      String sql = preparedSql.apply(new Meta.StatementHandle(q.connectionId, q.statementId,
          null));
      return new Audited("execute_batch", q.connectionId,
          sql == null ? "(no such prepared statement)" : sql);
    }
    return null;
  }

  /** What the client receives: {@code ok}, or the SQLState of its error. */
  private static String outcome(Service.Response answer) {
    if (answer instanceof Service.ErrorResponse e) {
      return e.sqlState == null ? ClientErrors.INTERNAL : e.sqlState;
    }
    if (answer instanceof Service.ExecuteResponse e && e.missingStatement
        || answer instanceof Service.ExecuteBatchResponse b && b.missingStatement) {
      return ClientErrors.NO_STATEMENT;
    }
    return "ok";
  }

  @Override
  public void handle(String target, Request baseRequest, HttpServletRequest request,
      HttpServletResponse response) throws IOException {
    baseRequest.setHandled(true);
    if (!"POST".equals(request.getMethod())) {
      response.setStatus(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
      response.setHeader("Allow", "POST");
      return;
    }
    String analyst = request.getRemoteUser();
    if (analyst == null) { // the security handler lets no such request through; be sure anyway
      response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
      return;
    }
    long declared = request.getContentLengthLong();
    if (declared > maxRequestBytes) {
      response.setStatus(HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE);
      return;
    }
    byte[] body = readAtMost(request.getInputStream(), maxRequestBytes);
    if (body == null) {
      response.setStatus(HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE);
      return;
    }
    Service.Response answer;
    int status = HttpServletResponse.SC_OK;
    Service.Request call;
    try {
      call = translation.parseRequest(body);
    } catch (IOException | RuntimeException e) {
      call = null;
    }
    if (call == null) {
      answer = ClientErrors.response("the request is not an Avatica protobuf message",
          ClientErrors.PROTOCOL);
      status = HttpServletResponse.SC_INTERNAL_SERVER_ERROR;
    } else {
      Service.Request c = call;
      Audited audited = null;
      long start = System.nanoTime();
      ChargeMeter.start();
      try {
        audited = CurrentAnalyst.callAs(analyst, () -> audited(c));
        answer = CurrentAnalyst.callAs(analyst, () -> dispatch(c));
      } catch (Exception | StackOverflowError | OutOfMemoryError e) {
        answer = ClientErrors.of(e);
        status = HttpServletResponse.SC_INTERNAL_SERVER_ERROR; // Avatica clients read the body
      }
      PrivacyCost charged = ChargeMeter.stop();
      if (audited != null) {
        try {
          audit.record(analyst, audited.request(), audited.connection(), audited.sql(),
              outcome(answer), charged, System.nanoTime() - start);
        } catch (RuntimeException e) {
          answer = ClientErrors.auditUnavailable(e);
          status = HttpServletResponse.SC_INTERNAL_SERVER_ERROR;
        }
        metrics.statement(audited.request(), outcome(answer), System.nanoTime() - start, analyst,
            charged);
      }
    }
    byte[] bytes = translation.serializeResponse(answer);
    response.setStatus(status);
    response.setContentType("application/octet-stream");
    response.setContentLength(bytes.length);
    response.getOutputStream().write(bytes);
  }

  /** Calls the service method for the request's type (Avatica's own dispatch is not public). */
  private Service.Response dispatch(Service.Request r) {
    if (r instanceof Service.CatalogsRequest q) {
      return service.apply(q);
    } else if (r instanceof Service.SchemasRequest q) {
      return service.apply(q);
    } else if (r instanceof Service.TablesRequest q) {
      return service.apply(q);
    } else if (r instanceof Service.TableTypesRequest q) {
      return service.apply(q);
    } else if (r instanceof Service.TypeInfoRequest q) {
      return service.apply(q);
    } else if (r instanceof Service.ColumnsRequest q) {
      return service.apply(q);
    } else if (r instanceof Service.PrepareRequest q) {
      return service.apply(q);
    } else if (r instanceof Service.ExecuteRequest q) {
      return service.apply(q);
    } else if (r instanceof Service.PrepareAndExecuteRequest q) {
      return service.apply(q);
    } else if (r instanceof Service.SyncResultsRequest q) {
      return service.apply(q);
    } else if (r instanceof Service.FetchRequest q) {
      return service.apply(q);
    } else if (r instanceof Service.CreateStatementRequest q) {
      return service.apply(q);
    } else if (r instanceof Service.CloseStatementRequest q) {
      return service.apply(q);
    } else if (r instanceof Service.OpenConnectionRequest q) {
      return service.apply(q);
    } else if (r instanceof Service.CloseConnectionRequest q) {
      return service.apply(q);
    } else if (r instanceof Service.ConnectionSyncRequest q) {
      return service.apply(q);
    } else if (r instanceof Service.DatabasePropertyRequest q) {
      return service.apply(q);
    } else if (r instanceof Service.CommitRequest q) {
      return service.apply(q);
    } else if (r instanceof Service.RollbackRequest q) {
      return service.apply(q);
    } else if (r instanceof Service.PrepareAndExecuteBatchRequest q) {
      return service.apply(q);
    } else if (r instanceof Service.ExecuteBatchRequest q) {
      return service.apply(q);
    }
    return ClientErrors.response("unsupported request " + r.getClass().getSimpleName(),
        ClientErrors.PROTOCOL);
  }

  /** The whole stream, or null if it is longer than {@code limit}. */
  private static byte[] readAtMost(InputStream in, int limit) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    int n;
    while ((n = in.read(buffer)) >= 0) {
      if (out.size() + n > limit) {
        return null;
      }
      out.write(buffer, 0, n);
    }
    return out.toByteArray();
  }
}
