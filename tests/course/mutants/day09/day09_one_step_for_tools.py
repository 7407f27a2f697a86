"""Mutant: ``remaining_steps < 1`` for tool calls (upstream: ``< 2``).

Thinks one step is enough for a tool round; it takes two (tools, then the agent again). The
agent that should land softly on ``remaining_steps == 1`` sends the call to the tools instead,
and the run ends in GraphRecursionError.
"""

from __future__ import annotations

from miniagent.messages import AIMessage
from miniagent.prebuilt.chat_agent_executor import _get_state_value


def make_are_more_steps_needed(should_return_direct):
    def _are_more_steps_needed(state, response):
        remaining_steps = _get_state_value(state, "remaining_steps", None)
        if remaining_steps is None:
            return False
        return remaining_steps < 1 and isinstance(response, AIMessage)

    return _are_more_steps_needed
