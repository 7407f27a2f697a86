"""Middleware for ``create_agent``. Mirrors ``langchain/agents/middleware/__init__.py``.

The built-in middleware (``ModelCallLimitMiddleware``, ...) are not here yet.
"""

from miniagent.agents.middleware.types import (
    AgentMiddleware,
    AgentState,
    ExtendedModelResponse,
    InputAgentState,
    ModelCallResult,
    ModelRequest,
    ModelResponse,
    OmitFromSchema,
    OutputAgentState,
    ToolCallRequest,
    after_agent,
    after_model,
    before_agent,
    before_model,
    dynamic_prompt,
    hook_config,
    wrap_model_call,
    wrap_tool_call,
)
from miniagent.runtime import Runtime

__all__ = [
    "AgentMiddleware",
    "AgentState",
    "ExtendedModelResponse",
    "InputAgentState",
    "ModelCallResult",
    "ModelRequest",
    "ModelResponse",
    "OmitFromSchema",
    "OutputAgentState",
    "Runtime",
    "ToolCallRequest",
    "after_agent",
    "after_model",
    "before_agent",
    "before_model",
    "dynamic_prompt",
    "hook_config",
    "wrap_model_call",
    "wrap_tool_call",
]
