"""The two sides an experiment runs on: namespaces with the same names from miniagent and from
the pinned upstream packages. ``mini()`` imports nothing of upstream (the learner's grading and
``miniagent mine`` use only it); ``upstream()`` does, when they are installed.

A side has one definition, the runtime tests' ``sides`` package (``tests/runtime/sides/``: the
table of names, the upstream twins of ``miniagent.testing``'s fakes, the loopback Chat
Completions server), so that those tests need nothing of the course. The course runs from a
checkout of the repository (``pip install -e``) and borrows that package from it:
:func:`runtime_sides` is the one place it does.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace

_PACKAGE = Path(__file__).resolve().parents[2] / "tests" / "runtime" / "sides"


def runtime_sides(module: str = "sides") -> ModuleType:
    """The runtime tests' ``sides`` package, or its submodule ``module`` (``"sides.loopback"``),
    imported from the checkout under its own name, so the runtime tests and the course share it."""
    init = _PACKAGE / "__init__.py"
    package = sys.modules.get("sides")
    if package is None:
        if not init.is_file():
            raise ImportError(f"the course runs from a checkout of the repository: no {init}")
        spec = importlib.util.spec_from_file_location(
            "sides", init, submodule_search_locations=[str(_PACKAGE)]
        )
        assert spec is not None and spec.loader is not None
        package = importlib.util.module_from_spec(spec)
        sys.modules["sides"] = package
        try:
            spec.loader.exec_module(package)
        except BaseException:
            del sys.modules["sides"]
            raise
    elif Path(package.__file__ or "").resolve() != init:
        raise ImportError(f"another module is imported as 'sides' ({package.__file__}), not {init}")
    return package if module == "sides" else importlib.import_module(module)


def _copy(side: SimpleNamespace) -> SimpleNamespace:
    return SimpleNamespace(**vars(side))  # a caller may set names on its own copy


def mini() -> SimpleNamespace:
    """miniagent's side."""
    return _copy(runtime_sides().side("mini"))


def upstream() -> SimpleNamespace | None:
    """The pinned upstream packages' side, or None when they are not installed."""
    if importlib.util.find_spec("langgraph") is None:
        return None
    return _copy(runtime_sides().side("upstream"))
