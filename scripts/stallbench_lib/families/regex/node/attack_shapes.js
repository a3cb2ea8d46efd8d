'use strict';
// Attack inputs of stallbench's own, read from a pattern's structure (regjsparser's syntax tree),
// for when recheck's exact checker gives up and its fuzzer alone decides (a "safe" from it is no
// evidence, and its attack need not be the worst one). Four shapes of catastrophic backtracking:
//
//   nested quantifier         a repeat inside a repeat, (\w{44,88}\s?)+: pump what the inner one
//                             takes (and one round of the outer), so the outer can split the run in
//                             exponentially many ways
//   overlapping alternatives  a repeat with an alternation in it whose branches take the same text,
//                             (a|aa)+ or (([a-z])|([a-z][a-z]))\.)+: pump one round with each branch
//   repeat and what follows   a repeat that also takes the text after it, (.*)@[^/]*: pump that text
//   adjacent repeats          two repeats in a row that take the same character, \d+\d+ or .*.*:
//                             pump what the first takes; polynomial
//
// plus every unbounded repeat alone (\s+$ searched from each start: quadratic). Each attack is a
// prefix (text that brings the match to the repeat: the pattern's terms before it, generated at
// their shortest), the pump, and a suffix the pattern then fails on (the failure forces the
// backtracking). With the g flag a global replace searches again after each match, so every shape
// also comes behind a character its pump lacks: the first match ends there (trim's `^\s*` matches
// nothing), and each search from inside the pump then runs over the rest of it (`\s*$`: quadratic).
// analyse.js measures them (probe.js) and the orchestrator keeps the worst; at most MAX_SHAPES of
// them, taken one of each kind in turn.
const SUFFIXES = ['!', '\n', '', '\0', '#', 'a', '0', ' ', '.'];
const CHARACTERS = [...'a0 !A_-.x9Z\t#/:=@~'];
const MAX_SHAPES = 12;

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

// The shortest text a node takes (`atLeastOnce`: a repeat taken once even where it may be skipped);
// `forced` (disjunction -> branch index) takes the given branch of a disjunction instead of its first.
function shortest(node, flags, atLeastOnce = false, forced = undefined) {
  const of = (n, once = false) => shortest(n, flags, once, forced);
  switch (node.type) {
    case 'alternative':
      return node.body.map((n) => of(n)).join('');
    case 'group':
      if (node.behavior !== 'normal' && node.behavior !== 'ignore') return '';  // lookaround takes nothing
      return node.body.map((n) => of(n, atLeastOnce)).join('');
    case 'disjunction':
      return of(node.body[forced?.get(node) ?? 0], atLeastOnce);
    case 'quantifier':
      return of(node.body[0], true).repeat(Math.max(node.min, atLeastOnce ? 1 : 0));
    case 'anchor':
    case 'reference':
      return '';
    case 'value':  // a literal is itself: CHARACTERS stand in for a class or an escape ('1' and ',' were dropped)
      return String.fromCodePoint(node.codePoint);
    default:
      return characterOf(node.raw, flags) ?? '';
  }
}

const repeats = (node) => node.type === 'quantifier' && (node.max === undefined || node.max > 1);

// Every node with the nodes whose text comes before it in a match (its prefix terms) and after it.
function visit(node, prefix, after, out) {
  out.push({ node, prefix, after });
  const sequence = (terms) => terms.forEach((t, i) => visit(t, prefix.concat(terms.slice(0, i)),
                                                            terms.slice(i + 1).concat(after), out));
  if (node.type === 'alternative') sequence(node.body);
  else if (node.type === 'group' && (node.behavior === 'normal' || node.behavior === 'ignore')) sequence(node.body);
  else if (node.type === 'quantifier') visit(node.body[0], prefix, after, out);
  else if (node.type === 'disjunction') node.body.forEach((alternative) => visit(alternative, prefix, after, out));
  return out;
}

function inside(ancestor, node) {
  return ancestor !== node && ancestor.range[0] <= node.range[0] && node.range[1] <= ancestor.range[1];
}

// Whether `text` is one or more rounds of a repeat's body.
function takes(body, text, flags) {
  try {
    return new RegExp(`^(?:${body.raw})+$`, flags).test(text);
  } catch (e) {
    return false;  // a body that refers to groups outside it
  }
}

// The shapes in turns, one of each kind at a time, so that a pattern with many repeats of one kind
// (Ruby's URI regex: nested quantifiers everywhere) still gets its other kinds measured.
function inTurns(found) {
  const kinds = new Map();
  for (const a of found) {
    const kind = a.shape.split(',')[0];
    kinds.set(kind, [...(kinds.get(kind) ?? []), a]);
  }
  const lists = [...kinds.values()];
  const longest = Math.max(0, ...lists.map((l) => l.length));
  return Array.from({ length: longest }, (_, i) => lists.map((l) => l[i]).filter(Boolean)).flat();
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
  const nodes = visit(tree, [], [], []);
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
  // A repeat whose round can take the same text through two branches of an alternation anywhere in
  // it, (a|aa)+ or validators' ((a)|(aa)|(a[-a0]{0,61}a))\.)+: one round with each branch in turn.
  for (const { node, prefix } of quantifiers) {
    const body = node.body[0];
    for (const { node: branching } of nodes.filter(({ node: d }) => d.type === 'disjunction' && (d === body || inside(body, d)))) {
      branching.body.forEach((_, b) => add('overlapping alternatives', prefix, shortest(body, flags, true, new Map([[branching, b]]))));
    }
  }
  // A repeat that also takes what follows it, (.*)@ before a host that takes @ too (urllib3's
  // authority): the repeat can end at any copy of that text, and what follows takes the rest.
  for (const { node, prefix, after } of quantifiers.filter(({ node }) => node.max === undefined)) {
    const next = after.map((t) => shortest(t, flags, true)).find((t) => t);
    if (next && takes(node.body[0], next, flags)) add('repeat and what follows it', prefix, next);
  }
  for (const { node, prefix } of nodes.filter(({ node }) => node.type === 'alternative' || node.type === 'group')) {
    node.body.forEach((first, i) => {
      const second = node.body[i + 1];
      if (!second || !repeats(first) || !repeats(second)) return;
      const pump = shortest(first.body[0], flags, true);
      if (characterOf(second.body[0].raw, flags) !== undefined && takes(second.body[0], pump, flags)) {
        add('adjacent repeats', prefix.concat(node.body.slice(0, i)), pump);
      }
    });
  }
  for (const { node, prefix } of quantifiers.filter(({ node }) => node.max === undefined)) {
    add('repeat', prefix, shortest(node.body[0], flags, true));
  }
  const unique = new Map();  // the first shape to find an input names it (the most catastrophic kind)
  for (const a of found) {
    const key = `${a.prefix}\u0001${a.pump}\u0001${a.suffix}`;
    if (!unique.has(key)) unique.set(key, a);
  }
  return inTurns([...unique.values()]).slice(0, MAX_SHAPES);
}

module.exports = { attackShapes, shortest };
