"""day10 mutant: reads `state["messages"]`, so a pydantic AgentStatePydantic fails."""

from miniagent.messages import ToolMessage


def choose_model(state, runtime, *, cheap, strong):
    messages = state["messages"]
    last = messages[-1]
    if isinstance(last, ToolMessage) and last.status == "error":
        return strong
    if len(messages) > 4:
        return strong
    return cheap
