"""One folder per family of the C++ side (benches/<family>.cc), named as the family is with `-` as
`_`: its report section (`section.py`), its analysis, its commands (`commands/<name>.py`) and
the hooks the core asks every family for by name (`merge.py`: a group of runs the family merges
itself). The core finds them here, by the family's name from the results contract or by the
module's name, and never imports a family; a family imports the core and never another family
(tests/python/test_architecture.py).

`__path__` may be extended (a test's family folder found before the real ones)."""
import importlib
import importlib.util
import pkgutil
from types import ModuleType


def folder_name(family: str) -> str:
    return family.replace("-", "_")


def names() -> list[str]:
    """Every family folder, sorted."""
    return sorted({m.name for m in pkgutil.iter_modules(__path__) if m.ispkg})


def module_name(family: str, module: str) -> str:
    return f"{__name__}.{folder_name(family)}.{module}"


def find(family: str, module: str) -> ModuleType | None:
    """The family's module of that name (imported), or None when the family has none."""
    name = module_name(family, module)
    try:
        if importlib.util.find_spec(name) is None:
            return None
    except ModuleNotFoundError:  # no folder for the family at all
        return None
    return importlib.import_module(name)


def hooks(module: str) -> list[ModuleType]:
    """The module of that name in every family that has one."""
    return [found for family in names() if (found := find(family, module)) is not None]


def command_packages() -> list[str]:
    """The packages of the families' commands, as dotted names."""
    return [f"{__name__}.{family}.commands" for family in names()
            if importlib.util.find_spec(f"{__name__}.{family}.commands") is not None]
