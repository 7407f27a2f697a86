"""Day 09, solved with early returns and sets of tool names; the desk repaired by taking the
platform's limit out of its config and binding the desk's own on the agent."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from miniagent.messages import AIMessage, BaseMessage
from miniagent.prebuilt import create_react_agent

MAX_TOOL_CALLS = 3


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


def answer(question: str, model: Any, tools: list[Any], config: dict[str, Any]) -> str:
    # A bound limit is only a default: a run config that names its own wins. So the platform's
    # limit is dropped from what this run gets, and the desk's is bound. The agent sees
    # 6, 4, 2, 0: the third call (a booking too) still has its two steps, a fourth arrives at 0.
    own = {key: value for key, value in config.items() if key != "recursion_limit"}
    agent = create_react_agent(model, tools).with_config(recursion_limit=2 * MAX_TOOL_CALLS + 1)
    messages = agent.invoke({"messages": [("user", question)]}, own)["messages"]
    return messages[-1].content
