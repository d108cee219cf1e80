package org.dpsql.policy;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import org.dpsql.errors.SqlStates;

/**
 * Builds the policy errors ({@code XDP04}, message {@code policy <source>: <key path>: <reason>})
 * and finds the nearest valid name to suggest for a likely typo.
 */
final class PolicyProblems {
  private static final int MAX_LISTED = 30;

  private PolicyProblems() {}

  static SQLException at(String source, String path, String reason) {
    return SqlStates.policyError(message(source, path, reason));
  }

  static SQLException at(String source, String path, String reason, Throwable cause) {
    return SqlStates.policyError(message(source, path, reason), cause);
  }

  private static String message(String source, String path, String reason) {
    StringBuilder b = new StringBuilder("policy ").append(source).append(": ");
    if (path != null && !path.isEmpty()) {
      b.append(path).append(": ");
    }
    return b.append(reason).toString();
  }

  /**
   * The candidate closest to {@code word} when it is a likely typo of it (same name in another
   * case, a small edit distance, or one a prefix of the other), else null.
   */
  static String nearest(String word, Collection<String> candidates) {
    if (word == null || word.isEmpty()) {
      return null;
    }
    String w = word.toLowerCase(Locale.ROOT);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String c : candidates) {
      String lc = c.toLowerCase(Locale.ROOT);
      int d = lc.equals(w) ? 0 : distance(w, lc);
      if (d < bestDistance) {
        best = c;
        bestDistance = d;
      }
    }
    if (best == null) {
      return null;
    }
    int allowed = Math.min(w.length(), best.length()) <= 4 ? 1 : 2;
    if (Math.max(w.length(), best.length()) >= 10) {
      allowed = 3;
    }
    if (bestDistance <= allowed) {
      return best;
    }
    for (String c : candidates) {
      String lc = c.toLowerCase(Locale.ROOT);
      if (w.length() >= 3 && (lc.startsWith(w) || w.startsWith(lc)) && lc.length() >= 3) {
        return c;
      }
    }
    return null;
  }

  /** {@code " (did you mean 'x'?)"} or the empty string. */
  static String didYouMean(String word, Collection<String> candidates) {
    String n = nearest(word, candidates);
    return n == null ? "" : " (did you mean '" + n + "'?)";
  }

  /** The names joined by ", ", cut after a few dozen. */
  static String list(Collection<String> names) {
    List<String> shown = new ArrayList<>();
    for (String n : names) {
      if (shown.size() == MAX_LISTED) {
        shown.add("... " + (names.size() - MAX_LISTED) + " more");
        break;
      }
      shown.add(n);
    }
    return String.join(", ", shown);
  }

  /** Optimal string alignment distance: edits, with adjacent transpositions counting as one. */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          v = Math.min(v, d[i - 2][j - 2] + 1);
        }
        d[i][j] = v;
      }
    }
    return d[a.length()][b.length()];
  }
}
