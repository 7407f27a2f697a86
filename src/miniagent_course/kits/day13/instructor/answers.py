"""Day 13's Think part, answered: the guardrail's two hooks (the kit's instructor side)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from miniagent.messages import AIMessage, HumanMessage, ToolMessage
from miniagent_course.kits.day13.cases import (
    BLOCKED_PHRASES,
    GUARDED_TOOL,
    NEEDS_CONFIRMATION,
    REFUSAL,
)


def guard_request(state: dict[str, Any]) -> dict[str, Any] | None:
    """``before_model``: refuse and end the run when the user's last message is blocked."""
    messages = state["messages"]
    last = messages[-1] if messages else None
    if isinstance(last, HumanMessage) and any(p in last.text.lower() for p in BLOCKED_PHRASES):
        return {"messages": [AIMessage(REFUSAL)], "jump_to": "end"}
    return None


def guard_tool_call(request: Any, handler: Callable[[Any], Any]) -> Any:
    """``wrap_tool_call``: the guarded tool answers with an error until the user confirmed."""
    call = request.tool_call
    if call["name"] == GUARDED_TOOL and not request.state.get("user_confirmed"):
        return ToolMessage(
            NEEDS_CONFIRMATION, tool_call_id=call["id"], name=call["name"], status="error"
        )
    return handler(request)
