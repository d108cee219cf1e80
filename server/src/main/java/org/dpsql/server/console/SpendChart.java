package org.dpsql.server.console;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * An inline SVG line chart of one analyst's cumulative spending over time against their budget:
 * a step line through one point per paid answer, and a horizontal line at the budget.
 *
 * <p>Guarantees: the output is a self-contained {@code <svg>} element without scripts, styles or
 * external references (it needs nothing from the Content-Security-Policy); it has exactly one
 * {@code <circle class="paid">} per point given, in order, each with a {@code <title>} naming its
 * time and cumulative spend; every text in it is escaped with {@link Html#text}; coordinates are
 * finite whatever the values (an empty or constant series is drawn flat).
 */
public final class SpendChart {
  private static final int WIDTH = 760;
  private static final int HEIGHT = 280;
  private static final int LEFT = 64;
  private static final int RIGHT = 16;
  private static final int TOP = 16;
  private static final int BOTTOM = 40;

  /**
   * One paid answer: when it was charged and the cumulative spend after it.
   *
   * @param time the charge's time
   * @param cumulative the spend in the accounting's unit after this charge
   * @param exact the same spend as exact text, for the tooltip (escaped here)
   * @param label what the point's tooltip says about the charge (escaped here)
   */
  public record Point(Instant time, double cumulative, String exact, String label) {
    /** Checks for nulls. */
    public Point {
      Objects.requireNonNull(time, "time");
    }
  }

  private SpendChart() {}

  /**
   * The chart.
   *
   * @param points the paid answers, oldest first
   * @param start the spend before the first point (the step line starts there)
   * @param budget the total in the unit, or null if unknown (no budget line)
   * @param unit the unit's symbol (ε or ρ)
   */
  public static String svg(List<Point> points, double start, Double budget, String unit) {
    double max = Math.max(start, budget == null ? 0 : budget);
    for (Point p : points) {
      max = Math.max(max, p.cumulative());
    }
    if (!(max > 0) || !Double.isFinite(max)) {
      max = 1;
    }
    double yMax = max * 1.08;
    long t0 = points.isEmpty() ? 0 : points.get(0).time().toEpochMilli();
    long t1 = points.isEmpty() ? 1 : points.get(points.size() - 1).time().toEpochMilli();
    if (t1 <= t0) {
      t1 = t0 + 1;
    }
    double plotW = WIDTH - LEFT - RIGHT;
    double plotH = HEIGHT - TOP - BOTTOM;
    StringBuilder b = new StringBuilder(512 + points.size() * 160);
    b.append("<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ")
        .append(WIDTH).append(' ').append(HEIGHT).append("\" role=\"img\" aria-label=\"")
        .append(Html.text("cumulative spend in " + unit + " over time, " + points.size()
            + " paid answers")).append("\">");
    // axes
    b.append("<line class=\"axis\" x1=\"").append(LEFT).append("\" y1=\"").append(TOP)
        .append("\" x2=\"").append(LEFT).append("\" y2=\"").append(TOP + (int) plotH)
        .append("\"/>");
    b.append("<line class=\"axis\" x1=\"").append(LEFT).append("\" y1=\"")
        .append(TOP + (int) plotH).append("\" x2=\"").append(WIDTH - RIGHT).append("\" y2=\"")
        .append(TOP + (int) plotH).append("\"/>");
    for (int k = 0; k <= 4; k++) {
      double v = yMax * k / 4;
      double y = TOP + plotH - plotH * k / 4;
      b.append("<text class=\"tick\" x=\"").append(LEFT - 6).append("\" y=\"").append(num(y + 4))
          .append("\" text-anchor=\"end\">").append(Html.text(String.format(Locale.ROOT, "%.3g", v)))
          .append("</text>");
    }
    b.append("<text class=\"tick\" x=\"").append(LEFT).append("\" y=\"").append(HEIGHT - 12)
        .append("\">").append(Html.text(points.isEmpty() ? "no paid answers yet"
            : Formats.time(points.get(0).time()))).append("</text>");
    if (!points.isEmpty()) {
      b.append("<text class=\"tick\" x=\"").append(WIDTH - RIGHT).append("\" y=\"")
          .append(HEIGHT - 12).append("\" text-anchor=\"end\">")
          .append(Html.text(Formats.time(points.get(points.size() - 1).time()))).append("</text>");
    }
    b.append("<text class=\"tick\" x=\"8\" y=\"").append(TOP + 4).append("\">")
        .append(Html.text(unit)).append("</text>");
    if (budget != null) {
      double y = TOP + plotH - plotH * budget / yMax;
      b.append("<line class=\"budget\" x1=\"").append(LEFT).append("\" y1=\"").append(num(y))
          .append("\" x2=\"").append(WIDTH - RIGHT).append("\" y2=\"").append(num(y))
          .append("\"><title>").append(Html.text("budget " + unit + " = " + budget))
          .append("</title></line>");
    }
    if (!points.isEmpty()) {
      StringBuilder path = new StringBuilder();
      double prevY = TOP + plotH - plotH * start / yMax;
      path.append(num(LEFT)).append(',').append(num(prevY));
      for (Point p : points) {
        double x = LEFT + plotW * (p.time().toEpochMilli() - t0) / (double) (t1 - t0);
        double y = TOP + plotH - plotH * p.cumulative() / yMax;
        path.append(' ').append(num(x)).append(',').append(num(prevY));
        path.append(' ').append(num(x)).append(',').append(num(y));
        prevY = y;
      }
      b.append("<polyline class=\"spend\" points=\"").append(path).append("\"/>");
      for (Point p : points) {
        double x = LEFT + plotW * (p.time().toEpochMilli() - t0) / (double) (t1 - t0);
        double y = TOP + plotH - plotH * p.cumulative() / yMax;
        b.append("<circle class=\"paid\" cx=\"").append(num(x)).append("\" cy=\"").append(num(y))
            .append("\" r=\"3\"><title>")
            .append(Html.text(Formats.time(p.time()) + ": " + unit + " " + p.exact() + " — "
                + p.label()))
            .append("</title></circle>");
      }
    }
    b.append("</svg>");
    return b.toString();
  }

  /** A coordinate to two decimals; 0 for a value that is not finite. */
  private static String num(double v) {
    if (!Double.isFinite(v)) {
      return "0";
    }
    long hundredths = Math.round(v * 100);
    long whole = Math.abs(hundredths) / 100;
    long frac = Math.abs(hundredths) % 100;
    return (hundredths < 0 ? "-" : "") + whole + (frac < 10 ? ".0" : ".") + frac;
  }
}
