DIGITS = '\d+'
alternation = /^(a|aa)+$/i
dotall = %r{^x.+y$}m
digits = Regexp.new(DIGITS)
folded = /#{DIGITS}x/
dynamic = Regexp.new(name)
