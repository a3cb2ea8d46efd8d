"""Finds the regexes of Python source files with Python's own parser (ast), run by /usr/bin/python3
(families/regex/languages.py). The calls of the `re` module, under any name it is imported as (`import re as
r`, `from re import compile as c`): compile, match, search, fullmatch, sub, subn, split, findall,
finditer, whose pattern (and flags) are constants: string and bytes literals (raw or not, implicitly
concatenated), f-strings without substitutions, `+`, `%` and `.format` of constants, `"|".join` of a
list of constants (or a comprehension over one), slices of constants, and module-level names
assigned a constant once. Also the token tables of Pygments lexers (a class's `tokens`, compiled by
pygments.lexer.RegexLexer with the class's `flags`, re.MULTILINE by default). Anything else that
builds a regex is reported as dynamic, with where it is.

Reads the root and then one file (relative to it) a line on stdin; writes {"regexes": [{"file", "line", "column",
"kind", "source", "flags", "notes"}], "dynamic": [{"file", "line", "column", "kind", "why"}],
"unparsed": [{"file", "line", "column", "message"}]} on stdout. `flags` are the catalogue's letters
(i, m, s); VERBOSE becomes an inline (?x) at the start of the pattern, as Python reads it."""
import ast
import json
import re
import sys
from pathlib import Path

# argument position of `flags` in each function of re
FUNCTIONS = {"compile": 1, "match": 2, "search": 2, "fullmatch": 2, "findall": 2, "finditer": 2, "split": 3,
             "sub": 4, "subn": 4}
LETTERS = {re.IGNORECASE: "i", re.MULTILINE: "m", re.DOTALL: "s"}
NOTES = {re.UNICODE: "re.UNICODE: measured with ASCII \\w and \\d", re.LOCALE: "re.LOCALE is not modelled",
         re.DEBUG: "re.DEBUG only prints"}
UNFOLDABLE = object()


class Module:
    """One file's imports of re and its module-level constants."""

    def __init__(self, tree: ast.Module):
        self.modules, self.functions, self.flag_names = set(), {}, {}
        assigned: dict[str, list[ast.expr]] = {}
        for node in tree.body:
            if isinstance(node, ast.Import):
                self.modules |= {a.asname or a.name for a in node.names if a.name == "re"}
            elif isinstance(node, ast.ImportFrom) and node.module == "re" and node.level == 0:
                for a in node.names:
                    if a.name in FUNCTIONS:
                        self.functions[a.asname or a.name] = a.name
                    elif isinstance(getattr(re, a.name, None), re.RegexFlag):
                        self.flag_names[a.asname or a.name] = getattr(re, a.name)
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
                node, (ast.AnnAssign, ast.AugAssign)) else []
            for t in targets:
                if isinstance(t, ast.Name):
                    assigned.setdefault(t.id, []).append(node.value if not isinstance(node, ast.AugAssign) else None)
        # imports inside functions count too: `import re` is often local
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                self.modules |= {a.asname or a.name for a in node.names if a.name == "re"}
        self.constants = {name: values[0] for name, values in assigned.items() if len(values) == 1 and values[0]}
        self.folding: set[str] = set()
        self.bound: dict[str, object] = {}  # a comprehension's variable, while its element is folded

    def named(self, node) -> bool:
        """A module-level constant's name, not already being folded (a cycle)."""
        return isinstance(node, ast.Name) and node.id in self.constants and node.id not in self.folding

    def through(self, node: ast.Name, fold):
        """`fold` of the constant a name stands for."""
        self.folding.add(node.id)
        try:
            return fold(self.constants[node.id])
        finally:
            self.folding.discard(node.id)

    def fold(self, node):
        """The str or bytes an expression always evaluates to, or UNFOLDABLE."""
        if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
            return node.value
        if isinstance(node, ast.JoinedStr):
            parts = [self.fold(v.value if isinstance(v, ast.FormattedValue) and v.conversion == -1
                               and v.format_spec is None else v) for v in node.values]
            return UNFOLDABLE if any(not isinstance(p, str) for p in parts) else "".join(parts)
        if isinstance(node, ast.Name) and node.id in self.bound:
            return self.bound[node.id]
        if self.named(node):
            return self.through(node, self.fold)
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            base, bounds = self.fold(node.value), [self.number(b) for b in (node.slice.lower, node.slice.upper,
                                                                            node.slice.step)]
            return self.apply(lambda: base[slice(*bounds)], base, *bounds)
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
            left = self.fold(node.left)
            right = self.fold(node.right) if isinstance(node.op, ast.Add) else self.values(node.right)
            return self.apply(lambda: left + right if isinstance(node.op, ast.Add) else left % right, left, right)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("format", "join"):
            base = self.fold(node.func.value)
            if node.func.attr == "join" and len(node.args) == 1 and not node.keywords:
                items = self.values(node.args[0])
                return self.apply(lambda: base.join(items), base, items)
            if node.func.attr == "format" and isinstance(base, str):
                args = [self.fold(a) for a in node.args]
                kwargs = {k.arg: self.fold(k.value) for k in node.keywords if k.arg}
                ok = len(kwargs) == len(node.keywords) and all(isinstance(v, str) for v in [*args, *kwargs.values()])
                return self.apply(lambda: base.format(*args, **kwargs), base, args if ok else UNFOLDABLE)
        return UNFOLDABLE

    def number(self, node):
        """A slice bound: None, or a constant integer (negative too), or UNFOLDABLE."""
        if node is None:
            return None
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            inner = self.number(node.operand)
            return -inner if isinstance(inner, int) and not isinstance(inner, bool) else UNFOLDABLE
        return node.value if isinstance(node, ast.Constant) and type(node.value) is int else UNFOLDABLE

    def values(self, node):
        """A constant, or a tuple, list or dict of constants (the right of `%`, the list `join` takes),
        or a list comprehension over such a list with one variable and no condition."""
        if isinstance(node, ast.ListComp) and len(node.generators) == 1 and not node.generators[0].ifs \
                and isinstance(node.generators[0].target, ast.Name) and not node.generators[0].is_async:
            items, name = self.values(node.generators[0].iter), node.generators[0].target.id
            if not isinstance(items, tuple):
                return UNFOLDABLE
            found = []
            for item in items:
                self.bound[name] = item
                try:
                    found.append(self.fold(node.elt))
                finally:
                    del self.bound[name]
            return UNFOLDABLE if UNFOLDABLE in found else tuple(found)
        if isinstance(node, (ast.Tuple, ast.List)):
            items = [self.fold(e) for e in node.elts]
            return UNFOLDABLE if UNFOLDABLE in items else tuple(items)
        if isinstance(node, ast.Dict) and all(k is not None for k in node.keys):
            items = {self.fold(k): self.fold(v) for k, v in zip(node.keys, node.values)}
            return UNFOLDABLE if UNFOLDABLE in items or UNFOLDABLE in items.values() else items
        if self.named(node):
            return self.through(node, self.values)
        return self.fold(node)

    @staticmethod
    def apply(compute, *operands):
        """compute() when no operand is UNFOLDABLE and it gives a str or bytes; else UNFOLDABLE."""
        if any(o is UNFOLDABLE for o in operands):
            return UNFOLDABLE
        try:
            found = compute()
        except (TypeError, ValueError, KeyError, IndexError, AttributeError):
            return UNFOLDABLE
        return found if isinstance(found, (str, bytes)) else UNFOLDABLE

    def flags(self, node) -> int | None:
        """The flags an expression always evaluates to, or None."""
        if node is None:
            return 0
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in self.modules:
            found = getattr(re, node.attr, None)
            return int(found) if isinstance(found, re.RegexFlag) else None
        if isinstance(node, ast.Name) and node.id in self.flag_names:
            return int(self.flag_names[node.id])
        if self.named(node):
            return self.through(node, self.flags)
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitOr, ast.Add)):
            left, right = self.flags(node.left), self.flags(node.right)
            return None if left is None or right is None else left | right
        return None

    def function(self, call: ast.Call) -> str | None:
        """The re function a call calls, or None."""
        f = call.func
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in self.modules:
            return f.attr if f.attr in FUNCTIONS else None
        return self.functions.get(f.id) if isinstance(f, ast.Name) else None


def argument(call: ast.Call, position: int, keyword: str):
    if len(call.args) > position:
        return call.args[position]
    return next((k.value for k in call.keywords if k.arg == keyword), None)


def found_regex(source, flags: int) -> dict:
    """The pattern as Python's re reads it, with the catalogue's flags and notes on the rest."""
    text = source.decode("latin-1") if isinstance(source, bytes) else source
    letters = "".join(letter for flag, letter in LETTERS.items() if flags & flag)
    notes = [note for flag, note in NOTES.items() if flags & flag]
    if flags & re.VERBOSE:
        text = "(?x)" + text
    return {"source": text, "flags": "".join(c for c in "ims" if c in letters), "notes": notes}


def lexer_tokens(module: Module, tree: ast.Module, file: str, reply: dict) -> None:
    """The regexes of Pygments lexers' token tables: (regex, token, ...) tuples in a class's `tokens`."""
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        assigned = {t.id: n.value for n in cls.body if isinstance(n, ast.Assign) for t in n.targets
                    if isinstance(t, ast.Name)}
        table = assigned.get("tokens")
        if not isinstance(table, ast.Dict):
            continue
        flags = module.flags(assigned["flags"]) if "flags" in assigned else int(re.MULTILINE)
        rules = [rule for state in table.values if isinstance(state, ast.List) for rule in state.elts
                 if isinstance(rule, ast.Tuple) and len(rule.elts) >= 2]
        for rule in rules:
            where = {"file": file, "line": rule.lineno, "column": rule.col_offset + 1, "kind": "Pygments token rule"}
            source = module.fold(rule.elts[0])
            if source is UNFOLDABLE or flags is None:
                reply["dynamic"].append({**where, "why": "the pattern is not a constant" if source is UNFOLDABLE
                                         else "the lexer's flags are not a constant"})
            else:
                reply["regexes"].append({**where, **found_regex(source, flags)})


def imports_pygments(tree: ast.Module) -> bool:
    return any(isinstance(n, ast.ImportFrom) and (n.module or "").startswith("pygments") or isinstance(n, ast.Import)
               and any(a.name.startswith("pygments") for a in n.names) for n in ast.walk(tree))


def read(path: Path, file: str, reply: dict) -> None:
    try:
        tree = ast.parse(path.read_bytes(), file)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as e:
        reply["unparsed"].append({"file": file, "line": getattr(e, "lineno", 0) or 0,
                                  "column": getattr(e, "offset", 0) or 0, "message": f"{type(e).__name__}: {e}"})
        return
    module = Module(tree)
    if imports_pygments(tree):
        lexer_tokens(module, tree, file, reply)
    if not module.modules and not module.functions:
        return
    for call in ast.walk(tree):
        name = module.function(call) if isinstance(call, ast.Call) else None
        if name is None:
            continue
        where = {"file": file, "line": call.lineno, "column": call.col_offset + 1, "kind": f"re.{name}"}
        pattern = argument(call, 0, "pattern")
        if pattern is None:
            continue
        source = module.fold(pattern)
        flags = module.flags(argument(call, FUNCTIONS[name], "flags"))
        if source is UNFOLDABLE or flags is None:
            reply["dynamic"].append({**where, "why": "the pattern is not a constant" if source is UNFOLDABLE
                                     else "the flags are not a constant"})
        else:
            reply["regexes"].append({**where, **found_regex(source, flags)})


def main() -> None:
    root, *files = sys.stdin.read().split("\n")
    sys.setrecursionlimit(10_000)
    reply = {"regexes": [], "dynamic": [], "unparsed": []}
    for file in filter(None, files):
        read(Path(root) / file, file, reply)
    json.dump(reply, sys.stdout)


if __name__ == "__main__":
    main()
