"""Middleware for ``create_agent``. Mirrors ``langchain/agents/middleware/__init__.py``.

The built-in middleware the course uses, each in the module that mirrors upstream's: the
limits (``model_call_limit.py``, ``tool_call_limit.py``), fallback and retries
(``model_fallback.py``, ``model_retry.py``, ``tool_retry.py``), history trimming
(``context_editing.py``) and the PII guardrail (``pii.py``). Not here:
``SummarizationMiddleware``, ``HumanInTheLoopMiddleware`` (the miniature has no
``interrupt()``), and the others upstream exports (todo list, tool selection and emulation,
shell, file search, model router, ...).
"""

from miniagent.agents.middleware.context_editing import ClearToolUsesEdit, ContextEditingMiddleware
from miniagent.agents.middleware.model_call_limit import ModelCallLimitMiddleware
from miniagent.agents.middleware.model_fallback import ModelFallbackMiddleware
from miniagent.agents.middleware.model_retry import ModelRetryMiddleware
from miniagent.agents.middleware.pii import PIIDetectionError, PIIMatch, PIIMiddleware
from miniagent.agents.middleware.tool_call_limit import ToolCallLimitMiddleware
from miniagent.agents.middleware.tool_retry import ToolRetryMiddleware
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
    "ClearToolUsesEdit",
    "ContextEditingMiddleware",
    "ExtendedModelResponse",
    "InputAgentState",
    "ModelCallLimitMiddleware",
    "ModelCallResult",
    "ModelFallbackMiddleware",
    "ModelRequest",
    "ModelResponse",
    "ModelRetryMiddleware",
    "OmitFromSchema",
    "OutputAgentState",
    "PIIDetectionError",
    "PIIMatch",
    "PIIMiddleware",
    "Runtime",
    "ToolCallLimitMiddleware",
    "ToolCallRequest",
    "ToolRetryMiddleware",
    "after_agent",
    "after_model",
    "before_agent",
    "before_model",
    "dynamic_prompt",
    "hook_config",
    "wrap_model_call",
    "wrap_tool_call",
]
