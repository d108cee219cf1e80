package org.dpsql.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.Select;

/**
 * The data-owner console in a real browser (Debian's headless chromium through chromedriver): the
 * demo owner logs in to a {@code --demo} server with the demo users file, opens every page, and
 * finds each analyst's figures equal to the analyst's own {@code DPSQL.BUDGET}, one chart point per
 * paid answer, analysts' SQL shown as text (no script runs), the inline style allowed by the CSP
 * and no CSP violation in the browser's log. Screenshots of the four pages are saved under {@code
 * target/console-screenshots/} (the README's pictures are copies of them).
 *
 * <p>Skipped, with the reason, when chromium or chromedriver is not installed ({@code .ci/run}
 * installs both with apt).
 */
@org.junit.jupiter.api.Order(1) // among the slowest: started first
class ConsoleBrowserTest {
  static final Path CHROMIUM = Path.of(System.getProperty("dpsql.chromium", "/usr/bin/chromium"));
  static final Path CHROMEDRIVER =
      Path.of(System.getProperty("dpsql.chromedriver", "/usr/bin/chromedriver"));
  static final Path SCREENSHOTS = Path.of("target", "console-screenshots");
  static final Path DEMO_USERS = Path.of("examples", "demo-users.yaml");
  static final String SCRIPT = "<script>alert('owned')</script>";

  @TempDir static Path dir;
  static DpsqlServer server;
  static WebDriver browser;
  static String base;

  @BeforeAll
  static void start() throws Exception {
    String missing = !Files.isExecutable(CHROMIUM) ? CHROMIUM + " is not installed"
        : !Files.isExecutable(CHROMEDRIVER) ? CHROMEDRIVER + " is not installed" : null;
    if (missing != null) {
      String reason = "ConsoleBrowserTest skipped: " + missing
          + " (apt-get install chromium chromium-driver; .ci/run does)";
      System.out.println(reason);
      Assumptions.abort(reason);
    }
    server = DpsqlServer.start(new ServerOptions(null, null, null, null, 3000, DEMO_USERS,
        org.dpsql.ledger.LedgerStore.h2File(dir.resolve("ledger")), null, null, "127.0.0.1", 0,
        null, null, false, null, 16));
    try (Connection alice = analyst("alice"); Connection bob = analyst("bob")) {
      single(alice, "SELECT /*+ DP(rho='0.05') */ STATE, COUNT(*) FROM TRIPS GROUP BY STATE");
      single(alice, "SELECT /*+ DP(rho='0.02') */ AVG(FARE) FROM TRIPS WHERE AGE >= 40 /* "
          + SCRIPT + " */");
      single(alice, "SELECT * FROM TABLE(DPSQL.WORKLOAD('TRIPS', 'ALL_RANGES(AGE)', 'rho=0.1'))");
      single(alice, "SELECT COUNT(*) FROM TRIPS WHERE AGE BETWEEN 30 AND 39"); // free
      single(alice, "SELECT COUNT(*) FROM TRIPS WHERE AGE BETWEEN 20 AND 60"); // free
      SQLException refused = assertThrows(SQLException.class, () -> single(alice,
          "SELECT /*+ DP(rho='0.9') */ COUNT(*) FROM TRIPS WHERE STATE = 'TX'"));
      assertEquals("XDP01", refused.getSQLState());
      single(bob, "SELECT /*+ DP(rho='0.1') */ PAYMENT, SUM(FARE) FROM TRIPS GROUP BY PAYMENT");
      single(bob, "SELECT /*+ DP(rho='0.05') */ COUNT(*) FROM TRIPS WHERE HOUR < 6");
      // more of alice's spending, on a second connection (her cap is 0.5 per connection)
      try (Connection again = analyst("alice")) {
        for (int hour = 0; hour < 4; hour++) {
          Thread.sleep(150); // spread over time, for the chart
          single(again, "SELECT /*+ DP(rho='0.08') */ PAYMENT, COUNT(*) FROM TRIPS WHERE HOUR = "
              + hour + " GROUP BY PAYMENT");
        }
      }
      assertThrows(SQLException.class, () -> single(bob, "SELECT RIDER_ID FROM TRIPS"));
    }

    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--disable-dev-shm-usage", "--window-size=1280,1000",
        "--user-data-dir=" + Files.createDirectories(dir.resolve("chromium-profile")));
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, Level.ALL);
    options.setCapability("goog:loggingPrefs", logs);
    browser = new ChromeDriver(service, options);
    browser.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
    base = "http://127.0.0.1:" + server.port();
    Files.createDirectories(SCREENSHOTS);
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      if (browser != null) {
        browser.quit();
      }
    } finally {
      if (server != null) {
        server.close();
      }
    }
  }

  static Connection analyst(String name) throws SQLException {
    return TestServers.connect(server, name, "demo-" + name, new Properties());
  }

  static void single(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        rs.getObject(1);
      }
    }
  }

  /** The analyst's own DPSQL.BUDGET, on a fresh connection. */
  static Map<String, Object> budget(String name) throws SQLException {
    try (Connection c = analyst(name); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT * FROM DPSQL.BUDGET")) {
      assertTrue(rs.next());
      java.util.Map<String, Object> row = new java.util.HashMap<>();
      for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
        row.put(rs.getMetaData().getColumnLabel(i), rs.getObject(i));
      }
      return row;
    }
  }

  /** Saves a screenshot of the whole page (beyond the window), through the DevTools protocol. */
  @SuppressWarnings("unchecked")
  static void screenshot(String name) throws Exception {
    ChromeDriver chrome = (ChromeDriver) browser;
    Map<String, Object> metrics = chrome.executeCdpCommand("Page.getLayoutMetrics", Map.of());
    Map<String, Object> size = (Map<String, Object>) metrics.get("cssContentSize");
    double width = Math.max(1280, ((Number) size.get("width")).doubleValue());
    double height = Math.min(4000, ((Number) size.get("height")).doubleValue());
    Map<String, Object> shot = chrome.executeCdpCommand("Page.captureScreenshot", Map.of(
        "format", "png", "captureBeyondViewport", true,
        "clip", Map.of("x", 0, "y", 0, "width", width, "height", height, "scale", 1)));
    Files.write(SCREENSHOTS.resolve(name + ".png"),
        java.util.Base64.getDecoder().decode((String) shot.get("data")));
  }

  static String cell(String analyst, String cls) {
    return browser.findElement(By.cssSelector("tr[data-analyst='" + analyst + "'] td." + cls))
        .getText();
  }

  static void assertNoScriptRanAndNoCspViolation() {
    assertTrue(browser.findElements(By.tagName("script")).isEmpty(), "no script element");
    assertThrows(NoAlertPresentException.class, () -> browser.switchTo().alert());
    // the inline style sheet is allowed by its hash: the header is styled
    assertEquals("rgba(29, 53, 87, 1)",
        browser.findElement(By.tagName("header")).getCssValue("background-color"));
    List<String> violations = new ArrayList<>();
    for (LogEntry e : browser.manage().logs().get(LogType.BROWSER)) {
      if (e.getMessage().contains("Content Security Policy")) {
        violations.add(e.getMessage());
      }
    }
    assertTrue(violations.isEmpty(), violations.toString());
  }

  @Test
  void theDemoOwnerSeesEveryPageWithTheAnalystsOwnFigures() throws Exception {
    // log in: HTTP Basic with the demo owner's credentials (the browser keeps them for the site)
    browser.get("http://owner:demo-owner@127.0.0.1:" + server.port() + "/console");
    assertEquals("Analysts · dpsql console", browser.getTitle());
    assertTrue(browser.findElements(By.cssSelector("tr[data-analyst='owner']")).isEmpty(),
        "the owner has no budget");
    for (String name : List.of("alice", "bob")) {
      Map<String, Object> b = budget(name);
      BigDecimal total = (BigDecimal) b.get("TOTAL");
      BigDecimal spent = (BigDecimal) b.get("SPENT");
      assertEquals(0, total.compareTo(new BigDecimal(cell(name, "total"))), name);
      assertEquals(0, spent.compareTo(new BigDecimal(cell(name, "spent"))), name);
      BigDecimal remaining = new BigDecimal(cell(name, "remaining"));
      assertEquals(0, total.subtract(spent).compareTo(remaining), name);
      // a fresh connection's REMAINING is the analyst's remaining, capped per connection
      BigDecimal cap = cell(name, "cap").equals("policy's") ? BigDecimal.ONE
          : new BigDecimal(cell(name, "cap"));
      assertEquals(0, ((BigDecimal) b.get("REMAINING")).compareTo(remaining.min(cap)), name);
      double epsSpent = ((Number) b.get("EPSILON_SPENT")).doubleValue();
      double epsTotal = ((Number) b.get("EPSILON_TOTAL")).doubleValue();
      assertEquals(epsSpent, Double.parseDouble(cell(name, "eps-spent")), 1e-5 * epsSpent, name);
      assertEquals(epsTotal, Double.parseDouble(cell(name, "eps-total")), 1e-5 * epsTotal, name);
      assertEquals(((Number) b.get("QUERIES")).longValue(), Long.parseLong(cell(name, "paid")),
          name);
    }
    assertEquals("2", cell("alice", "free"));
    assertEquals("0", cell("bob", "free"));
    assertNoScriptRanAndNoCspViolation();
    screenshot("analysts");

    // sortable: by spent, descending, then ascending
    follow(By.linkText("spent ρ"), "/console?sort=spent&dir=asc");
    follow(By.partialLinkText("spent ρ"), "/console?sort=spent&dir=desc");
    List<WebElement> rows = browser.findElements(By.cssSelector("#analysts tbody tr"));
    assertEquals("alice", rows.get(0).getAttribute("data-analyst"), "alice spent 0.49, bob 0.15");

    // one analyst: a chart point per paid answer, the ledger, the releases
    for (String name : List.of("bob", "alice")) {
      browser.get(base + "/console");
      follow(By.linkText(name), "/console/analyst?name=" + name);
      assertEquals(name, browser.findElement(By.id("analyst-name")).getText());
      long paid = ((Number) budget(name).get("QUERIES")).longValue();
      assertEquals(paid, browser.findElements(By.cssSelector("svg.chart circle.paid")).size(),
          name + ": one point per paid answer");
      assertEquals(paid, browser.findElements(By.cssSelector("#ledger tbody tr.paid")).size());
      assertEquals(1, browser.findElements(By.cssSelector("svg.chart line.budget")).size());
      assertEquals(cell(name), browser.findElement(By.id("spent")).getText());
    }
    List<WebElement> free = browser.findElements(By.cssSelector("#ledger tbody tr.free"));
    assertEquals(2, free.size());
    // the analyst's SQL is shown as text, and no script ran
    assertTrue(browser.findElement(By.id("ledger")).getText().contains(SCRIPT));
    assertFalse(browser.findElements(By.cssSelector("#releases tbody tr")).isEmpty());
    assertNoScriptRanAndNoCspViolation();
    screenshot("analyst");

    // the audit log, filtered by analyst and by outcome through the form
    follow(By.linkText("Audit"), "/console/audit");
    assertTrue(browser.findElement(By.id("audit")).getText().contains(SCRIPT));
    new Select(browser.findElement(By.id("filter-analyst"))).selectByValue("bob");
    submitFilters("analyst=bob&outcome=");
    List<WebElement> bobs = browser.findElements(By.cssSelector("#audit tbody tr"));
    assertFalse(bobs.isEmpty());
    for (WebElement r : bobs) {
      assertEquals("bob", r.findElements(By.tagName("td")).get(1).getText());
    }
    assertTrue(bobs.stream().anyMatch(r -> r.getText().contains("XDP02")));
    new Select(browser.findElement(By.id("filter-analyst"))).selectByValue("");
    new Select(browser.findElement(By.id("filter-outcome"))).selectByValue("XDP01");
    submitFilters("analyst=&outcome=XDP01");
    List<WebElement> refused = browser.findElements(By.cssSelector("#audit tbody tr"));
    assertEquals(1, refused.size());
    assertEquals("XDP01", refused.get(0).findElement(By.cssSelector("td.state")).getText());
    new Select(browser.findElement(By.id("filter-outcome"))).selectByValue("");
    submitFilters("analyst=&outcome=");
    assertNoScriptRanAndNoCspViolation();
    screenshot("audit");

    // the policy
    follow(By.linkText("Policy"), "/console/policy");
    assertTrue(browser.findElement(By.id("fingerprint")).getText().matches("[0-9a-f]{64}"));
    String policy = browser.findElement(By.tagName("main")).getText();
    assertTrue(policy.contains("RIDER_ID"), "TRIPS's privacy unit");
    assertTrue(policy.contains("GEO = STATE → COUNTY"));
    assertTrue(policy.contains("owner"));
    assertFalse(policy.contains("pbkdf2"));
    assertNoScriptRanAndNoCspViolation();
    screenshot("policy");

    // the violation check above can see violations: a page that breaks its own CSP is reported
    browser.get("data:text/html,<meta http-equiv='Content-Security-Policy' "
        + "content=\"style-src 'none'\"><style>p{color:red}</style><p>x</p>");
    assertTrue(browser.manage().logs().get(LogType.BROWSER).getAll().stream()
        .anyMatch(e -> e.getMessage().contains("Content Security Policy")),
        "the browser log reports CSP violations");
  }

  /** Submits the audit filters and waits for the filtered page. */
  static void submitFilters(String query) {
    follow(By.cssSelector("form.filters button"), "/console/audit?" + query);
  }

  /** Clicks and waits until the browser shows the page whose URL ends with {@code path}. */
  static void follow(By target, String path) {
    browser.findElement(target).click();
    new org.openqa.selenium.support.ui.WebDriverWait(browser, Duration.ofSeconds(30))
        .until(d -> d.getCurrentUrl().endsWith(path)
            && "complete".equals(((org.openqa.selenium.JavascriptExecutor) d)
                .executeScript("return document.readyState")));
  }

  /** The spent figure of an analyst on the analysts page (read again from the page). */
  static String cell(String analyst) {
    String here = browser.getCurrentUrl();
    browser.get(base + "/console");
    String spent = cell(analyst, "spent");
    browser.get(here);
    return spent;
  }
}
