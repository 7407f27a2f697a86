"""Day 06, solved with structural pattern matching on the bound dicts, ``filter`` for the
pipeline, and early returns; part 2 as one test per mistake someone could make."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from miniagent.models import BaseChatModel
from miniagent.runnables import RunnableBinding, RunnableLambda, RunnableSequence
from miniagent.testing import FakeToolCallingModel
from miniagent.tools import tool


def _names(bound_tools: list[dict[str, Any]]) -> set[str]:
    names = set()
    for spec in bound_tools:
        match spec:
            case {"type": "function", "function": {"name": name}}:
                names.add(name)
            case {"name": name} if name:
                names.add(name)
    return names


def _should_bind_tools(model: Any, tools: Sequence[Any], num_builtin: int = 0) -> bool:
    if isinstance(model, RunnableSequence):
        is_model = lambda step: isinstance(step, (RunnableBinding, BaseChatModel))  # noqa: E731
        model = next(filter(is_model, model.steps), model)
    if not isinstance(model, RunnableBinding) or "tools" not in model.kwargs:
        return True
    bound_tools = model.kwargs["tools"]
    given, bound = len(tools), len(bound_tools) - num_builtin
    if given != bound:
        prefix = "Number of tools in the model.bind_tools() and tools passed to create_react_agent"
        raise ValueError(f"{prefix} must match Got {given} tools, expected {bound}")
    if missing := {t.name for t in tools}.difference(_names(bound_tools)):
        raise ValueError(f"Missing tools '{missing}' in the model.bind_tools()")
    return False


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def _raises(call) -> str:
    try:
        call()
    except ValueError as error:
        return str(error)
    return "no error"


def test_bare_and_partly_bound_models_need_binding(should_bind):
    model = FakeToolCallingModel()
    assert should_bind(model, [add]) is True
    assert should_bind(model.bind(stop=["x"]), [add]) is True


def test_what_the_user_bound_is_kept(should_bind):
    for style in ("openai", "anthropic"):
        bound = FakeToolCallingModel(tool_style=style).bind_tools([add])
        assert should_bind(bound, [add]) is False
        assert should_bind(RunnableLambda(str) | bound | RunnableLambda(str), [add]) is False


def test_builtins_and_empty_bindings(should_bind):
    model = FakeToolCallingModel()
    assert should_bind(model.bind_tools([add, {"type": "mcp"}]), [add], 1) is False
    assert should_bind(model.bind(tools=[]), []) is False


def test_error_texts(should_bind):
    model = FakeToolCallingModel()
    count = _raises(lambda: should_bind(model.bind(tools=[]), [add]))
    assert count.endswith("create_react_agent must match Got 1 tools, expected 0")
    missing = _raises(lambda: should_bind(model.bind_tools([{"type": "mcp"}]), [add]))
    assert missing == "Missing tools '{'add'}' in the model.bind_tools()"
