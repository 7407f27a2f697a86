"""Run one scenario through miniagent and through the pinned upstream, and compare.

A *scenario* is a plain function ``scenario(ns, **params)`` written once against a side ``ns``
that holds every name it needs (``ns.AIMessage``, ``ns.create_react_agent``, ``ns.ToolNode``,
``ns.FakeToolCallingModel``, ...): ``sides.MINI`` or ``sides.UPSTREAM`` (``tests/runtime/sides``,
with the upstream twins of the fakes). :func:`assert_same` runs the scenario on both, turns what
it returned (or raised) into plain data with :func:`normalize`, and compares.

Normalised form: messages become dicts (type, content, name, id, tool calls, tool_call_id,
status), ``Command``/``Send`` become tagged dicts, random uuids become ``<id-1>``, ``<id-2>``, ...
in order of first appearance. An exception becomes ``("raised", class name, str(exception))``.
"""

from __future__ import annotations

import asyncio
import re
import warnings
from types import SimpleNamespace
from typing import Any, Callable

from pydantic import BaseModel
from sides import MINI, UPSTREAM

# ---- small shared fixtures ----------------------------------------------------------------


class _Item:
    def __init__(self, value: Any) -> None:
        self.value = value


class DictStore:
    """A store with ``put``/``get`` only; both libraries just hand it to prompts and tools."""

    def __init__(self) -> None:
        self.data: dict[tuple, _Item] = {}

    def put(self, namespace: tuple, key: str, value: dict) -> None:
        self.data[(tuple(namespace), key)] = _Item(value)

    def get(self, namespace: tuple, key: str) -> _Item | None:
        return self.data.get((tuple(namespace), key))


def runtime_config(ns: SimpleNamespace, store: Any = None) -> dict:
    """The config a ToolNode needs when it is invoked outside a graph."""
    return {"configurable": {"__pregel_runtime": ns.Runtime(store=store)}}


# ---- normalisation ------------------------------------------------------------------------

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _calls(calls: list) -> list[dict]:
    return [{"name": c["name"], "args": c["args"], "id": c["id"]} for c in calls]


def _message(m: Any) -> dict:
    entry: dict[str, Any] = {"type": m.type, "content": m.content, "name": m.name, "id": m.id}
    if m.additional_kwargs:
        entry["additional_kwargs"] = m.additional_kwargs
    if m.type in ("ai", "AIMessageChunk"):
        entry["tool_calls"] = _calls(m.tool_calls)
        if getattr(m, "tool_call_chunks", None):
            entry["tool_call_chunks"] = [dict(c) for c in m.tool_call_chunks]
        if m.invalid_tool_calls:
            entry["invalid_tool_calls"] = _calls(m.invalid_tool_calls)
    if m.type == "tool":
        entry["tool_call_id"] = m.tool_call_id
        entry["status"] = m.status
        if m.artifact is not None:
            entry["artifact"] = m.artifact
    return entry


def _plain(obj: Any) -> Any:
    if isinstance(obj, (MINI.BaseMessage, UPSTREAM.BaseMessage)):
        return _message(obj)
    if isinstance(obj, (MINI.Command, UPSTREAM.Command)):
        return {
            "Command": {
                "graph": obj.graph,
                "update": _plain(obj.update),
                "goto": _plain(obj.goto),
                "resume": _plain(obj.resume),
            }
        }
    if isinstance(obj, (MINI.Send, UPSTREAM.Send)):
        return {"Send": {"node": obj.node, "arg": _plain(obj.arg)}}
    if isinstance(obj, dict):
        return {k: _plain(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_plain(v) for v in obj]
    if isinstance(obj, tuple):
        return tuple(_plain(v) for v in obj)
    if isinstance(obj, BaseModel):  # a user schema, e.g. a structured response
        return {type(obj).__name__: _plain(dict(obj))}
    return obj


def _ids(obj: Any, seen: dict[str, str]) -> Any:
    if isinstance(obj, str):
        return _UUID.sub(lambda m: seen.setdefault(m.group(0), f"<id-{len(seen) + 1}>"), obj)
    if isinstance(obj, dict):
        return {k: _ids(v, seen) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return type(obj)(_ids(v, seen) for v in obj)
    return obj


def normalize(obj: Any) -> Any:
    """Plain, comparable data: messages as dicts, uuids as ``<id-N>``."""
    return _ids(_plain(obj), {})


# ---- running both -------------------------------------------------------------------------


def outcome(scenario: Callable[..., Any], ns: SimpleNamespace, **params: Any) -> Any:
    """What ``scenario(ns, **params)`` returned (normalised), or how it failed."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            result = scenario(ns, **params)
            if asyncio.iscoroutine(result):
                result = asyncio.run(result)
        except Exception as e:  # the comparison is the assertion
            return ("raised", type(e).__name__, str(e))
    return normalize(result)


def assert_same(scenario: Callable[..., Any], **params: Any) -> Any:
    """Run ``scenario`` on miniagent and on upstream; assert equal outcomes; return it."""
    upstream = outcome(scenario, UPSTREAM, **params)
    mini = outcome(scenario, MINI, **params)
    assert mini == upstream, f"\nminiagent: {mini!r}\nupstream:  {upstream!r}"
    return upstream


def is_error(result: Any) -> bool:
    return isinstance(result, tuple) and len(result) == 3 and result[0] == "raised"


def attempt(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)``, or ``("raised", class name, text)`` -- for many cases in one run."""
    try:
        result = fn(*args, **kwargs)
        if asyncio.iscoroutine(result):
            result = asyncio.run(result)
        return result
    except Exception as e:
        return ("raised", type(e).__name__, str(e))
