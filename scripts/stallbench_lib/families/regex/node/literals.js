'use strict';
const { shortest } = require('./attack_shapes');
// The characters every match of a regex must contain, read from regjsparser's tree, and an attack's
// suffix completed with those its input lacks. An engine that looks for a required literal before it
// backtracks (Onigmo, PCRE2's start-of-match optimisations) rejects at once an input without it:
// Pygments' `[+-]?(\d+)*\.\d+%?` is exponential on Onigmo against "1"*n + "x." and flat against
// "1"*n + "x", which recheck's attack is. The completed suffix is kept only when the input still
// fails to match (a failure is what forces the backtracking).

function required(node) {
  switch (node.type) {
    case 'alternative':
      return union(node.body.map(required));
    case 'group':
      return node.behavior === 'normal' || node.behavior === 'ignore' ? union(node.body.map(required)) : new Set();
    case 'disjunction': {
      const [first, ...rest] = node.body.map(required);
      return new Set([...first].filter((c) => rest.every((s) => s.has(c))));
    }
    case 'quantifier':
      return node.min >= 1 ? required(node.body[0]) : new Set();
    case 'value':
      return new Set([String.fromCodePoint(node.codePoint)]);
    case 'characterClass': {
      const only = node.body.length === 1 && !node.negative && node.body[0].type === 'value';
      return only ? new Set([String.fromCodePoint(node.body[0].codePoint)]) : new Set();
    }
    default:
      return new Set();
  }
}

function union(sets) {
  return new Set(sets.flatMap((s) => [...s]));
}

// The input of an attack ({pumps: [{before, pump}], suffix}) with `repeats` rounds of its pumps.
function inputOf(attack, repeats) {
  return attack.pumps.map((p) => p.before + p.pump.repeat(repeats)).join('') + attack.suffix;
}

// `attack` with its suffix completed by the required characters its input lacks, when the completed
// input still fails to match at every length tried; else `attack` as it was.
function withRequired(parse, source, flags, attack) {
  let needed;
  let regex;
  try {
    needed = [...required(parse(source, flags, { unicodePropertyEscape: true, namedGroups: true, lookbehind: true }))];
    regex = new RegExp(source, flags.replace('g', ''));  // one match from the start (sticky with y)
  } catch (e) {
    return attack;
  }
  const missing = needed.filter((c) => !inputOf(attack, 2).includes(c)).join('');
  if (!missing) return attack;
  for (const suffix of [attack.suffix + missing, missing + attack.suffix, attack.suffix + '\n' + missing]) {
    const completed = { ...attack, suffix };
    if ([1, 2, 4, 8].every((k) => { regex.lastIndex = 0; return !regex.test(inputOf(completed, k)); })) return completed;
  }
  return attack;
}

// `attack` followed by the shortest text the whole regex takes, when its input lacks it: the input
// may then match, at its end, but only after every search from an earlier start has failed through
// the pump, and an engine that first looks for what every match needs (Onigmo: the comma of Rails'
// `\s*,\s*`, the lowercase letter of `([A-Z\d]+)([A-Z][a-z])`) no longer rejects it at once.
// Measured beside `attack`, on the regex's own engine (native_probe.py), which keeps the worse.
function withMatch(parse, source, flags, attack) {
  let text;
  try {
    text = shortest(parse(source, flags.replace(/[gy]/g, ''), { unicodePropertyEscape: true, namedGroups: true, lookbehind: true }),
                    flags.replace(/[gy]/g, ''));
  } catch (e) {
    return undefined;
  }
  if (!text || inputOf(attack, 2).includes(text)) return undefined;
  return { ...attack, shape: `${attack.shape}, then a match`, suffix: attack.suffix + text };
}

module.exports = { required, withRequired, withMatch };
