package org.dpsql.server;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Base64;
import java.util.Properties;
import org.apache.calcite.avatica.remote.ProtobufTranslation;
import org.apache.calcite.avatica.remote.ProtobufTranslationImpl;
import org.apache.calcite.avatica.remote.Service;
import org.dpsql.examples.DemoData;
import org.dpsql.ledger.LedgerStore;

/** Shared helpers of the server tests: demo backend, users files, clients. */
final class TestServers {
  /** Policy of the demo: zCDP, per connection ρ = 1, default query ρ = 0.02, seeds allowed. */
  static final String POLICY = "classpath:demo-policy.yaml";
  static final int ITERATIONS = PasswordHash.MIN_ITERATIONS;

  private TestServers() {}

  /** The unprivileged backend user the tests' servers read the demo data with. */
  static final String READER = "READER";
  static final String READER_PASSWORD = "reader-pw";

  /**
   * A fresh in-memory demo backend with {@code trips} trips and the user {@link #READER}, who may
   * only SELECT its tables; returns its JDBC URL (without settings, which only an administrator
   * may give).
   */
  static String demoBackend(String name, int trips) throws SQLException {
    String adminUrl = "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1";
    DemoData.generate(adminUrl, DemoData.Config.ofTrips(trips));
    String url = "jdbc:h2:mem:" + name;
    try (Connection admin = DriverManager.getConnection(url); Statement s = admin.createStatement()) {
      s.execute("CREATE USER IF NOT EXISTS " + READER + " PASSWORD '" + READER_PASSWORD + "'");
      s.execute("GRANT SELECT ON TRIPS, RIDERS, COUNTIES TO " + READER);
    }
    return url;
  }

  /** The users-file line of a password. */
  static String hash(String password) {
    return PasswordHash.create(password.toCharArray(), ITERATIONS, new SecureRandom()).encode();
  }

  /**
   * Writes a users file; each user's password is "pw-NAME". An entry is "name rho [cap]" for an
   * analyst, "name owner" for an owner without a budget, "name owner rho" for one with a budget.
   */
  static Path users(Path dir, String... entries) throws IOException {
    StringBuilder yaml = new StringBuilder("analysts:\n");
    for (String entry : entries) {
      String[] p = entry.split(" ");
      yaml.append("  ").append(p[0]).append(":\n");
      yaml.append("    password: ").append(hash("pw-" + p[0])).append('\n');
      if (p[1].equals("owner")) {
        yaml.append("    role: owner\n");
        if (p.length > 2) {
          yaml.append("    budget: {rho: ").append(p[2]).append("}\n");
        }
        continue;
      }
      yaml.append("    budget: {rho: ").append(p[1]).append("}\n");
      if (p.length > 2) {
        yaml.append("    per_connection: {rho: ").append(p[2]).append("}\n");
      }
    }
    Path file = dir.resolve("users-" + System.nanoTime() + ".yaml");
    Files.writeString(file, yaml.toString(), StandardCharsets.UTF_8);
    return file;
  }

  static ServerOptions options(String backend, Path users, Path ledger, Long seed) {
    return new ServerOptions(backend, READER, READER_PASSWORD, POLICY, 0, users,
        LedgerStore.h2File(ledger), null, null, "127.0.0.1", 0, null, null, false, seed, 16);
  }

  /** A thin-driver connection as {@code analyst} with password "pw-NAME". */
  static Connection connect(DpsqlServer server, String analyst) throws SQLException {
    return connect(server, analyst, "pw-" + analyst, new Properties());
  }

  static Connection connect(DpsqlServer server, String analyst, String password, Properties props)
      throws SQLException {
    return DriverManager.getConnection(server.jdbcUrl() + ";authentication=BASIC;avatica_user="
        + analyst + ";avatica_password=" + password, props);
  }

  /** The single value of a one-row, one-column query. */
  static Object single(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      if (!rs.next()) {
        throw new AssertionError("no row: " + sql);
      }
      return rs.getObject(1);
    }
  }

  /** A raw Avatica protobuf client, to send requests a JDBC driver would never send. */
  static final class RawClient {
    private final HttpClient http = HttpClient.newHttpClient();
    private final ProtobufTranslation translation = new ProtobufTranslationImpl();
    private final URI uri;
    private final String authorization;

    RawClient(DpsqlServer server, String user, String password) {
      this.uri = URI.create("http://127.0.0.1:" + server.port() + "/");
      this.authorization = user == null ? null : "Basic " + Base64.getEncoder().encodeToString(
          (user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    HttpResponse<byte[]> post(byte[] body) throws IOException, InterruptedException {
      HttpRequest.Builder b = HttpRequest.newBuilder(uri)
          .POST(HttpRequest.BodyPublishers.ofByteArray(body));
      if (authorization != null) {
        b.header("Authorization", authorization);
      }
      return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    /** Sends a request; returns the response (an ErrorResponse on failure). */
    Service.Response call(Service.Request request) throws Exception {
      HttpResponse<byte[]> r = post(translation.serializeRequest(request));
      if (r.statusCode() != 200 && r.statusCode() != 500) {
        throw new IOException("HTTP " + r.statusCode());
      }
      return translation.parseResponse(r.body());
    }
  }
}
