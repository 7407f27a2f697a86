"""The course tooling is layered: an import never runs from a lower layer back up to a higher one.

The layers of ``src/miniagent_course``, lowest first (a module belongs to the layer of the
longest name below that it starts with):

0. foundations, which know nothing of a course: ``miniagent_course`` (the package itself),
   ``text`` (the messages), ``todo`` (``NotStarted``), ``sides`` (miniagent's or upstream's
   names), ``tracer``, ``handover`` (a command handed to the warm grader: its socket and request);
1. ``grading``: the course model (``course.toml``, the kits' ``kit.toml``), implementations,
   mutants, the graders' pytest plugin, the grading runs, the recordings of upstream's results;
2. what is built on the course model: ``lab`` (notebook helpers), ``models``, ``site`` (the
   course site), ``mine`` (the learner's own agent, and its pytest plugin), ``classroom`` (the
   course graded on Gradescope, GitHub Classroom or a folder of submissions);
3. the programs: ``cli`` (``miniagent``), ``launch`` (its entry point), and every ``if __name__ == "__main__":`` block (such a
   block runs only as a program, never when its module is imported);
4. ``kits``: the days. A day imports the engine (layers 0-3) and never another day.

The engine (layers 0-3) never imports a day: a kit *declares* what the engine needs in its
``kit.toml`` (``[mine] install``, ``[mine.loop]``, ``[[mine.scenarios]]``, ``recordings``) and a page
names a kit's function as data (a ``graph-of`` fence); the engine resolves those names with
``import_target`` when it runs. So the engine also never spells a kit's module in its code, and
never computes a module's name (``importlib.import_module(f"...{day}...")``): a name to import is
either written out or read from a declaration.

Same-layer imports are fine (``site`` may use ``mine``). Imports inside functions count as well as
those at the top, and so do ``importlib.import_module``, ``__import__`` and ``import_target`` /
``reference_owner`` calls with a written-out name. The checker is :func:`problems`;
``test_the_checker_catches_*`` feed it synthetic sources to show that it can fail.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[3] / "src"
PACKAGE = "miniagent_course"
KITS = f"{PACKAGE}.kits"
PROGRAM = 3  # the layer of cli.py and of `if __name__ == "__main__":` blocks

LAYERS: dict[str, int] = {
    PACKAGE: 0,
    f"{PACKAGE}.text": 0,
    f"{PACKAGE}.todo": 0,
    f"{PACKAGE}.sides": 0,
    f"{PACKAGE}.tracer": 0,
    f"{PACKAGE}.handover": 0,
    f"{PACKAGE}.grading": 1,
    f"{PACKAGE}.lab": 2,
    f"{PACKAGE}.models": 2,
    f"{PACKAGE}.site": 2,
    f"{PACKAGE}.mine": 2,
    f"{PACKAGE}.classroom": 2,
    f"{PACKAGE}.cli": PROGRAM,
    f"{PACKAGE}.launch": PROGRAM,
    KITS: 4,
}

IMPORTERS = {"import_module", "__import__"}  # importlib's, and the builtin
RESOLVERS = {"import_target", "reference_owner"}  # grading.course's: "module:name"


def layer_of(module: str) -> int | None:
    """The layer of ``module`` (by its longest listed prefix), None when it is not ours."""
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        name = ".".join(parts[:n])
        if name in LAYERS:
            return LAYERS[name]
    return None


def day_of(module: str) -> str | None:
    """``miniagent_course.kits.day03.cases`` -> ``day03``; None outside the kits."""
    parts = module.split(".")
    return parts[2] if module.startswith(f"{KITS}.") and len(parts) > 2 else None


def _is_main_block(node: ast.stmt) -> bool:
    """``if __name__ == "__main__":``"""
    test = node.test if isinstance(node, ast.If) else None
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and len(test.comparators) == 1
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value == "__main__"
    )


def _absolute(module: str, is_package: bool, level: int, name: str | None) -> str:
    """The absolute name of ``from <level dots><name> import ...`` written in ``module``."""
    if not level:
        return name or ""
    parts = module.split(".")
    base = parts if is_package else parts[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, name] if name else base)


def _computed(node: ast.expr) -> bool:
    """A module name built by code from written-out text: an f-string such as
    ``f"miniagent_course.kits.{day}.cases"``, ``+`` / ``%``, ``.format``, ``.join``. Passing a
    name through is not building one: ``f"{module}:{attr}"`` only joins a declared module to an
    attribute (the module part is the whole of one value)."""
    if isinstance(node, ast.JoinedStr):
        module_part: list[ast.expr] = []
        for value in node.values:
            if isinstance(value, ast.Constant) and ":" in str(value.value):
                before = str(value.value).partition(":")[0]
                module_part += [ast.Constant(before)] if before else []
                break
            module_part.append(value)
        return not (len(module_part) == 1 and isinstance(module_part[0], ast.FormattedValue))
    if isinstance(node, ast.BinOp):
        return True
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("format", "join")
    )


def _call_name(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def imports(module: str, source: str, is_package: bool = False) -> list[tuple[str, int, int]]:
    """Every import in ``source``: (the imported module, the line, the importing layer), plus
    ("<computed>", line, layer) for a module name built by code. Nested code counts too."""
    tree = ast.parse(source)
    own = layer_of(module)
    found: list[tuple[str, int, int]] = []

    def visit(node: ast.AST, layer: int) -> None:
        if isinstance(node, ast.Import):
            found.extend((alias.name, node.lineno, layer) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, is_package, node.level, node.module)
            for alias in node.names:  # `from pkg import submodule` imports pkg.submodule
                found.append(
                    (f"{base}.{alias.name}" if alias.name != "*" else base, node.lineno, layer)
                )
        elif isinstance(node, ast.Call) and node.args:
            name, first = _call_name(node), node.args[0]
            if name in IMPORTERS | RESOLVERS and _computed(first):
                found.append(("<computed>", node.lineno, layer))
            elif name in IMPORTERS | RESOLVERS and isinstance(first, ast.Constant):
                if isinstance(first.value, str):
                    found.append((first.value.partition(":")[0], node.lineno, layer))
        for child in ast.iter_child_nodes(node):
            visit(child, PROGRAM if _is_main_block(child) else layer)  # type: ignore[arg-type]

    assert own is not None, f"{module} is in no layer: add it to LAYERS (and the docstring)"
    for statement in tree.body:
        visit(statement, max(own, PROGRAM) if _is_main_block(statement) else own)
    return found


def problems(module: str, source: str, is_package: bool = False) -> list[str]:
    """What breaks the layering in ``module``'s ``source`` ([] when nothing does)."""
    found = []
    day = day_of(module)
    for target, line, layer in imports(module, source, is_package):
        where = f"{module}:{line}"
        if target == "<computed>":
            found.append(f"{where} computes the name of a module to import")
            continue
        target_layer = layer_of(target)
        if target_layer is None:
            continue  # not ours: the standard library, miniagent, upstream...
        if day is None and target.startswith(f"{KITS}.") and day_of(target):
            found.append(f"{where} imports the day {target} (the engine never imports a day)")
        elif day is not None and day_of(target) not in (None, day):
            found.append(f"{where} imports another day: {target}")
        elif target_layer > layer:
            found.append(f"{where} (layer {layer}) imports {target} (layer {target_layer})")
    return found


def modules() -> list[tuple[str, Path]]:
    """Every module of the package, with its file."""
    found = []
    for path in sorted((SRC / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found.append((".".join(parts), path))
    return found


MODULES = modules()


@pytest.mark.parametrize("module, path", MODULES, ids=[m for m, _ in MODULES])
def test_no_import_goes_up_and_the_engine_never_imports_a_day(module, path):
    source = path.read_text(encoding="utf-8")
    assert problems(module, source, path.name == "__init__.py") == []


def test_every_module_has_a_layer():
    assert [m for m, _ in MODULES if layer_of(m) is None] == []


# --- the checker can fail -------------------------------------------------------------------


def test_the_checker_catches_an_import_that_goes_up():
    source = "from miniagent_course.mine import check\n"
    assert problems("miniagent_course.grading.plugin", source) == [
        "miniagent_course.grading.plugin:1 (layer 1) imports miniagent_course.mine.check (layer 2)"
    ]
    relative = "def summary():\n    from .. import mine\n"  # nested, and relative
    assert problems("miniagent_course.grading.plugin", relative) == [
        "miniagent_course.grading.plugin:2 (layer 1) imports miniagent_course.mine (layer 2)"
    ]
    assert problems("miniagent_course.text", "import miniagent_course.cli\n")


def test_the_checker_catches_the_engine_importing_a_day():
    nested = "def check_loop():\n    from miniagent_course.kits.day03.cases import LOOP_SCRIPTS\n"
    assert problems("miniagent_course.mine.loop", nested) == [
        "miniagent_course.mine.loop:2 imports the day miniagent_course.kits.day03.cases.LOOP_SCRIPTS"
        " (the engine never imports a day)"
    ]
    spelled = 'LOOP = import_target("miniagent_course.kits.day03.cases:run_loop")\n'
    assert problems("miniagent_course.cli", spelled)  # even the top of the engine
    assert problems("miniagent_course.site.diagrams", "import miniagent_course.kits.day03.cases\n")


def test_the_checker_catches_a_computed_module_name():
    for call in (
        'importlib.import_module(f"miniagent_course.kits.{day}.cases")',
        'import_module("miniagent_course.kits." + day + ".cases")',
        '__import__("miniagent_course.kits.%s" % day)',
        'import_target("{}.cases:RECORDING".format(kit))',
        'import_target(f"miniagent_course.kits.{day}.cases:RECORDING")',
        'import_target(f"{kit}.cases:RECORDING")',
    ):
        source = f"def find(day, kit):\n    return {call}\n"
        assert problems("miniagent_course.mine", source) == [
            "miniagent_course.mine:2 computes the name of a module to import"
        ], call


def test_the_checker_catches_a_day_importing_another_day():
    source = "from miniagent_course.kits.day12.cases import client_view\n"
    assert problems("miniagent_course.kits.day13.cases", source)


def test_the_checker_lets_through_what_the_layers_allow():
    allowed = {
        "miniagent_course.kits.day03.cases": "from miniagent_course.grading.recording import x\n",
        "miniagent_course.mine.plugin": "from miniagent_course.grading.report import WIDTH\n",
        "miniagent_course.site.fences": "import miniagent_course.mine\n",  # the same layer
        "miniagent_course.grading.course": "import importlib\nimportlib.import_module(module)\n",
        "miniagent_course.cli": "import_target(f\"{module}:{qualname.split('.')[0]}\")\n",
        "miniagent_course.grading.recording": (
            'if __name__ == "__main__":\n    from miniagent_course.mine import RECORDING\n'
        ),
    }
    for module, source in allowed.items():
        assert problems(module, source) == [], module
    main_block_day = 'if __name__ == "__main__":\n    import miniagent_course.kits.day03.cases\n'
    assert problems("miniagent_course.grading.recording", main_block_day)  # still not a day
