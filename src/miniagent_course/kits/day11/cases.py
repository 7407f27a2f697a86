"""Day 11's second part: what a ``ToolNode`` writes for each pair of error policy and tool call.

Part 1's reference needs nothing here: ``_handle_tool_error`` and ``_infer_handled_types`` are
module functions of ``miniagent.prebuilt.tool_node``, which ``ToolNode`` looks up by name each
time a call fails, so a learner's functions join their agent by module attribute (kit.toml
names them as the references; ``miniagent mine`` swaps them in).

The second part is graded by running it: ``observe`` runs a case of ``CASES`` through a real
``ToolNode`` and sorts what came out into one of ``OUTCOMES``.
``instructor/test_day11_predictions_diff.py`` runs the same cases on upstream's ``ToolNode``
and checks that every outcome is the same.
"""

# No `from __future__ import annotations`: the handlers below need real annotations, as in a
# module without it (a string annotation is resolved by get_type_hints, with other results).
from types import SimpleNamespace
from typing import Any

# What can come out of one failing call. Every ToolMessage here has status="error".
OUTCOMES = {
    "raises": "no ToolMessage: the exception leaves the node and the run fails",
    "repr": 'the template: "Error: {repr(e)}\\n Please fix your mistakes."',
    "text": "the string given as handle_tool_errors, as it is",
    "handler": "what the handler function returned",
    "invocation": "\"Error invoking tool '...' with kwargs {...} with error: ...\" (bad arguments)",
    "unknown": '"Error: nope is not a valid tool, try one of [...]."',
    "tool": "the tool's own error text (the tool handled its ToolException itself)",
}

TRY_AGAIN = "Try again."

# case -> (handle_tool_errors, the call). None: the default policy. Handlers are named in
# `handler_of`; calls: "value_error" (the tool raises ValueError), "tool_exception" (it raises
# ToolException), "bad_args" (arguments that fail validation), "unknown" (no such tool),
# "self_handled" (a tool with handle_tool_error=True raises ToolException).
CASES: dict[str, tuple[Any, str]] = {
    "default_value_error": (None, "value_error"),
    "default_bad_args": (None, "bad_args"),
    "default_unknown_tool": (None, "unknown"),
    "default_tool_exception": (None, "tool_exception"),
    "true_value_error": (True, "value_error"),
    "true_bad_args": (True, "bad_args"),
    "str_value_error": ("str", "value_error"),
    "str_bad_args": ("str", "bad_args"),
    "typed_handler_value_error": ("handler(e: ValueError)", "value_error"),
    "typed_handler_bad_args": ("handler(e: ValueError)", "bad_args"),
    "untyped_handler_bad_args": ("handler(e)", "bad_args"),
    "tool_exception_handler_bad_args": ("handler(e: ToolException)", "bad_args"),
    "class_value_error": ("ValueError", "value_error"),
    "tuple_value_error": ("(TypeError,)", "value_error"),
    "false_unknown_tool": (False, "unknown"),
    "false_self_handled": (False, "self_handled"),
}


def handler_of(lib: SimpleNamespace, name: Any) -> Any:
    """The ``handle_tool_errors`` value a case names, built for ``lib``."""

    def value_errors_only(e: ValueError) -> str:
        return f"handled {type(e).__name__}"

    def anything(e):  # no annotation: every Exception
        return f"handled {type(e).__name__}"

    def tool_exceptions(e: lib.ToolException) -> str:
        return f"handled {type(e).__name__}"

    return {
        True: True,
        False: False,
        "str": TRY_AGAIN,
        "handler(e: ValueError)": value_errors_only,
        "handler(e)": anything,
        "handler(e: ToolException)": tool_exceptions,
        "ValueError": ValueError,
        "(TypeError,)": (TypeError,),
    }[name]


_TOOLS: dict[tuple[Any, Any], list[Any]] = {}


def tools_of(lib: SimpleNamespace) -> list[Any]:
    """The tools every case's ``ToolNode`` holds, built with ``lib`` (once per ``lib``'s ``tool``
    and ``ToolException``: a tool is not changed by running it)."""
    key = (lib.tool, lib.ToolException)
    if key not in _TOOLS:
        _TOOLS[key] = _build_tools(lib)
    return list(_TOOLS[key])


def _build_tools(lib: SimpleNamespace) -> list[Any]:

    def boom(x: int) -> int:
        """Fail with ValueError."""
        raise ValueError("kaboom")

    def fragile(x: int) -> int:
        """Fail with ToolException, as an MCP tool does."""
        raise lib.ToolException("backend down")

    def check_weather(location: str) -> str:
        """Weather at a location."""
        return f"sunny in {location}"

    def careful(x: int) -> int:
        """Fail with ToolException, and report it itself."""
        raise lib.ToolException("careful failed")

    self_handled = lib.tool(careful)
    self_handled.handle_tool_error = True  # the tool turns its ToolException into its output
    return [lib.tool(boom), lib.tool(fragile), lib.tool(check_weather), self_handled]


CALLS = {
    "value_error": ("boom", {"x": 1}),
    "tool_exception": ("fragile", {"x": 1}),
    "bad_args": ("check_weather", {"loc": 1}),
    "unknown": ("nope", {}),
    "self_handled": ("careful", {"x": 1}),
}


def run_case(lib: SimpleNamespace, key: str) -> Any:
    """The ToolMessage one case's ``ToolNode`` writes, or the exception it raised."""
    from miniagent.runtime import Runtime as MiniRuntime

    handler, call = CASES[key]
    options = {} if handler is None else {"handle_tool_errors": handler_of(lib, handler)}
    node = lib.ToolNode(tools_of(lib), **options)
    name, args = CALLS[call]
    ai = lib.AIMessage("", id="a1", tool_calls=[{"name": name, "args": args, "id": "call_1"}])
    runtime = MiniRuntime() if lib.name == "miniagent" else _upstream_runtime()
    config = {"configurable": {"__pregel_runtime": runtime}}
    try:
        return node.invoke({"messages": [ai]}, config)["messages"][0]
    except Exception as error:
        return error


def _upstream_runtime() -> Any:
    from langgraph.runtime import Runtime

    return Runtime()


def observe(lib: SimpleNamespace, key: str) -> str:
    """Run one case and name its outcome, one of ``OUTCOMES``.

    The outcome is read off the ToolMessage: its status must be "error", and its text tells the
    policies apart (the handlers here answer "handled <ErrorType>", the str policy "Try again.").
    """
    result = run_case(lib, key)
    if isinstance(result, Exception):
        return "raises"
    assert result.status == "error", f"{key}: a failing call wrote status={result.status!r}"
    content = result.content
    if content == TRY_AGAIN:
        return "text"
    if content.startswith("handled "):
        return "handler"
    if content.startswith("Error: ") and content.endswith("\n Please fix your mistakes."):
        return "repr"
    if content.startswith("Error invoking tool "):
        return "invocation"
    if "is not a valid tool, try one of [" in content:
        return "unknown"
    if content == "careful failed":
        return "tool"
    raise AssertionError(f"{key}: a ToolMessage no outcome describes: {content!r}")
