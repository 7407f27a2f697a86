"""Mutant: lists the missing tools as ``'a, b'`` instead of upstream's formatted set ``'{'a'}'``."""

from typing import Any

from miniagent.models import BaseChatModel
from miniagent.runnables import RunnableBinding, RunnableSequence


def _should_bind_tools(model: Any, tools: Any, num_builtin: int = 0) -> bool:
    if isinstance(model, RunnableSequence):
        model = next(
            (s for s in model.steps if isinstance(s, (RunnableBinding, BaseChatModel))), model
        )
    if not isinstance(model, RunnableBinding) or "tools" not in model.kwargs:
        return True
    bound_tools = model.kwargs["tools"]
    if len(tools) != len(bound_tools) - num_builtin:
        raise ValueError(
            "Number of tools in the model.bind_tools() and tools passed to create_react_agent must match"
            f" Got {len(tools)} tools, expected {len(bound_tools) - num_builtin}"
        )
    bound_names = set()
    for bound_tool in bound_tools:
        if bound_tool.get("type") == "function":
            bound_names.add(bound_tool["function"]["name"])
        elif bound_tool.get("name"):
            bound_names.add(bound_tool["name"])
    if missing_tools := {t.name for t in tools} - bound_names:
        names = ", ".join(sorted(missing_tools))
        raise ValueError(f"Missing tools '{names}' in the model.bind_tools()")
    return False
