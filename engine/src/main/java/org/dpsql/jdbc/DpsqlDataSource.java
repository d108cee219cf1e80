package org.dpsql.jdbc;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.dpsql.session.DpsqlSession;

/**
 * A {@link DataSource} for dpsql, for application servers and connection pools. Bean properties:
 * {@code url} ({@code jdbc:dpsql:...}), {@code policy}, {@code user}, {@code password}, {@code
 * seed}. Each connection it hands out has its own budget, as with {@link DpsqlDriver}.
 */
public class DpsqlDataSource implements DataSource {
  private String url;
  private String policy;
  private String user;
  private String password;
  private String seed;
  private int loginTimeout;
  private PrintWriter logWriter;

  public String getUrl() {
    return url;
  }

  public void setUrl(String url) {
    this.url = url;
  }

  public String getPolicy() {
    return policy;
  }

  public void setPolicy(String policy) {
    this.policy = policy;
  }

  public String getUser() {
    return user;
  }

  public void setUser(String user) {
    this.user = user;
  }

  public void setPassword(String password) {
    this.password = password;
  }

  public String getSeed() {
    return seed;
  }

  public void setSeed(String seed) {
    this.seed = seed;
  }

  @Override
  public Connection getConnection() throws SQLException {
    return getConnection(user, password);
  }

  @Override
  public Connection getConnection(String username, String pass) throws SQLException {
    if (url == null || !url.startsWith(DpsqlDriver.PREFIX)) {
      throw new SQLException("DpsqlDataSource: set url to jdbc:dpsql:<backend url>, got " + url,
          "08001");
    }
    Properties props = new Properties();
    if (policy != null) {
      props.setProperty(DpsqlSession.POLICY, policy);
    }
    if (username != null) {
      props.setProperty("user", username);
    }
    if (pass != null) {
      props.setProperty("password", pass);
    }
    if (seed != null) {
      props.setProperty(DpsqlSession.SEED, seed);
    }
    return new DpsqlDriver().connect(url, props);
  }

  @Override
  public PrintWriter getLogWriter() {
    return logWriter;
  }

  @Override
  public void setLogWriter(PrintWriter out) {
    this.logWriter = out;
  }

  @Override
  public void setLoginTimeout(int seconds) {
    this.loginTimeout = seconds;
  }

  @Override
  public int getLoginTimeout() {
    return loginTimeout;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException("dpsql does not use java.util.logging");
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    if (iface.isInstance(this)) {
      return iface.cast(this);
    }
    throw new SQLException("not a wrapper for " + iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) {
    return iface.isInstance(this);
  }
}
