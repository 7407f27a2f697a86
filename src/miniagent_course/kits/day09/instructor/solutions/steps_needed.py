"""Day 09, solved by asking how many steps the response needs, and a parity rule for part 2.

For an ``AIMessage`` the outcome never depends on ``should_return_direct``: a final answer
needs one step, any tool call needs two (the lesson's grid has two equal columns).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from miniagent.messages import AIMessage, BaseMessage
from miniagent.prebuilt.chat_agent_executor import _get_state_value


def _steps_needed(response: BaseMessage) -> int | None:
    """Steps the agent must still have to keep ``response``; None: it is never replaced."""
    if not isinstance(response, AIMessage):
        return None
    return 2 if response.tool_calls else 1


def make_are_more_steps_needed(
    should_return_direct: set[str],
) -> Callable[[Any, BaseMessage], bool]:
    def _are_more_steps_needed(state: Any, response: BaseMessage) -> bool:
        remaining = _get_state_value(state, "remaining_steps", None)
        needed = _steps_needed(response)
        if remaining is None or needed is None:
            return False
        return remaining < needed

    return _are_more_steps_needed


def predictions() -> dict[int, tuple[str, int]]:
    # The agent sees limit - 1, then two less per round: even limits land on 1 (Sorry), odd
    # ones on 0 (the error); the round that gives up never runs its tool.
    return {
        limit: ("sorry" if limit % 2 == 0 else "error", (limit - 1) // 2) for limit in range(2, 8)
    }
