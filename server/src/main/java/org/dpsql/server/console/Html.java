package org.dpsql.server.console;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Escaping of untrusted text (analysts' SQL, names, audit lines) for the console's HTML.
 *
 * <p>Guarantee: the result of {@link #text} contains none of {@code & < > " '}, so it can be
 * placed in element content and in double- or single-quoted attribute values without ending them
 * or opening markup; control characters other than tab, newline and carriage return, lone
 * surrogates and the non-characters U+FFFE/U+FFFF are replaced by U+FFFD, so what an analyst sends
 * cannot corrupt the document. {@link #query} percent-encodes a query-string value.
 */
public final class Html {
  private Html() {}

  /** {@code s} escaped for element content or a quoted attribute value; "" for null. */
  public static String text(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder b = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> b.append("&amp;");
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> {
          if (Character.isHighSurrogate(c) && i + 1 < s.length()
              && Character.isLowSurrogate(s.charAt(i + 1))) {
            b.append(c).append(s.charAt(++i));
          } else if (c < 0x20 && c != '\t' && c != '\n' && c != '\r'
              || c >= 0x7f && c <= 0x9f || Character.isSurrogate(c) || c == 0xfffe
              || c == 0xffff) {
            b.append('\ufffd');
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.toString();
  }

  /** {@code s} percent-encoded for a query-string value (then safe in an attribute, too). */
  public static String query(String s) {
    return URLEncoder.encode(s == null ? "" : s, StandardCharsets.UTF_8);
  }
}
