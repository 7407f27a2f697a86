"""Fixtures for the proofs that the grading machinery is right.

* ``workspace``: a copy of the course in a temporary folder whose exercise files are the pristine
  stubs (your own work in ``exercises/`` is never touched or used);
* ``toy_course``: a two-exercise course built from scratch, to test the machinery itself
  (syntax errors, endless loops, the CLI) without the real package;
* ``solved_source``: an exercise file with the reference solution written into the stub.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import os
import shutil
import sys
import textwrap
import types
from pathlib import Path

import pytest

from miniagent_course.grading.course import (
    Course,
    Exercise,
    import_target,
    load_course,
    pristine_stub,
)

REPO = Path(__file__).resolve().parents[3]
COPIED = [
    "course.toml",
    "pyproject.toml",
    "tests/course/sanity",
    "src/miniagent_course/kits",
    "course/days",
    "notebooks",
]
KILLS = "mutant kill rate"  # the user property each day's mutant proof records (tests/conftest.py)


@pytest.fixture(autouse=True)
def _clean_pytest_env(monkeypatch):
    """Nested pytest runs must not inherit options meant for this run."""
    monkeypatch.delenv("PYTEST_ADDOPTS", raising=False)


@pytest.fixture(scope="session")
def course() -> Course:
    return load_course(REPO)


def pristine_source(course: Course, exercise: Exercise) -> str:
    """The exercise file as shipped: its kit's ``stub.py`` (never your own work in
    ``exercises/``)."""
    return pristine_stub(course, exercise)


def _copy(names: list[str], destination: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in names:
        source, target = REPO / name, destination / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, ignore=ignore)
        elif source.exists():
            shutil.copy2(source, target)


def stub_copy(root: Path, course: Course) -> Course:
    """A copy of the course in ``root`` whose exercise files are the pristine stubs."""
    _copy(COPIED, root)
    for exercise in course.exercises:
        target = root / exercise.file
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(pristine_source(course, exercise), encoding="utf-8")
    return load_course(root)


@pytest.fixture(scope="session")
def workspace(tmp_path_factory, course) -> Course:
    """A temporary copy of the course with pristine stubs in exercises/."""
    return stub_copy(tmp_path_factory.mktemp("workspace"), course)


def _free_names(source: str) -> set[str]:
    return {
        node.id
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
    }


def _defined_names(tree: ast.Module) -> set[str]:
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def solved_source(exercise: Exercise, stub: str) -> str:
    """The stub with each graded function replaced by the reference's own source.

    Names the reference function uses from its module (helpers, type aliases) are imported from
    that module, just above the first function.
    """
    tree = ast.parse(stub)
    lines = stub.splitlines(keepends=True)
    known = _defined_names(tree) | set(dir(builtins))
    imports: set[str] = set()
    defs = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    for function in sorted(exercise.functions, key=lambda f: -defs[f.name].lineno):
        node = defs[function.name]
        reference = import_target(function.reference)
        source = textwrap.dedent(inspect.getsource(reference)).rstrip("\n") + "\n"
        if reference.__name__ != function.name:  # a method graded under its own name (Day 04)
            source = source.replace(f"def {reference.__name__}(", f"def {function.name}(", 1)
        module = sys.modules[reference.__module__]
        for name in _free_names(source) - known:
            if name in vars(module):
                imports.add(f"from {_importable_name(module)} import {name}\n")
        start = min([node.lineno] + [d.lineno for d in node.decorator_list]) - 1
        lines[start : node.end_lineno] = [source]
    first_def = min(n.lineno for n in defs.values()) - 1
    lines[first_def:first_def] = [*sorted(imports), "\n"] if imports else []
    solved = "".join(lines)
    judgment = exercise.judgment
    if judgment is not None and judgment.kind == "grader":  # part 2: the reference's own tests
        solved = _with_reference_tests(solved, (REPO / judgment.reference).read_text("utf-8"))
    return solved


def _importable_name(module: types.ModuleType) -> str:
    """The name a solved file imports ``module`` by. A kit's ``instructor/answers.py`` is run from
    its file by the engine (no importable name), so it is imported from the installed package,
    where its folders make it ``miniagent_course.kits.<day>.instructor.answers``."""
    if module.__spec__ is not None:
        return module.__name__
    parts = Path(module.__file__).with_suffix("").parts
    return ".".join(parts[len(parts) - 1 - parts[::-1].index("miniagent_course") :])


def _with_reference_tests(source: str, tests: str) -> str:
    """``source`` with its stub ``test_*`` functions replaced by the reference's tests."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    stubs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]
    for node in sorted(stubs, key=lambda n: -n.lineno):
        del lines[node.lineno - 1 : node.end_lineno]
    body = ast.parse(tests).body
    start = body[1].lineno - 1 if body and isinstance(body[0], ast.Expr) else 0  # no docstring
    return "".join(lines).rstrip("\n") + "\n\n\n" + "".join(tests.splitlines(True)[start:])


# --- a toy course, to test the machinery on its own ----------------------------------------

TOY_COURSE = 'kits = "kits"\n'

TOY_KITS = {
    "day01": """title = "Double a number"
lesson = "course/days/day01.md"
notebook = "notebooks/day01.ipynb"
file = "exercises/day01_double.py"
hints = ["What is x + x?", "Or 2 * x?", "Return it."]

[[functions]]
name = "double"
reference = "toyref:double"
upstream = "toyref:double"
""",
    "day02": """title = "Add one"
lesson = "course/days/day02.md"
notebook = "notebooks/day02.ipynb"
file = "exercises/day02_inc.py"
hints = ["Plus what?", "Plus one."]

[[functions]]
name = "inc"
reference = "toyref:inc"
upstream = "toyref:inc"
""",
}

TOY_MUTANTS = {
    "plus_two.patch": """why: adds two: right for 2, wrong for 0
function: double
--- toyref:double
+++ mutant plus_two
@@ -2 +2 @@
-    return 2 * x
+    return x + 2
""",
    "triple.py": "# why: triples\n# function: double\n"
    "# whole_file_because: the toy course shows a whole-file mutant as well\n"
    "def double(x):\n    return 3 * x\n",
}

TOY_STUB = '''"""Toy exercise."""

from miniagent_course.todo import NotStarted


def {name}(x: int) -> int:
    """Spec."""
    # TODO({day}): your code
    raise NotStarted("{day}")
'''

TOY_GRADERS = {
    "day01": "def test_double_two(impl):\n    assert impl.double(2) == 4\n\n\n"
    "def test_double_zero(impl):\n    assert impl.double(0) == 0\n",
    "day02": "def test_inc(impl):\n    assert impl.inc(1) == 2\n",
}


def toy_grader(course: Course, file: str) -> Path:
    """The toy course's grader of ``file`` (``day01_double``): ``kits/day01/graders/...``."""
    return course.root / "kits" / file[:5] / "graders" / f"test_{file}.py"


@pytest.fixture
def toy_course(tmp_path, monkeypatch) -> Course:
    """Two day kits (day01 ``double``, day02 ``inc``) with stubs, graders and two mutants
    (``day01_plus_two``, a patch; ``day01_triple``, a whole file)."""
    root = tmp_path / "toy"
    (root / "exercises").mkdir(parents=True)
    (root / "ref").mkdir()
    (root / "course.toml").write_text(TOY_COURSE, encoding="utf-8")
    (root / "ref" / "toyref.py").write_text(
        "def double(x):\n    return 2 * x\n\n\ndef inc(x):\n    return x + 1\n", encoding="utf-8"
    )
    for day, name, file in [("day01", "double", "day01_double"), ("day02", "inc", "day02_inc")]:
        kit = root / "kits" / day
        (kit / "graders").mkdir(parents=True)
        (kit / "kit.toml").write_text(TOY_KITS[day], encoding="utf-8")
        stub = TOY_STUB.format(name=name, day=day)
        (kit / "stub.py").write_text(stub, encoding="utf-8")
        (root / "exercises" / f"{file}.py").write_text(stub, encoding="utf-8")
        (kit / "graders" / f"test_{file}.py").write_text(TOY_GRADERS[day], encoding="utf-8")
    mutants = root / "kits" / "day01" / "instructor" / "mutants"
    mutants.mkdir(parents=True)
    for name, text in TOY_MUTANTS.items():
        (mutants / name).write_text(text, encoding="utf-8")
    path = os.pathsep.join([str(root / "ref"), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    monkeypatch.setenv("PYTHONPATH", path)
    monkeypatch.syspath_prepend(str(root / "ref"))
    return load_course(root)
