package org.dpsql.server;

import java.nio.file.Path;
import java.util.Objects;

/**
 * The command-line settings of {@link DpsqlServer}. These, not anything a client sends, decide the
 * backend, the policy, the seed and the analysts' budgets.
 *
 * <p>Guarantee: a parsed instance is complete and consistent (a backend and a policy, or the demo;
 * a users file; a keystore password with a keystore; a port in range; TLS or an explicit
 * {@code --insecure-http} for a non-loopback address).
 *
 * @param backendUrl the backend's JDBC URL
 * @param backendUser the backend user, or null
 * @param backendPassword the backend password, or null
 * @param policy the data owner's policy: a path or {@code classpath:NAME}
 * @param demoRows with {@code --demo}, the trips of the generated demo data; else 0
 * @param users the users file
 * @param ledgerUrl the ledger's JDBC URL
 * @param ledgerUser the ledger database user, or null
 * @param ledgerPassword the ledger database password, or null
 * @param host the address to listen on
 * @param port the port (0: any free port)
 * @param keystore the TLS keystore, or null for plain HTTP
 * @param keystorePassword the keystore password, or null
 * @param insecureHttp whether plain HTTP on a non-loopback address is allowed
 * @param seed the server's noise seed (only if the policy allows it), or null
 * @param maxConnectionsPerAnalyst open connections one analyst may hold
 * @param audit the audit log file (one JSON line per statement received)
 * @param shutdownTimeoutSeconds how long a stop (SIGTERM) waits for requests being handled
 */
public record ServerOptions(String backendUrl, String backendUser, String backendPassword,
    String policy, int demoRows, Path users, String ledgerUrl, String ledgerUser,
    String ledgerPassword, String host, int port, Path keystore, String keystorePassword,
    boolean insecureHttp, Long seed, int maxConnectionsPerAnalyst, Path audit,
    int shutdownTimeoutSeconds) {

  /** Default port. */
  public static final int DEFAULT_PORT = 8765;
  /** Default ledger file (H2 adds {@code .mv.db}). */
  public static final String DEFAULT_LEDGER = "dpsql-ledger";
  /** Default audit log file name, beside an H2 file ledger (else in the working directory). */
  public static final String DEFAULT_AUDIT = "dpsql-audit.log";
  /** Default seconds a stop waits for the requests being handled. */
  public static final int DEFAULT_SHUTDOWN_TIMEOUT = 30;

  /** As the canonical constructor, with the default shutdown timeout. */
  public ServerOptions(String backendUrl, String backendUser, String backendPassword,
      String policy, int demoRows, Path users, String ledgerUrl, String ledgerUser,
      String ledgerPassword, String host, int port, Path keystore, String keystorePassword,
      boolean insecureHttp, Long seed, int maxConnectionsPerAnalyst, Path audit) {
    this(backendUrl, backendUser, backendPassword, policy, demoRows, users, ledgerUrl, ledgerUser,
        ledgerPassword, host, port, keystore, keystorePassword, insecureHttp, seed,
        maxConnectionsPerAnalyst, audit, DEFAULT_SHUTDOWN_TIMEOUT);
  }

  /** As the canonical constructor, with the audit log at its default place ({@link #defaultAudit}). */
  public ServerOptions(String backendUrl, String backendUser, String backendPassword,
      String policy, int demoRows, Path users, String ledgerUrl, String ledgerUser,
      String ledgerPassword, String host, int port, Path keystore, String keystorePassword,
      boolean insecureHttp, Long seed, int maxConnectionsPerAnalyst) {
    this(backendUrl, backendUser, backendPassword, policy, demoRows, users, ledgerUrl, ledgerUser,
        ledgerPassword, host, port, keystore, keystorePassword, insecureHttp, seed,
        maxConnectionsPerAnalyst, defaultAudit(ledgerUrl));
  }

  /**
   * {@value #DEFAULT_AUDIT} beside the ledger file when the ledger is an embedded H2 file, else in
   * the working directory.
   */
  public static Path defaultAudit(String ledgerUrl) {
    Objects.requireNonNull(ledgerUrl, "ledgerUrl");
    String prefix = "jdbc:h2:file:";
    if (ledgerUrl.startsWith(prefix)) {
      String file = ledgerUrl.substring(prefix.length());
      int settings = file.indexOf(';');
      Path ledger = Path.of(settings < 0 ? file : file.substring(0, settings)).toAbsolutePath();
      if (ledger.getParent() != null) {
        return ledger.getParent().resolve(DEFAULT_AUDIT);
      }
    }
    return Path.of(DEFAULT_AUDIT);
  }

  /** Checks consistency. */
  public ServerOptions {
    Objects.requireNonNull(users, "users");
    Objects.requireNonNull(ledgerUrl, "ledgerUrl");
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(audit, "audit");
    if (demoRows == 0 && (backendUrl == null || policy == null)) {
      throw new IllegalArgumentException("give --backend and --policy, or --demo");
    }
    if (backendUrl != null && !backendUrl.startsWith("jdbc:")) {
      throw new IllegalArgumentException("--backend takes a JDBC URL such as jdbc:h2:./data/trips");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("--port must be in 0..65535, got " + port);
    }
    if (keystore != null && keystorePassword == null) {
      throw new IllegalArgumentException("--keystore needs --keystore-password");
    }
    if (maxConnectionsPerAnalyst < 1) {
      throw new IllegalArgumentException("--max-connections must be at least 1");
    }
    if (shutdownTimeoutSeconds < 0) {
      throw new IllegalArgumentException("--shutdown-timeout must be at least 0");
    }
  }

  /** Whether TLS is on. */
  public boolean tls() {
    return keystore != null;
  }

  /** The command-line help. */
  public static String usage() {
    return """
        dpsql-server: remote JDBC access to dpsql, with per-analyst durable privacy budgets.

        Usage:
          java -jar dpsql-server.jar --backend URL --policy FILE --users FILE [options]
          java -jar dpsql-server.jar --demo [--demo-rows N] --users FILE [options]
          java -jar dpsql-server.jar hash-password [--iterations N] [--password-stdin]
          java -jar dpsql-server.jar ledger [--ledger PATH|URL] [--ledger-user U] [--ledger-password P]

        Data (the server's own settings; clients cannot change them):
          --backend URL            the backend database, a JDBC URL (jdbc:h2:./data/trips,
                                   jdbc:postgresql://db/trips)
          --backend-user NAME      backend user
          --backend-password PW    backend password (env:NAME reads environment variable NAME)
          --policy FILE            the data owner's policy (a path or classpath:NAME)
          --demo                   serve the generated demo data (sql-examples) with its policy
          --demo-rows N            trips in the demo data (default 200000)
          --seed N                 fix the noise, for demos and tests (refused unless the policy
                                   sets allow_seed: true; never in production)

        Analysts:
          --users FILE             who may log in, with PBKDF2 password hashes and budgets (YAML):
                                     analysts:
                                       alice:
                                         password: pbkdf2-sha256$600000$SALT$HASH
                                         budget: {rho: 2.0}          # total, all connections
                                         per_connection: {rho: 0.5}  # optional cap
                                       olivia:
                                         password: pbkdf2-sha256$600000$SALT$HASH
                                         role: owner     # opens /console; no budget
          --ledger PATH|URL        where spending is recorded: an H2 file path (default
                                   ./dpsql-ledger) or any JDBC URL
          --ledger-user NAME       ledger database user
          --ledger-password PW     ledger database password (env:NAME allowed)
          --max-connections N      open connections per analyst (default 16)
          --audit FILE             append one JSON line per statement received (time, analyst,
                                   SQL, outcome, cost charged, duration) to FILE (default
                                   dpsql-audit.log beside the ledger file)
          The users file is re-read within a second of a change: new analysts and passwords,
          changed budgets (a budget below what the analyst already spent is refused and the old
          entry kept, see the log); a removed analyst's open connections are closed. Under zcdp
          a budget may carry a delta (e.g. {rho: 2.0, delta: 4e-10}, at most half the policy's
          per_connection delta) for GROUP BY over keys: private columns.

        Data-owner console:
          Owners (role: owner in the users file) open the read-only console at
          http(s)://HOST:PORT/console with their user name and password: analysts' budgets,
          spending, ledgers, releases, the audit log and the policy. Analysts get 403.

        Operations:
          GET /health              no authentication; 200 {"status":"up",...} when the ledger and
                                   the backend answer, else 503 (for load balancers)
          GET /metrics             owners only (Basic auth, as the console): Prometheus text
                                   format (statements by kind, outcome and SQLState, latency,
                                   budget charged per analyst, ledger write failures, open
                                   connections, users-file reloads)
          --shutdown-timeout S     on SIGTERM, stop accepting and wait up to S seconds (default
                                   30) for running statements, then close the ledger

        Network:
          --host ADDR              address to listen on (default 127.0.0.1)
          --port N                 port (default 8765; 0 picks a free one)
          --keystore FILE          serve HTTPS with this keystore (PKCS12, or JKS if *.jks)
          --keystore-password PW   keystore password (env:NAME allowed)
          --insecure-http          allow plain HTTP on a non-loopback address (passwords would
                                   cross the network readable)
          --help                   this text

        Clients connect with the Avatica thin driver:
          jdbc:avatica:remote:url=http://HOST:PORT;serialization=protobuf;authentication=BASIC;
            avatica_user=NAME;avatica_password=PASSWORD
        """;
  }

  /**
   * Parses the server's arguments (not the subcommands).
   *
   * @throws IllegalArgumentException with a message for the user if they are wrong
   */
  public static ServerOptions parse(String[] args) {
    String backendUrl = null;
    String backendUser = null;
    String backendPassword = null;
    String policy = null;
    boolean demo = false;
    int demoRows = 200_000;
    Path users = null;
    String ledger = null;
    String ledgerUser = null;
    String ledgerPassword = null;
    String host = "127.0.0.1";
    int port = DEFAULT_PORT;
    Path keystore = null;
    String keystorePassword = null;
    boolean insecure = false;
    Long seed = null;
    int maxConnections = 16;
    Path audit = null;
    int shutdownTimeout = DEFAULT_SHUTDOWN_TIMEOUT;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--backend" -> backendUrl = value(args, ++i, a);
        case "--backend-user" -> backendUser = value(args, ++i, a);
        case "--backend-password" -> backendPassword = secret(value(args, ++i, a), a);
        case "--policy" -> policy = value(args, ++i, a);
        case "--demo" -> demo = true;
        case "--demo-rows" -> demoRows = integer(value(args, ++i, a), a);
        case "--users" -> users = Path.of(value(args, ++i, a));
        case "--ledger" -> ledger = value(args, ++i, a);
        case "--ledger-user" -> ledgerUser = value(args, ++i, a);
        case "--ledger-password" -> ledgerPassword = secret(value(args, ++i, a), a);
        case "--host" -> host = value(args, ++i, a);
        case "--port" -> port = integer(value(args, ++i, a), a);
        case "--keystore" -> keystore = Path.of(value(args, ++i, a));
        case "--keystore-password" -> keystorePassword = secret(value(args, ++i, a), a);
        case "--insecure-http" -> insecure = true;
        case "--seed" -> seed = longInteger(value(args, ++i, a), a);
        case "--max-connections" -> maxConnections = integer(value(args, ++i, a), a);
        case "--audit" -> audit = Path.of(value(args, ++i, a));
        case "--shutdown-timeout" -> shutdownTimeout = integer(value(args, ++i, a), a);
        default -> throw new IllegalArgumentException("unknown option '" + a + "' (see --help)");
      }
    }
    if (users == null) {
      throw new IllegalArgumentException("--users is required: the analysts who may log in");
    }
    if (demo && (backendUrl != null || policy != null)) {
      throw new IllegalArgumentException("--demo serves the demo data; leave out --backend and "
          + "--policy");
    }
    if (demo && demoRows < 1) {
      throw new IllegalArgumentException("--demo-rows must be at least 1");
    }
    String ledgerUrl = ledgerUrl(ledger == null ? DEFAULT_LEDGER : ledger);
    return new ServerOptions(backendUrl, backendUser, backendPassword, policy,
        demo ? demoRows : 0, users, ledgerUrl, ledgerUser, ledgerPassword, host, port, keystore,
        keystorePassword, insecure, seed, maxConnections,
        audit == null ? defaultAudit(ledgerUrl) : audit, shutdownTimeout);
  }

  /** A JDBC URL as given, else an H2 file path. */
  static String ledgerUrl(String ledger) {
    return ledger.startsWith("jdbc:") ? ledger
        : org.dpsql.ledger.LedgerStore.h2File(Path.of(ledger));
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length || args[i].startsWith("--")) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[i];
  }

  private static int integer(String s, String option) {
    try {
      return Integer.parseInt(s.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " needs an integer, got '" + s + "'");
    }
  }

  private static long longInteger(String s, String option) {
    try {
      return Long.parseLong(s.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " needs an integer, got '" + s + "'");
    }
  }

  /** {@code env:NAME} reads the environment variable; anything else is the secret itself. */
  static String secret(String s, String option) {
    if (s.startsWith("env:")) {
      String v = System.getenv(s.substring(4));
      if (v == null) {
        throw new IllegalArgumentException(option + ": environment variable " + s.substring(4)
            + " is not set");
      }
      return v;
    }
    return s;
  }
}
