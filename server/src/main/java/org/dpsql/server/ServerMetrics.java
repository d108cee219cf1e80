package org.dpsql.server;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;
import java.util.function.IntSupplier;
import org.dpsql.accounting.PrivacyCost;

/**
 * The server's operational metrics, kept in the Prometheus Java client's own registry (one per
 * server) and written in the Prometheus text format for {@code GET /metrics}.
 *
 * <p>Families: {@code dpsql_statements_total{kind, outcome, sqlstate}} (every statement request:
 * kind as the audit log names it, outcome {@code ok} or {@code error}, sqlstate {@code 00000} when
 * ok, else the SQLState the client received); {@code dpsql_statement_duration_seconds{kind}}
 * (histogram of the time from the request's arrival to its audited answer);
 * {@code dpsql_rho_charged_total}, {@code dpsql_epsilon_charged_total} and {@code
 * dpsql_delta_charged_total} (labelled {@code analyst}: the budget charged by statements of this
 * process, as doubles); {@code dpsql_ledger_write_failures_total} (charges and free answers the
 * ledger could not record); {@code dpsql_users_file_reloads_total{outcome}}; and the gauge {@code
 * dpsql_open_connections}.
 *
 * <p>Guarantees: the metrics carry no data and no SQL text, only counts, durations, SQLStates,
 * statement kinds, analyst names and the costs already in the ledger (which the owner sees in the
 * console); the charged figures are doubles for monitoring, never the budget's source of truth
 * (the ledger is, exactly).
 */
final class ServerMetrics {
  /** The SQLState label of a statement that succeeded (SQL's "successful completion"). */
  static final String SUCCESS = "00000";

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
  private final Counter statements = Counter.builder()
      .name("dpsql_statements_total")
      .help("Statement requests answered, by kind, outcome and the SQLState the client received")
      .labelNames("kind", "outcome", "sqlstate")
      .register(registry);
  private final Histogram latency = Histogram.builder()
      .name("dpsql_statement_duration_seconds")
      .help("Time from a statement request's arrival to its audited answer, by kind")
      .labelNames("kind")
      .classicOnly()
      .classicUpperBounds(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)
      .register(registry);
  private final Counter rho = charged("rho", "ρ");
  private final Counter epsilon = charged("epsilon", "ε");
  private final Counter delta = charged("delta", "δ");
  private final Counter ledgerFailures = Counter.builder()
      .name("dpsql_ledger_write_failures_total")
      .help("Charges and free answers the ledger could not record (nothing was released)")
      .register(registry);
  private final Counter reloads = Counter.builder()
      .name("dpsql_users_file_reloads_total")
      .help("Re-reads of the changed users file: applied, applied_partly (some entries refused, "
          + "their old entries kept) or invalid (the whole file refused)")
      .labelNames("outcome")
      .register(registry);

  /** @param openConnections the analysts' open remote connections now */
  ServerMetrics(IntSupplier openConnections) {
    Objects.requireNonNull(openConnections, "openConnections");
    GaugeWithCallback.builder()
        .name("dpsql_open_connections")
        .help("Open remote JDBC connections of all analysts")
        .callback(cb -> cb.call(openConnections.getAsInt()))
        .register(registry);
  }

  private Counter charged(String component, String symbol) {
    return Counter.builder()
        .name("dpsql_" + component + "_charged_total")
        .help("Privacy budget " + symbol + " charged by analysts' statements in this process")
        .labelNames("analyst")
        .register(registry);
  }

  /**
   * Records one answered statement request.
   *
   * @param kind the request kind (prepare, execute, prepare_and_execute, ...)
   * @param outcome {@code ok} or the SQLState the client received
   * @param nanos its duration
   * @param analyst who sent it
   * @param charged what it charged (zero for none)
   */
  void statement(String kind, String outcome, long nanos, String analyst, PrivacyCost charged) {
    boolean ok = "ok".equals(outcome);
    statements.labelValues(kind, ok ? "ok" : "error", ok ? SUCCESS : outcome).inc();
    latency.labelValues(kind).observe(nanos / 1e9);
    if (charged.rho().signum() > 0) {
      rho.labelValues(analyst).inc(charged.rho().doubleValue());
    }
    if (charged.epsilon().signum() > 0) {
      epsilon.labelValues(analyst).inc(charged.epsilon().doubleValue());
    }
    if (charged.delta().signum() > 0) {
      delta.labelValues(analyst).inc(charged.delta().doubleValue());
    }
  }

  /** Counts a charge or free answer the ledger could not record. */
  void ledgerWriteFailed() {
    ledgerFailures.inc();
  }

  /** Counts a re-read of the users file ({@code applied}, {@code applied_partly}, {@code invalid}). */
  void usersFileReloaded(String outcome) {
    reloads.labelValues(outcome).inc();
  }

  /** The content type of {@link #write}. */
  String contentType() {
    return writer.getContentType();
  }

  /** Writes every metric in the Prometheus text format (version 0.0.4). */
  void write(OutputStream out) throws IOException {
    writer.write(out, registry.scrape());
  }
}
