// java.util.regex in stallbench's line protocol (../README.md). Without u the pattern and inputs
// are Latin-1 text (one char per byte), with u UTF-8 decoded to UTF-16 (Java matches by code
// point). UNIX_LINES always: only \n ends a line for `.`, ^ and $, as in the C++ engines; Java's
// `$` still matches before a final newline (docs/regex.md lists it). The JVM's recursion limit is
// the engine's guard: a StackOverflowError while matching is `guarded`.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

public final class RegexServer {
  private record Compiled(Pattern pattern, boolean full, boolean unicode, boolean global, boolean sticky) {}

  private final List<Compiled> regexes = new ArrayList<>();
  private List<String> inputs = List.of();
  private final Map<Boolean, List<String>> decoded = new HashMap<>();

  private static String text(String hex, boolean unicode) {
    byte[] bytes = hex.equals("-") ? new byte[0] : HexFormat.of().parseHex(hex);
    Charset charset = unicode ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1;
    return new String(bytes, charset);
  }

  private String compile(String letters, String anchoring, String hex) {
    String flags = letters.equals("-") ? "" : letters;
    boolean unicode = flags.contains("u");
    int options = Pattern.UNIX_LINES;
    if (flags.contains("i")) options |= Pattern.CASE_INSENSITIVE | (unicode ? Pattern.UNICODE_CASE : 0);
    if (flags.contains("m")) options |= Pattern.MULTILINE;
    if (flags.contains("s")) options |= Pattern.DOTALL;
    try {
      regexes.add(new Compiled(Pattern.compile(text(hex, unicode), options), anchoring.equals("full"), unicode,
                               flags.contains("g"), flags.contains("y")));
    } catch (PatternSyntaxException e) {
      return "rejected " + e.getDescription() + " near index " + e.getIndex();
    }
    return "ok " + (regexes.size() - 1);
  }

  // What a match is: the whole input (full); with y one match at the start (lookingAt, sticky); with
  // g a global replace's loop (find() goes on from the last match's end, one char on after an empty
  // one; with y each match anchored where the last ended, the whole input visible to lookbehind).
  private static boolean answer(Compiled regex, Matcher matcher, String s) {
    matcher.reset(s);
    if (regex.full()) return matcher.matches();
    if (!regex.sticky()) {
      boolean found = matcher.find();
      if (regex.global()) while (matcher.find()) continue;
      return found;
    }
    matcher.useTransparentBounds(true).useAnchoringBounds(false);
    boolean found = false;
    for (int at = 0; at <= s.length(); ) {
      matcher.region(at, s.length());
      if (!matcher.lookingAt()) break;
      found = true;
      if (!regex.global()) break;
      at = matcher.end() > at ? matcher.end() : at + 1;
    }
    return found;
  }

  private String batch(String id, String repeat) {
    Compiled regex = regexes.get(Integer.parseInt(id));
    List<String> strings = decoded.computeIfAbsent(regex.unicode(), u -> inputs.stream().map(h -> text(h, u)).toList());
    Matcher matcher = regex.pattern().matcher("");
    int times = Integer.parseInt(repeat);
    long matched = 0;
    try {
      long started = System.nanoTime();
      for (int r = 0; r < times; r++) {
        for (String s : strings) {
          if (answer(regex, matcher, s)) matched++;
        }
      }
      return "ok " + matched + " " + (System.nanoTime() - started) / 1e6;
    } catch (StackOverflowError e) {
      return "guarded StackOverflowError: the matcher's recursion outgrew the thread's stack";
    }
  }

  // The probe's timing protocol in one request (../README.md).
  private String timed(String id, String rounds, String floorMs, String belowMs, String oneRoundFromMs) {
    String[] first = batch(id, "1").split(" ");
    if (!first[0].equals("ok")) return String.join(" ", first);
    double best = Double.parseDouble(first[2]);
    if (best < Double.parseDouble(belowMs)) {
      int repeat = (int) Math.min(10000, Math.ceil(Double.parseDouble(floorMs) / Math.max(best, 1e-4)));
      int more = best >= Double.parseDouble(oneRoundFromMs) ? 1 : Integer.parseInt(rounds);
      for (int r = 0; r < more; r++) {
        String[] reply = batch(id, Integer.toString(repeat)).split(" ");
        if (!reply[0].equals("ok")) return String.join(" ", reply);
        best = Math.min(best, Double.parseDouble(reply[2]) / repeat);
      }
    }
    return "ok " + first[1] + " " + best;
  }

  private String answers(String id) {
    Compiled regex = regexes.get(Integer.parseInt(id));
    List<String> strings = decoded.computeIfAbsent(regex.unicode(), u -> inputs.stream().map(h -> text(h, u)).toList());
    Matcher matcher = regex.pattern().matcher("");
    StringBuilder bits = new StringBuilder();
    for (String s : strings) {
      try {
        bits.append(answer(regex, matcher, s) ? '1' : '0');
      } catch (StackOverflowError e) {
        bits.append('g');
      }
    }
    return "ok " + (bits.length() == 0 ? "-" : bits);
  }

  private String handle(String[] words) {
    switch (words[0]) {
      case "compile":
        return compile(words[1], words[2], words[3]);
      case "inputs":
        inputs = List.of(words).subList(1, words.length);
        decoded.clear();
        return "ok";
      case "batch":
        return batch(words[1], words[2]);
      case "timed":
        return timed(words[1], words[2], words[3], words[4], words[5]);
      case "answers":
        return answers(words[1]);
      case "free":
        return "ok";
      default:
        return "error unknown request " + words[0];
    }
  }

  public static void main(String[] args) throws IOException {
    RegexServer server = new RegexServer();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII), 1 << 16);
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    for (String line; (line = in.readLine()) != null; ) {
      String reply;
      try {
        reply = server.handle(line.split(" ", -1));
      } catch (RuntimeException e) {  // a broken request: say so and go on
        reply = "error " + e;
      }
      out.print(reply.replaceAll("[\r\n]", " ") + "\n");
      out.flush();
    }
  }
}
