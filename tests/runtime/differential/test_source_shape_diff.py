"""miniagent's ``prebuilt/chat_agent_executor.py`` mirrors upstream's function by function.

The lessons put the two files side by side, and Day 07 says that apart from the string-model
branch of ``create_react_agent``, ``_validate_chat_history`` is the one function whose code
differs. This test keeps that true: every function (nested ones included) must have upstream's
name and, docstrings and annotations aside, upstream's code, unless it is listed below with
the reason it differs.
"""

from __future__ import annotations

import ast
import copy
import inspect
import warnings
from pathlib import Path

import pytest

pytest.importorskip("langgraph")

MINI_FILE = Path(__file__).parents[3] / "src/miniagent/prebuilt/chat_agent_executor.py"

# function -> why miniagent's code differs from upstream's (langgraph-prebuilt 1.1.3)
EXPECTED_DIFFERENCES = {
    "_validate_chat_history": "one walk over the history instead of two comprehensions (speed)",
    "create_react_agent": "a str model goes to miniagent.chat_models.init_chat_model, with its "
    "own ImportError text; MISSING is a local sentinel; `warnings` is imported where it is used",
}


class _Hollow(ast.NodeTransformer):
    """Drop what is not code to compare: annotations, and the bodies of nested functions
    (each nested function is compared on its own)."""

    def visit_FunctionDef(self, node: ast.AST) -> ast.AST:
        return ast.Pass()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        node.annotation = ast.Constant(None)
        return self.generic_visit(node)


def _shapes(source: str) -> dict[str, str]:
    """name -> the function's statements, without its docstring, annotations and nested
    functions."""
    shapes = {}
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]  # the docstring
        hollow = _Hollow().visit(ast.Module(body=copy.deepcopy(body), type_ignores=[]))
        shapes.setdefault(node.name, ast.dump(hollow))
    return shapes


def _upstream_source() -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import langgraph.prebuilt.chat_agent_executor as upstream
    return inspect.getsource(upstream)


MINI = _shapes(MINI_FILE.read_text(encoding="utf-8"))
UPSTREAM = _shapes(_upstream_source())


def test_every_function_has_an_upstream_namesake():
    assert set(MINI) - set(UPSTREAM) == set()


def test_functions_have_upstream_code_except_the_listed_ones():
    differ = {name for name in MINI if MINI[name] != UPSTREAM.get(name)}
    assert differ == set(EXPECTED_DIFFERENCES)


def test_the_comparison_sees_a_one_character_change_and_ignores_docstrings():
    source = MINI_FILE.read_text(encoding="utf-8")
    off_by_one = _shapes(
        source.replace(
            "remaining_steps < 2 and has_tool_calls", "remaining_steps <= 2 and has_tool_calls", 1
        )
    )
    assert off_by_one["_are_more_steps_needed"] != MINI["_are_more_steps_needed"]
    reworded = _shapes(source.replace("Too few steps left", "Not enough steps left", 1))
    assert reworded["_are_more_steps_needed"] == MINI["_are_more_steps_needed"]
