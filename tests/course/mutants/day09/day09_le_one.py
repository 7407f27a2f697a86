"""Mutant: ``remaining_steps <= 1`` in the return-direct branch (upstream: ``< 1``).

A final answer has no tool calls, so it counts as "all return-direct" (``all([])``): with one
step left, this replaces a perfectly good answer with the Sorry reply.
"""

from __future__ import annotations

from miniagent.messages import AIMessage
from miniagent.prebuilt.chat_agent_executor import _get_state_value


def make_are_more_steps_needed(should_return_direct):
    def _are_more_steps_needed(state, response):
        has_tool_calls = isinstance(response, AIMessage) and response.tool_calls
        all_tools_return_direct = (
            all(call["name"] in should_return_direct for call in response.tool_calls)
            if isinstance(response, AIMessage)
            else False
        )
        remaining_steps = _get_state_value(state, "remaining_steps", None)
        if remaining_steps is not None:
            if remaining_steps <= 1 and all_tools_return_direct:
                return True
            elif remaining_steps < 2 and has_tool_calls:
                return True
        return False

    return _are_more_steps_needed
