package org.dpsql.server;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.PrivacyCost;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * The owner's users file: who may log in to the server and how much privacy budget each analyst
 * has. It holds credentials, so it lives apart from the data policy (which analysts may read).
 *
 * <pre>
 * analysts:
 *   alice:
 *     password: pbkdf2-sha256$600000$SALT$HASH   # from: dpsql-server hash-password
 *     budget: {rho: 2.0}                         # total over all connections and all time
 *     per_connection: {rho: 0.5}                 # optional cap per connection
 *   olivia:
 *     password: pbkdf2-sha256$600000$SALT$HASH
 *     role: owner                                # may open the console; no budget by default
 * </pre>
 *
 * <p>{@code role} is {@code analyst} (the default) or {@code owner}. An owner may open the
 * data-owner console ({@code /console}) and has no analyst budget unless the entry also gives a
 * {@code budget}: without one the owner cannot run statements. An analyst cannot open the console.
 *
 * <p>Budgets use the components of the policy's accounting: {@code {epsilon}} (pure), {@code
 * {epsilon, delta}} (approx) or {@code {rho}} or {@code {rho, delta}} (zcdp). Under zCDP the δ is
 * what the analyst may spend on mechanisms that are only δ-approximately ρ-zCDP (GROUP BY over a
 * {@code keys: private} column): without it such statements are refused; a {@code per_connection}
 * without δ caps only ρ. Numbers are read as exact decimals.
 *
 * <p>Guarantees: a loaded file has at least one user; every user has a valid password hash and a
 * role; every analyst (every user with a budget) has a positive total and optionally a positive
 * cap, in exactly the accounting's components (under zcdp ρ, and δ where given: a cap without δ
 * has the total's δ), and every user whose role is {@code analyst} has a
 * budget; names are 1 to 200 characters of letters, digits and {@code . _ @ -}. Any other content is refused with
 * an {@link IllegalArgumentException} naming the file, the key and the reason.
 */
public final class UsersFile {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._@-]{1,200}");
  private static final Set<String> ANALYST_KEYS =
      Set.of("password", "budget", "per_connection", "role");
  /** The value of {@code role} of an analyst (the default). */
  public static final String ANALYST = "analyst";
  /** The value of {@code role} of a data owner, who may open the console. */
  public static final String OWNER = "owner";

  private final Map<String, Analyst> analysts;
  private final Map<String, PasswordHash> passwords;
  private final Set<String> owners;

  private UsersFile(Map<String, Analyst> analysts, Map<String, PasswordHash> passwords,
      Set<String> owners) {
    this.analysts = Collections.unmodifiableMap(analysts);
    this.passwords = Collections.unmodifiableMap(passwords);
    this.owners = Collections.unmodifiableSet(owners);
  }

  /**
   * Reads and validates a users file.
   *
   * @param file the YAML file
   * @param accounting the policy's accounting, which the budgets must be expressed in
   * @throws IOException if the file cannot be read
   * @throws IllegalArgumentException if its content is invalid
   */
  public static UsersFile load(Path file, Accounting accounting) throws IOException {
    return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString(), accounting);
  }

  /** As {@link #load}, from text; {@code source} names it in messages. */
  public static UsersFile parse(String yaml, String source, Accounting accounting) {
    Objects.requireNonNull(accounting, "accounting");
    Object root;
    try {
      LoaderOptions options = new LoaderOptions();
      options.setAllowDuplicateKeys(false);
      root = new Yaml(new SafeConstructor(options)).load(yaml);
    } catch (YAMLException e) {
      throw new IllegalArgumentException(source + ": not valid YAML: " + e.getMessage());
    }
    if (!(root instanceof Map<?, ?> top) || !(top.get("analysts") instanceof Map<?, ?> list)) {
      throw new IllegalArgumentException(source + ": expected a mapping 'analysts:' of analyst "
          + "names to {password, budget, per_connection, role}");
    }
    for (Object key : top.keySet()) {
      if (!"analysts".equals(key)) {
        throw new IllegalArgumentException(source + ": unknown key '" + key + "' (only 'analysts')");
      }
    }
    Map<String, Analyst> analysts = new LinkedHashMap<>();
    Map<String, PasswordHash> passwords = new LinkedHashMap<>();
    Set<String> owners = new java.util.LinkedHashSet<>();
    for (Map.Entry<?, ?> e : list.entrySet()) {
      String name = String.valueOf(e.getKey());
      String where = source + ": analysts." + name;
      if (!NAME.matcher(name).matches()) {
        throw new IllegalArgumentException(where + ": an analyst name has 1 to 200 letters, "
            + "digits or . _ @ -");
      }
      if (!(e.getValue() instanceof Map<?, ?> fields)) {
        throw new IllegalArgumentException(where + ": expected {password, budget, per_connection, "
            + "role}");
      }
      for (Object k : fields.keySet()) {
        if (!ANALYST_KEYS.contains(String.valueOf(k))) {
          throw new IllegalArgumentException(where + ": unknown key '" + k
              + "' (expected password, budget, per_connection, role)");
        }
      }
      if (!(fields.get("password") instanceof String hashText)) {
        throw new IllegalArgumentException(where + ".password: missing; make one with: "
            + "dpsql-server hash-password");
      }
      PasswordHash hash;
      try {
        hash = PasswordHash.parse(hashText);
      } catch (IllegalArgumentException ex) {
        throw new IllegalArgumentException(where + ".password: " + ex.getMessage());
      }
      Object role = fields.containsKey("role") ? fields.get("role") : ANALYST;
      if (!ANALYST.equals(role) && !OWNER.equals(role)) {
        throw new IllegalArgumentException(where + ".role: '" + role + "' is not a role (expected "
            + ANALYST + " or " + OWNER + ")");
      }
      boolean owner = OWNER.equals(role);
      Optional<PrivacyCost> total = budget(fields.get("budget"), where + ".budget", accounting);
      if (total.isEmpty() && !owner) {
        throw new IllegalArgumentException(where + ".budget: missing; the analyst's total budget, "
            + "e.g. " + example(accounting));
      }
      PrivacyCost cap = budget(fields.get("per_connection"), where + ".per_connection", accounting)
          .orElse(null);
      if (cap != null && accounting == Accounting.ZCDP && cap.delta().signum() == 0
          && total.isPresent()) {
        // a zCDP cap without δ caps ρ only: δ is then bounded by the total alone
        cap = new PrivacyCost(BigDecimal.ZERO, total.get().delta(), cap.rho());
      }
      if (total.isEmpty() && cap != null) {
        throw new IllegalArgumentException(where + ".per_connection: an owner without a budget "
            + "runs no statements; give a budget too, or remove per_connection");
      }
      passwords.put(name, hash);
      if (owner) {
        owners.add(name);
      }
      if (total.isPresent()) {
        analysts.put(name, new Analyst(name, hash, total.get(), cap));
      }
    }
    if (passwords.isEmpty()) {
      throw new IllegalArgumentException(source + ": no analysts");
    }
    return new UsersFile(analysts, passwords, owners);
  }

  private static Optional<PrivacyCost> budget(Object value, String where, Accounting accounting) {
    if (value == null) {
      return Optional.empty();
    }
    if (!(value instanceof Map<?, ?> m)) {
      throw new IllegalArgumentException(where + ": expected a mapping such as "
          + example(accounting));
    }
    BigDecimal epsilon = null;
    BigDecimal delta = null;
    BigDecimal rho = null;
    for (Map.Entry<?, ?> c : m.entrySet()) {
      String key = String.valueOf(c.getKey());
      BigDecimal v = number(c.getValue(), where + "." + key);
      switch (key) {
        case "epsilon" -> epsilon = v;
        case "delta" -> delta = v;
        case "rho" -> rho = v;
        default -> throw new IllegalArgumentException(where + ": unknown component '" + key
            + "' (expected " + example(accounting) + ")");
      }
    }
    boolean ok = switch (accounting) {
      case PURE -> epsilon != null && delta == null && rho == null;
      case APPROX -> epsilon != null && delta != null && rho == null;
      case ZCDP -> epsilon == null && rho != null;
    };
    if (!ok) {
      throw new IllegalArgumentException(where + ": the policy uses " + accounting.policyName()
          + " accounting, so a budget reads " + example(accounting));
    }
    if (delta != null && delta.compareTo(BigDecimal.ONE) >= 0) {
      throw new IllegalArgumentException(where + ".delta: must be below 1");
    }
    return Optional.of(new PrivacyCost(epsilon == null ? BigDecimal.ZERO : epsilon,
        delta == null ? BigDecimal.ZERO : delta, rho == null ? BigDecimal.ZERO : rho));
  }

  private static BigDecimal number(Object value, String where) {
    if (value instanceof Number || value instanceof String) {
      BigDecimal v;
      try {
        // Double.toString gives back the digits written in the file for any decimal literal
        v = new BigDecimal(value.toString().trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(where + ": not a number: '" + value + "'");
      }
      if (v.signum() <= 0) {
        throw new IllegalArgumentException(where + ": must be positive, got " + v.toPlainString());
      }
      return v;
    }
    throw new IllegalArgumentException(where + ": not a number: '" + value + "'");
  }

  private static String example(Accounting accounting) {
    return switch (accounting) {
      case PURE -> "{epsilon: 3.0}";
      case APPROX -> "{epsilon: 3.0, delta: 1e-6}";
      case ZCDP -> "{rho: 2.0} or {rho: 2.0, delta: 1e-10}";
    };
  }

  /**
   * Checks the analysts' δ budgets under zCDP against the policy's reporting δ (its {@code
   * budget.per_connection.delta}): each analyst's total δ may be at most half of it, so that ε is
   * always reported at a δ of at least the other half, as for an embedded connection (see
   * {@code ZcdpAccountant}).
   *
   * @param accounting the policy's accounting
   * @param reportingDelta the policy's per-connection δ, or null
   * @throws IllegalArgumentException naming the first analyst whose δ is too large
   */
  public void checkDeltas(Accounting accounting, BigDecimal reportingDelta) {
    for (Analyst a : analysts.values()) {
      String problem = deltaProblem(a, accounting, reportingDelta);
      if (problem != null) {
        throw new IllegalArgumentException(problem);
      }
    }
  }

  /** As {@link #checkDeltas} for one analyst: the problem, or null if there is none. */
  static String deltaProblem(Analyst a, Accounting accounting, BigDecimal reportingDelta) {
    if (accounting != Accounting.ZCDP) {
      return null;
    }
    BigDecimal most = reportingDelta == null ? BigDecimal.ZERO
        : reportingDelta.divide(BigDecimal.valueOf(2));
    if (a.total().delta().compareTo(most) <= 0) {
      return null;
    }
    return "analysts." + a.name() + ".budget.delta: " + a.total().delta().toPlainString()
        + " is more than half the policy's budget.per_connection.delta (" + (reportingDelta == null
            ? "none" : reportingDelta.toPlainString()) + "), at which ε is reported; give at most "
        + most.toPlainString() + ", or raise the policy's delta";
  }

  /**
   * This file with {@code name}'s entry (password, budget, role) as {@code old} has it, or without
   * it if {@code old} has none: what a reload keeps when it refuses the new entry.
   */
  UsersFile keeping(String name, UsersFile old) {
    Map<String, Analyst> a = new LinkedHashMap<>(analysts);
    Map<String, PasswordHash> p = new LinkedHashMap<>(passwords);
    Set<String> o = new java.util.LinkedHashSet<>(owners);
    a.remove(name);
    p.remove(name);
    o.remove(name);
    if (old.analysts.containsKey(name)) {
      a.put(name, old.analysts.get(name));
    }
    if (old.passwords.containsKey(name)) {
      p.put(name, old.passwords.get(name));
    }
    if (old.owners.contains(name)) {
      o.add(name);
    }
    return new UsersFile(a, p, o);
  }

  /** The analysts (every user with a budget, owners included) by name, in file order. */
  public Map<String, Analyst> analysts() {
    return analysts;
  }

  /** Every user's password hash by name (analysts and owners), in file order. */
  public Map<String, PasswordHash> passwords() {
    return passwords;
  }

  /** The owners' names, in file order: the users who may open the console. */
  public Set<String> owners() {
    return owners;
  }

  /** Whether {@code name} is an owner. */
  public boolean isOwner(String name) {
    return owners.contains(name);
  }

  /** The analyst called {@code name}, if any. */
  public Optional<Analyst> analyst(String name) {
    return Optional.ofNullable(analysts.get(name));
  }
}
