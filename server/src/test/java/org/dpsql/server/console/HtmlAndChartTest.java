package org.dpsql.server.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The HTML escaper and the SVG spend chart on hostile and degenerate input. */
class HtmlAndChartTest {
  @Test
  void escapingLeavesNoMarkupQuoteOrControlCharacter() {
    assertEquals("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;",
        Html.text("<script>alert('x')</script> & \"q\""));
    assertEquals("a\tb\nc\rd\ufffde\ufffdf\ufffd", Html.text("a\tb\nc\rd\u0000e\u001bf\u0085"));
    assertEquals("\ufffd x \ufffd", Html.text("\ud800 x \udc00"), "lone surrogates");
    assertEquals("ρ 😀", Html.text("ρ 😀"), "pairs and non-ASCII are kept");
    assertEquals("", Html.text(null));
    String hostile = "\"><img src=x onerror=alert(1)>'";
    String q = Html.query(hostile);
    assertFalse(q.matches(".*[<>\"'&].*"), q);
    assertEquals("a%26b%3Dc+d", Html.query("a&b=c d"));
  }

  @Test
  void oneCirclePerPointEscapedLabelsAndFiniteCoordinates() {
    List<SpendChart.Point> points = new ArrayList<>();
    Instant t = Instant.parse("2026-01-01T00:00:00Z");
    for (int i = 1; i <= 7; i++) {
      points.add(new SpendChart.Point(t.plusSeconds(i * 10L), 0.1 * i, "0." + i,
          "#" + i + " <script>x</script>"));
    }
    String svg = SpendChart.svg(points, 0, 2.0, "ρ");
    assertEquals(7, count(svg, "<circle class=\"paid\""));
    assertEquals(1, count(svg, "<line class=\"budget\""));
    assertFalse(svg.contains("<script"));
    assertTrue(svg.contains("&lt;script&gt;x&lt;/script&gt;"));
    assertTrue(svg.startsWith("<svg") && svg.endsWith("</svg>"));
    // the step line: the start, then two vertices per point
    Matcher m = Pattern.compile("<polyline class=\"spend\" points=\"([^\"]*)\"").matcher(svg);
    assertTrue(m.find());
    assertEquals(1 + 2 * 7, m.group(1).split(" ").length);
    // circles rise with the spend (y grows downwards)
    Matcher cy = Pattern.compile("cy=\"([0-9.]+)\"").matcher(svg);
    double previous = Double.MAX_VALUE;
    while (cy.find()) {
      double y = Double.parseDouble(cy.group(1));
      assertTrue(y < previous);
      previous = y;
    }

    // degenerate: no points, no budget, all at one instant, NaN
    String empty = SpendChart.svg(List.of(), 0, null, "ε");
    assertEquals(0, count(empty, "<circle"));
    assertEquals(0, count(empty, "class=\"budget\""));
    assertTrue(empty.contains("no paid answers yet"));
    String same = SpendChart.svg(List.of(new SpendChart.Point(t, 1, "1", "a"),
        new SpendChart.Point(t, Double.NaN, "?", "b")), 0, 1.0, "ε");
    assertEquals(2, count(same, "<circle class=\"paid\""));
    assertFalse(same.contains("NaN") || same.contains("Infinity"), same);
  }

  private static long count(String s, String what) {
    long n = 0;
    for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
      n++;
    }
    return n;
  }
}
