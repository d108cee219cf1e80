package org.dpsql.session;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.dpsql.policy.Policy;
import org.dpsql.release.ResultTable;

/**
 * What one budget holder has already been released: answers to statements (a repeat is free) and
 * synopses (least-squares estimates, TopDown leaves and HTF trees that answer covered queries for
 * free). The embedded driver gives each connection its own, in memory; a server gives all
 * connections of one analyst the same instance, kept in a {@link ReleaseStore} so that it
 * survives restarts.
 *
 * <p>Guarantees: everything here was paid for by the budget holder it belongs to, so answering from
 * it is post-processing; an entry is saved to the store (committed) before the answer it comes
 * with is returned; only entries released under a policy with the same {@linkplain
 * #fingerprint(Policy) fingerprint} (tables, columns, domains, bounds, adaptive tables, accounting)
 * are restored, so a restored answer has the shape the current policy gives it. A store that fails
 * while saving costs only the free reuse of that entry, never the answer: the answer was paid for
 * and is returned (the failure is logged). Thread-safe.
 */
public final class Releases {
  private static final System.Logger LOG = System.getLogger(Releases.class.getName());

  /** A statement with its parameters: an identical one is answered by the same release. */
  record AnswerKey(String normalizedSql, List<Object> parameters) {}

  private final String fingerprint;
  private final ReleaseStore store;
  private final ConcurrentHashMap<AnswerKey, CompletableFuture<ResultTable>> answers =
      new ConcurrentHashMap<>();
  /** Newest first. */
  private final List<Synopsis> synopses = new CopyOnWriteArrayList<>();
  private final ConcurrentHashMap<String, SpatialExecutor.Released> spatial =
      new ConcurrentHashMap<>();

  private Releases(String fingerprint, ReleaseStore store) {
    this.fingerprint = fingerprint;
    this.store = store;
  }

  /** Releases kept in memory only (one embedded connection's). */
  public static Releases inMemory(Policy policy) {
    return new Releases(fingerprint(policy), null);
  }

  /**
   * Releases kept in {@code store}: those already stored under {@code policy}'s fingerprint are
   * restored now (an entry that cannot be read any more is skipped and logged: its statement will
   * be measured and charged again if asked), and new ones are saved as they are released.
   *
   * @throws SQLException if the store cannot be read
   */
  public static Releases durable(Policy policy, ReleaseStore store) throws SQLException {
    Objects.requireNonNull(store, "store");
    Releases r = new Releases(fingerprint(policy), store);
    for (ReleaseStore.Entry e : store.load(r.fingerprint)) {
      try {
        switch (e.kind()) {
          case ReleaseCodec.ANSWER -> {
            ReleaseCodec.StoredAnswer a = ReleaseCodec.readAnswer(e.payload());
            r.answers.put(a.key(), CompletableFuture.completedFuture(a.table()));
          }
          case ReleaseCodec.SYNOPSIS ->
              r.synopses.add(0, ReleaseCodec.readSynopsis(e.payload(), policy));
          case ReleaseCodec.SPATIAL -> {
            ReleaseCodec.StoredSpatial s = ReleaseCodec.readSpatial(e.payload());
            r.spatial.put(s.key(), s.released());
          }
          default -> throw new IOException("unknown kind " + e.kind());
        }
      } catch (IOException | RuntimeException ex) {
        LOG.log(System.Logger.Level.WARNING, "skipping a stored release that cannot be restored ("
            + e.kind() + " " + abbreviate(e.key()) + "): " + ex.getMessage());
      }
    }
    return r;
  }

  /**
   * The fingerprint of what a release's shape and meaning depend on in {@code policy}: its
   * tables (columns, domains, clamps, bounds, hierarchies, spatial indexes), adaptive tables and
   * accounting. Two loads of the same policy have the same fingerprint; the budget amounts, limits
   * and published synopses do not enter it.
   */
  public static String fingerprint(Policy policy) {
    String text = "v1|" + policy.budget().accounting() + "|" + policy.tables() + "|"
        + policy.adaptiveTables();
    try {
      byte[] h = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(h);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /** The fingerprint of the policy these releases were made under. */
  public String policyFingerprint() {
    return fingerprint;
  }

  /** Number of answers and synopses held. */
  public int size() {
    return answers.size() + synopses.size() + spatial.size();
  }

  // ---------------------------------------------------------------------------- answers

  /**
   * The release of {@code key} in progress or done, or null after registering {@code mine} as the
   * one in progress (the caller then releases it and completes or {@link #forget}s it).
   */
  CompletableFuture<ResultTable> claim(AnswerKey key, CompletableFuture<ResultTable> mine) {
    return answers.putIfAbsent(key, mine);
  }

  /** Whether {@code key} has been released (or is being released) already. */
  boolean isAnswered(AnswerKey key) {
    return answers.containsKey(key);
  }

  /** Forgets a failed attempt, so that a later identical statement tries again. */
  void forget(AnswerKey key, CompletableFuture<ResultTable> mine) {
    answers.remove(key, mine);
  }

  /** Keeps (and stores) a released answer; {@code claimed} is completed with it. */
  void answered(AnswerKey key, CompletableFuture<ResultTable> claimed, ResultTable t) {
    if (store != null) {
      save(ReleaseCodec.ANSWER, key.normalizedSql(), () -> ReleaseCodec.answer(key, t));
    }
    claimed.complete(t);
  }

  // ---------------------------------------------------------------------------- synopses

  /** The synopses, newest first. */
  List<Synopsis> synopses() {
    return List.copyOf(synopses);
  }

  /** Whether there are no synopses. */
  boolean noSynopses() {
    return synopses.isEmpty();
  }

  /** Keeps (and stores) a released synopsis. */
  void addSynopsis(Synopsis s) {
    if (store != null) {
      save(ReleaseCodec.SYNOPSIS, s.mechanism() + " " + s.measurement().describe() + " of "
          + s.table().name() + " by " + s.cells().columns().stream().map(c -> c.name()).toList(),
          () -> ReleaseCodec.synopsis(s));
    }
    synopses.add(0, s);
  }

  /** The HTF synopsis released for {@code key}, or null. */
  SpatialExecutor.Released spatial(String key) {
    return spatial.get(key);
  }

  /** Keeps (and stores) a released HTF synopsis. */
  void addSpatial(String key, SpatialExecutor.Released r) {
    if (store != null) {
      save(ReleaseCodec.SPATIAL, "htf " + key, () -> ReleaseCodec.spatial(key, r));
    }
    spatial.put(key, r);
  }

  /** The lock under which one HTF synopsis is released at a time. */
  Object spatialLock() {
    return spatial;
  }

  @FunctionalInterface
  private interface Encoding {
    byte[] bytes() throws IOException;
  }

  private void save(String kind, String key, Encoding encoding) {
    try {
      store.save(fingerprint, new ReleaseStore.Entry(kind, abbreviate(key), encoding.bytes()));
    } catch (IOException | SQLException | RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "a released " + kind + " (" + abbreviate(key)
          + ") could not be stored and will not be free after a restart: " + e.getMessage());
    }
  }

  private static String abbreviate(String s) {
    return s.length() <= 2000 ? s : s.substring(0, 2000) + "...";
  }

}
