"""Day 09, solved by asking how many steps the response needs; the desk repaired with an even
limit, whose soft landing it turns into the error the platform expects.

For an ``AIMessage`` the outcome never depends on ``should_return_direct``: a final answer
needs one step, any tool call needs two (the lesson's grid has two equal columns).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from miniagent.errors import GraphRecursionError
from miniagent.messages import AIMessage, BaseMessage
from miniagent.prebuilt import create_react_agent
from miniagent.prebuilt.chat_agent_executor import _get_state_value

BUDGET = 3  # tool calls per question
SORRY = "Sorry, need more steps to process this request."


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


def answer(question: str, model: Any, tools: list[Any], config: dict[str, Any]) -> str:
    # Limit 2 * BUDGET + 2 is even: the agent sees 7, 5, 3, 1, so a runaway model lands softly
    # after BUDGET tool calls (the fourth is replaced at 1), and an answer or a booking in the
    # rounds before always fits. The soft landing is the sentinel reply: raise instead.
    agent = create_react_agent(model, tools)
    limit = 2 * BUDGET + 2
    result = agent.invoke({"messages": [("user", question)]}, {**config, "recursion_limit": limit})
    last = result["messages"][-1]
    if last.type == "ai" and last.content == SORRY:
        raise GraphRecursionError(f"The desk's budget of {BUDGET} tool calls ran out.")
    return last.content
