package org.dpsql.server;

import java.io.BufferedReader;
import java.io.Console;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Objects;
import java.util.Properties;
import org.apache.calcite.avatica.jdbc.JdbcMeta;
import org.apache.calcite.avatica.remote.LocalService;
import org.dpsql.accounting.Accounting;
import org.dpsql.examples.DemoData;
import org.dpsql.jdbc.DpsqlDriver;
import org.dpsql.ledger.AnalystAccount;
import org.dpsql.ledger.LedgerAudit;
import org.dpsql.ledger.LedgerStore;
import org.dpsql.policy.Policy;
import org.dpsql.policy.PolicyLoader;
import org.dpsql.session.DpsqlSession;
import org.dpsql.server.console.AuditTail;
import org.dpsql.server.console.ConsoleHandler;
import org.dpsql.server.console.CurrentPolicy;
import org.eclipse.jetty.security.ConstraintMapping;
import org.eclipse.jetty.security.ConstraintSecurityHandler;
import org.eclipse.jetty.security.authentication.BasicAuthenticator;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.StatisticsHandler;
import org.eclipse.jetty.util.security.Constraint;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The dpsql server: a remote JDBC endpoint (Avatica over HTTP, Protobuf serialization) in front of
 * one backend and one data policy, for analysts who authenticate with HTTP Basic and each spend a
 * durable budget.
 *
 * <p>Guarantees: every remote connection is a dpsql connection with the server's backend, policy
 * and seed, whatever properties the client sends; the analyst is the HTTP-authenticated user and
 * nothing else; each analyst charges one {@link AnalystAccount} in the ledger store, shared by all
 * their connections and capped per connection at the smaller of the policy's per-connection budget
 * and the users file's {@code per_connection}; a charge is committed to the ledger before its noisy
 * answer leaves the server; errors reach clients with their SQLState and without stack traces; the
 * server refuses to start with a backend user that has administrator rights ({@link
 * BackendPrivileges}); every statement received is appended to the {@link AuditLog} before its
 * answer leaves. Owners (users file {@code role: owner}) and no one else open the read-only
 * data-owner console at {@code /console} ({@link ConsoleHandler}), on the same port and TLS.
 *
 * <p>Operations: the users file is re-read when it changes ({@link UsersFileWatcher}, {@link
 * AnalystDirectory}); {@code GET /health} answers without authentication whether the ledger and
 * the backend are reachable ({@link HealthHandler}); {@code GET /metrics} gives owners the
 * Prometheus text format ({@link MetricsHandler}, {@link ServerMetrics}). {@link #close} (and
 * SIGTERM, through the shutdown hook of {@link #main}) stops accepting connections, lets the
 * requests being handled finish for up to the shutdown timeout, then closes the audit log and
 * the ledger.
 */
public final class DpsqlServer implements AutoCloseable {
  /** Largest request body accepted, in bytes. */
  static final int MAX_REQUEST_BYTES = 16 * 1024 * 1024;
  /** The demo database as its administrator creates it (kept open while the server runs). */
  private static final String DEMO_ADMIN = "jdbc:h2:mem:dpsql-server-demo;DB_CLOSE_DELAY=-1";
  /** The demo database as the server reads it (an unprivileged user may give no settings). */
  private static final String DEMO_BACKEND = "jdbc:h2:mem:dpsql-server-demo";
  private static final String DEMO_POLICY = "classpath:demo-policy.yaml";
  private static final String DEMO_READER = "DPSQL_READER";
  /** Open connections the server holds at most, all analysts together (a safety net). */
  static final int CONNECTION_CAPACITY = 100_000;
  /**
   * Open statements the server holds at most, all connections together; past it the least
   * recently used statement is closed (its next use is a 26000 "statement not found").
   */
  static final int STATEMENT_CAPACITY = 100_000;
  /** The most bytes of the audit log the console reads per page, from its end. */
  static final long AUDIT_TAIL_BYTES = 8L * 1024 * 1024;

  /** How often the users file is checked for changes, in milliseconds. */
  static final long USERS_POLL_MILLIS = 1000;

  private final Server jetty;
  private final UsersFileWatcher watcher;
  private final AnalystDirectory directory;
  private final LedgerStore ledger;
  private final AuditLog audit;
  private final ServerOptions options;
  private final int port;
  private final java.util.List<String> owners;
  private final AnalystMeta meta;

  private DpsqlServer(Server jetty, UsersFileWatcher watcher, AnalystDirectory directory,
      LedgerStore ledger, AuditLog audit, ServerOptions options, int port,
      java.util.List<String> owners, AnalystMeta meta) {
    this.meta = meta;
    this.jetty = jetty;
    this.watcher = watcher;
    this.directory = directory;
    this.ledger = ledger;
    this.audit = audit;
    this.options = options;
    this.port = port;
    this.owners = owners;
  }

  /**
   * Starts a server.
   *
   * @throws Exception with a message for the owner if a setting is wrong or the port is taken
   */
  public static DpsqlServer start(ServerOptions options) throws Exception {
    Objects.requireNonNull(options, "options");
    checkTransport(options);
    String backendUrl = options.backendUrl();
    String policySource = options.policy();
    String backendUser = options.backendUser();
    String backendPassword = options.backendPassword();
    if (options.demoRows() > 0) {
      backendUrl = DEMO_BACKEND;
      policySource = DEMO_POLICY;
      backendUser = DEMO_READER;
      backendPassword = demoData(options.demoRows());
    }
    Policy policy = PolicyLoader.parse(PolicyLoader.read(policySource), policySource);
    Accounting accounting = Accounting.parse(policy.budget().accounting());
    UsersFile users = UsersFile.load(options.users(), accounting);

    String dpsqlUrl = DpsqlDriver.PREFIX + backendUrl.substring("jdbc:".length());
    Properties serverProps = new Properties();
    serverProps.setProperty(DpsqlSession.POLICY, policySource);
    if (backendUser != null) {
      serverProps.setProperty("user", backendUser);
    }
    if (backendPassword != null) {
      serverProps.setProperty("password", backendPassword);
    }
    Properties backendProps = new Properties();
    backendProps.putAll(serverProps);
    backendProps.remove(DpsqlSession.POLICY);
    backendProps.remove(DpsqlSession.SEED);
    try (Connection backend = java.sql.DriverManager.getConnection(backendUrl, backendProps)) {
      BackendPrivileges.check(backend);
    }
    if (options.seed() != null) {
      serverProps.setProperty(DpsqlSession.SEED, Long.toString(options.seed()));
    }
    // Fail now, not at the first analyst: the policy must fit the backend (and allow the seed).
    try (Connection probe =
        new DpsqlDriver().connect(dpsqlUrl, serverProps)) {
      Objects.requireNonNull(probe);
    }

    Properties ledgerProps = new Properties();
    if (options.ledgerUser() != null) {
      ledgerProps.setProperty("user", options.ledgerUser());
    }
    if (options.ledgerPassword() != null) {
      ledgerProps.setProperty("password", options.ledgerPassword());
    }
    LedgerStore ledger = LedgerStore.open(options.ledgerUrl(), ledgerProps);
    AuditLog audit = null;
    UsersFileWatcher watcher = null;
    try {
      audit = AuditLog.open(options.audit(), java.time.Clock.systemUTC());
      AnalystMeta[] metaRef = new AnalystMeta[1];
      ServerMetrics metrics = new ServerMetrics(
          () -> metaRef[0] == null ? 0 : metaRef[0].openConnectionCount());
      BigDecimal reportingDelta = accounting == Accounting.ZCDP
          ? policy.budget().perConnection().delta() : null;
      AnalystDirectory directory = new AnalystDirectory(users, ledger, accounting, reportingDelta,
          dpsqlUrl, serverProps, metrics);
      Properties cache = new Properties();
      cache.setProperty(JdbcMeta.ConnectionCacheSettings.EXPIRY_DURATION.key(), "30");
      // The per-analyst limit bounds the connections; Avatica's default capacity (1,000 in all)
      // would evict, and close, open connections of some analysts once many analysts connect.
      cache.setProperty(JdbcMeta.ConnectionCacheSettings.MAX_CAPACITY.key(),
          Integer.toString(CONNECTION_CAPACITY));
      cache.setProperty(JdbcMeta.StatementCacheSettings.MAX_CAPACITY.key(),
          Integer.toString(STATEMENT_CAPACITY));
      AnalystMeta meta =
          new AnalystMeta(directory, options.maxConnectionsPerAnalyst(), cache);
      metaRef[0] = meta;
      directory.onRemoved(meta::closeConnectionsOf);
      ProtobufEndpoint endpoint = new ProtobufEndpoint(new LocalService(meta), MAX_REQUEST_BYTES,
          audit, meta::preparedSql, metrics);
      String backend = backendUrl;
      CurrentPolicy current = new CurrentPolicy(policySource,
          () -> java.sql.DriverManager.getConnection(backend, backendProps));
      current.get(); // checked once now, as the probe connection did
      ConsoleHandler console = new ConsoleHandler(directory, ledger.reader(),
          new AuditTail(audit.file(), AUDIT_TAIL_BYTES), current, policy);
      HealthHandler health = new HealthHandler(() -> ledger.reachable(HEALTH_TIMEOUT_SECONDS),
          () -> backendReachable(backend, backendProps));
      Server jetty = jetty(options, directory,
          new Routes(endpoint, console, health, new MetricsHandler(metrics)));
      watcher = new UsersFileWatcher(options.users(), accounting, directory, metrics,
          USERS_POLL_MILLIS);
      jetty.start();
      int port = ((ServerConnector) jetty.getConnectors()[0]).getLocalPort();
      return new DpsqlServer(jetty, watcher, directory, ledger, audit, options, port,
          java.util.List.copyOf(users.owners()), meta);
    } catch (Exception | Error e) {
      try {
        if (watcher != null) {
          watcher.close();
        }
        if (audit != null) {
          audit.close();
        }
      } finally {
        ledger.close();
      }
      throw e;
    }
  }

  /** Seconds a health probe of the ledger or the backend may take. */
  static final int HEALTH_TIMEOUT_SECONDS = 2;

  /** Whether a new backend connection opens and is valid (for {@code /health}). */
  private static boolean backendReachable(String url, Properties props) {
    try (Connection c = java.sql.DriverManager.getConnection(url, props)) {
      return c.isValid(HEALTH_TIMEOUT_SECONDS);
    } catch (SQLException e) {
      System.getLogger(DpsqlServer.class.getName()).log(System.Logger.Level.WARNING,
          "health: the backend is unreachable: " + e.getMessage());
      return false;
    }
  }

  /**
   * Generates the demo data as the database's administrator and creates the unprivileged user the
   * server reads it with; returns that user's (random) password.
   */
  private static String demoData(int trips) throws SQLException {
    DemoData.generate(DEMO_ADMIN, DemoData.Config.ofTrips(trips));
    byte[] secret = new byte[18];
    new SecureRandom().nextBytes(secret);
    String password = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    try (Connection admin = java.sql.DriverManager.getConnection(DEMO_ADMIN);
        java.sql.Statement s = admin.createStatement()) {
      s.execute("DROP USER IF EXISTS " + DEMO_READER);
      s.execute("CREATE USER " + DEMO_READER + " PASSWORD '" + password + "'");
      s.execute("GRANT SELECT ON TRIPS, COUNTIES TO " + DEMO_READER);
    }
    return password;
  }

  private static void checkTransport(ServerOptions o) throws Exception {
    if (o.tls() || o.insecureHttp()) {
      return;
    }
    InetAddress address = InetAddress.getByName(o.host());
    if (!address.isLoopbackAddress()) {
      throw new IllegalArgumentException("listening on " + o.host() + " without TLS would send "
          + "analysts' passwords readable over the network: give --keystore (or --insecure-http "
          + "behind a TLS proxy)");
    }
  }

  private static Server jetty(ServerOptions o, java.util.function.Supplier<UsersFile> users,
      Routes routes) {
    QueuedThreadPool threads = new QueuedThreadPool(64, 4);
    threads.setName("dpsql-server");
    Server server = new Server(threads);
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setSendDateHeader(false);
    http.setRequestHeaderSize(16 * 1024);
    ServerConnector connector;
    if (o.tls()) {
      SslContextFactory.Server ssl = new SslContextFactory.Server();
      ssl.setKeyStorePath(o.keystore().toAbsolutePath().toString());
      ssl.setKeyStorePassword(o.keystorePassword());
      ssl.setKeyStoreType(o.keystore().toString().toLowerCase().endsWith(".jks") ? "JKS" : "PKCS12");
      HttpConfiguration https = new HttpConfiguration(http);
      SecureRequestCustomizer secure = new SecureRequestCustomizer();
      secure.setSniHostCheck(false);
      https.addCustomizer(secure);
      connector = new ServerConnector(server, new SslConnectionFactory(ssl, "http/1.1"),
          new HttpConnectionFactory(https));
    } else {
      connector = new ServerConnector(server, new HttpConnectionFactory(http));
    }
    connector.setHost(o.host());
    connector.setPort(o.port());
    connector.setIdleTimeout(60_000);
    server.addConnector(connector);

    // the Avatica endpoint: analysts (users with a budget); the console: owners only. The most
    // specific path spec applies, so an analyst gets 403 on /console and below.
    ConstraintMapping mapping = roleOnly("/*", AnalystLoginService.ROLE);
    ConstraintMapping consoleMapping =
        roleOnly(ConsoleHandler.PATH + "/*", AnalystLoginService.OWNER_ROLE);
    // /metrics: owners (it names the analysts and their spending); /health: anyone, no data
    ConstraintMapping metricsMapping =
        roleOnly(MetricsHandler.PATH, AnalystLoginService.OWNER_ROLE);
    Constraint open = new Constraint();
    open.setName("health");
    open.setAuthenticate(false);
    ConstraintMapping healthMapping = new ConstraintMapping();
    healthMapping.setConstraint(open);
    healthMapping.setPathSpec(HealthHandler.PATH);
    ConstraintSecurityHandler security = new ConstraintSecurityHandler();
    security.setAuthenticator(new BasicAuthenticator());
    security.setRealmName("dpsql");
    security.setLoginService(new AnalystLoginService("dpsql", users,
        Math.max(1, Runtime.getRuntime().availableProcessors() / 2)));
    security.setConstraintMappings(
        new ConstraintMapping[] {mapping, consoleMapping, metricsMapping, healthMapping});
    security.setHandler(routes);
    // counts the requests in flight, so that stop() waits for them (graceful shutdown)
    StatisticsHandler inFlight = new StatisticsHandler();
    inFlight.setHandler(security);
    server.setHandler(inFlight);
    server.setStopTimeout(o.shutdownTimeoutSeconds() * 1000L);
    server.setErrorHandler(new PlainErrors());
    server.setStopAtShutdown(false);
    return server;
  }

  /** A constraint mapping: Basic authentication and {@code role} for {@code pathSpec}. */
  private static ConstraintMapping roleOnly(String pathSpec, String role) {
    Constraint constraint = new Constraint(Constraint.__BASIC_AUTH, role);
    constraint.setAuthenticate(true);
    constraint.setRoles(new String[] {role});
    ConstraintMapping mapping = new ConstraintMapping();
    mapping.setConstraint(constraint);
    mapping.setPathSpec(pathSpec);
    return mapping;
  }

  /** The port the server listens on. */
  public int port() {
    return port;
  }

  /** The address of the data-owner console. */
  public String consoleUrl() {
    return jdbcUrl().substring("jdbc:avatica:remote:url=".length())
        .replace(";serialization=protobuf", "") + ConsoleHandler.PATH;
  }

  /** The JDBC URL a thin-driver client uses (without credentials). */
  public String jdbcUrl() {
    String host = options.host().equals("0.0.0.0") ? "localhost" : options.host();
    if (host.contains(":")) {
      host = "[" + host + "]";
    }
    return "jdbc:avatica:remote:url=" + (options.tls() ? "https" : "http") + "://" + host + ":"
        + port + ";serialization=protobuf";
  }

  /** The ledger store the server charges. */
  public LedgerStore ledger() {
    return ledger;
  }

  /** The audit log file. */
  public java.nio.file.Path auditFile() {
    return audit.file();
  }

  /** The connections {@code analyst} holds open now, as the per-analyst limit counts them. */
  int openConnections(String analyst) {
    return meta.openConnectionCount(analyst);
  }

  /** The audit log itself (tests close it to check that answers are then withheld). */
  AuditLog auditLog() {
    return audit;
  }

  /** The users in force now (the users file as last applied). */
  UsersFile users() {
    return directory.current();
  }

  /**
   * Stops gracefully: stops accepting connections and requests, waits for the requests being
   * handled to finish (at most the shutdown timeout; the rest are cut off and nothing they
   * computed is released unless it was audited), then closes the audit log and the ledger.
   */
  @Override
  public void close() throws Exception {
    try {
      watcher.close();
      jetty.stop();
    } finally {
      try {
        audit.close();
      } finally {
        ledger.close();
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Command line

  /** Runs the server, or the {@code hash-password} / {@code ledger} subcommands. */
  public static void main(String[] args) {
    int status = run(args, System.out, System.err);
    if (status != 0) {
      System.exit(status);
    }
  }

  /** As {@link #main}, returning the exit status (the server case blocks until stopped). */
  static int run(String[] args, PrintStream out, PrintStream err) {
    try {
      if (args.length == 0 || Arrays.asList(args).contains("--help")
          || Arrays.asList(args).contains("-h")) {
        out.print(ServerOptions.usage());
        return args.length == 0 ? 2 : 0;
      }
      if (args[0].equals("hash-password")) {
        return hashPassword(Arrays.copyOfRange(args, 1, args.length), out);
      }
      if (args[0].equals("ledger")) {
        return printLedger(Arrays.copyOfRange(args, 1, args.length), out);
      }
      ServerOptions options = ServerOptions.parse(args);
      DpsqlServer server = start(options);
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        // SIGTERM (or SIGINT): stop accepting, let running statements finish, close the ledger
        err.println("dpsql-server: stopping; waiting up to " + options.shutdownTimeoutSeconds()
            + " s for running statements");
        err.flush();
        try {
          server.close();
          err.println("dpsql-server: stopped; ledger and audit log closed");
          err.flush();
        } catch (Exception e) {
          err.println("dpsql-server: error while stopping: " + e.getMessage());
        }
      }, "dpsql-server-stop"));
      out.println("dpsql-server: listening on " + (options.tls() ? "https" : "http") + "://"
          + options.host() + ":" + server.port() + " (ledger " + options.ledgerUrl() + ", audit "
          + server.auditFile() + ")");
      out.println("dpsql-server: connect with " + server.jdbcUrl()
          + ";authentication=BASIC;avatica_user=NAME;avatica_password=PASSWORD");
      out.println("dpsql-server: data-owner console at " + server.consoleUrl() + " ("
          + (server.owners.isEmpty() ? "no owner in the users file: add one with role: owner"
              : "owners: " + String.join(", ", server.owners)) + ")");
      out.flush();
      server.jetty.join();
      return 0;
    } catch (IllegalArgumentException e) {
      err.println("dpsql-server: " + e.getMessage());
      return 2;
    } catch (SQLException e) {
      err.println("dpsql-server: " + e.getMessage() + " (SQLState " + e.getSQLState() + ")");
      return 1;
    } catch (Exception e) {
      err.println("dpsql-server: " + e);
      return 1;
    }
  }

  private static int hashPassword(String[] args, PrintStream out) throws Exception {
    int iterations = PasswordHash.DEFAULT_ITERATIONS;
    boolean stdin = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--iterations" -> {
          if (i + 1 >= args.length) {
            throw new IllegalArgumentException("--iterations needs a value");
          }
          iterations = Integer.parseInt(args[++i]);
        }
        case "--password-stdin" -> stdin = true;
        default -> throw new IllegalArgumentException("hash-password takes [--iterations N] "
            + "[--password-stdin], got '" + args[i] + "'");
      }
    }
    char[] password;
    Console console = System.console();
    if (!stdin && console != null) {
      password = console.readPassword("password: ");
      char[] again = console.readPassword("again:    ");
      if (password == null || again == null || !Arrays.equals(password, again)) {
        throw new IllegalArgumentException("the passwords differ");
      }
    } else {
      String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
          .readLine();
      if (line == null) {
        throw new IllegalArgumentException("no password on standard input");
      }
      password = line.toCharArray();
    }
    out.println(PasswordHash.create(password, iterations, new SecureRandom()).encode());
    Arrays.fill(password, '\0');
    return 0;
  }

  private static int printLedger(String[] args, PrintStream out) throws Exception {
    String ledger = ServerOptions.DEFAULT_LEDGER;
    Properties props = new Properties();
    for (int i = 0; i < args.length; i++) {
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(args[i] + " needs a value");
      }
      switch (args[i]) {
        case "--ledger" -> ledger = args[++i];
        case "--ledger-user" -> props.setProperty("user", args[++i]);
        case "--ledger-password" ->
            props.setProperty("password", ServerOptions.secret(args[++i], "--ledger-password"));
        default -> throw new IllegalArgumentException("ledger takes [--ledger PATH|URL] "
            + "[--ledger-user U] [--ledger-password P], got '" + args[i] + "'");
      }
    }
    try (LedgerStore store = LedgerStore.open(ServerOptions.ledgerUrl(ledger), props)) {
      out.println("analyst\taccounting\tspent\tcharged\tentries\tconsistent");
      for (String analyst : store.analysts()) {
        LedgerAudit a = store.audit(analyst);
        out.println(analyst + "\t" + a.accounting().policyName() + "\t" + a.balance() + "\t"
            + a.charged() + "\t" + a.entries() + "\t" + a.consistent());
      }
    }
    return 0;
  }
}
