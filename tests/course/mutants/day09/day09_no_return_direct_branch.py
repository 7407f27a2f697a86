"""Mutant: ignores ``return_direct`` -- only the "tool calls need two steps" branch.

Looks equivalent, since tool calls at ``remaining_steps < 1`` are caught by ``< 2`` anyway. But
a final answer at ``remaining_steps == 0`` is no longer replaced by the Sorry reply.
"""

from __future__ import annotations

from miniagent.messages import AIMessage
from miniagent.prebuilt.chat_agent_executor import _get_state_value


def make_are_more_steps_needed(should_return_direct):
    def _are_more_steps_needed(state, response):
        has_tool_calls = isinstance(response, AIMessage) and bool(response.tool_calls)
        remaining_steps = _get_state_value(state, "remaining_steps", None)
        return remaining_steps is not None and remaining_steps < 2 and has_tool_calls

    return _are_more_steps_needed
