"""Day 11's claims about odd ``handle_tool_errors`` values, run through both ``ToolNode``s.

Each test fails on what the page used to say: that ``def handle(self, e: KeyError, retries=1)``
"covers every Exception" (as a plain function the node calls it with the error alone and gets a
``TypeError``; as a bound method it covers ``KeyError`` only), and that ``None`` as a policy is a
configuration mistake reported by ``_handle_tool_error`` (inside ``ToolNode`` it is falsy, and the
tool's own error is re-raised before ``_handle_tool_error`` is asked).
"""

from __future__ import annotations

import sys
import warnings
from typing import Any

import pytest

pytest.importorskip("langgraph")

from miniagent_course.sides import mini, upstream  # noqa: E402


def handle(self, e: KeyError, retries: int = 1) -> str:
    return f"handled {e!r}"


class Handlers:
    def handle(self, e: KeyError, retries: int = 1) -> str:
        return f"handled {e!r}"


def boom(x: int) -> int:
    """Fail with ValueError."""
    raise ValueError("kaboom")


def lookup(key: str) -> str:
    """Fail with KeyError."""
    raise KeyError(key)


CALLS = {"boom": ("boom", {"x": 1}), "lookup": ("lookup", {"key": "k"})}


def runtime(lib: Any) -> Any:
    if lib.name == "miniagent":
        from miniagent.runtime import Runtime
    else:
        from langgraph.runtime import Runtime
    return Runtime()


def tool_node_module(lib: Any) -> Any:
    return sys.modules[lib.ToolNode.__module__]


def outcome(call: Any) -> Any:
    try:
        result = call()
    except Exception as error:
        return type(error).__name__, str(error)
    return [(m.status, m.content) for m in result["messages"]]


def node_run(lib: Any, flag: Any, tool: str) -> Any:
    node = lib.ToolNode([lib.tool(boom), lib.tool(lookup)], handle_tool_errors=flag)
    name, args = CALLS[tool]
    message = lib.AIMessage("", id="a1", tool_calls=[{"name": name, "args": args, "id": "c1"}])
    config = {"configurable": {"__pregel_runtime": runtime(lib)}}
    return outcome(lambda: node.invoke({"messages": [message]}, config))


def on_both(run: Any, *args: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        mine, theirs = run(mini(), *args), run(upstream(), *args)
    assert mine == theirs
    return mine


MISSING_E = ("TypeError", "handle() missing 1 required positional argument: 'e'")
UNEXPECTED = "Got unexpected type of `handle_tool_error`. Expected bool, str or callable. "


@pytest.mark.parametrize("tool", list(CALLS))
def test_a_plain_function_with_self_and_a_third_parameter_fails_when_called(tool):
    types = on_both(lambda lib: tool_node_module(lib)._infer_handled_types(handle))
    assert types == (Exception,)  # what the node is told...
    assert on_both(node_run, handle, tool) == MISSING_E  # ...and what calling it does


def test_the_same_handler_as_a_bound_method_covers_key_error_only():
    bound = Handlers().handle
    assert on_both(lambda lib: tool_node_module(lib)._infer_handled_types(bound)) == (KeyError,)
    assert on_both(node_run, bound, "lookup") == [("error", "handled KeyError('k')")]
    assert on_both(node_run, bound, "boom") == ("ValueError", "kaboom")


@pytest.mark.parametrize("tool", list(CALLS))
def test_none_as_a_policy_re_raises_the_tools_own_error(tool):
    expected = {"boom": ("ValueError", "kaboom"), "lookup": ("KeyError", "'k'")}[tool]
    assert on_both(node_run, None, tool) == expected


def test_only_a_direct_call_or_a_truthy_non_policy_gets_the_configuration_error():
    def direct(lib: Any) -> Any:
        error = ValueError("kaboom")
        return outcome(lambda: tool_node_module(lib)._handle_tool_error(error, flag=None))

    assert on_both(direct) == ("ValueError", UNEXPECTED + "Received: None")
    assert on_both(node_run, 42, "boom") == ("ValueError", UNEXPECTED + "Received: 42")
