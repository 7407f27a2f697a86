"""Day 06, solved with small helpers: find the judged step, read one bound name, and a
parametrised table of tests for part 2."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from miniagent.models import BaseChatModel
from miniagent.runnables import RunnableBinding, RunnableLambda, RunnableSequence
from miniagent.testing import FakeToolCallingModel
from miniagent.tools import tool


def _judged(model: Any) -> Any:
    """The step that stands for ``model``: a sequence's first binding or chat model."""
    if not isinstance(model, RunnableSequence):
        return model
    for step in model.steps:
        if isinstance(step, (RunnableBinding, BaseChatModel)):
            return step
    return model


def _bound_name(spec: dict[str, Any]) -> str | None:
    if spec.get("type") == "function":
        return spec["function"]["name"]
    return spec.get("name") or None


def _should_bind_tools(model: Any, tools: Sequence[Any], num_builtin: int = 0) -> bool:
    model = _judged(model)
    bound = model.kwargs.get("tools") if isinstance(model, RunnableBinding) else None
    if bound is None:
        return True
    expected = len(bound) - num_builtin
    if len(tools) != expected:
        raise ValueError(
            "Number of tools in the model.bind_tools() and tools passed to create_react_agent"
            f" must match Got {len(tools)} tools, expected {expected}"
        )
    names = {_bound_name(spec) for spec in bound} - {None}
    missing = {t.name for t in tools} - names
    if missing:
        raise ValueError(f"Missing tools '{missing}' in the model.bind_tools()")
    return False


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@tool
def mul(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


def _cases():
    openai, anthropic = FakeToolCallingModel(), FakeToolCallingModel(tool_style="anthropic")
    parser = RunnableLambda(lambda message: message)
    mcp = {"type": "mcp"}
    return [
        (openai, [add], 0, True),
        (openai.bind(stop=["x"]), [add], 0, True),
        (openai.bind_tools([add]), [add], 0, False),
        (anthropic.bind_tools([add, mul]), [mul, add], 0, False),
        (openai.bind_tools([add, mcp]), [add], 1, False),
        (openai.bind_tools([add]) | parser, [add], 0, False),
        (parser | anthropic.bind_tools([add]), [add], 0, False),
        (openai.bind(tools=[]), [], 0, False),
        (openai.bind_tools([add]), [add, mul], 0, "must match Got 2 tools, expected 1"),
        (openai.bind(tools=[]), [add], 0, "must match Got 1 tools, expected 0"),
        (openai.bind_tools([add]), [mul], 0, "Missing tools '{'mul'}' in the model.bind_tools()"),
    ]


def test_the_table(should_bind):
    for model, tools, num_builtin, expected in _cases():
        if isinstance(expected, bool):
            assert should_bind(model, tools, num_builtin) is expected
        else:
            with pytest.raises(ValueError) as error:
                should_bind(model, tools, num_builtin)
            assert str(error.value).endswith(expected)
