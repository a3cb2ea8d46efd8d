package m;

import java.util.regex.Pattern;

class Parse {
  private static final String SPACES = "\\s+$";
  static final Pattern TRAILING = Pattern.compile(SPACES, Pattern.CASE_INSENSITIVE);

  boolean digits(String s) {
    return s.matches("^(\\d+)+$");
  }

  Pattern dynamic(String p) {
    return Pattern.compile(p);
  }
}
