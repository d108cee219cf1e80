package org.dpsql.jdbc;

import java.sql.Connection;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.util.Properties;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaFactory;
import org.apache.calcite.avatica.DriverVersion;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.UnregisteredDriver;
import org.dpsql.session.AccountantSource;
import org.dpsql.session.ReleaseSource;
import org.dpsql.session.DpsqlSession;

/**
 * The dpsql JDBC driver: {@code jdbc:dpsql:<backend>}, where {@code <backend>} is the backend's own
 * JDBC URL without {@code jdbc:} (e.g. {@code jdbc:dpsql:h2:mem:demo}). Connection properties:
 * {@code policy} (required: a path or {@code classpath:NAME}), {@code user}, {@code password},
 * {@code seed}. Registered with {@link java.sql.DriverManager} through the service loader.
 * {@code jdbc:dpsql:remote:url=http://HOST:PORT} connects to a dpsql server instead (see {@link
 * #REMOTE_PREFIX}).
 *
 * <p>Every connection is a {@link DpsqlSession} with its own budget; all statements go through it.
 */
public class DpsqlDriver extends UnregisteredDriver {
  /** URL prefix. */
  public static final String PREFIX = "jdbc:dpsql:";
  /** Driver version. */
  public static final String VERSION = "0.1.0";

  private static final ThreadLocal<DpsqlSession> OPENING = new ThreadLocal<>();

  static {
    new DpsqlDriver().register();
  }

  private final AccountantSource accountants;
  private final ReleaseSource releases;

  /**
   * The driver registered with {@link java.sql.DriverManager}: a fresh budget and fresh releases
   * per connection.
   */
  public DpsqlDriver() {
    this(AccountantSource.PER_CONNECTION, ReleaseSource.PER_CONNECTION);
  }

  /**
   * An unregistered driver whose connections take their accountant from {@code accountants} (a
   * server's per-analyst budgets) and what they were already released from {@code releases} (the
   * same budget holder's); call {@link #connect} on it directly.
   */
  public DpsqlDriver(AccountantSource accountants, ReleaseSource releases) {
    super();
    this.accountants = java.util.Objects.requireNonNull(accountants, "accountants");
    this.releases = java.util.Objects.requireNonNull(releases, "releases");
  }

  @Override
  protected String getConnectStringPrefix() {
    return PREFIX;
  }

  @Override
  protected String getFactoryClassName(JdbcVersion jdbcVersion) {
    return DpsqlJdbcFactory.class.getName();
  }

  @Override
  protected DriverVersion createDriverVersion() {
    return new DriverVersion("dpsql", VERSION, "dpsql", VERSION, true, 0, 1, 0, 1);
  }

  /**
   * URL prefix of a dpsql server ({@code jdbc:dpsql:remote:url=http://HOST:8765}): the connection
   * is made by Avatica's thin client, with {@code user} and {@code password} sent as the server's
   * HTTP Basic credentials, so that consoles and BI tools that only know a user and a password
   * field (sqlline's {@code !connect url user password}) log in as that analyst.
   */
  public static final String REMOTE_PREFIX = PREFIX + "remote:";

  @Override
  public Connection connect(String url, Properties info) throws SQLException {
    if (url == null || !acceptsURL(url)) {
      return null;
    }
    if (url.startsWith(REMOTE_PREFIX)) {
      return connectRemote(url, info);
    }
    String backendUrl = "jdbc:" + url.substring(PREFIX.length());
    Properties props = new Properties();
    if (info != null) {
      props.putAll(info);
    }
    DpsqlSession session = DpsqlSession.open(backendUrl, props, accountants, releases);
    OPENING.set(session);
    try {
      // Avatica would parse the URL suffix as key=value pairs; the suffix is the backend's URL.
      AvaticaConnection c = factory.newConnection(this, factory, url, props);
      handler.onConnectionInit(c);
      return c;
    } catch (SQLException | RuntimeException e) {
      session.close();
      throw e;
    } finally {
      OPENING.remove();
    }
  }

  /**
   * A thin-client connection to a dpsql server: {@code jdbc:avatica:remote:} with the same
   * parameters, Protobuf serialization and Basic authentication unless the URL names others, and
   * {@code user}/{@code password} as {@code avatica_user}/{@code avatica_password} unless those
   * are given. Nothing else is sent: the server ignores every other connection property. Every
   * failure of the returned connection is a {@code SQLException} (see {@link RemoteConnection}).
   */
  private static Connection connectRemote(String url, Properties info) throws SQLException {
    String params = url.substring(REMOTE_PREFIX.length());
    String lower = params.toLowerCase(java.util.Locale.ROOT);
    StringBuilder avatica = new StringBuilder("jdbc:avatica:remote:").append(params);
    if (!lower.contains("serialization=")) {
      avatica.append(";serialization=protobuf");
    }
    if (!lower.contains("authentication=")) {
      avatica.append(";authentication=BASIC");
    }
    Properties props = new Properties();
    if (info != null) {
      props.putAll(info);
      if (info.getProperty("user") != null && info.getProperty("avatica_user") == null) {
        props.setProperty("avatica_user", info.getProperty("user"));
      }
      if (info.getProperty("password") != null && info.getProperty("avatica_password") == null) {
        props.setProperty("avatica_password", info.getProperty("password"));
      }
    }
    String avaticaUrl = avatica.toString();
    return RemoteConnection.open(() -> new ThinClientFactory.Driver().connect(avaticaUrl, props));
  }

  @Override
  public Meta createMeta(AvaticaConnection connection) {
    DpsqlSession session = OPENING.get();
    if (session == null) {
      throw new IllegalStateException("dpsql connections are opened through DpsqlDriver.connect");
    }
    return new DpsqlMeta(connection, session);
  }

  @Override
  public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
    DriverPropertyInfo policy = new DriverPropertyInfo(DpsqlSession.POLICY,
        info == null ? null : info.getProperty(DpsqlSession.POLICY));
    policy.required = true;
    policy.description = "the data owner's policy file: a path or classpath:NAME";
    DriverPropertyInfo user = new DriverPropertyInfo("user", info == null ? null : info.getProperty("user"));
    user.description = "backend user";
    DriverPropertyInfo password = new DriverPropertyInfo("password", null);
    password.description = "backend password";
    DriverPropertyInfo seed = new DriverPropertyInfo(DpsqlSession.SEED,
        info == null ? null : info.getProperty(DpsqlSession.SEED));
    seed.description = "fixes the noise (tests and demos); refused unless the policy allows it";
    return new DriverPropertyInfo[] {policy, user, password, seed};
  }
}
