"""Fall back to other models when the model call fails. Mirrors
``langchain/agents/middleware/model_fallback.py``.

A ``wrap_model_call``: call ``handler(request)``; on an exception, call it again with each
fallback model in turn (``request.override(model=...)``); if every one fails, raise the last
error. A ``GraphBubbleUp`` (an interrupt) is never caught.

Left out: the provider-specific cleaning of the request before each fallback
(``_sanitize_request_for_fallback``: Anthropic ``cache_control`` markers, the Fireworks
session header, ``prompt_cache_key``), since the miniature has no Anthropic or Fireworks model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from miniagent.agents.middleware.types import (
    AgentMiddleware,
    AgentState,
    ContextT,
    ModelRequest,
    ModelResponse,
    ResponseT,
)
from miniagent.chat_models import init_chat_model
from miniagent.errors import GraphBubbleUp

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from miniagent.messages import AIMessage
    from miniagent.models import BaseChatModel

__all__ = ["ModelFallbackMiddleware"]


# --8<-- [start:model_fallback_middleware]
class ModelFallbackMiddleware(AgentMiddleware[AgentState[ResponseT], ContextT, ResponseT]):
    """Retry a failed model call on fallback models, in order (model_fallback.py:342).

    The agent's own model goes first; ``ModelFallbackMiddleware("openai:gpt-4o-mini", other)``
    lists the fallbacks (model strings go through ``init_chat_model``).
    """

    def __init__(
        self,
        first_model: str | BaseChatModel,
        *additional_models: str | BaseChatModel,
    ) -> None:
        """The fallback models, in the order they are tried (l.368)."""
        super().__init__()

        # Initialize all fallback models
        all_models = (first_model, *additional_models)
        self.models: list[BaseChatModel] = []
        for model in all_models:
            if isinstance(model, str):
                self.models.append(init_chat_model(model))
            else:
                self.models.append(model)

    def wrap_model_call(
        self,
        request: ModelRequest[ContextT],
        handler: Callable[[ModelRequest[ContextT]], ModelResponse[ResponseT]],
    ) -> ModelResponse[ResponseT] | AIMessage:
        """The primary model, then each fallback; the last error if all fail (l.390)."""
        # Try primary model first
        last_exception: Exception
        try:
            return handler(request)
        except GraphBubbleUp:
            raise
        except Exception as e:
            last_exception = e

        # Try fallback models
        for fallback_model in self.models:
            try:
                return handler(request.override(model=fallback_model))
            except GraphBubbleUp:
                raise
            except Exception as e:
                last_exception = e
                continue

        raise last_exception

    async def awrap_model_call(
        self,
        request: ModelRequest[ContextT],
        handler: Callable[[ModelRequest[ContextT]], Awaitable[ModelResponse[ResponseT]]],
    ) -> ModelResponse[ResponseT] | AIMessage:
        """Async ``wrap_model_call`` (l.432)."""
        # Try primary model first
        last_exception: Exception
        try:
            return await handler(request)
        except GraphBubbleUp:
            raise
        except Exception as e:
            last_exception = e

        # Try fallback models
        for fallback_model in self.models:
            try:
                return await handler(request.override(model=fallback_model))
            except GraphBubbleUp:
                raise
            except Exception as e:
                last_exception = e
                continue

        raise last_exception


# --8<-- [end:model_fallback_middleware]
