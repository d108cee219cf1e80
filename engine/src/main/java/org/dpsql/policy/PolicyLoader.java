package org.dpsql.policy;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import org.dpsql.errors.SqlStates;

/**
 * Reads a data owner's policy file and checks it against the backend.
 *
 * <p>Guarantees: {@link #load} either returns a {@link Policy} whose every rule of the file format
 * (contract §3) holds and whose tables, columns and types match the backend, or throws a {@link
 * SQLException} with SQLState {@code XDP04} and a message {@code policy <source>: <key path>:
 * <reason>} naming the file, the offending key and what to change. YAML is read with SnakeYAML's
 * safe constructor only, so a policy file cannot instantiate arbitrary classes. Budget numbers are
 * kept exactly as written.
 */
public final class PolicyLoader {
  /** Prefix of a policy source that names a class-path resource instead of a file. */
  public static final String CLASSPATH_PREFIX = "classpath:";

  private PolicyLoader() {}

  /**
   * Reads, parses and checks the policy at {@code source} (a file path, or {@code classpath:NAME}
   * for a resource of the thread's context class loader or of this class's loader).
   *
   * @param source where the policy is
   * @param backend the backend connection whose schema the policy must match
   * @return the checked policy, with the backend's spellings, schemas and SQL types
   * @throws SQLException XDP04 if the source cannot be read, is malformed or contradicts the schema
   */
  public static Policy load(String source, Connection backend) throws SQLException {
    Objects.requireNonNull(backend, "backend");
    String text = read(source);
    return validate(parse(text, source.strip()), backend);
  }

  /**
   * Parses policy text and checks every rule that does not need the backend. Names keep the
   * spelling of the file, schemas are null and column types {@link java.sql.Types#OTHER}.
   *
   * @param yamlText the policy, as YAML
   * @param sourceName how error messages name the policy (usually its path)
   * @throws SQLException XDP04 if the text is malformed
   */
  public static Policy parse(String yamlText, String sourceName) throws SQLException {
    Objects.requireNonNull(yamlText, "yamlText");
    String name = sourceName == null ? "(inline)" : sourceName;
    java.util.List<String> key = java.util.List.of(name, yamlText);
    Policy parsed = PARSED.get(key);
    if (parsed == null) {
      parsed = new PolicyParser(name).parse(yamlText);
      PARSED.put(key, parsed);
    }
    return parsed;
  }

  /**
   * The policies parsed last, by source name and exact text: parsing is a function of the two and
   * a {@link Policy} is immutable, so a pool or an application opening many connections on one
   * policy parses it once (an edited file has another text and is parsed again). A policy is
   * still checked against the backend on every {@link #load}.
   */
  private static final java.util.Map<java.util.List<String>, Policy> PARSED =
      java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<java.util.List<String>, Policy> e) {
          return size() > 16;
        }
      });

  /**
   * Checks a parsed policy against the backend's schema (all schemas of the current catalog,
   * preferring the connection's current schema when a table name exists in several) and returns
   * it with the backend's exact spellings, schemas and SQL types.
   *
   * @throws SQLException XDP04 if a table or column is missing or a type contradicts the policy
   */
  public static Policy validate(Policy policy, Connection backend) throws SQLException {
    Objects.requireNonNull(policy, "policy");
    return new SchemaValidator(policy.source(), backend).validate(policy);
  }

  /**
   * The text of the policy at {@code source}: a file path, or {@code classpath:NAME}.
   *
   * @throws SQLException XDP04 if there is no such file or resource or it cannot be read as UTF-8
   */
  public static String read(String source) throws SQLException {
    if (source == null || source.isBlank()) {
      throw SqlStates.policyError("policy: no policy given; set the 'policy' connection property "
          + "to a file path or classpath:NAME");
    }
    String s = source.strip();
    if (s.startsWith(CLASSPATH_PREFIX)) {
      return readResource(s, s.substring(CLASSPATH_PREFIX.length()).strip());
    }
    return readFile(s);
  }

  private static String readFile(String source) throws SQLException {
    Path path;
    try {
      path = Paths.get(source);
    } catch (RuntimeException e) {
      throw PolicyProblems.at(source, "", "not a valid file path: " + e.getMessage(), e);
    }
    if (Files.isDirectory(path)) {
      throw PolicyProblems.at(source, "", "is a directory, not a policy file");
    }
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(path);
    } catch (NoSuchFileException e) {
      throw PolicyProblems.at(source, "", "file not found (looked for "
          + path.toAbsolutePath().normalize() + ")", e);
    } catch (IOException | SecurityException e) {
      throw PolicyProblems.at(source, "", "cannot read the file: " + e, e);
    }
    return decode(bytes, source);
  }

  private static String readResource(String source, String name) throws SQLException {
    String resource = name.startsWith("/") ? name.substring(1) : name;
    if (resource.isEmpty()) {
      throw PolicyProblems.at(source, "", "no resource name after 'classpath:'");
    }
    URL url = null;
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    if (context != null) {
      url = context.getResource(resource);
    }
    if (url == null) {
      ClassLoader own = PolicyLoader.class.getClassLoader();
      url = own != null ? own.getResource(resource) : ClassLoader.getSystemResource(resource);
    }
    if (url == null) {
      throw PolicyProblems.at(source, "", "class-path resource not found: " + resource);
    }
    try (InputStream in = url.openStream()) {
      return decode(in.readAllBytes(), source);
    } catch (IOException e) {
      throw PolicyProblems.at(source, "", "cannot read the resource " + url + ": " + e, e);
    }
  }

  private static String decode(byte[] bytes, String source) throws SQLException {
    try {
      String text = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
      return text.startsWith("\uFEFF") ? text.substring(1) : text;
    } catch (CharacterCodingException e) {
      throw PolicyProblems.at(source, "", "the file is not valid UTF-8", e);
    }
  }
}
