"""day10 mutant: escalates after every tool result, failed or not (forgets `status`)."""

from miniagent.messages import ToolMessage
from miniagent.prebuilt.chat_agent_executor import _get_state_value


def choose_model(state, runtime, *, cheap, strong):
    messages = _get_state_value(state, "messages")
    if isinstance(messages[-1], ToolMessage):
        return strong
    if len(messages) > 4:
        return strong
    return cheap
