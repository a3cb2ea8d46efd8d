"""The argparse namespace stays in the command modules: a command module reads its options off
`args` and passes typed values (or an option dataclass) down, so a library module's signature says
what it needs and can be called without a command line. A lint over every command module (the
core's commands/, tracking/commands/ and each family's commands/) follows the namespace from each
command's `run(args)` through the helpers of command modules (aliases, keyword arguments, helpers
of another command module included) and names every call that hands it to anything else."""
import ast
import importlib.util
from pathlib import Path

from stallbench_lib import cli
# What may look at the namespace without taking it anywhere.
READERS = {"getattr", "hasattr", "setattr", "isinstance"}


class _Module:
    def __init__(self, name: str, source: str):
        self.name = name
        self.tree = ast.parse(source)
        self.functions = {f.name: f for f in ast.walk(self.tree) if isinstance(f, ast.FunctionDef)}
        self.imported: dict[str, tuple[str, str | None]] = {}  # local name -> (absolute module, name in it)
        package = name.rsplit(".", 1)[0].split(".") if "." in name else []
        for node in ast.walk(self.tree):
            if isinstance(node, ast.ImportFrom):
                parts = package[:len(package) - node.level + 1] if node.level else []
                base = ".".join(parts + ([node.module] if node.module else []))
                for a in node.names:
                    self.imported[a.asname or a.name] = (base, a.name)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    self.imported[a.asname or a.name.split(".")[0]] = (a.name, None)


def _command_module(target: tuple[str, str | None], modules: dict) -> tuple[str, str | None] | None:
    """(command module, function) when an import names a command module or a function in one."""
    base, name = target
    module = f"{base}.{name}" if base else name
    if module in modules:                        # from . import run
        return module, None
    if base in modules:                          # from .run import perform
        return base, name
    return None


def _parameter(function: ast.FunctionDef, position: int | None, keyword: str | None) -> str | None:
    params = [a.arg for a in function.args.posonlyargs + function.args.args]
    if keyword is not None:
        return keyword if keyword in params + [a.arg for a in function.args.kwonlyargs] else None
    return params[position] if position is not None and position < len(params) else None


def leaks(sources: dict[str, str]) -> list[str]:
    """Every place a command module hands its namespace to a function outside commands/:
    "module.function: callee(...) at line N". `sources` maps module name -> source of commands/."""
    modules = {name: _Module(name, text) for name, text in sources.items()}
    found: list[str] = []
    todo = [(name, "run", _parameter(m.functions["run"], 0, None))
            for name, m in modules.items() if "run" in m.functions]
    seen = set()
    while todo:
        module_name, function_name, param = todo.pop()
        if param is None or (module_name, function_name, param) in seen:
            continue
        seen.add((module_name, function_name, param))
        module, function = modules[module_name], modules[module_name].functions[function_name]
        holders = {param}
        for node in ast.walk(function):  # `ns = args`: ns holds it too
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id in holders:
                for t in node.targets:
                    if isinstance(t, ast.Name):
                        holders.add(t.id)
                    else:
                        found.append(f"{module_name}.{function_name}: stores the namespace at line {node.lineno}")
        for call in (n for n in ast.walk(function) if isinstance(n, ast.Call)):
            given = [(i, None) for i, a in enumerate(call.args)
                     if isinstance(a, ast.Name) and a.id in holders
                     or isinstance(a, ast.Starred) and isinstance(a.value, ast.Name) and a.value.id in holders]
            given += [(None, k.arg) for k in call.keywords if isinstance(k.value, ast.Name) and k.value.id in holders]
            if not given:
                continue
            callee = _callee(call.func, module, modules)
            if callee is None:
                if not (isinstance(call.func, ast.Name) and call.func.id in READERS):
                    found.append(f"{module_name}.{function_name}: {ast.unparse(call.func)}(...) at line {call.lineno}")
                continue
            target_module, target_function = callee
            for position, keyword in given:
                todo.append((target_module, target_function,
                             _parameter(modules[target_module].functions[target_function], position, keyword)))
    return sorted(found)


def _callee(func: ast.expr, module: _Module, modules: dict) -> tuple[str, str] | None:
    """(command module, function) when the call stays in commands/, else None."""
    if isinstance(func, ast.Name):
        if func.id in module.functions and func.id not in module.imported:
            return module.name, func.id
        target = _command_module(module.imported.get(func.id, ("", None)), modules)
        if target and target[1] in modules[target[0]].functions:
            return target[0], target[1]
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        target = _command_module(module.imported.get(func.value.id, ("", None)), modules)
        if target and target[1] is None and func.attr in modules[target[0]].functions:
            return target[0], func.attr
    return None


def _commands() -> dict[str, str]:
    """Dotted name -> source of every command module."""
    return {name: Path(importlib.util.find_spec(name).origin).read_text()
            for name in sorted(cli.command_modules().values())}


def test_no_module_outside_commands_receives_the_namespace():
    assert leaks(_commands()) == []


def test_every_command_is_followed_from_its_run():
    found = _commands()
    assert all("def run(" in text for text in found.values())
    assert {"stallbench_lib.commands.run", "stallbench_lib.tracking.commands.ab",
            "stallbench_lib.families.regex.commands.regex"} <= set(found)


LIBRARY = "from .. import store\nfrom ..families.regex import scan_steps\nfrom ..rendering.render import render\n"


def test_the_lint_finds_a_namespace_passed_down():
    assert leaks({"a": LIBRARY + "def run(args):\n    return scan_steps.cache_of(args)\n"}) == [
        "a.run: scan_steps.cache_of(...) at line 5"]


def test_the_lint_follows_helpers_aliases_keywords_and_other_commands():
    helper = LIBRARY + "def _h(x, options):\n    render(path=options)\n\ndef run(args):\n    ns = args\n    _h(1, ns)\n"
    assert leaks({"a": helper}) == ["a._h: render(...) at line 5"]
    other = {"a": "from .b import perform\ndef run(args):\n    return perform(args)\n",
             "b": LIBRARY + "def perform(a):\n    store.append_run(*[a])\n\ndef run(args):\n    return 0\n"}
    assert leaks(other) == []  # a starred list is not the namespace itself
    other["b"] = LIBRARY + "def perform(a):\n    store.append_run(a)\n\ndef run(args):\n    return 0\n"
    assert leaks(other) == ["b.perform: store.append_run(...) at line 5"]
    across = {"core.commands.a": "from ...fam.commands.b import perform\ndef run(args):\n    return perform(args)\n",
              "fam.commands.b": LIBRARY + "def perform(a):\n    store.append_run(a)\n\ndef run(args):\n    return 0\n"}
    assert leaks(across) == ["fam.commands.b.perform: store.append_run(...) at line 5"]  # another package's command
    stored = LIBRARY + "def run(args):\n    store.options = args\n"
    assert leaks({"a": stored}) == ["a.run: stores the namespace at line 5"]


def test_the_lint_lets_typed_values_through():
    clean = LIBRARY + ("def run(args):\n    scan_steps.cache_of(args.cache)\n    render(getattr(args, 'out'))\n"
                       "    return store.append_run(path=args.out)\n")
    assert leaks({"a": clean}) == []
