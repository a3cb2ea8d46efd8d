// Finds the regexes of JavaScript/TypeScript source files with a real parser (acorn, and its
// TypeScript plugin for .ts files and for JavaScript acorn alone cannot read, such as JSX): regex
// literals, and `new RegExp(...)` / `RegExp(...)` whose pattern and flags are constants (string or
// template literals without substitutions, a regex literal, or `+` of those). Everything else that
// builds a RegExp is reported as dynamic, with where it is. Run by families/regex/languages.py, which walks the
// tree and hands each language's files to its reader: reads the root and then one file (relative to
// it) a line on stdin, writes one JSON reply on stdout:
//
//   {"regexes": [{"file": "lib/a.js", "line": 3, "column": 9, "kind": "literal", "source": "^a+$", "flags": "i"}],
//    "dynamic": [{"file", "line", "column", "kind", "why"}], "unparsed": [{"file", "line", "column", "message"}]}
//
// `flags` are JavaScript's, as written (families/regex/scan.py maps them).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const TYPESCRIPT = /\.(?:[cm]?ts|tsx)$/;
const tools = createRequire(path.join(process.env.STALLBENCH_REGEX_TOOLS, 'x.js'));
const acorn = await import(pathToFileURL(tools.resolve('acorn')).href);
const { tsPlugin } = await import(pathToFileURL(tools.resolve('@sveltejs/acorn-typescript')).href);
const TypeScriptParser = acorn.Parser.extend(tsPlugin({ jsx: true }));
const OPTIONS = { ecmaVersion: 'latest', locations: true, allowHashBang: true, allowReturnOutsideFunction: true,
                  allowImportExportEverywhere: true, allowAwaitOutsideFunction: true };

function parse(text, file) {
  const attempts = [];
  if (!TYPESCRIPT.test(file)) {
    attempts.push(() => acorn.parse(text, { ...OPTIONS, sourceType: 'module' }));
    attempts.push(() => acorn.parse(text, { ...OPTIONS, sourceType: 'script' }));
  }
  attempts.push(() => TypeScriptParser.parse(text, { ...OPTIONS, sourceType: 'module' }));
  let first = null;
  for (const attempt of attempts) {
    try {
      return { ast: attempt() };
    } catch (e) {
      first ??= e;
    }
  }
  return { error: first };
}

// The constant string an expression always evaluates to, or undefined.
function constant(node) {
  if (!node) return undefined;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'Literal' && node.regex) return node.regex.pattern;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked ?? undefined;
  if (node.type === 'BinaryExpression' && node.operator === '+') {
    const left = constant(node.left), right = constant(node.right);
    return left === undefined || right === undefined ? undefined : left + right;
  }
  if (node.type === 'TSAsExpression' || node.type === 'ParenthesizedExpression') return constant(node.expression);
  return undefined;
}

function isRegExpCallee(callee) {
  if (callee.type === 'Identifier') return callee.name === 'RegExp';
  return callee.type === 'MemberExpression' && !callee.computed && callee.property.name === 'RegExp' &&
         callee.object.type === 'Identifier' && ['globalThis', 'window', 'global', 'self'].includes(callee.object.name);
}

// Every node of the tree, whatever its type (TypeScript's too), depth first.
function* nodes(node) {
  if (!node || typeof node.type !== 'string') return;
  yield node;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'loc' || key === 'parent') continue;
    if (Array.isArray(value)) for (const child of value) yield* nodes(child);
    else if (value && typeof value === 'object') yield* nodes(value);
  }
}

function scanFile(ast, file, reply) {
  for (const node of nodes(ast)) {
    const where = { file, line: node.loc.start.line, column: node.loc.start.column + 1 };
    if (node.type === 'Literal' && node.regex) {
      reply.regexes.push({ ...where, kind: 'literal', source: node.regex.pattern, flags: node.regex.flags });
    } else if ((node.type === 'NewExpression' || node.type === 'CallExpression') && isRegExpCallee(node.callee)) {
      const kind = node.type === 'NewExpression' ? 'new RegExp' : 'RegExp()';
      const [pattern, flags] = node.arguments;
      const source = constant(pattern);
      const flagText = flags === undefined ? (pattern?.regex?.flags ?? '') : constant(flags);
      if (pattern === undefined) continue;  // new RegExp(): matches the empty string, nothing to time
      if (source === undefined || flagText === undefined) {
        reply.dynamic.push({ ...where, kind, why: source === undefined ? 'the pattern is not a constant' : 'the flags are not a constant' });
      } else {
        reply.regexes.push({ ...where, kind, source, flags: flagText });
      }
    }
  }
}

const [root, ...files] = fs.readFileSync(0, 'utf8').split('\n');
const reply = { regexes: [], dynamic: [], unparsed: [] };
for (const file of files.filter(Boolean)) {
  const { ast, error } = parse(fs.readFileSync(path.join(root, file), 'utf8'), file);
  if (error) {
    reply.unparsed.push({ file, line: error.loc?.line ?? 0, column: (error.loc?.column ?? 0) + 1, message: error.message });
  } else {
    scanFile(ast, file, reply);
  }
}
process.stdout.write(JSON.stringify(reply) + '\n');
