"""Day 13's part 2 reference: ``ConfirmBeforeBooking``, a guardrail middleware with a contract.

Upstream has no such middleware: seed 003's ``TravelGuardrail`` is the idea, and its
``before_model`` does not stop the run (it returns messages without ``jump_to``, so the model
still answers). This guardrail does what the seed meant:

* ``guard_request(state)`` is its ``before_model``: a blocked request ends the run with a
  refusal and ``jump_to: "end"`` (the class declares ``can_jump_to=["end"]``);
* ``guard_tool_call(request, handler)`` is its ``wrap_tool_call``: the guarded tool is refused
  until the state says ``user_confirmed``.

``confirm_before_booking(guard_request, guard_tool_call)`` puts two such functions into a real
``AgentMiddleware`` (the graders pass the learner's; the notebook and ``miniagent mine`` too).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from typing_extensions import NotRequired

from miniagent.agents.middleware import AgentMiddleware, AgentState, hook_config
from miniagent.messages import AIMessage, HumanMessage, ToolMessage

GUARDED_TOOL = "book_hotel"
BLOCKED_PHRASES = ("directly", "without asking")
REFUSAL = "I can't make a risky booking for you directly."
NEEDS_CONFIRMATION = "book_hotel needs the user's confirmation first."


class ConfirmState(AgentState):
    """The agent's state plus the flag the guardrail reads."""

    user_confirmed: NotRequired[bool]


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


def confirm_before_booking(
    guard_request: Callable[..., Any] = guard_request,
    guard_tool_call: Callable[..., Any] = guard_tool_call,
) -> AgentMiddleware:
    """A ``ConfirmBeforeBooking`` middleware instance running the two given functions."""

    class ConfirmBeforeBooking(AgentMiddleware):
        state_schema = ConfirmState

        @hook_config(can_jump_to=["end"])
        def before_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
            return guard_request(state)

        def wrap_tool_call(self, request: Any, handler: Callable[[Any], Any]) -> Any:
            return guard_tool_call(request, handler)

    return ConfirmBeforeBooking()
