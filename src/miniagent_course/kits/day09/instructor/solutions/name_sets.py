"""Day 09, solved with early returns and sets of tool names, and a literal table for part 2."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from miniagent.messages import AIMessage, BaseMessage


def _remaining_steps(state: Any) -> int | None:
    try:
        return state["remaining_steps"] if isinstance(state, dict) else state.remaining_steps
    except (KeyError, AttributeError):
        return None


def make_are_more_steps_needed(
    should_return_direct: set[str],
) -> Callable[[Any, BaseMessage], bool]:
    direct = frozenset(should_return_direct)

    def check(state: Any, response: BaseMessage) -> bool:
        remaining = _remaining_steps(state)
        if remaining is None or not isinstance(response, AIMessage):
            return False
        called = {call["name"] for call in response.tool_calls}
        if remaining < 1 and called <= direct:  # the empty set: a final answer
            return True
        return bool(called) and remaining < 2

    return check


def predictions() -> dict[int, tuple[str, int]]:
    return {
        2: ("sorry", 0),
        3: ("error", 1),
        4: ("sorry", 1),
        5: ("error", 2),
        6: ("sorry", 2),
        7: ("error", 3),
    }
