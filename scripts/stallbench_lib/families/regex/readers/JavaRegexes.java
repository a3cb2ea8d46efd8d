// Finds the regexes of Java source files with the JDK's own parser (javac's tree API,
// com.sun.source), run by `java` from the JDK (families/regex/languages.py) as a single-file program:
// Pattern.compile(p[, flags]) and Pattern.matches(p, s), and String's matches(p), split(p[, n]),
// replaceAll(p, r) and replaceFirst(p, r), whose pattern (and flags) are constants: string literals,
// `+` of constants, and final fields or variables of the same file assigned a constant. The tree is
// parsed only (no types are resolved): a matches/split/replaceAll call with a constant string is
// taken to be String's. Anything else that builds a Pattern is reported as dynamic, with where it is.
//
// Reads the root and then one file (relative to it) a line on stdin; writes the reply families/regex/readers/python_regexes.py describes. Flags become the
// catalogue's letters: CASE_INSENSITIVE i, MULTILINE m, DOTALL s; COMMENTS an inline (?x) at the start.
import com.sun.source.tree.*;
import com.sun.source.util.*;
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import java.util.regex.Pattern;
import javax.tools.*;

public class JavaRegexes {
  static final Map<String, Integer> FLAG_NAMES = Map.of("UNIX_LINES", Pattern.UNIX_LINES, "CASE_INSENSITIVE",
      Pattern.CASE_INSENSITIVE, "COMMENTS", Pattern.COMMENTS, "MULTILINE", Pattern.MULTILINE, "LITERAL", Pattern.LITERAL,
      "DOTALL", Pattern.DOTALL, "UNICODE_CASE", Pattern.UNICODE_CASE, "CANON_EQ", Pattern.CANON_EQ,
      "UNICODE_CHARACTER_CLASS", Pattern.UNICODE_CHARACTER_CLASS);
  // String methods taking a regex first, and how many arguments each has
  static final Map<String, Set<Integer>> STRING_METHODS = Map.of("matches", Set.of(1), "split", Set.of(1, 2),
      "replaceAll", Set.of(2), "replaceFirst", Set.of(2));

  static final StringBuilder regexes = new StringBuilder(), dynamic = new StringBuilder(), unparsed = new StringBuilder();

  static String quote(String s) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') out.append('\\').append(c);
      else if (c < 0x20 || c > 0x7e) out.append(String.format("\\u%04x", (int) c));
      else out.append(c);
    }
    return out.append('"').toString();
  }

  static void add(StringBuilder list, String item) {
    list.append(list.length() == 0 ? "" : ",").append(item);
  }

  // One file's constants (final fields and variables assigned a constant expression), by simple name;
  // a name declared twice is left out.
  static final class Constants extends TreeScanner<Void, Void> {
    final Map<String, ExpressionTree> values = new HashMap<>();
    final Set<String> twice = new HashSet<>();

    @Override public Void visitVariable(VariableTree v, Void p) {
      String name = v.getName().toString();
      if (v.getModifiers().getFlags().contains(javax.lang.model.element.Modifier.FINAL) && v.getInitializer() != null) {
        if (values.put(name, v.getInitializer()) != null) twice.add(name);
      }
      return super.visitVariable(v, p);
    }

    ExpressionTree get(String name) {
      return twice.contains(name) ? null : values.get(name);
    }
  }

  static final class Finder extends TreeScanner<Void, Void> {
    final CompilationUnitTree unit;
    final SourcePositions positions;
    final String file;
    final Constants constants;

    Finder(CompilationUnitTree unit, SourcePositions positions, String file, Constants constants) {
      this.unit = unit; this.positions = positions; this.file = file; this.constants = constants;
    }

    String fold(ExpressionTree e, Set<String> seen) {
      if (e instanceof LiteralTree l) {
        Object v = l.getValue();
        return v instanceof String || v instanceof Character ? v.toString() : null;
      }
      if (e instanceof ParenthesizedTree p) return fold(p.getExpression(), seen);
      if (e instanceof BinaryTree b && b.getKind() == Tree.Kind.PLUS) {
        String left = fold(b.getLeftOperand(), seen), right = fold(b.getRightOperand(), seen);
        return left == null || right == null ? null : left + right;
      }
      String name = e instanceof IdentifierTree id ? id.getName().toString()
          : e instanceof MemberSelectTree m && m.getExpression() instanceof IdentifierTree ? m.getIdentifier().toString() : null;
      if (name == null || seen.contains(name) || constants.get(name) == null) return null;
      Set<String> deeper = new HashSet<>(seen);
      deeper.add(name);
      return fold(constants.get(name), deeper);
    }

    Integer flags(ExpressionTree e) {
      if (e instanceof LiteralTree l && l.getValue() instanceof Integer i) return i;
      if (e instanceof ParenthesizedTree p) return flags(p.getExpression());
      if (e instanceof MemberSelectTree m) return FLAG_NAMES.get(m.getIdentifier().toString());
      if (e instanceof IdentifierTree id) {
        Integer named = FLAG_NAMES.get(id.getName().toString());
        ExpressionTree value = constants.get(id.getName().toString());
        return named != null ? named : value != null && value != e ? flags(value) : null;
      }
      if (e instanceof BinaryTree b && (b.getKind() == Tree.Kind.OR || b.getKind() == Tree.Kind.PLUS)) {
        Integer left = flags(b.getLeftOperand()), right = flags(b.getRightOperand());
        return left == null || right == null ? null : left | right;
      }
      return null;
    }

    String where(Tree t, String kind) {
      long at = positions.getStartPosition(unit, t);
      return "\"file\":" + quote(file) + ",\"line\":" + unit.getLineMap().getLineNumber(at) + ",\"column\":"
          + unit.getLineMap().getColumnNumber(at) + ",\"kind\":" + quote(kind);
    }

    void found(Tree call, String kind, ExpressionTree pattern, ExpressionTree flagsTree) {
      String source = fold(pattern, Set.of());
      Integer flags = flagsTree == null ? Integer.valueOf(0) : flags(flagsTree);
      if (source == null || flags == null) {
        add(dynamic, "{" + where(call, kind) + ",\"why\":"
            + quote(source == null ? "the pattern is not a constant" : "the flags are not a constant") + "}");
      } else if ((flags & Pattern.LITERAL) != 0) {
        add(dynamic, "{" + where(call, kind) + ",\"why\":\"Pattern.LITERAL: a literal string, not a regex\"}");
      } else {
        String letters = ((flags & Pattern.CASE_INSENSITIVE) != 0 ? "i" : "") + ((flags & Pattern.MULTILINE) != 0 ? "m" : "")
            + ((flags & Pattern.DOTALL) != 0 ? "s" : "");
        List<String> notes = new ArrayList<>();
        if ((flags & (Pattern.UNICODE_CASE | Pattern.UNICODE_CHARACTER_CLASS)) != 0) notes.add(quote("Unicode flags: measured on bytes"));
        if ((flags & Pattern.CANON_EQ) != 0) notes.add(quote("CANON_EQ is not modelled"));
        if ((flags & Pattern.COMMENTS) != 0) source = "(?x)" + source;
        add(regexes, "{" + where(call, kind) + ",\"source\":" + quote(source) + ",\"flags\":" + quote(letters)
            + ",\"notes\":[" + String.join(",", notes) + "]}");
      }
    }

    @Override public Void visitMethodInvocation(MethodInvocationTree call, Void p) {
      List<? extends ExpressionTree> args = call.getArguments();
      if (call.getMethodSelect() instanceof MemberSelectTree select && !args.isEmpty()) {
        String method = select.getIdentifier().toString();
        ExpressionTree receiver = select.getExpression();
        boolean onPattern = receiver.toString().equals("Pattern") || receiver.toString().equals("java.util.regex.Pattern");
        if (onPattern && method.equals("compile") && args.size() <= 2) {
          found(call, "Pattern.compile", args.get(0), args.size() == 2 ? args.get(1) : null);
        } else if (onPattern && method.equals("matches") && args.size() == 2) {
          found(call, "Pattern.matches", args.get(0), null);
        } else if (!onPattern && STRING_METHODS.getOrDefault(method, Set.of()).contains(args.size())
                   && fold(args.get(0), Set.of()) != null) {
          found(call, "String." + method, args.get(0), null);
        }
      }
      return super.visitMethodInvocation(call, p);
    }
  }

  public static void main(String[] argv) throws IOException {
    // stdin: the root on the first line, then one file (relative to it) a line: no JSON parser in the JDK
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    Path root = Path.of(in.readLine());
    List<String> files = new ArrayList<>();
    for (String line; (line = in.readLine()) != null;) if (!line.isEmpty()) files.add(line);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    for (String file : files) {
      DiagnosticCollector<JavaFileObject> problems = new DiagnosticCollector<>();
      StandardJavaFileManager manager = javac.getStandardFileManager(problems, null, StandardCharsets.UTF_8);
      JavacTask task = (JavacTask) javac.getTask(null, manager, problems, List.of("-proc:none"), null,
                                                 manager.getJavaFileObjects(root.resolve(file)));
      Iterable<? extends CompilationUnitTree> units;
      try {
        units = task.parse();
      } catch (RuntimeException e) {
        add(unparsed, "{\"file\":" + quote(file) + ",\"line\":0,\"column\":0,\"message\":" + quote(String.valueOf(e)) + "}");
        continue;
      }
      Optional<Diagnostic<? extends JavaFileObject>> error = problems.getDiagnostics().stream()
          .filter(d -> d.getKind() == Diagnostic.Kind.ERROR).findFirst();
      if (error.isPresent()) {
        Diagnostic<? extends JavaFileObject> d = error.get();
        add(unparsed, "{\"file\":" + quote(file) + ",\"line\":" + d.getLineNumber() + ",\"column\":" + d.getColumnNumber()
            + ",\"message\":" + quote(d.getMessage(Locale.ROOT)) + "}");
        continue;
      }
      SourcePositions positions = Trees.instance(task).getSourcePositions();
      for (CompilationUnitTree unit : units) {
        Constants constants = new Constants();
        constants.scan(unit, null);
        new Finder(unit, positions, file, constants).scan(unit, null);
      }
    }
    System.out.print("{\"regexes\":[" + regexes + "],\"dynamic\":[" + dynamic + "],\"unparsed\":[" + unparsed + "]}");
  }
}
