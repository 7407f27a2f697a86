"""day10 mutant: "more than 4 messages" written as `>= 4`."""

from miniagent.messages import ToolMessage
from miniagent.prebuilt.chat_agent_executor import _get_state_value


def choose_model(state, runtime, *, cheap, strong):
    messages = _get_state_value(state, "messages")
    last = messages[-1]
    if isinstance(last, ToolMessage) and last.status == "error":
        return strong
    if len(messages) >= 4:
        return strong
    return cheap
