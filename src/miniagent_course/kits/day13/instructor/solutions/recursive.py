"""Day 13, solved by recursion: one function runs layer ``i`` and hands it a handler that runs
layer ``i + 1``; each call returns the response and the commands collected below it. The
guardrail uses early returns and a loop over the phrases."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from miniagent.agents.factory import _ComposedExtendedModelResponse, _normalize_to_model_response
from miniagent.agents.middleware import ExtendedModelResponse
from miniagent.messages import AIMessage, HumanMessage, ToolMessage

GUARDED_TOOL = "book_hotel"
BLOCKED_PHRASES = ("directly", "without asking")
REFUSAL = "I can't make a risky booking for you directly."
NEEDS_CONFIRMATION = "book_hotel needs the user's confirmation first."


def _chain_model_call_handlers(
    handlers: Sequence[Callable[..., Any]],
) -> Callable[..., _ComposedExtendedModelResponse] | None:
    if not handlers:
        return None
    layers = list(handlers)

    def run(i: int, request: Any, model: Callable[[Any], Any]) -> tuple[Any, list[Any]]:
        if i == len(layers):
            return model(request), []
        below: list[Any] = []

        def next_layer(req: Any) -> Any:
            response, commands = run(i + 1, req, model)
            below[:] = commands  # a retry replaces the commands of the try before
            return _normalize_to_model_response(response)

        result = layers[i](request, next_layer)
        own = []
        if isinstance(result, ExtendedModelResponse):
            if result.command is not None:
                own.append(result.command)
            result = result.model_response
        return _normalize_to_model_response(result), below + own

    def composed(request: Any, handler: Callable[[Any], Any]) -> _ComposedExtendedModelResponse:
        response, commands = run(0, request, handler)
        return _ComposedExtendedModelResponse(model_response=response, commands=commands)

    return composed


def guard_request(state: dict[str, Any]) -> dict[str, Any] | None:
    messages = state["messages"]
    if not messages or not isinstance(messages[-1], HumanMessage):
        return None
    text = messages[-1].text.casefold()
    for phrase in BLOCKED_PHRASES:
        if phrase in text:
            return {"messages": [AIMessage(REFUSAL)], "jump_to": "end"}
    return None


def guard_tool_call(request: Any, handler: Callable[[Any], Any]) -> Any:
    name = request.tool_call["name"]
    if name != GUARDED_TOOL or request.state.get("user_confirmed"):
        return handler(request)
    return ToolMessage(
        content=NEEDS_CONFIRMATION,
        tool_call_id=request.tool_call["id"],
        name=name,
        status="error",
    )
