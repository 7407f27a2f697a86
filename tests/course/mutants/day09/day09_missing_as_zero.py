"""Mutant: a missing ``remaining_steps`` reads as 0 (upstream: ``None``, "no limit known").

An agent whose schema declares ``remaining_steps`` as a plain ``int`` never gets the managed
value; this gives up on its very first tool call.
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
        remaining_steps = _get_state_value(state, "remaining_steps", 0)
        if remaining_steps < 1 and all_tools_return_direct:
            return True
        elif remaining_steps < 2 and has_tool_calls:
            return True
        return False

    return _are_more_steps_needed
