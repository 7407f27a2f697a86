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

GUARDED_TOOL = "book_hotel"
BLOCKED_PHRASES = ("directly", "without asking")
REFUSAL = "I can't make a risky booking for you directly."
NEEDS_CONFIRMATION = "book_hotel needs the user's confirmation first."


class ConfirmState(AgentState):
    """The agent's state plus the flag the guardrail reads."""

    user_confirmed: NotRequired[bool]


def confirm_before_booking(
    guard_request: Callable[..., Any], guard_tool_call: Callable[..., Any]
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


def booking_run(
    guard: AgentMiddleware, text: str, script: list[Any], confirmed: bool = False
) -> tuple[int, list[str], list[Any]]:
    """One run of an agent guarded by ``guard``, with a ``book_hotel`` tool and a scripted
    model: ``(model calls, cities booked, the contents of the messages after the user's)``."""
    from miniagent.agents import create_agent
    from miniagent.testing import ScriptedChatModel
    from miniagent.tools import tool

    ran: list[str] = []

    @tool
    def book_hotel(city: str) -> str:
        """Book the cheapest hotel in a city tonight."""
        ran.append(city)
        return f"Booked in {city}"

    model = ScriptedChatModel(script)
    agent = create_agent(model, [book_hotel], middleware=[guard])
    out = agent.invoke({"messages": [("user", text)], "user_confirmed": confirmed})
    return len(model.calls), ran, [m.content for m in out["messages"][1:]]


# What the contract asks of the notebook's three runs ("Your turn"), as booking_run tells them;
# instructor/ proves the course's own guardrail gives exactly this.
BOOKING_CONTRACT = {
    "blocked": (0, [], [REFUSAL]),
    "unconfirmed": (2, [], ["", NEEDS_CONFIRMATION, "Please confirm."]),
    "confirmed": (2, ["Paris"], ["", "Booked in Paris", "Booked."]),
}
