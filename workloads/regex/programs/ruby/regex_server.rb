# Ruby's Onigmo in stallbench's line protocol (../README.md). Without u the pattern and inputs are
# ISO-8859-1 text (one character per byte), with u UTF-8. JavaScript's s (dotAll) is Ruby's
# Regexp::MULTILINE; JavaScript's m needs nothing: Ruby's ^ and $ always match at line breaks,
# with or without it (docs/regex.md lists the difference). Ruby 3.1 has no match timeout.
require 'strscan'
$stdout.sync = true

# What a match is: with y one match at the start (sticky, StringScanner's anchored scan); with g a
# global search (gsub's loop: each match from the end of the last, one character on after an empty one).
def matcher(regex, flags)
  sticky = flags.include?('y')
  return(sticky ? ->(s) { !StringScanner.new(s).match?(regex).nil? } : ->(s) { regex.match?(s) }) unless flags.include?('g')
  return ->(s) { found = false; s.scan(regex) { found = true }; found } unless sticky
  lambda do |s|
    scanner, found = StringScanner.new(s), false
    while (taken = scanner.scan(regex))
      found = true
      break if taken.empty? && scanner.getch.nil?
    end
    found
  end
end

def text(hex, unicode)
  data = hex == '-' ? +'' : [hex].pack('H*')
  unicode ? data.force_encoding(Encoding::UTF_8).scrub : data.force_encoding(Encoding::ISO_8859_1)
end

regexes = []
inputs = []
decoded = {}

handle = lambda do |words|
  case words[0]
  when 'compile'
    flags = words[1] == '-' ? '' : words[1]
    unicode = flags.include?('u')
    options = 0
    options |= Regexp::IGNORECASE if flags.include?('i')
    options |= Regexp::MULTILINE if flags.include?('s')
    source = text(words[3], unicode)
    source = "\\A(?:#{source})\\z" if words[2] == 'full'
    begin
      regex = Regexp.new(source, options)
      # A \u escape fixes a regexp to UTF-8, which raises on any ISO-8859-1 string with a byte above
      # 127: without u such a pattern cannot be matched against bytes.
      if !unicode && regex.fixed_encoding? && regex.encoding != Encoding::ISO_8859_1
        next "rejected Ruby makes it a #{regex.encoding} regexp (a \\u escape), which cannot match bytes without the u flag"
      end
      regexes << [matcher(regex, words[2] == 'full' ? '' : flags), unicode]
      "ok #{regexes.size - 1}"
    rescue RegexpError, ArgumentError, EncodingError => e
      "rejected #{e.class}: #{e.message}"
    end
  when 'inputs'
    inputs = words[1..]
    decoded = {}
    'ok'
  when 'batch'
    regex, unicode = regexes[Integer(words[1])]
    strings = (decoded[unicode] ||= inputs.map { |hex| text(hex, unicode) })
    matched = 0
    begin
      started = Process.clock_gettime(Process::CLOCK_MONOTONIC, :float_millisecond)
      Integer(words[2]).times { strings.each { |s| matched += 1 if regex.call(s) } }
      "ok #{matched} #{Process.clock_gettime(Process::CLOCK_MONOTONIC, :float_millisecond) - started}"
    rescue RegexpError => e # Onigmo's own limits (its match stack)
      "guarded #{e.class}: #{e.message}"
    end
  when 'timed' # the probe's timing protocol in one request (../README.md)
    first = handle.call(['batch', words[1], '1']).split(' ')
    next first.join(' ') unless first[0] == 'ok'

    best = Float(first[2])
    if best < Float(words[4])
      repeat = [10_000, (Float(words[3]) / [best, 1e-4].max).ceil].min
      (best >= Float(words[5]) ? 1 : Integer(words[2])).times do
        reply = handle.call(['batch', words[1], repeat.to_s]).split(' ')
        break first = reply unless reply[0] == 'ok'

        best = [best, Float(reply[2]) / repeat].min
      end
    end
    first[0] == 'ok' ? "ok #{first[1]} #{best}" : first.join(' ')
  when 'answers'
    regex, unicode = regexes[Integer(words[1])]
    strings = (decoded[unicode] ||= inputs.map { |hex| text(hex, unicode) })
    bits = strings.map do |s|
      regex.call(s) ? '1' : '0'
    rescue RegexpError # Onigmo's own limits (its match stack)
      'g'
    end
    "ok #{bits.empty? ? '-' : bits.join}"
  when 'free'
    'ok'
  else
    "error unknown request #{words[0]}"
  end
end

$stdin.each_line do |line|
  reply = begin
    handle.call(line.chomp.split(' ', -1))
  rescue StandardError => e # a broken request: say so and go on
    "error #{e.class}: #{e.message.lines.first.to_s.chomp}"
  end
  $stdout.write(reply.gsub(/[\r\n]/, ' ') + "\n")
end
