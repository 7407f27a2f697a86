"""Day 13, solved with ``functools.reduce``: the layers are folded from the innermost out into
functions ``(request, model) -> (response, commands)``, a ``match`` splits a layer's result,
and the guardrail matches the phrases with one regular expression."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Any

from miniagent.agents.factory import _ComposedExtendedModelResponse, _normalize_to_model_response
from miniagent.agents.middleware import ExtendedModelResponse
from miniagent.messages import AIMessage, HumanMessage, ToolMessage

GUARDED_TOOL = "book_hotel"
BLOCKED_PHRASES = ("directly", "without asking")
REFUSAL = "I can't make a risky booking for you directly."
NEEDS_CONFIRMATION = "book_hotel needs the user's confirmation first."

_BLOCKED = re.compile("|".join(map(re.escape, BLOCKED_PHRASES)), re.IGNORECASE)


def _split(result: Any) -> tuple[Any, list[Any]]:
    match result:
        case ExtendedModelResponse(model_response=response, command=None):
            return _normalize_to_model_response(response), []
        case ExtendedModelResponse(model_response=response, command=command):
            return _normalize_to_model_response(response), [command]
        case _:
            return _normalize_to_model_response(result), []


def _innermost(request: Any, model: Callable[[Any], Any]) -> tuple[Any, list[Any]]:
    return model(request), []


def _wrap(inner: Callable[..., Any], outer: Callable[..., Any]) -> Callable[..., Any]:
    def step(request: Any, model: Callable[[Any], Any]) -> tuple[Any, list[Any]]:
        last_try = {"commands": []}

        def call_inner(req: Any) -> Any:
            response, last_try["commands"] = inner(req, model)
            return _normalize_to_model_response(response)

        response, own = _split(outer(request, call_inner))
        return response, [*last_try["commands"], *own]

    return step


def _chain_model_call_handlers(
    handlers: Sequence[Callable[..., Any]],
) -> Callable[..., _ComposedExtendedModelResponse] | None:
    if len(handlers) == 0:
        return None
    chain = functools.reduce(_wrap, reversed(handlers), _innermost)

    def composed(request: Any, handler: Callable[[Any], Any]) -> _ComposedExtendedModelResponse:
        response, commands = chain(request, handler)
        return _ComposedExtendedModelResponse(model_response=response, commands=commands)

    return composed


def guard_request(state: dict[str, Any]) -> dict[str, Any] | None:
    last = next(reversed(state["messages"]), None)
    blocked = isinstance(last, HumanMessage) and _BLOCKED.search(last.text) is not None
    return {"messages": [AIMessage(REFUSAL)], "jump_to": "end"} if blocked else None


def guard_tool_call(request: Any, handler: Callable[[Any], Any]) -> Any:
    match request.tool_call:
        case {"name": "book_hotel", "id": call_id} if not request.state.get("user_confirmed"):
            return ToolMessage(
                NEEDS_CONFIRMATION, tool_call_id=call_id, name=GUARDED_TOOL, status="error"
            )
        case _:
            return handler(request)
