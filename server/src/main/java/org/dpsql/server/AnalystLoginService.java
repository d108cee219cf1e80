package org.dpsql.server;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.Principal;
import java.security.SecureRandom;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import javax.security.auth.Subject;
import javax.servlet.ServletRequest;
import org.eclipse.jetty.security.DefaultIdentityService;
import org.eclipse.jetty.security.IdentityService;
import org.eclipse.jetty.security.LoginService;
import org.eclipse.jetty.server.UserIdentity;

/**
 * Checks HTTP Basic credentials against the users file's PBKDF2 hashes.
 *
 * <p>Every Avatica call is one HTTP request carrying the credentials, and PBKDF2 is deliberately
 * slow, so after a successful check the service remembers an HMAC of the name and password under a
 * random per-process key for {@value #REMEMBER_MINUTES} minutes: a later request with the same
 * password is accepted by comparing HMACs in constant time. The password itself is never kept.
 *
 * <p>Guarantees: a user is authenticated only with the password whose hash the users file holds;
 * unknown users cost the same PBKDF2 work as known ones (no timing oracle on names); at most
 * {@code parallelChecks} PBKDF2 checks run at once, so a flood of wrong passwords cannot take
 * every core from authenticated analysts. An authenticated user has the role {@value #ROLE} if the
 * users file gives them a budget, and the role {@value #OWNER_ROLE} if it makes them an owner,
 * as the users file in force at that request says (the server re-reads it when it changes): a
 * password changed or a user removed there is refused from the next request on, a remembered check
 * of the old password included.
 */
public final class AnalystLoginService implements LoginService {
  /** The role of a user with a budget; the Avatica endpoint's security constraint requires it. */
  public static final String ROLE = "analyst";
  /** The role of an owner; the console's security constraint requires it. */
  public static final String OWNER_ROLE = "owner";
  static final int REMEMBER_MINUTES = 10;

  private final String realm;
  private final java.util.function.Supplier<UsersFile> users;
  private final PasswordHash dummy;
  private final Semaphore checks;
  private final byte[] key = new byte[32];
  private final Map<String, Remembered> remembered = new ConcurrentHashMap<>();
  private volatile IdentityService identityService = new DefaultIdentityService();

  /** A successful check: the HMAC of name and password, and the hash it was checked against. */
  private record Remembered(byte[] mac, String hash, long expiresAtNanos) {}

  private record AnalystPrincipal(String name) implements Principal {
    @Override
    public String getName() {
      return name;
    }
  }

  /**
   * @param realm the HTTP realm name
   * @param users the users allowed to log in
   * @param parallelChecks how many PBKDF2 checks may run at once (at least 1)
   */
  public AnalystLoginService(String realm, UsersFile users, int parallelChecks) {
    this(realm, () -> users, parallelChecks);
  }

  /**
   * @param realm the HTTP realm name
   * @param users the users file in force at each request
   * @param parallelChecks how many PBKDF2 checks may run at once (at least 1)
   */
  public AnalystLoginService(String realm, java.util.function.Supplier<UsersFile> users,
      int parallelChecks) {
    this.realm = Objects.requireNonNull(realm, "realm");
    this.users = Objects.requireNonNull(users, "users");
    Map<String, PasswordHash> passwords = users.get().passwords();
    this.checks = new Semaphore(Math.max(1, parallelChecks), true);
    SecureRandom random = new SecureRandom();
    random.nextBytes(key);
    int iterations = passwords.values().stream().mapToInt(PasswordHash::iterations).max()
        .orElse(PasswordHash.DEFAULT_ITERATIONS);
    this.dummy = PasswordHash.create("no such analyst".toCharArray(), iterations, random);
  }

  @Override
  public String getName() {
    return realm;
  }

  @Override
  public UserIdentity login(String username, Object credentials, ServletRequest request) {
    if (username == null || credentials == null) {
      return null;
    }
    String password = credentials.toString();
    UsersFile now = users.get();
    PasswordHash hash = now.passwords().get(username);
    byte[] mac = mac(username, password);
    if (hash != null) {
      Remembered r = remembered.get(username);
      if (r != null && System.nanoTime() - r.expiresAtNanos < 0 && MessageDigest.isEqual(r.mac, mac)
          && r.hash.equals(hash.encode())) {
        return identity(username, now);
      }
    }
    boolean ok;
    try {
      if (!checks.tryAcquire(30, TimeUnit.SECONDS)) {
        return null;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
    try {
      char[] chars = password.toCharArray();
      if (hash != null) {
        ok = hash.matches(chars);
      } else {
        dummy.matches(chars); // the same work as for a known name
        ok = false;
      }
    } finally {
      checks.release();
    }
    if (!ok) {
      return null;
    }
    remembered.put(username, new Remembered(mac, hash.encode(),
        System.nanoTime() + TimeUnit.MINUTES.toNanos(REMEMBER_MINUTES)));
    return identity(username, now);
  }

  private UserIdentity identity(String username, UsersFile now) {
    java.util.List<String> granted = new java.util.ArrayList<>();
    if (now.analysts().containsKey(username)) {
      granted.add(ROLE);
    }
    if (now.isOwner(username)) {
      granted.add(OWNER_ROLE);
    }
    Principal principal = new AnalystPrincipal(username);
    Subject subject = new Subject();
    subject.getPrincipals().add(principal);
    subject.setReadOnly();
    return identityService.newUserIdentity(subject, principal, granted.toArray(new String[0]));
  }

  private byte[] mac(String username, String password) {
    try {
      Mac hmac = Mac.getInstance("HmacSHA256");
      hmac.init(new SecretKeySpec(key, "HmacSHA256"));
      hmac.update(username.getBytes(StandardCharsets.UTF_8));
      hmac.update((byte) 0);
      return hmac.doFinal(password.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
    }
  }

  @Override
  public boolean validate(UserIdentity user) {
    return user != null && users.get().passwords().containsKey(user.getUserPrincipal().getName());
  }

  @Override
  public IdentityService getIdentityService() {
    return identityService;
  }

  @Override
  public void setIdentityService(IdentityService service) {
    this.identityService = Objects.requireNonNull(service, "service");
  }

  @Override
  public void logout(UserIdentity user) {
    if (user != null) {
      remembered.remove(user.getUserPrincipal().getName());
    }
  }
}
