"""The model errors every provider reports the same way. Mirrors ``langchain_core/exceptions.py``.

``ModelError`` and its subclasses name a condition (authentication, rate limit, server failure,
context overflow...) whatever the provider; ``is_retryable`` says whether the same request may
succeed later, which is what ``ModelRetryMiddleware`` and ``ToolRetryMiddleware`` ask by default
(``agents/middleware/_retry.py``: ``default_retry_on``). A provider's chat model raises
subclasses that also derive from its SDK's own error class (``miniagent.openai``:
``OpenAIAuthenticationError(openai.AuthenticationError, ModelAuthenticationError)`` and so on),
so an ``except`` clause written for either keeps working.

The rest of upstream's module lives where the miniature already had it: ``OutputParserException``
in ``miniagent.models``, ``ErrorCode`` and ``create_message`` in ``miniagent.messages.utils``; no
tracers, so no ``TracerException``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from miniagent.messages import BaseMessage

__all__ = [
    "ContextOverflowError",
    "LangChainException",
    "ModelAPIError",
    "ModelAuthenticationError",
    "ModelConnectionError",
    "ModelError",
    "ModelInvalidRequestError",
    "ModelNotFoundError",
    "ModelPermissionDeniedError",
    "ModelRateLimitError",
    "ModelRefusalError",
    "ModelTimeoutError",
]


class LangChainException(Exception):  # noqa: N818
    """General LangChain exception."""


class ModelError(LangChainException):
    """Base exception for failures related to model invocation (exceptions.py:73).

    Most subclasses are keyed to the HTTP status a provider reports the condition with;
    ``ModelRefusalError`` covers successful responses in which the model refused.
    """

    is_retryable = False
    """Whether retrying the same model request may succeed."""


class ModelAuthenticationError(ModelError):
    """Exception raised when model provider authentication fails (HTTP 401)."""


class ModelPermissionDeniedError(ModelError):
    """Exception raised when credentials lack permission for a request (HTTP 403)."""


class ModelInvalidRequestError(ModelError):
    """Exception raised when a provider rejects a request as invalid (e.g. HTTP 400)."""


class ModelNotFoundError(ModelError):
    """Exception raised when the requested model cannot be found (HTTP 404)."""


class ModelRateLimitError(ModelError):
    """Exception raised when a model provider rate limit is exceeded (HTTP 429)."""

    is_retryable = True


class ModelAPIError(ModelError):
    """Exception raised when a model provider reports a server failure (HTTP 5xx)."""

    is_retryable = True


class ModelConnectionError(ModelError):
    """Exception raised when a model provider cannot be reached."""

    is_retryable = True


class ModelTimeoutError(ModelError):
    """Exception raised when a model request times out."""

    is_retryable = True


class ContextOverflowError(ModelError):
    """Exception raised when input exceeds the model's context limit."""


class ModelRefusalError(ModelError):
    """Exception raised when a model declines to produce the requested output (exceptions.py:137).

    A refusal arrives as a successful response, so a plain model call returns the message as it
    is; integrations raise this from paths that need the withheld content (structured output).
    """

    def __init__(
        self,
        message: str = "Model refused to produce the requested output",
        *,
        raw_message: BaseMessage | None = None,
    ) -> None:
        """Keep the response that contained the refusal as ``raw_message``."""
        self.raw_message = raw_message
        super().__init__(message)

    @classmethod
    def from_refusal(
        cls, refusal: dict[str, Any], *, raw_message: BaseMessage
    ) -> ModelRefusalError:
        """An error whose message includes the refusal block's category and text."""
        message = "Model refused to produce the requested output"
        if category := refusal.get("extras", {}).get("category"):
            message += f" (category={category!r})"
        if text := refusal.get("refusal"):
            message += f": {text}"
        return cls(message, raw_message=raw_message)
