"""The prebuilt ReAct agent and its tools node. Mirrors ``langgraph/prebuilt/__init__.py``."""

from miniagent.prebuilt.chat_agent_executor import create_react_agent
from miniagent.prebuilt.tool_node import (
    InjectedState,
    InjectedStore,
    ToolNode,
    ToolRuntime,
    tools_condition,
)

__all__ = [
    "create_react_agent",
    "ToolNode",
    "tools_condition",
    "InjectedState",
    "InjectedStore",
    "ToolRuntime",
]
