# Finds the regexes of Ruby source files with Ruby's own parser (RubyVM::AbstractSyntaxTree: the
# parser that runs the code, whose regex literals come out as the Regexp objects Ruby builds), run by
# Debian's ruby (families/regex/languages.py): regex literals (/.../, %r{...}, with their options), interpolated
# ones whose every part is a constant, and Regexp.new / Regexp.compile whose pattern and options are
# constants (string literals, `+` of them, a constant assigned a string once in the file; a Regexp,
# which is copied with its own options). Anything else that builds a regex is reported as dynamic,
# with where it is.
#
# Reads the root and then one file (relative to it) a line on stdin; writes the reply families/regex/readers/python_regexes.py
# describes. Ruby's options become the catalogue's letters: IGNORECASE i, MULTILINE (Ruby's dotAll) s;
# EXTENDED an inline (?x) at the start of the pattern, as Onigmo reads it. Ruby's ^ and $ always match at
# line breaks: the Ruby engine's program does the same, so no letter is needed for them.
require 'json'

Node = RubyVM::AbstractSyntaxTree::Node
OPTION_LETTERS = { Regexp::IGNORECASE => 'i', Regexp::MULTILINE => 's' }.freeze
OPTION_NAMES = { IGNORECASE: Regexp::IGNORECASE, EXTENDED: Regexp::EXTENDED, MULTILINE: Regexp::MULTILINE }.freeze
LITERAL_OPTIONS = { 'i' => Regexp::IGNORECASE, 'x' => Regexp::EXTENDED, 'm' => Regexp::MULTILINE }.freeze
GROUP_OPTIONS = [[Regexp::MULTILINE, 'm'], [Regexp::IGNORECASE, 'i'], [Regexp::EXTENDED, 'x']].freeze  # Regexp#to_s's order
UNFOLDABLE = Object.new.freeze

class SourceFile
  def initialize(text, tree)
    @lines = text.lines
    @constants = Hash.new { |h, k| h[k] = [] }
    each_node(tree) { |n| @constants[n.children[0]] << n.children[1] if n.type == :CDECL && n.children[0].is_a?(Symbol) }
  end

  def each_node(node, &block)
    return unless node.is_a?(Node)

    yield node
    node.children.each { |c| each_node(c, &block) }
  end

  # The string an expression always evaluates to, or UNFOLDABLE. `into` is where that string goes:
  # :pattern (a whole regex's pattern), :string (a part of an interpolated string) or the options of
  # the regex literal it is interpolated into. A Regexp goes into a string or a regex as Ruby puts it
  # there (Regexp#to_s): a group with its own options, `(?-mix:...)`, so that `/#{SECTION}?/` repeats
  # the whole of SECTION and `/#{LOWER}y/i` keeps LOWER case-sensitive (see `embedded`).
  def fold(node, seen = [], into = :pattern)
    return UNFOLDABLE unless node.is_a?(Node)

    case node.type
    when :STR then node.children[0]
    when :LIT
      regex = node.children[0]
      regex.is_a?(Regexp) ? embedded(regex.source, regex.options, into) : UNFOLDABLE
    when :DSTR then interpolated(node, seen, :string)
    when :DREGX, :DREGX_ONCE
      options = literal_letters(node)
      text = interpolated(node, seen, sets_flags?(node) ? :string : options)
      text == UNFOLDABLE ? text : embedded(text, options, into)
    when :EVSTR then fold(node.children[0], seen, into)
    when :CONST
      value = constant_value(node, seen)
      value ? fold(value, seen + [node.children[0]], into) : UNFOLDABLE
    when :OPCALL, :CALL
      method, receiver, args = node.children[1], node.children[0], node.children[2]
      return UNFOLDABLE unless method == :+ && args&.type == :LIST && args.children.compact.size == 1

      left, right = fold(receiver, seen, into), fold(args.children[0], seen, into)
      left.is_a?(String) && right.is_a?(String) ? left + right : UNFOLDABLE
    else UNFOLDABLE
    end
  end

  def interpolated(node, seen, into)
    parts = [node.children[0] || '']
    node.children[1..].each { |c| collect(c, parts, seen, into) }
    parts.all? { |p| p.is_a?(String) } ? parts.join : UNFOLDABLE
  end

  def collect(node, parts, seen, into)
    return if node.nil?

    if node.type == :LIST
      node.children.each { |c| collect(c, parts, seen, into) }
    else
      parts << fold(node, seen, into)
    end
  end

  # A regex `source` with `options`, as it reads where `into` puts it. Ruby writes the group with
  # every option on or off, `(?i-mx:...)`: into a string, so here too (the regex it ends up in is not
  # known yet). Into a regex literal, only the options that differ from that literal's are written,
  # and none as `(?:...)`: the same regex for Onigmo, and one that engines without Ruby's `(?-mix:`
  # (V8 has no x) still read.
  def embedded(source, options, into)
    return source if into == :pattern

    outer = into == :string ? nil : into
    on = GROUP_OPTIONS.select { |flag, _| options & flag != 0 && (outer.nil? || outer & flag == 0) }.map(&:last)
    off = GROUP_OPTIONS.select { |flag, _| options & flag == 0 && (outer.nil? || outer & flag != 0) }.map(&:last)
    "(?#{on.join}#{off.empty? ? '' : "-#{off.join}"}:#{source})"
  end

  # Whether a regex literal's own text sets options inline (`(?i)`, `(?m:`): its interpolated parts
  # then do not read with the literal's options, and each is written with all of its own.
  def sets_flags?(node)
    texts = [node.children[0]] + node.children[1..].flat_map { |c| c.is_a?(Node) && c.type == :LIST ? c.children : [c] }
                                                    .select { |c| c.is_a?(Node) && c.type == :STR }.map { |c| c.children[0] }
    texts.any? { |t| t.is_a?(String) && t.match?(/\(\?(?=[mix-]*[mix])[mix]*(?:-[mix]*)?[:)]/) }
  end

  # The options an expression always evaluates to, or nil.
  def options(node)
    return 0 if node.nil? || node.type == :NIL || node.type == :FALSE
    return Regexp::IGNORECASE if %i[TRUE STR].include?(node.type)  # Ruby 3.1: any other truthy value is /i
    return node.children[0] if node.type == :LIT && node.children[0].is_a?(Integer)
    if node.type == :COLON2 && constant?(node.children[0], :Regexp)
      return OPTION_NAMES[node.children[1]]
    end
    return nil unless node.type == :OPCALL && node.children[1] == :| && node.children[2]&.type == :LIST

    left, right = options(node.children[0]), options(node.children[2].children[0])
    left && right ? left | right : nil
  end

  # The options of the Regexp an expression always evaluates to, or nil when it is not always one (a
  # string, a constant assigned twice). Regexp.new(REGEXP) copies REGEXP with its options and ignores
  # any given beside it (Ruby warns "flags ignored"), also when REGEXP is a constant.
  def regexp_options(node, seen = [])
    return nil unless node.is_a?(Node)

    case node.type
    when :LIT then node.children[0].is_a?(Regexp) ? node.children[0].options : nil
    when :DREGX, :DREGX_ONCE then literal_letters(node)
    when :CONST
      value = constant_value(node, seen)
      value && regexp_options(value, seen + [node.children[0]])
    end
  end

  # The one value a constant is assigned in this file, or nil: assigned twice or more (which value
  # reaches the regex is not known here), or already being resolved (`seen`: A = B; B = A).
  def constant_value(node, seen)
    name = node.children[0]
    values = @constants[name]
    values.size == 1 && !seen.include?(name) ? values[0] : nil
  end

  # The option letters written after an interpolated literal's closing delimiter (the AST keeps none).
  def literal_letters(node)
    line = @lines[node.last_lineno - 1] || ''
    line[0...node.last_column][/[a-z]*\z/].chars.sum { |c| LITERAL_OPTIONS.fetch(c, 0) }
  end
end

def constant?(node, name)
  node.is_a?(Node) && %i[CONST COLON3].include?(node.type) && node.children[0] == name
end

def found(source, options)
  letters = OPTION_LETTERS.select { |flag, _| options & flag != 0 }.values.join
  source = "(?x)#{source}" if options & Regexp::EXTENDED != 0
  { source: source, flags: %w[i m s].select { |c| letters.include?(c) }.join, notes: [] }
end

def regexp_call?(node)
  %i[CALL].include?(node.type) && %i[new compile].include?(node.children[1]) && constant?(node.children[0], :Regexp)
end

def read(path, file, reply)
  text = File.read(path, mode: 'rb').force_encoding(Encoding::UTF_8)
  tree = RubyVM::AbstractSyntaxTree.parse(text)
rescue SyntaxError, ArgumentError, EncodingError => e
  line = e.message[/:(\d+):/, 1].to_i
  reply[:unparsed] << { file: file, line: line, column: 0, message: e.message.lines.first.to_s.strip }
else
  source = SourceFile.new(text, tree)
  source.each_node(tree) do |node|
    where = { file: file, line: node.first_lineno, column: node.first_column + 1 }
    if node.type == :LIT && node.children[0].is_a?(Regexp)
      regex = node.children[0]
      reply[:regexes] << where.merge(kind: 'literal', **found(regex.source, regex.options))
    elsif node.type == :DREGX || node.type == :DREGX_ONCE
      text_of = source.fold(node)
      if text_of == UNFOLDABLE
        reply[:dynamic] << where.merge(kind: 'interpolated literal', why: 'an interpolated part is not a constant')
      else
        reply[:regexes] << where.merge(kind: 'interpolated literal', **found(text_of, source.literal_letters(node)))
      end
    elsif regexp_call?(node)
      args = node.children[2]&.type == :LIST ? node.children[2].children.compact : []
      next if args.empty?

      kind = "Regexp.#{node.children[1]}"
      pattern = source.fold(args[0])
      options = source.regexp_options(args[0]) || (args.size > 1 ? source.options(args[1]) : 0)
      if pattern == UNFOLDABLE || options.nil?
        why = pattern == UNFOLDABLE ? 'the pattern is not a constant' : 'the options are not a constant'
        reply[:dynamic] << where.merge(kind: kind, why: why)
      else
        reply[:regexes] << where.merge(kind: kind, **found(pattern, options))
      end
    end
  end
end

root, *files = $stdin.read.split("\n")
reply = { regexes: [], dynamic: [], unparsed: [] }
files.reject(&:empty?).each { |file| read(File.join(root, file), file, reply) }
$stdout.write(JSON.generate(reply))
