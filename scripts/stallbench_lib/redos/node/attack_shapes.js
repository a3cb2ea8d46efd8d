'use strict';
// Attack inputs of stallbench's own, read from a pattern's structure (regjsparser's syntax tree),
// for when recheck's exact checker gives up and its fuzzer alone decides (a "safe" from it is no
// evidence, and its attack need not be the worst one). Three shapes of catastrophic backtracking:
//
//   nested quantifier         a repeat inside a repeat, (\w{44,88}\s?)+: pump what the inner one
//                             takes (and one round of the outer), so the outer can split the run in
//                             exponentially many ways
//   overlapping alternatives  a repeated alternation whose branches take the same text, (a|aa)+:
//                             pump each branch's text
//   adjacent repeats          two repeats in a row that take the same character, \d+\d+ or .*.*:
//                             pump what the first takes; polynomial
//
// plus every unbounded repeat alone (\s+$ searched from each start: quadratic). Each attack is a
// prefix (text that brings the match to the repeat: the pattern's terms before it, generated at
// their shortest), the pump, and a suffix the pattern then fails on (the failure forces the
// backtracking). With the g flag a global replace searches again after each match, so every shape
// also comes behind a character its pump lacks: the first match ends there (trim's `^\s*` matches
// nothing), and each search from inside the pump then runs over the rest of it (`\s*$`: quadratic).
// analyse.js measures them (probe.js) and the orchestrator keeps the worst.
const SUFFIXES = ['!', '\n', '', '\0', '#', 'a', '0', ' ', '.'];
const CHARACTERS = [...'a0 !A_-.x9Z\t#/:=@~'];
const MAX_SHAPES = 8;

// One character `raw` (an atom: a class, an escape, a dot, a literal) matches, or undefined.
function characterOf(raw, flags) {
  let re;
  try {
    re = new RegExp(`^(?:${raw})$`, flags);
  } catch (e) {
    return undefined;
  }
  return CHARACTERS.find((c) => re.test(c));
}

// The shortest text a node takes (`atLeastOnce`: a repeat taken once even where it may be skipped).
function shortest(node, flags, atLeastOnce = false) {
  switch (node.type) {
    case 'alternative':
      return node.body.map((n) => shortest(n, flags)).join('');
    case 'group':
      if (node.behavior !== 'normal' && node.behavior !== 'ignore') return '';  // lookaround takes nothing
      return node.body.map((n) => shortest(n, flags, atLeastOnce)).join('');
    case 'disjunction':
      return shortest(node.body[0], flags, atLeastOnce);
    case 'quantifier':
      return shortest(node.body[0], flags, true).repeat(Math.max(node.min, atLeastOnce ? 1 : 0));
    case 'anchor':
    case 'reference':
      return '';
    default:
      return characterOf(node.raw, flags) ?? '';
  }
}

const repeats = (node) => node.type === 'quantifier' && (node.max === undefined || node.max > 1);

// Every node with the nodes whose text comes before it in a match (its prefix terms).
function visit(node, prefix, out) {
  out.push({ node, prefix });
  const sequence = (terms) => terms.forEach((t, i) => visit(t, prefix.concat(terms.slice(0, i)), out));
  if (node.type === 'alternative') sequence(node.body);
  else if (node.type === 'group' && (node.behavior === 'normal' || node.behavior === 'ignore')) sequence(node.body);
  else if (node.type === 'quantifier') visit(node.body[0], prefix, out);
  else if (node.type === 'disjunction') node.body.forEach((alternative) => visit(alternative, prefix, out));
  return out;
}

function inside(ancestor, node) {
  return ancestor !== node && ancestor.range[0] <= node.range[0] && node.range[1] <= ancestor.range[1];
}

function disjunctionOf(quantifier) {
  const body = quantifier.body[0];
  const found = body.type === 'group' && body.body.length === 1 ? body.body[0] : body;
  return found.type === 'disjunction' ? found : undefined;
}

// The shapes found in `source` (JavaScript syntax, `flags` of imsu): [{shape, prefix, pump, suffix}],
// most catastrophic shapes first; [] when the pattern cannot be read.
function attackShapes(parse, source, given) {
  let tree;
  let regex;
  const flags = given.replace(/[gy]/g, '');  // one search: what a shape's text and its failure are read with
  try {
    tree = parse(source, flags, { unicodePropertyEscape: true, namedGroups: true, lookbehind: true, unicodeSet: true });
    regex = new RegExp(source, given.replace('g', ''));
  } catch (e) {
    return [];
  }
  const nodes = visit(tree, [], []);
  const text = (terms) => terms.map((t) => shortest(t, flags)).join('');
  const found = [];
  const fails = (input) => {
    regex.lastIndex = 0;
    return !regex.test(input);
  };
  const breaker = (pump) => SUFFIXES.find((s) => s && !pump.includes(s));
  const add = (shape, prefixTerms, pump) => {
    if (!pump) return;
    const prefix = text(prefixTerms);
    const suffix = SUFFIXES.find((s) => fails(prefix + pump.repeat(8) + s));
    if (suffix !== undefined) found.push({ shape, prefix, pump, suffix });
    if (given.includes('g')) {
      const stop = breaker(pump);
      found.push({ shape: `${shape}, searched again after a first match`, prefix: stop + prefix, pump, suffix: stop });
    }
  };
  const quantifiers = nodes.filter(({ node }) => repeats(node));
  for (const outer of quantifiers) {
    for (const inner of quantifiers.filter(({ node }) => inside(outer.node, node))) {
      add('nested quantifier', inner.prefix, shortest(inner.node.body[0], flags, true));
      add('nested quantifier', outer.prefix, shortest(outer.node.body[0], flags, true));
    }
  }
  for (const { node, prefix } of quantifiers) {
    for (const branch of disjunctionOf(node)?.body ?? []) add('overlapping alternatives', prefix, shortest(branch, flags, true));
  }
  for (const { node, prefix } of nodes.filter(({ node }) => node.type === 'alternative' || node.type === 'group')) {
    node.body.forEach((first, i) => {
      const second = node.body[i + 1];
      if (!second || !repeats(first) || !repeats(second)) return;
      const pump = shortest(first.body[0], flags, true);
      if (characterOf(second.body[0].raw, flags) !== undefined && new RegExp(`^(?:${second.body[0].raw})+$`, flags).test(pump)) {
        add('adjacent repeats', prefix.concat(node.body.slice(0, i)), pump);
      }
    });
  }
  for (const { node, prefix } of quantifiers.filter(({ node }) => node.max === undefined)) {
    add('repeat', prefix, shortest(node.body[0], flags, true));
  }
  const unique = new Map(found.map((a) => [`${a.prefix}\u0001${a.pump}\u0001${a.suffix}`, a]));
  return [...unique.values()].slice(0, MAX_SHAPES);
}

module.exports = { attackShapes };
