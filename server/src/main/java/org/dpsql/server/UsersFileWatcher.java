package org.dpsql.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.dpsql.accounting.Accounting;

/**
 * Re-reads the owner's users file when its content changes and puts it in force through {@link
 * AnalystDirectory#apply}, so that adding an analyst, changing a password or raising a budget needs
 * no restart.
 *
 * <p>The file is polled (every {@code periodMillis}; its SHA-256 compared), which sees edits in
 * place, editors' rename-over and files on network mounts alike. Guarantees: a file that does not
 * parse or validate is refused whole with a log line and the users in force stay as they are; the
 * next change is tried again. A half-written file is at worst refused once and read whole at the
 * next poll after the write completes.
 */
final class UsersFileWatcher implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(UsersFileWatcher.class.getName());

  private final Path file;
  private final Accounting accounting;
  private final AnalystDirectory directory;
  private final ServerMetrics metrics;
  private final ScheduledExecutorService timer;
  private byte[] lastDigest;

  /**
   * Starts polling.
   *
   * @param file the users file the server started with
   * @param accounting the policy's accounting
   * @param directory where the changes are applied
   * @param metrics counts the reloads
   * @param periodMillis the polling period
   */
  UsersFileWatcher(Path file, Accounting accounting, AnalystDirectory directory,
      ServerMetrics metrics, long periodMillis) {
    this.file = Objects.requireNonNull(file, "file");
    this.accounting = Objects.requireNonNull(accounting, "accounting");
    this.directory = Objects.requireNonNull(directory, "directory");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.lastDigest = digest(read());
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "dpsql-users-file");
      t.setDaemon(true);
      return t;
    });
    timer.scheduleWithFixedDelay(this::poll, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
  }

  /** Reads the file if it changed and applies it; never throws (the timer must keep running). */
  private void poll() {
    try {
      byte[] content = read();
      byte[] digest = digest(content);
      if (content == null || Arrays.equals(digest, lastDigest)) {
        return;
      }
      lastDigest = digest;
      UsersFile next;
      try {
        next = UsersFile.parse(new String(content, java.nio.charset.StandardCharsets.UTF_8),
            file.toString(), accounting);
      } catch (IllegalArgumentException e) {
        metrics.usersFileReloaded("invalid");
        LOG.log(System.Logger.Level.WARNING, "users file changed but is refused, the users in "
            + "force are kept: " + e.getMessage());
        return;
      }
      List<String> refused = directory.apply(next);
      metrics.usersFileReloaded(refused.isEmpty() ? "applied" : "applied_partly");
      LOG.log(System.Logger.Level.INFO, "users file " + file + " re-read: "
          + next.passwords().size() + " users" + (refused.isEmpty() ? ""
              : ", " + refused.size() + " entries refused"));
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "re-reading the users file failed", e);
    }
  }

  /** The file's bytes, or null if it cannot be read now (being replaced, say). */
  private byte[] read() {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      return null;
    }
  }

  private static byte[] digest(byte[] content) {
    if (content == null) {
      return null;
    }
    try {
      return MessageDigest.getInstance("SHA-256").digest(content);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available in this JVM", e);
    }
  }

  /** Stops polling. */
  @Override
  public void close() {
    timer.shutdownNow();
  }
}
