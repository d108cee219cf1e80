package org.dpsql.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PolicyLoaderTest {
  static final String VALID = String.join("\n",
      "allow_seed: true",
      "budget:",
      "  accounting: zcdp",
      "  per_connection: {rho: 0.5, delta: 1e-9}",
      "  default_query: {rho: 0.05}",
      "tables:",
      "  trips:",
      "    privacy_unit: rider_id",
      "    max_rows_per_unit: 10",
      "    columns:",
      "      origin: {values: [N, S, E, W]}",
      "      age:    {min: 0, max: 99, bin: 1}",
      "      fare:   {clamp: [0, 100], min: 0, max: 100, bin: 2.5}",
      "      state:  {values: [CA, NY]}",
      "      county: {values: [A, B, C]}",
      "      tract:  {values: [1, '2', 3.0]}",
      "      paid:   {values: [true, false]}",
      "      trip_day: {values: [2024-01-01, 2024-01-02]}",
      "    hierarchies:",
      "      geo: [state, county, tract]",
      "  zones: {public: true}",
      "");

  @TempDir Path dir;
  H2Backend h2;

  @BeforeEach
  void open() throws SQLException {
    h2 = new H2Backend();
  }

  @AfterEach
  void close() throws SQLException {
    if (h2 != null) {
      h2.close();
    }
  }

  private Path write(String name, String text) throws Exception {
    Path p = dir.resolve(name);
    Files.writeString(p, text, StandardCharsets.UTF_8);
    return p;
  }

  @Test
  void validPolicyLoadsWithBackendSpellingsAndExactNumbers() throws Exception {
    Path file = write("p.yaml", VALID);
    Policy p = PolicyLoader.load(file.toString(), h2.connection);

    assertEquals(file.toString(), p.source());
    assertTrue(p.allowSeed());
    BudgetPolicy b = p.budget();
    assertEquals("zcdp", b.accounting());
    assertEquals(new BigDecimal("0.5"), b.perConnection().rho());
    assertEquals(new BigDecimal("1e-9"), b.perConnection().delta());
    assertNull(b.perConnection().epsilon());
    assertEquals(new BigDecimal("0.05"), b.defaultQuery().rho());
    assertNull(b.defaultQuery().delta());

    assertEquals(List.of("TRIPS", "ZONES"), List.copyOf(p.tables().keySet()));
    TablePolicy trips = p.table("Trips").orElseThrow();
    assertEquals("TRIPS", trips.name());
    assertEquals("PUBLIC", trips.schema());
    assertFalse(trips.isPublic());
    assertFalse(trips.unitIsRow());
    assertEquals("RIDER_ID", trips.privacyUnit());
    assertEquals(10, trips.maxRowsPerUnit());
    assertEquals(List.of("ORIGIN", "AGE", "FARE", "STATE", "COUNTY", "TRACT", "PAID", "TRIP_DAY"),
        List.copyOf(trips.columns().keySet()));

    ColumnPolicy origin = trips.column("origin").orElseThrow();
    assertEquals("ORIGIN", origin.name());
    assertEquals(Types.VARCHAR, origin.sqlType());
    assertEquals(List.of("N", "S", "E", "W"), origin.categorical().orElseThrow().values());
    assertTrue(origin.hasDomain());
    assertEquals(4, origin.domainSize());

    ColumnPolicy age = trips.column("AGE").orElseThrow();
    assertEquals(Types.INTEGER, age.sqlType());
    OrderedDomain ageDomain = age.ordered().orElseThrow();
    assertEquals(new OrderedDomain(BigDecimal.ZERO, new BigDecimal("99"), BigDecimal.ONE),
        ageDomain);
    assertEquals(100, age.domainSize());
    assertTrue(age.clamp().isEmpty());

    ColumnPolicy fare = trips.column("fare").orElseThrow();
    assertEquals(Types.DECIMAL, fare.sqlType());
    assertEquals(new Clamp(BigDecimal.ZERO, new BigDecimal("100")), fare.clamp().orElseThrow());
    assertEquals(new BigDecimal("2.5"), fare.ordered().orElseThrow().bin());
    assertEquals(41, fare.domainSize());

    assertEquals(List.of(new BigDecimal("1"), new BigDecimal("2"), new BigDecimal("3")),
        trips.column("tract").orElseThrow().categorical().orElseThrow().values());
    assertEquals(List.of(true, false),
        trips.column("paid").orElseThrow().categorical().orElseThrow().values());
    assertEquals(List.of("2024-01-01", "2024-01-02"),
        trips.column("trip_day").orElseThrow().categorical().orElseThrow().values());

    assertEquals(List.of("STATE", "COUNTY", "TRACT"), trips.hierarchies().get("GEO"));
    assertEquals(trips.hierarchies().get("GEO"), trips.hierarchy("geo").orElseThrow());

    TablePolicy zones = p.table("zones").orElseThrow();
    assertTrue(zones.isPublic());
    assertEquals("ZONES", zones.name());
    assertEquals("PUBLIC", zones.schema());
    assertNull(zones.privacyUnit());
    assertTrue(zones.columns().isEmpty());

    assertTrue(p.table("nope").isEmpty());
    assertThrows(UnsupportedOperationException.class, () -> p.tables().clear());
    assertThrows(UnsupportedOperationException.class, () -> trips.columns().clear());
  }

  @Test
  void budgetNumbersStayExactInEveryWritingForm() throws Exception {
    Policy p = PolicyLoader.parse(String.join("\n",
        "budget:",
        "  accounting: approx",
        "  per_connection: {epsilon: 0.1, delta: \"1e-9\"}",
        "  default_query: {epsilon: 0.1, delta: 1.0e-10}",
        "tables: {}"), "inline.yaml");
    BudgetAmount per = p.budget().perConnection();
    assertEquals(new BigDecimal("0.1"), per.epsilon());
    assertEquals("0.1", per.epsilon().toString());
    assertEquals(0, new BigDecimal("0.000000001").compareTo(per.delta()));
    assertEquals(new BigDecimal("1.0e-10"), p.budget().defaultQuery().delta());
    assertFalse(p.allowSeed());
    assertNull(per.rho());

    Policy pure = PolicyLoader.parse(String.join("\n",
        "budget: {accounting: PURE, per_connection: {epsilon: 3}, default_query: {epsilon: 3}}",
        "tables: {}"), "pure.yaml");
    assertEquals("pure", pure.budget().accounting());
    assertEquals(new BigDecimal("3"), pure.budget().perConnection().epsilon());
  }

  @Test
  void classpathSourceUsesTheContextClassLoader() throws Exception {
    Path root = dir.resolve("cp");
    Files.createDirectories(root.resolve("policies"));
    Files.writeString(root.resolve("policies/demo.yaml"), VALID, StandardCharsets.UTF_8);
    ClassLoader saved = Thread.currentThread().getContextClassLoader();
    try (URLClassLoader loader = new URLClassLoader(new URL[] {root.toUri().toURL()}, saved)) {
      Thread.currentThread().setContextClassLoader(loader);
      Policy p = PolicyLoader.load("classpath:policies/demo.yaml", h2.connection);
      assertEquals("classpath:policies/demo.yaml", p.source());
      assertEquals("RIDER_ID", p.table("TRIPS").orElseThrow().privacyUnit());
      SQLException e = assertThrows(SQLException.class,
          () -> PolicyLoader.load("classpath:policies/missing.yaml", h2.connection));
      assertEquals("XDP04", e.getSQLState());
      assertTrue(e.getMessage().startsWith("policy classpath:policies/missing.yaml: "),
          e.getMessage());
      assertTrue(e.getMessage().contains("not found"), e.getMessage());
    } finally {
      Thread.currentThread().setContextClassLoader(saved);
    }
  }

  @Test
  void parseAloneKeepsFileSpellingsAndNeedsNoBackend() throws Exception {
    Policy p = PolicyLoader.parse(VALID, "p.yaml");
    TablePolicy trips = p.table("TRIPS").orElseThrow();
    assertEquals("trips", trips.name());
    assertNull(trips.schema());
    assertEquals("rider_id", trips.privacyUnit());
    assertEquals(Types.OTHER, trips.column("AGE").orElseThrow().sqlType());
    assertEquals(List.of("state", "county", "tract"), trips.hierarchies().get("GEO"));

    Policy checked = PolicyLoader.validate(p, h2.connection);
    assertEquals("TRIPS", checked.table("trips").orElseThrow().name());
  }

  @Test
  void currentSchemaWinsAndOtherSchemasAreSearched() throws Exception {
    String yaml = String.join("\n",
        "budget: {accounting: pure, per_connection: {epsilon: 1}, default_query: {epsilon: 0.1}}",
        "tables:",
        "  trips: {privacy_unit: ROW}",
        "  events:",
        "    privacy_unit: row",
        "    max_rows_per_unit: 1",
        "    columns: {kind: {values: [a, b]}, size_: {clamp: [-5, 3]}}",
        "  mixedcase:",
        "    privacy_unit: id",
        "    max_rows_per_unit: 2",
        "    columns: {score: {min: -1.5, max: 1.5, bin: 0.5}}");
    Policy p = PolicyLoader.load(write("s.yaml", yaml).toString(), h2.connection);

    TablePolicy trips = p.table("TRIPS").orElseThrow();
    assertEquals("PUBLIC", trips.schema());
    assertTrue(trips.unitIsRow());
    assertNull(trips.privacyUnit());
    assertEquals(1, trips.maxRowsPerUnit());

    TablePolicy events = p.table("events").orElseThrow();
    assertEquals("OTHER", events.schema());
    assertEquals("OTHER.EVENTS", events.qualifiedName());
    ColumnPolicy size = events.column("SIZE_").orElseThrow();
    assertEquals(Types.BIGINT, size.sqlType());
    assertEquals(new BigDecimal("5"), size.clamp().orElseThrow().maxAbs());
    assertEquals(0, size.domainSize());
    assertFalse(size.hasDomain());

    TablePolicy mixed = p.table("MIXEDCASE").orElseThrow();
    assertEquals("MixedCase", mixed.name());
    assertEquals("Id", mixed.privacyUnit());
    assertEquals("Score", mixed.column("score").orElseThrow().name());
    assertEquals(Types.DOUBLE, mixed.column("score").orElseThrow().sqlType());
    assertEquals(7, mixed.column("SCORE").orElseThrow().domainSize());
  }

  @Test
  void utf8ByteOrderMarkIsIgnored() throws Exception {
    Path file = write("bom.yaml", "\uFEFF" + VALID);
    assertEquals(2, PolicyLoader.load(file.toString(), h2.connection).tables().size());
  }
}
