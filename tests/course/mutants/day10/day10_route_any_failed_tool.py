"""day10 mutant: escalates if ANY tool in the history failed, not only the last message."""

from miniagent.messages import ToolMessage
from miniagent.prebuilt.chat_agent_executor import _get_state_value


def choose_model(state, runtime, *, cheap, strong):
    messages = _get_state_value(state, "messages")
    if any(isinstance(m, ToolMessage) and m.status == "error" for m in messages):
        return strong
    if len(messages) > 4:
        return strong
    return cheap
