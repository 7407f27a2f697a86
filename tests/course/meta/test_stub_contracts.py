"""A Rebuild stub states a contract, never the algorithm (issue #22).

The docstring of each graded Rebuild function in a kit's ``stub.py`` says what goes in, what
comes out, which errors with which text, and gives one example; the page shows how. Two rules make
"not the algorithm" checkable:

* **no numbered steps**: no line of the docstring starts a numbered list (``1.``, ``2)``,
  ``(3)``, ``Step 4``);
* **few mirrored statements**: at most :data:`MIRRORED` statements of the function's reference
  body (the miniature's function the page shows, or the course's own reference when it has no
  twin) are written out in the docstring as code: a code span (````x````) mirrors a statement
  when it is one of the statement's expressions (a call, a comparison, an operation, an
  assignment or a return), names compared without their leading underscores and a span that
  starts with ``.`` compared with the method call it ends. Constants and ``raise`` statements do
  not count (an error and its text are part of a contract), nor bare names and attributes (the
  inputs are).

Day 08's docstring before issue #22 spelled out ``call_model`` gate by gate: it mirrored four
statements (``get_model_input_state(state)``, ``resolve_model(state, runtime)``,
``are_more_steps_needed(state, response)``, ``.invoke(model_input, config)``);
``test_the_rules_fail_on_a_recipe`` keeps that docstring as the rule's proof.
"""

from __future__ import annotations

import ast
import doctest
import functools
import inspect
import re
import textwrap
from pathlib import Path

import pytest

from miniagent_course.grading.course import Exercise, import_target, load_course, load_module

from . import source_shapes as shapes

ROOT = Path(__file__).resolve().parents[3]
COURSE = load_course(ROOT, lang="en")
MIRRORED = 2  # statements of the body a contract may write out (an input's call, say)
NUMBERED = re.compile(r"^\s*(?:\(?\d+[.)]|\(\d+\)|step \d+:?)\s+\S", re.I)
SPAN = re.compile(r"``(.+?)``|(?<!`)`([^`\n]+)`(?!`)", re.S)
COUNTED = (ast.Call, ast.Compare, ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.Subscript, ast.IfExp)


def rebuild_functions(exercise: Exercise) -> list[str]:
    """The graded functions of the Rebuild part: all but the Think part's."""
    judgment = exercise.judgment
    names = [f.name for f in exercise.functions]
    if judgment is None or judgment.kind == "grader":
        return names
    if judgment.kind == "extend":  # the Think part: the functions that do not join the agent
        return [n for n in names if n in exercise.mine]
    return [n for n in names if n != judgment.function]


@functools.cache
def _targets() -> dict[tuple[str, str], shapes.Target]:
    """(day, graded function) -> the function its reference stands for (source_shapes)."""
    found = {}
    for target in shapes.graded_targets(ROOT):
        day, _, rest = target.why.removeprefix("graded ").partition(" (")
        found[(day, rest.removesuffix(")"))] = target
    return found


def reference_body(exercise: Exercise, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef:
    """The ``def`` the Rebuild function stands for: the miniature's twin, or the course's own."""
    target = _targets()[(exercise.id, name)]
    if not target.no_twin and shapes.mini_path(target.module).is_file():
        return shapes.functions(shapes.mini_path(target.module))[target.qualname]
    graded = next(f for f in exercise.functions if f.name == name)
    source = textwrap.dedent(inspect.getsource(import_target(graded.reference)))
    return next(
        n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
    )


def stub_docstring(exercise: Exercise, name: str) -> str:
    tree = ast.parse((ROOT / exercise.kit / "stub.py").read_text(encoding="utf-8"))
    node = next(
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == name
    )
    return ast.get_docstring(node) or ""


class _Bare(ast.NodeTransformer):
    """Names without their leading underscores: ``_resolve_model`` reads as ``resolve_model``."""

    def visit_Name(self, node: ast.Name) -> ast.Name:
        return ast.copy_location(ast.Name(node.id.lstrip("_") or node.id, node.ctx), node)

    def visit_Attribute(self, node: ast.Attribute) -> ast.Attribute:
        self.generic_visit(node)
        node.attr = node.attr.lstrip("_") or node.attr
        return node


def _bare(node: ast.AST) -> str:
    return ast.unparse(_Bare().visit(ast.parse(ast.unparse(node))))


def _method_tail(node: ast.AST) -> str | None:
    """``x.invoke(a, b)`` -> ``.invoke(a, b)``: how a span that starts with ``.`` reads."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        call = ast.Call(
            ast.Attribute(ast.Name("_", ast.Load()), node.func.attr, ast.Load()),
            node.args,
            node.keywords,
        )
        return _bare(call).removeprefix("_")
    return None


def statement_forms(body: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, int]:
    """Each counted expression of the body, written bare -> the line of its statement.

    Nested functions are left out: their own body is another function's (they are statements of
    the one the page shows only as a ``def``)."""
    forms: dict[str, int] = {}

    def visit(statements: list[ast.stmt]) -> None:
        for statement in statements:
            if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                continue
            if isinstance(statement, ast.Raise):  # an error and its text: the contract's
                continue
            for field in ("body", "orelse", "finalbody"):
                visit(getattr(statement, field, None) or [])
            for handler in getattr(statement, "handlers", None) or []:  # try's except blocks
                visit(handler.body)
            for case in getattr(statement, "cases", None) or []:  # match's cases
                visit(case.body)
            for node in _own_nodes(statement):
                if isinstance(node, COUNTED):
                    forms.setdefault(_bare(node), statement.lineno)
                    tail = _method_tail(node)
                    if tail:
                        forms.setdefault(tail, statement.lineno)
            if isinstance(statement, ast.Assign | ast.Return | ast.AugAssign):
                forms.setdefault(_bare(statement), statement.lineno)

    visit(body.body)
    return forms


def _own_nodes(statement: ast.stmt) -> list[ast.AST]:
    """The expression nodes of one statement, not of the statements it holds."""
    found: list[ast.AST] = []
    todo: list[ast.AST] = [statement]
    while todo:
        node = todo.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt | ast.excepthandler):
                continue
            found.append(child)
            todo.append(child)
    return found


def _span_form(span: str) -> str | None:
    """A code span, written bare as the body's forms are (None: not Python, or not counted)."""
    text = " ".join(span.split())
    for candidate in (text, f"_{text}" if text.startswith(".") else None):
        if candidate is None:
            continue
        try:
            tree = ast.parse(candidate)
        except SyntaxError:
            continue
        if len(tree.body) != 1:
            return None
        node = tree.body[0]
        if isinstance(node, ast.Expr):
            node = node.value
            if not isinstance(node, COUNTED):
                return None
        form = _bare(node)
        return form.removeprefix("_") if text.startswith(".") else form
    return None


def mirrored(docstring: str, body: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[int, list[str]]:
    """Line of a body statement -> the spans of the docstring that write it out."""
    forms = statement_forms(body)
    found: dict[int, list[str]] = {}
    for match in SPAN.finditer(docstring):
        span = match.group(1) or match.group(2)
        form = _span_form(span)
        if form is not None and form in forms:
            found.setdefault(forms[form], []).append(span)
    return found


def numbered_steps(docstring: str) -> list[str]:
    return [line.strip() for line in docstring.splitlines() if NUMBERED.match(line)]


REBUILD = [(e.id, name) for e in COURSE.exercises for name in rebuild_functions(e)]


@pytest.mark.parametrize(("day", "name"), REBUILD, ids=[f"{d}-{n}" for d, n in REBUILD])
def test_a_rebuild_stub_states_a_contract_not_the_algorithm(day, name):
    exercise = COURSE.exercise(day)
    docstring = stub_docstring(exercise, name)
    assert not numbered_steps(docstring), (
        f"{day} {name}: numbered steps {numbered_steps(docstring)}"
    )
    written = mirrored(docstring, reference_body(exercise, name))
    assert len(written) <= MIRRORED, (
        f"{day} {name}: the docstring writes out {len(written)} statements of the reference "
        f"(at most {MIRRORED}): "
        + "; ".join(f"line {n}: {spans}" for n, spans in sorted(written.items()))
    )


@pytest.mark.parametrize(("day", "name"), REBUILD, ids=[f"{d}-{n}" for d, n in REBUILD])
def test_a_rebuild_stub_gives_an_example_that_the_reference_passes(day, name, tmp_path):
    """The contract's example is executable: run on the stub's file with the reference's
    functions in place of the stubs (``doctest``, ``...`` for what varies)."""
    exercise = COURSE.exercise(day)
    docstring = stub_docstring(exercise, name)
    test = doctest.DocTestParser().get_doctest(docstring, {}, f"{day}.{name}", None, 0)
    assert test.examples, f"{day} {name}: the docstring gives no ``>>>`` example"
    stub = tmp_path / "stub.py"
    stub.write_text((ROOT / exercise.kit / "stub.py").read_text(encoding="utf-8"), "utf-8")
    module = load_module(stub, str(stub), f"_contract_{day}")
    test.globs = dict(vars(module))
    test.globs.update({f.name: import_target(f.reference) for f in exercise.functions})
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    out: list[str] = []
    runner = doctest.DocTestRunner(optionflags=flags)
    runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)


# Day 08's ``make_call_model`` docstring before issue #22: a recipe of ``call_model``, gate by gate.
DAY08_RECIPE = """\
Build and return ``call_model(state, runtime, config)``, the sync ``agent`` node.

``create_react_agent`` defines ``call_model`` inside itself and closes over these values;
here they arrive as arguments (the graders take them from a real agent):

* ``is_async_dynamic_model`` -- ``model`` was an ``async def`` callable;
* ``is_dynamic_model`` -- ``model`` was a callable ``(state, runtime) -> chat model``;
* ``static_model`` -- the ``prompt | model`` Runnable (``None`` when the model is dynamic);
* ``name`` -- the agent's ``name=`` argument (may be ``None``);
* ``get_model_input_state(state)`` -- picks and validates the messages the model sees,
  and returns the state to give the model (Day 07); it raises ``ValueError`` for a broken
  history;
* ``resolve_model(state, runtime)`` -- this step's ``prompt | model`` for a dynamic model;
* ``are_more_steps_needed(state, response)`` -- ``True`` when too few steps are left to
  act on ``response`` (Day 09).

**The node you return.** Its parameters are exactly ``(state, runtime, config)``: the agent
node looks them up by name to inject the runtime and the config. ``state`` is a dict or a
pydantic object; the node leaves reading and checking it to the pieces above.

**What it returns**: the node's *update*, ``{"messages": [message]}``, a one-element list
holding only the new message (the reducer merges it into the history; never return the
history or the model's input):

* normally, the message the model returned (the very object), whose ``name`` is now the
  agent's ``name`` -- always, so ``name=None`` erases a name the model had set;
* when ``are_more_steps_needed`` says yes for that named response, a new ``AIMessage``
  instead, with the response's ``id``, the content
  ``"Sorry, need more steps to process this request."``, and nothing else (no tool calls,
  no name).

**The model** is called once, with ``.invoke(model_input, config)``: ``model_input`` is
what ``get_model_input_state`` returned (the state, not a list of messages), ``config`` is
the node's own. For a dynamic model it is this step's ``resolve_model(state, runtime)``,
resolved only after the input state is ready; otherwise ``static_model``.

**Errors.**

* An async dynamic model on this sync path: raise ``RuntimeError`` with exactly
  ``"Async model callable provided but agent invoked synchronously. Use agent.ainvoke()
  or agent.astream(), or provide a sync model callable."`` (one line, one space after each
  full stop), before any other piece is called, whatever the state holds.
* What ``get_model_input_state`` raises goes through unchanged, and then no model is
  resolved or called.

How and why, gate by gate: the lesson's "Read the source" and "Line by line".
Upstream: ``langgraph/prebuilt/chat_agent_executor.py:661`` (langgraph-prebuilt 1.1.3).
"""


def test_the_rules_fail_on_a_recipe():
    exercise = COURSE.exercise("day08")
    written = mirrored(DAY08_RECIPE, reference_body(exercise, "make_call_model"))
    assert len(written) > MIRRORED
    assert sorted(span for spans in written.values() for span in set(spans)) == [
        ".invoke(model_input, config)",
        "are_more_steps_needed(state, response)",
        "get_model_input_state(state)",
        "resolve_model(state, runtime)",
    ]
    steps = "Build it in order:\n\n1. Call ``get_model_input_state(state)``.\n2) Then the model."
    assert numbered_steps(steps) == [
        "1. Call ``get_model_input_state(state)``.",
        "2) Then the model.",
    ]
