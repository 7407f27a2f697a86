"""What a learner is shown, tried as the answer to a day's Think part (``test_think_unprinted.py``).

A day's Think part (kit.toml's ``[judgment]``: ``predict``, ``read``, ``spot``, ``repair``,
``grader`` or ``extend``) must be work whose answer the course does not print. This module takes
every code block a learner is shown for
a day -- the day's page as the site renders it (its ``upstream`` and ``mini`` fences and
``--8<--`` includes expanded by the site's own Markdown configuration), every code cell of its
notebook (and code fences in its Markdown cells), and its stub (the file, its docstrings'
``>>>`` examples and the code in its comments) -- and tries each as the learner's Think answer,
in an exercise whose Rebuild part is the reference, graded by the day's judgment graders only:

* **as written**: the stub's header (its imports and constants: the learner's file) plus the
  block, when the block binds a Think name (``predictions``, ``choose_model``...) or, for a
  "be the grader" day, defines ``test_*`` functions;
* **renamed**: every function the block defines, at any depth (decorators dropped), under each
  graded Think name, as it is and **mapped by keyword** (a wrapper with the reference's
  signature that hands the candidate the arguments of the same name, the rest in order);
* a predict day: every dict the block builds (a literal or a comprehension, anywhere in it, and
  every dict it binds to a name) as the table ``predictions()`` returns, and a JSON block's; and
  every function of a notebook's side (a parameter ``lib`` or ``L``, as ``lab.on_both`` calls
  it, the others with defaults) called with miniagent's side, as ``predictions()``;
* a "be the grader" day: the block's functions as ``test_*`` functions of the function under
  test (one argument: the function; the graded name and ``impl`` in their globals are the
  function under test), those that fail on the correct function dropped (as a learner would),
  and the whole block as the body of one test.

The page is rendered in-process with ``mkdocs.yml``'s Markdown extensions and the site's fences
(:func:`render_page`): the code blocks of a ``mkdocs build`` page are the same, text for text (the
build adds the theme around them; its hooks change no ``<pre>``). ``text`` blocks (outputs,
drawings) are tried too when they read as Python.

Names a block uses and nobody defines are imported from ``miniagent`` when a module there has
them (the imports a learner would add). A notebook cell sees the definitions of the cells before
it (imports, functions, classes, names bound); a page block sees only the stub's header. Code
runs with ``from __future__ import annotations`` (an annotation never stops a definition), its
statements one by one (one that fails is skipped), its output swallowed, in a scratch folder,
with ``miniagent_course.lab.yours`` answering "not ready" (a notebook never reads the learner's
file here, nor the reference in its place).

The judgment graders are found, not listed: the tests the engine writes for the kind
(``judgment_graders``, in ``grading/judgments.py`` and ``judge.py``) and every test of the
day's grader file that reads a Think function (``impl.<name>``, directly or through a helper of
that file). They are called in-process with ``impl`` (the reference's Rebuild, the candidate's
Think), their ``parametrize`` marks expanded, ``monkeypatch`` and ``record_property`` given; a
candidate stops at its first failing test.
"""

from __future__ import annotations
import __future__

import ast
import builtins
import contextlib
import functools
import html
import importlib
import importlib.util
import inspect
import io
import itertools
import json
import pkgutil
import re
import sys
import textwrap
import types
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from miniagent_course.grading.course import (
    Course,
    Exercise,
    Implementation,
    import_target,
)
from miniagent_course.grading.timeout import GraderTimeout, call_with_timeout
from miniagent_course.todo import NotStarted

ROOT = Path(__file__).resolve().parents[3]
ENGINE = ROOT / "src" / "miniagent_course" / "grading"
FUTURE = __future__.annotations.compiler_flag
SECONDS = 5.0  # one candidate's grading: far above a right answer's (a table: < 1 s)
KINDS = ("predict", "read", "spot", "repair", "grader", "extend")  # the kinds it can answer
TABLES = ("predict", "read", "spot")  # kinds whose answer is a dict the Think function returns


# --- what a learner is shown ------------------------------------------------------------------


@dataclass(frozen=True)
class Block:
    """One code block a learner is shown: where (file and place), its language and its text."""

    where: str  # "course/days/day08-call-model.md, code block 3 (python)"
    code: str
    language: str = "python"  # "python", "json" or "text" (tried as Python if it reads as such)
    context: str = ""  # a block sees the definitions of the blocks before it of its context


@functools.cache
def _markdown_setup(root: Path) -> tuple[list[Any], dict[str, Any]]:
    """The Markdown extensions and their settings, as ``mkdocs.yml`` lists them."""
    import yaml

    class Loader(yaml.UnsafeLoader):  # `!!python/name:` and mkdocs' `!relative`
        pass

    Loader.add_constructor("!relative", lambda loader, node: str(root))
    config = yaml.load((root / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)
    names: list[Any] = []
    settings: dict[str, Any] = {}
    for entry in config["markdown_extensions"]:
        if isinstance(entry, dict):
            ((name, options),) = entry.items()
            names.append(name)
            settings[name] = options or {}
        else:
            names.append(entry)
    return names, settings


def render_page(text: str, page: str, root: Path = ROOT) -> str:
    """The HTML of a page's content, as the site renders it: the same Markdown extensions and
    the site's own fences (``upstream``, ``mini``, ``exercise``...), snippets from ``root``."""
    import markdown

    from miniagent_course.site import fences

    names, settings = _markdown_setup(root)
    fences.STATE.project_dir = root
    fences.STATE.page = page
    fences.STATE.lang = None
    return markdown.Markdown(extensions=names, extension_configs=settings).convert(text)


_CODE_BLOCK = re.compile(
    r'<div class="language-([\w+-]+)\b[^"]*\bhighlight\b[^"]*"[^>]*>(.*?)</code></pre>', re.S
)
# a `text` block is an output or a drawing; one that reads as Python is tried as Python too
_LANGUAGES = {"python": "python", "py": "python", "pycon": "python", "json": "json", "text": "text"}


def html_code_blocks(page_html: str) -> list[tuple[str, str]]:
    """``(language, text)`` of every highlighted code block of a rendered page, without its line
    numbers (a numbered block keeps its code in the last ``<code>``)."""
    found = []
    for match in _CODE_BLOCK.finditer(page_html):
        language, body = match.groups()
        code = body[body.rfind("<code") :]
        code = re.sub(r"^<code[^>]*>", "", code)
        found.append((language, html.unescape(re.sub(r"<[^>]+>", "", code))))
    return found


def page_blocks(exercise: Exercise, root: Path = ROOT, text: str | None = None) -> list[Block]:
    """The Python and JSON blocks of the day's page as the site renders it (``text``: the page's
    Markdown, read from ``exercise.lesson`` when not given)."""
    page = exercise.lesson
    source = (root / page).read_text(encoding="utf-8") if text is None else text
    blocks = []
    for number, (language, code) in enumerate(html_code_blocks(render_page(source, page, root)), 1):
        kind = _LANGUAGES.get(language)
        if kind is not None:
            where = f"{page}, code block {number} ({language})"
            blocks.append(Block(where, without_prompts(code), kind))
    return blocks


_FENCE = re.compile(r"^```+\s*(\w+)?[^\n]*\n(.*?)^```+\s*$", re.S | re.M)


def notebook_blocks(exercise: Exercise, root: Path = ROOT) -> list[Block]:
    """Every code cell of the day's notebook, and the Python or JSON fences of its Markdown
    cells; the cells are one context, in order."""
    notebook = exercise.notebook
    cells = json.loads((root / notebook).read_text(encoding="utf-8"))["cells"]
    blocks = []
    for number, cell in enumerate(cells, 1):
        source = "".join(cell.get("source", []))
        if cell.get("cell_type") == "code":
            code = "\n".join(line for line in source.splitlines() if not _magic(line))
            where = f"{notebook}, cell {number} (code)"
            blocks.append(Block(where, code, "python", notebook))
        elif cell.get("cell_type") == "markdown":
            for fence in _FENCE.finditer(source):
                kind = _LANGUAGES.get((fence.group(1) or "").lower())
                if kind is not None:
                    where = f"{notebook}, cell {number} (a fence in Markdown)"
                    blocks.append(Block(where, without_prompts(fence.group(2)), kind))
    return blocks


def _magic(line: str) -> bool:
    return line.lstrip().startswith(("%", "!"))


def stub_blocks(exercise: Exercise, root: Path = ROOT) -> list[Block]:
    """The stub as a whole, the ``>>>`` examples of its docstrings, and the code in its comments
    (a run of comment lines indented four spaces past the ``#``)."""
    path = f"{exercise.kit}/stub.py"
    source = (root / path).read_text(encoding="utf-8")
    blocks = [Block(f"{path} (the whole stub)", source)]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            doc = ast.get_docstring(node)
            if doc and ">>>" in doc:
                name = getattr(node, "name", "the module")
                blocks.append(Block(f"{path}, the examples in {name}'s docstring", prompts(doc)))
    commented: list[str] = []
    for line in [*source.splitlines(), ""]:
        body = line.strip()
        if body.startswith("#     "):
            commented.append(body[6:])
            continue
        if commented:
            blocks.append(
                Block(f"{path}, code in a comment ({commented[0][:40]})", "\n".join(commented))
            )
            commented = []
    return blocks


def prompts(text: str) -> str:
    """The statements of a ``>>>`` session (its prompts' code, without the printed results)."""
    lines = []
    for line in textwrap.dedent(text).splitlines():
        stripped = line.strip()
        if stripped.startswith(">>> ") or stripped == ">>>":
            lines.append(stripped[4:])
        elif stripped.startswith("... ") or stripped == "...":
            lines.append(stripped[4:])
    return "\n".join(lines)


def without_prompts(code: str) -> str:
    """A ``pycon`` block as code; any other block unchanged."""
    return prompts(code) if re.search(r"^\s*>>> ", code, re.M) else code


def shown_blocks(exercise: Exercise, root: Path = ROOT) -> list[Block]:
    """Everything of the day a learner reads as code: page, notebook, stub, and on a *read
    alone* day the upstream function it names, from the installed package."""
    return [
        *page_blocks(exercise, root),
        *notebook_blocks(exercise, root),
        *stub_blocks(exercise, root),
        *read_blocks(exercise),
    ]


def read_blocks(exercise: Exercise) -> list[Block]:
    """The source of the upstream function a *read alone* day names (``[judgment] read``)."""
    judgment = exercise.judgment
    if judgment is None or not judgment.read:
        return []
    target = import_target(judgment.read)
    source = textwrap.dedent(inspect.getsource(target))
    return [Block(f"{judgment.read} (installed package, read alone)", source)]


# --- the Think part ---------------------------------------------------------------------------


Test = Callable[..., Any]


@dataclass
class ThinkPart:
    """A day's Think part: its kind, the functions a learner writes for it, its graders."""

    course: Course
    exercise: Exercise
    kind: str
    names: tuple[str, ...]  # the Think functions ("predictions"; "choose_model"; a grader: ())
    tests: list[tuple[str, Test]]  # the judgment graders, the cheapest first
    references: dict[str, Callable[..., Any]] = field(repr=False)  # every graded function

    def grade(self, answer: dict[str, Any]) -> str | None:
        """``None`` when ``answer`` passes every judgment grader, else the first failure.

        ``answer`` maps Think names to functions; for a "be the grader" day, it is the test
        functions (``test_*``) of the learner's file.
        """
        functions = dict(self.references)
        tests_module = None
        if self.kind == "grader":
            tests_module = types.ModuleType(f"_think_tests_{self.exercise.id}")
            for name, test in answer.items():
                setattr(tests_module, name, test)
        else:
            functions.update(answer)
        impl = Implementation(
            "solution", "think", self.exercise, functions, self.course, tests_module
        )
        for name, test in self.tests:
            for arguments in parametrized(test):
                failure = _run_test(test, impl, arguments)
                if failure is not None:
                    return f"{name}: {failure}"
        return None


def think_part(course: Course, exercise: Exercise) -> ThinkPart:
    """The day's Think part, its graders found in its grader files."""
    judgment = exercise.judgment
    assert judgment is not None, f"{exercise.id}: no [judgment] in kit.toml"
    if judgment.kind not in KINDS:
        raise NotImplementedError(
            f"{exercise.id}: the judgment kind {judgment.kind!r} is new to test_think_unprinted.py:"
            " teach think_answers.py how a learner answers it (KINDS, candidates)"
        )
    graded = [f.name for f in exercise.functions]
    if judgment.kind in TABLES or judgment.kind == "repair":
        names: tuple[str, ...] = (judgment.function,)
    elif judgment.kind == "grader":
        names = ()
    else:  # extend: the graded functions that do not join the learner's agent
        names = tuple(name for name in graded if name not in exercise.mine)
    references = {f.name: import_target(f.reference) for f in exercise.functions}
    tests: list[tuple[str, Test]] = []
    for path in course.grader_files(exercise):
        tests += judgment_tests(path, exercise, names)
    assert tests, f"{exercise.id}: no judgment grader found in {exercise.kit}/graders"
    engine = [t for t in tests if _written_by_engine(t[1])]  # the table before its rows
    return ThinkPart(
        course,
        exercise,
        judgment.kind,
        names,
        engine + [t for t in tests if t not in engine],
        references,
    )


def _written_by_engine(test: Test) -> bool:
    code = getattr(test, "__code__", None)
    return code is not None and Path(code.co_filename).resolve().parent == ENGINE.resolve()


def judgment_tests(
    path: Path, exercise: Exercise, names: tuple[str, ...]
) -> list[tuple[str, Test]]:
    """The tests of one grader file that grade the Think part, in file order: those the engine
    wrote for the kind, and those that read ``impl.<a Think name>`` (through helpers too)."""
    module = _grader_module(path)
    source = path.read_text(encoding="utf-8")
    reads = _reads(ast.parse(source))
    found = []
    for name, value in vars(module).items():
        if not (name.startswith("test_") and callable(value)):
            continue
        if _written_by_engine(value) or reads.get(name, set()) & set(names):
            found.append((name, value))
    return found


@functools.cache
def _grader_module(path: Path) -> types.ModuleType:
    """A grader file, imported under a name of its own (pytest imports it by its basename)."""
    name = f"_think_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _reads(tree: ast.Module) -> dict[str, set[str]]:
    """Module-level name -> the ``impl.<attr>`` names it reads, itself or through the module's
    other functions and classes that it names."""
    direct: dict[str, set[str]] = {}
    calls: dict[str, set[str]] = {}
    for node in tree.body:
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        attrs, names = set(), set()
        for inner in ast.walk(node):
            if isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Name):
                if inner.value.id == "impl":
                    attrs.add(inner.attr)
            if isinstance(inner, ast.Name):
                names.add(inner.id)
        direct[node.name] = attrs
        calls[node.name] = names
    closed: dict[str, set[str]] = {}
    for name in direct:
        seen, todo, attrs = {name}, [name], set()
        while todo:
            current = todo.pop()
            attrs |= direct[current]
            for other in calls[current] & direct.keys():
                if other not in seen:
                    seen.add(other)
                    todo.append(other)
        closed[name] = attrs
    return closed


def parametrized(test: Test) -> list[dict[str, Any]]:
    """The arguments of each case of ``test``'s ``parametrize`` marks (one empty case if none)."""
    axes = []
    for mark in getattr(test, "pytestmark", []):
        if mark.name != "parametrize":
            continue
        argnames, argvalues = mark.args[0], mark.args[1]
        if isinstance(argnames, str):
            names = [n.strip() for n in argnames.split(",") if n.strip()]
        else:
            names = list(argnames)
        cases = []
        for value in argvalues:
            if isinstance(value, _PARAMETER_SET):
                values = tuple(value.values)
            elif len(names) == 1:
                values = (value,)
            else:
                values = tuple(value)
            cases.append(dict(zip(names, values, strict=True)))
        axes.append(cases)
    combos = itertools.product(*axes)
    return [{k: v for case in combo for k, v in case.items()} for combo in combos] or [{}]


_PARAMETER_SET = type(pytest.param())


def _run_test(test: Test, impl: Implementation, arguments: dict[str, Any]) -> str | None:
    """Run one grader case: ``None`` if it passes, else why not (one line)."""
    parameters = inspect.signature(test).parameters
    patch = pytest.MonkeyPatch()
    given = dict(arguments)
    for name in parameters:
        if name in given:
            continue
        if name == "impl":
            given[name] = impl
        elif name == "monkeypatch":
            given[name] = patch
        elif name == "record_property":
            given[name] = lambda key, value: None
        else:
            raise NotImplementedError(f"{test.__name__} asks for the fixture {name!r}")
    try:
        with quiet():
            call_with_timeout(test, given, SECONDS)
    except GraderTimeout:
        return f"ran past {SECONDS} s"
    except (Exception, pytest.fail.Exception, pytest.skip.Exception) as error:
        lines = str(error).strip().splitlines()
        return f"{type(error).__name__}: {lines[0] if lines else ''}"[:200]
    finally:
        patch.undo()
    return None


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """No output, no warnings."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            yield


# --- the learner's file: a namespace built statement by statement ------------------------------


@functools.cache
def miniagent_names() -> dict[str, tuple[str, str]]:
    """Every name a ``miniagent`` module holds -> ``(module, name)`` to import it from: the
    shallowest module that has it (``miniagent.messages``, not ``miniagent.messages.ai``)."""
    import miniagent

    found: dict[str, tuple[str, str]] = {}
    modules = [m.name for m in pkgutil.walk_packages(miniagent.__path__, "miniagent.")]
    for module_name in sorted(["miniagent", *modules], key=lambda m: (m.count("."), m)):
        for name in vars(importlib.import_module(module_name)):
            if not name.startswith("__"):
                found.setdefault(name, (module_name, name))
    return found


class Scratch:
    """Fresh modules for the code tried, registered in ``sys.modules`` (pydantic and
    dataclasses look a class's module up there) until :meth:`close`."""

    def __init__(self, day: str) -> None:
        self.day = day
        self.names: list[str] = []

    def module(self, base: dict[str, Any] | None = None) -> dict[str, Any]:
        name = f"_think_{self.day}_{len(self.names)}"
        module = types.ModuleType(name)
        if base:
            module.__dict__.update({k: v for k, v in base.items() if not k.startswith("__")})
        sys.modules[name] = module
        self.names.append(name)
        return module.__dict__

    def close(self) -> None:
        for name in self.names:
            sys.modules.pop(name, None)
        self.names.clear()


def parse(code: str) -> ast.Module | None:
    """The block as Python (dedented if it must be), or None."""
    for text in (code, textwrap.dedent(code)):
        try:
            return ast.parse(text)
        except SyntaxError:
            continue
    return None


def run_each(statements: list[ast.stmt], namespace: dict[str, Any], where: str) -> None:
    """Run the statements one by one in ``namespace``; one that fails is skipped."""
    for statement in statements:
        if isinstance(statement, ast.ImportFrom) and statement.module == "__future__":
            continue
        try:
            code = compile(
                ast.Module([statement], []), where, "exec", flags=FUTURE, dont_inherit=True
            )
            with quiet():
                exec(code, namespace)
        except (Exception, SystemExit, pytest.fail.Exception, pytest.skip.Exception):
            continue


def add_imports(tree: ast.AST, namespace: dict[str, Any]) -> None:
    """Import from ``miniagent`` every name the code reads that the namespace lacks."""
    known = miniagent_names()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id not in namespace and node.id in known:
            if hasattr(builtins, node.id):
                continue
            module, name = known[node.id]
            namespace[node.id] = getattr(importlib.import_module(module), name)


def definitions(statements: list[ast.stmt]) -> list[ast.stmt]:
    """What defines names: imports, functions, classes, and assignments to plain names."""
    kept = []
    for statement in statements:
        if isinstance(
            statement,
            (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef),
        ):
            kept.append(statement)
        elif isinstance(statement, ast.Assign) and all(_plain(t) for t in statement.targets):
            kept.append(statement)
        elif (
            isinstance(statement, ast.AnnAssign)
            and statement.value is not None
            and _plain(statement.target)
        ):
            kept.append(statement)
    return kept


def _plain(target: ast.expr) -> bool:
    if isinstance(target, ast.Name):
        return True
    return isinstance(target, (ast.Tuple, ast.List)) and all(_plain(t) for t in target.elts)


def bound_names(statements: list[ast.stmt]) -> set[str]:
    """The names the statements bind at the top level."""
    names: set[str] = set()
    for statement in statements:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(statement.name)
        elif isinstance(statement, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).partition(".")[0] for a in statement.names}
        elif isinstance(statement, (ast.Assign, ast.AnnAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            for target in targets:
                names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
    return names


def stub_header(exercise: Exercise, root: Path = ROOT) -> list[ast.stmt]:
    """The stub without its functions: its imports and constants (the learner's file)."""
    tree = ast.parse((root / exercise.kit / "stub.py").read_text(encoding="utf-8"))
    return [s for s in tree.body if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))]


# --- adaptations ------------------------------------------------------------------------------


def keyword_mapped(
    candidate: Callable[..., Any], reference: Callable[..., Any]
) -> Callable[..., Any] | None:
    """``candidate`` behind the reference's signature: each argument goes to the candidate's
    parameter of the same name; the candidate's other required parameters get the arguments
    left over, in order. None when either signature cannot be read, or they already agree."""
    try:
        wanted = inspect.signature(reference)
        given = inspect.signature(candidate)
    except (TypeError, ValueError):
        return None
    if list(wanted.parameters) == list(given.parameters) or not wanted.parameters:
        return None

    def mapped(*args: Any, **kwargs: Any) -> Any:
        bound = wanted.bind(*args, **kwargs)
        bound.apply_defaults()
        values = dict(bound.arguments)
        left = [v for k, v in values.items() if k not in given.parameters]
        positional, keywords = [], {}
        for parameter in given.parameters.values():
            if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
                continue
            if parameter.name in values:
                value = values[parameter.name]
            elif parameter.default is not parameter.empty or not left:
                continue
            else:
                value = left.pop(0)
            if parameter.kind is parameter.POSITIONAL_ONLY:
                positional.append(value)
            else:
                keywords[parameter.name] = value
        return candidate(*positional, **keywords)

    mapped.__signature__ = wanted  # type: ignore[attr-defined]
    mapped.__name__ = mapped.__qualname__ = getattr(reference, "__name__", "mapped")
    return mapped


def as_test(function: Callable[..., Any], graded: str) -> Callable[[Any], Any]:
    """A block's function as a test of the function under test: it gets that function (or an
    ``impl`` holding it) if it takes one argument, and its globals name it ``graded``."""

    def test(under_test: Any) -> Any:
        impl = types.SimpleNamespace(**{graded: under_test})
        scope = dict(function.__globals__, **{graded: under_test, "impl": impl})
        rebound = types.FunctionType(
            function.__code__, scope, function.__name__, function.__defaults__, function.__closure__
        )
        required = [
            p
            for p in inspect.signature(function).parameters.values()
            if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
        if not required:
            return rebound()
        if len(required) == 1:
            return rebound(impl if required[0].name == "impl" else under_test)
        raise TypeError(f"{function.__name__} takes {len(required)} arguments")

    test.__name__ = f"test_{function.__name__.lstrip('_')}"
    return test


def block_as_test(code: Any, base: dict[str, Any], graded: str) -> Callable[[Any], Any]:
    """The whole block as the body of one test; its names bind the function under test."""

    def test(under_test: Any) -> None:
        scope = dict(
            base, **{graded: under_test, "impl": types.SimpleNamespace(**{graded: under_test})}
        )
        exec(code, scope)

    test.__name__ = "test_the_block"
    return test


@dataclass(frozen=True)
class Leak:
    """A block that passes the Think part."""

    day: str
    where: str
    how: str  # "as written", "function `x` as `predictions`, mapped by keyword", ...
    first_line: str

    def __str__(self) -> str:
        return f"{self.day}: {self.where} [{self.first_line}] passes the Think part {self.how}"


@dataclass
class Harvest:
    """What was tried for one day: the leaks found, and how much was tried."""

    day: str
    leaks: list[Leak] = field(default_factory=list)
    blocks: int = 0
    unparsed: list[str] = field(default_factory=list)  # blocks that are not Python
    candidates: int = 0


def _functions(tree: ast.Module) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def _define(
    node: ast.FunctionDef | ast.AsyncFunctionDef, namespace: dict[str, Any], where: str
) -> Any:
    """The function ``node`` defines (decorators dropped), defined in ``namespace``, or None."""
    bare = ast.fix_missing_locations(
        type(node)(**{**{f: getattr(node, f) for f in node._fields}, "decorator_list": []})
    )
    scratch: dict[str, Any] = {}
    try:
        code = compile(ast.Module([bare], []), where, "exec", flags=FUTURE, dont_inherit=True)
        with quiet():
            exec(code, namespace, scratch)
    except (Exception, SystemExit):
        return None
    return scratch.get(node.name)


def _no_graded_import(statements: list[ast.stmt], graded: str) -> list[ast.stmt]:
    """The statements without the imports that would bind the graded name (the real one)."""
    kept = []
    for statement in statements:
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            names = [a for a in statement.names if (a.asname or a.name) != graded]
            if not names:
                continue
            if isinstance(statement, ast.ImportFrom) and statement.module == "__future__":
                continue
            fields = {f: getattr(statement, f) for f in statement._fields}
            statement = ast.copy_location(type(statement)(**{**fields, "names": names}), statement)
        kept.append(statement)
    return kept


# --- trying every block -----------------------------------------------------------------------


@contextlib.contextmanager
def sandboxed(folder: Path) -> Iterator[None]:
    """Code tried runs in ``folder``, and a notebook's ``yours(day)`` answers "not ready"."""
    import miniagent_course.lab as lab
    from miniagent_course.grading import course as course_module

    def not_ready(day: str) -> None:
        return None

    def no_learner(*args: Any, **kwargs: Any) -> Any:
        raise NotStarted("think")

    patch = pytest.MonkeyPatch()
    try:
        patch.chdir(folder)
        patch.setattr(lab, "yours", not_ready)
        patch.setattr(lab, "load_learner", no_learner)
        patch.setattr(course_module, "load_learner", no_learner)
        patch.delenv("MINIAGENT_NOTEBOOK_IMPL", raising=False)
        yield
    finally:
        patch.undo()


def harvest(part: ThinkPart, blocks: list[Block], folder: Path, root: Path = ROOT) -> Harvest:
    """Try every block as the answer to ``part``; the leaks and the counts."""
    day = part.exercise.id
    found = Harvest(day)
    scratch = Scratch(day)
    header = stub_header(part.exercise, root)
    try:
        with sandboxed(folder):
            contexts: dict[str, dict[str, Any]] = {}
            for block in blocks:
                found.blocks += 1
                if block.context:
                    if block.context not in contexts:
                        contexts[block.context] = _namespace(scratch, None, header, "stub header")
                    base = contexts[block.context]
                elif block.where.endswith("(the whole stub)"):
                    base = scratch.module()
                else:
                    base = _namespace(scratch, None, header, "stub header")
                for how, answer in _answers(part, block, base, scratch, found):
                    found.candidates += 1
                    if part.grade(answer) is None:
                        first = next((s.strip() for s in block.code.splitlines() if s.strip()), "")
                        found.leaks.append(Leak(day, block.where, how, first[:60]))
                if block.context:  # the next cells see this one's definitions
                    tree = parse(block.code)
                    if tree is not None:
                        add_imports(tree, base)
                        run_each(definitions(tree.body), base, block.where)
    finally:
        scratch.close()
    return found


def _namespace(
    scratch: Scratch, base: dict[str, Any] | None, statements: list[ast.stmt], where: str
) -> dict[str, Any]:
    namespace = scratch.module(base)
    tree = ast.Module(statements, [])
    add_imports(tree, namespace)
    run_each(statements, namespace, where)
    return namespace


def _answers(
    part: ThinkPart, block: Block, base: dict[str, Any], scratch: Scratch, found: Harvest
) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every answer the block gives, after each adaptation: ``(how, answer)``."""
    if block.language == "json":
        if part.kind in TABLES:
            try:
                value = json.loads(block.code)
            except ValueError:
                found.unparsed.append(block.where)
                return
            if isinstance(value, dict):
                yield "as a JSON table", {part.names[0]: _returning(value)}
        return
    tree = parse(block.code)
    if tree is None:
        if block.language == "python":
            found.unparsed.append(block.where)
        return
    defined = scratch.module(base)
    add_imports(tree, defined)
    run_each(definitions(tree.body), defined, block.where)
    if part.kind == "grader":
        yield from _suites(part, block, tree, defined, scratch)
        return
    binds = bound_names(tree.body)
    if binds & set(part.names):  # as written: the whole block, then what it bound
        written = _namespace(scratch, base, [], block.where)
        add_imports(tree, written)
        run_each(tree.body, written, block.where)
        answer = {n: written[n] for n in part.names if callable(written.get(n))}
        if answer:
            yield "as written", answer
    for node in _functions(tree):
        function = _define(node, defined, block.where)
        if not callable(function):
            continue
        for name in part.names:
            yield f"function `{node.name}` as `{name}`", {name: function}
            mapped = keyword_mapped(function, part.references[name])
            if mapped is not None:
                yield f"function `{node.name}` as `{name}`, mapped by keyword", {name: mapped}
    if part.kind in TABLES:
        for node in _functions(tree):  # a notebook's experiment, on the miniature's side
            sides = _side_parameters(node)
            function = _define(node, defined, block.where) if sides else None
            if callable(function):
                how = f"function `{node.name}` called with miniagent's side as `{part.names[0]}`"
                yield how, {part.names[0]: _on_the_mini_side(function, sides)}
        seen: list[Any] = []
        for label, value in _tables(tree, defined, binds):
            if value not in seen:
                seen.append(value)
                yield label, {part.names[0]: _returning(value)}


SIDES = ("lib", "L")  # how the notebooks name the side an experiment runs on (lab.on_both)


def _side_parameters(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """The parameters naming a side, if every other parameter has a default."""
    arguments = node.args
    positional = [*arguments.posonlyargs, *arguments.args]
    defaulted = {a.arg for a in positional[len(positional) - len(arguments.defaults) :]}
    defaulted |= {
        a.arg for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True) if d
    }
    names = [a.arg for a in [*positional, *arguments.kwonlyargs]]
    sides = [n for n in names if n in SIDES]
    if sides and all(n in SIDES or n in defaulted for n in names):
        return sides
    return []


def _on_the_mini_side(function: Callable[..., Any], sides: list[str]) -> Callable[[], Any]:
    from miniagent_course.lab import MINI

    def predictions() -> Any:
        return function(**dict.fromkeys(sides, MINI))

    return predictions


def _returning(value: Any) -> Callable[[], Any]:
    def predictions() -> Any:
        return value

    return predictions


def _tables(
    tree: ast.Module, namespace: dict[str, Any], binds: set[str]
) -> Iterator[tuple[str, dict]]:
    """Every dict the block builds: each literal or comprehension (evaluated with the block's
    definitions), and each dict it binds to a name."""
    bound = {  # a dict a statement binds to a name is in the namespace already
        id(statement.value) for statement in definitions(tree.body) if hasattr(statement, "value")
    }
    for node in ast.walk(tree):
        if isinstance(node, (ast.Dict, ast.DictComp)) and id(node) not in bound:
            try:
                code = compile(
                    ast.Expression(node), "<table>", "eval", flags=FUTURE, dont_inherit=True
                )
                with quiet():
                    value = eval(code, dict(namespace))
            except (Exception, SystemExit):
                continue
            if isinstance(value, dict) and value:
                yield f"the dict on its line {node.lineno} as the table", value
    for name in sorted(binds):
        value = namespace.get(name)
        if isinstance(value, dict) and value:
            yield f"the dict `{name}` as the table", value


def _suites(
    part: ThinkPart, block: Block, tree: ast.Module, defined: dict[str, Any], scratch: Scratch
) -> Iterator[tuple[str, dict[str, Any]]]:
    """A "be the grader" day: the block's tests, as written, its functions as tests, the block
    as one test; each suite without the tests that fail on the correct function."""
    judgment = part.exercise.judgment
    assert judgment is not None
    graded = judgment.function
    reference = part.references[graded]
    if any(
        n.name.startswith("test_")
        for n in tree.body
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
    ):
        written = scratch.module(defined)
        run_each(tree.body, written, block.where)
        tests = {k: v for k, v in written.items() if k.startswith("test_") and callable(v)}
        suite = _passing(tests, reference)
        if suite:
            yield "as written (its tests that pass on the correct function)", suite
    functions = {}
    for node in _functions(tree):
        # a function that neither takes the function under test nor names it cannot test it
        if not (_required(node) == 1 or _reads_graded(node, graded)):
            continue
        function = _define(node, defined, block.where)
        if callable(function):
            functions[f"test_{len(functions)}_{node.name.lstrip('_')}"] = as_test(function, graded)
    suite = _passing(functions, reference)
    if suite:
        yield "its functions as tests of the function (those that pass on the correct one)", suite
    if not _reads_graded(tree, graded):  # the block does the same whatever function is tested
        return
    body = _no_graded_import(tree.body, graded)
    try:
        code = compile(ast.Module(body, []), block.where, "exec", flags=FUTURE, dont_inherit=True)
    except SyntaxError:  # a `return` outside a function: no body of a test
        return
    whole = {"test_the_block": block_as_test(code, defined, graded)}
    if _passing(whole, reference):
        yield "the whole block as one test", whole


def _required(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """How many positional parameters without a default the function has."""
    positional = [*node.args.posonlyargs, *node.args.args]
    return len(positional) - len(node.args.defaults)


def _reads_graded(tree: ast.AST, graded: str) -> bool:
    """Whether the code reads the graded function's name or ``impl``."""
    return any(
        isinstance(n, ast.Name) and n.id in (graded, "impl") and isinstance(n.ctx, ast.Load)
        for n in ast.walk(tree)
    )


def _passing(tests: dict[str, Any], reference: Callable[..., Any]) -> dict[str, Any]:
    """The tests that pass on the correct function (a learner drops the others)."""
    kept = {}
    for name, test in tests.items():
        try:
            with quiet():
                call_with_timeout(lambda test=test: test(reference), {}, SECONDS)
        except (Exception, GraderTimeout, SystemExit, pytest.fail.Exception, pytest.skip.Exception):
            continue
        kept[name] = test
    return kept
