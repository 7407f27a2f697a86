"""Agents with middleware. Mirrors ``langchain/agents/__init__.py``."""

from miniagent.agents.factory import create_agent
from miniagent.agents.middleware.types import AgentState

__all__ = [
    "AgentState",
    "create_agent",
]
