"""Helpers of the ``create_agent`` differential tests: middleware built on either side.

The sides are ``sides.side("mini")`` / ``side("upstream")`` (``tests/runtime/sides``);
``recorder(ns, ...)`` builds the same recording middleware class on either, so a test runs one
script through both and compares what the middleware saw, the stream and the final state.
"""

from __future__ import annotations

import itertools
from types import SimpleNamespace
from typing import Any

from sides import SIDES, side

from miniagent.testing import message_trace, normalize_ids

HOOKS = ("before_agent", "before_model", "after_model", "after_agent")
WRAPS = ("wrap_model_call", "wrap_tool_call")
ALL_HOOKS = HOOKS + WRAPS


def on_both(run: Any) -> Any:
    """``run(ns)`` on each side; assert equal; return miniagent's result."""
    results = {which: run(side(which)) for which in SIDES}
    assert results["mini"] == results["upstream"]
    return results["mini"]


def recorder(
    ns: SimpleNamespace,
    name: str,
    hooks: tuple[str, ...],
    log: list[str],
    *,
    is_async: bool = False,
    can_jump_to: dict[str, list[str]] | None = None,
    returns: dict[str, Any] | None = None,
) -> Any:
    """An instance of a middleware class ``name`` overriding exactly ``hooks`` (sync, or the
    ``a``-twins with ``is_async``). Each hook logs ``"{name}.{hook}"`` (wrap hooks log ``>``
    before and ``<`` after the handler). ``returns[hook]``: a callable ``(state) -> update``
    or a list of updates, one per call (then ``None``)."""
    returns = dict(returns or {})
    counters: dict[str, int] = {}

    def update_for(hook: str, state: Any) -> Any:
        planned = returns.get(hook)
        if callable(planned):
            return planned(state)
        n = counters[hook] = counters.get(hook, 0) + 1
        if isinstance(planned, list) and n <= len(planned):
            return planned[n - 1]
        return None

    attrs: dict[str, Any] = {}
    for hook in hooks:
        if hook in HOOKS:
            attrs.update(_node_hook(ns, name, hook, log, update_for, is_async, can_jump_to))
        else:
            attrs.update(_wrap_hook(name, hook, log, is_async))
    return type(name, (ns.mw.AgentMiddleware,), attrs)()


def _node_hook(ns, name, hook, log, update_for, is_async, can_jump_to):
    def sync_hook(self, state, runtime):
        log.append(f"{name}.{hook}")
        return update_for(hook, state)

    async def async_hook(self, state, runtime):
        log.append(f"{name}.a{hook}")
        return update_for(hook, state)

    fn = async_hook if is_async else sync_hook
    fn.__name__ = fn.__qualname__ = f"a{hook}" if is_async else hook  # as a method would be
    if can_jump_to and hook in can_jump_to:
        fn = ns.mw.hook_config(can_jump_to=can_jump_to[hook])(fn)
    return {f"a{hook}" if is_async else hook: fn}


def _wrap_hook(name, hook, log, is_async):
    def sync_wrap(self, request, handler):
        log.append(f"{name}.{hook}>")
        result = handler(request)
        log.append(f"{name}.{hook}<")
        return result

    async def async_wrap(self, request, handler):
        log.append(f"{name}.a{hook}>")
        result = await handler(request)
        log.append(f"{name}.a{hook}<")
        return result

    fn = async_wrap if is_async else sync_wrap
    fn.__name__ = fn.__qualname__ = f"a{hook}" if is_async else hook
    return {fn.__name__: fn}


def weather_tool(ns: SimpleNamespace) -> Any:
    @ns.tool
    def check_weather(location: str) -> str:
        """Return the weather forecast for the specified location."""
        return f"It's always sunny in {location}"

    return check_weather


def tool_call(name: str = "check_weather", args: dict | None = None, id: str = "call_1") -> dict:
    return {"name": name, "args": args if args is not None else {"location": "sf"}, "id": id}


def script(ns: SimpleNamespace, *replies: Any) -> Any:
    """A ScriptedChatModel answering ``replies``: a str (text) or a list of tool calls."""
    messages = []
    for i, reply in enumerate(replies, 1):
        if isinstance(reply, str):
            messages.append(ns.m.AIMessage(reply, id=f"ai-{i}"))
        else:
            messages.append(ns.m.AIMessage("", id=f"ai-{i}", tool_calls=reply))
    return ns.ScriptedChatModel(messages)


def updates(agent: Any, inputs: Any, **kwargs: Any) -> list[tuple[str, Any]]:
    """``stream_mode="updates"`` as ``(node, normalised update)`` pairs."""
    out = []
    seen: dict[str, str] = {}
    for chunk in agent.stream(inputs, stream_mode="updates", **kwargs):
        for node, update in chunk.items():
            out.append((node, normalize_ids(plain(update), seen)))
    return out


def plain(obj: Any) -> Any:
    """Messages as ``message_trace`` dicts, Commands as their update, the rest as is."""
    if hasattr(obj, "type") and hasattr(obj, "content") and hasattr(obj, "id"):
        return message_trace([obj])[0]
    if type(obj).__name__ == "Command":
        return {"command": plain(obj.update)}
    if isinstance(obj, dict):
        return {k: plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [plain(v) for v in obj]
    if hasattr(obj, "model_dump"):
        return obj.model_dump()
    return obj


def final(result: dict) -> dict:
    return normalize_ids(plain(result))


def outcome(fn: Any) -> Any:
    """``fn()``'s result, or ``(error type name, message)`` when it raises."""
    try:
        return fn()
    except Exception as e:  # compared across the two sides
        return ("raised", type(e).__name__, str(e))


def subsets(items: tuple[str, ...]) -> list[tuple[str, ...]]:
    return [c for n in range(len(items) + 1) for c in itertools.combinations(items, n)]
