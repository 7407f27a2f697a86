"""Clear old tool results from what the model sees. Mirrors
``langchain/agents/middleware/context_editing.py``.

A ``wrap_model_call``: when the request's messages count more than ``trigger`` tokens,
``ClearToolUsesEdit`` replaces the content of all but the last ``keep`` tool results with
``"[cleared]"`` -- in a deep copy handed to the model, never in the agent's state. Tokens are
counted with ``count_tokens_approximately`` (about four characters a token), upstream's default.

Left out: ``token_count_method="model"`` needs the chat model's
``get_num_tokens_from_messages`` (a real tokenizer), which the miniature's models do not have;
the code path is upstream's, so choosing it fails with an ``AttributeError``. Pass a
``token_counter`` instead.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from copy import deepcopy
from dataclasses import dataclass
from typing import Literal

from typing_extensions import Protocol

from miniagent.agents.middleware.types import (
    AgentMiddleware,
    AgentState,
    ContextT,
    ModelRequest,
    ModelResponse,
    ResponseT,
)
from miniagent.messages import AIMessage, AnyMessage, BaseMessage, ToolMessage
from miniagent.messages.utils import count_tokens_approximately

__all__ = ["ClearToolUsesEdit", "ContextEditingMiddleware"]

DEFAULT_TOOL_PLACEHOLDER = "[cleared]"


TokenCounter = Callable[
    [Sequence[BaseMessage]],
    int,
]


class ContextEdit(Protocol):
    """A context editing strategy: edits a message list in place (context_editing.py:44)."""

    def apply(
        self,
        messages: list[AnyMessage],
        *,
        count_tokens: TokenCounter,
    ) -> None:
        """Apply an edit to the message list in place."""
        ...


# --8<-- [start:clear_tool_uses_edit]
@dataclass(slots=True)
class ClearToolUsesEdit(ContextEdit):
    """Clear tool outputs when the messages pass ``trigger`` tokens (context_editing.py:58)."""

    trigger: int = 100_000
    """Token count that triggers the edit."""

    clear_at_least: int = 0
    """Minimum number of tokens to reclaim when the edit runs."""

    keep: int = 3
    """Number of most recent tool results that must be preserved."""

    clear_tool_inputs: bool = False
    """Whether to clear the originating tool call parameters on the AI message."""

    exclude_tools: Sequence[str] = ()
    """List of tool names to exclude from clearing."""

    placeholder: str = DEFAULT_TOOL_PLACEHOLDER
    """Placeholder text inserted for cleared tool outputs."""

    def apply(
        self,
        messages: list[AnyMessage],
        *,
        count_tokens: TokenCounter,
    ) -> None:
        """Over ``trigger``: replace the older tool results (all but the last ``keep``) with
        the placeholder, oldest first, until ``clear_at_least`` tokens are reclaimed (l.79)."""
        tokens = count_tokens(messages)

        if tokens <= self.trigger:
            return

        candidates = [
            (idx, msg) for idx, msg in enumerate(messages) if isinstance(msg, ToolMessage)
        ]

        if self.keep >= len(candidates):
            candidates = []
        elif self.keep:
            candidates = candidates[: -self.keep]

        cleared_tokens = 0
        excluded_tools = set(self.exclude_tools)

        for idx, tool_message in candidates:
            if tool_message.response_metadata.get("context_editing", {}).get("cleared"):
                continue

            ai_message = next(
                (m for m in reversed(messages[:idx]) if isinstance(m, AIMessage)), None
            )

            if ai_message is None:
                continue

            tool_call = next(
                (
                    call
                    for call in ai_message.tool_calls
                    if call.get("id") == tool_message.tool_call_id
                ),
                None,
            )

            if tool_call is None:
                continue

            if (tool_message.name or tool_call["name"]) in excluded_tools:
                continue

            messages[idx] = tool_message.model_copy(
                update={
                    "artifact": None,
                    "content": self.placeholder,
                    "response_metadata": {
                        **tool_message.response_metadata,
                        "context_editing": {
                            "cleared": True,
                            "strategy": "clear_tool_uses",
                        },
                    },
                }
            )

            if self.clear_tool_inputs:
                messages[messages.index(ai_message)] = self._build_cleared_tool_input_message(
                    ai_message,
                    tool_message.tool_call_id,
                )

            if self.clear_at_least > 0:
                new_token_count = count_tokens(messages)
                cleared_tokens = max(0, tokens - new_token_count)
                if cleared_tokens >= self.clear_at_least:
                    break

        return

    @staticmethod
    def _build_cleared_tool_input_message(
        message: AIMessage,
        tool_call_id: str,
    ) -> AIMessage:
        """A copy of ``message`` whose call ``tool_call_id`` has empty args, noted in
        ``response_metadata["context_editing"]`` (l.158)."""
        updated_tool_calls = []
        cleared_any = False
        for tool_call in message.tool_calls:
            updated_call = dict(tool_call)
            if updated_call.get("id") == tool_call_id:
                updated_call["args"] = {}
                cleared_any = True
            updated_tool_calls.append(updated_call)

        metadata = dict(getattr(message, "response_metadata", {}))
        context_entry = dict(metadata.get("context_editing", {}))
        if cleared_any:
            cleared_ids = set(context_entry.get("cleared_tool_inputs", []))
            cleared_ids.add(tool_call_id)
            context_entry["cleared_tool_inputs"] = sorted(cleared_ids)
            metadata["context_editing"] = context_entry

        return message.model_copy(
            update={
                "tool_calls": updated_tool_calls,
                "response_metadata": metadata,
            }
        )


# --8<-- [end:clear_tool_uses_edit]


# --8<-- [start:context_editing_middleware]
class ContextEditingMiddleware(AgentMiddleware[AgentState[ResponseT], ContextT, ResponseT]):
    """Apply ``edits`` (default: one ``ClearToolUsesEdit()``) to a deep copy of the request's
    messages before every model call (context_editing.py:187)."""

    edits: list[ContextEdit]
    token_count_method: Literal["approximate", "model"]
    token_counter: TokenCounter | None

    def __init__(
        self,
        *,
        edits: Iterable[ContextEdit] | None = None,
        token_count_method: Literal["approximate", "model"] = "approximate",  # noqa: S107
        token_counter: TokenCounter | None = None,
    ) -> None:
        """``token_counter``, if given, wins over ``token_count_method`` (l.201)."""
        super().__init__()
        self.edits = list(edits or (ClearToolUsesEdit(),))
        self.token_count_method = token_count_method
        self.token_counter = token_counter

    def _resolve_token_counter(self, request: ModelRequest[ContextT]) -> TokenCounter:
        """The custom counter, the approximate one, or the model's own (l.233)."""
        if self.token_counter is not None:
            return self.token_counter

        if self.token_count_method == "approximate":  # noqa: S105
            return count_tokens_approximately

        system_msg = [request.system_message] if request.system_message else []

        def count_tokens(messages: Sequence[BaseMessage]) -> int:
            return request.model.get_num_tokens_from_messages(  # type: ignore[attr-defined]
                system_msg + list(messages), request.tools
            )

        return count_tokens

    def wrap_model_call(
        self,
        request: ModelRequest[ContextT],
        handler: Callable[[ModelRequest[ContextT]], ModelResponse[ResponseT]],
    ) -> ModelResponse[ResponseT] | AIMessage:
        """Edit a copy of the messages, then call the model with it (l.250)."""
        if not request.messages:
            return handler(request)

        count_tokens = self._resolve_token_counter(request)

        edited_messages = deepcopy(list(request.messages))
        for edit in self.edits:
            edit.apply(edited_messages, count_tokens=count_tokens)

        return handler(request.override(messages=edited_messages))

    async def awrap_model_call(
        self,
        request: ModelRequest[ContextT],
        handler: Callable[[ModelRequest[ContextT]], Awaitable[ModelResponse[ResponseT]]],
    ) -> ModelResponse[ResponseT] | AIMessage:
        """Async ``wrap_model_call`` (l.276)."""
        if not request.messages:
            return await handler(request)

        count_tokens = self._resolve_token_counter(request)

        edited_messages = deepcopy(list(request.messages))
        for edit in self.edits:
            edit.apply(edited_messages, count_tokens=count_tokens)

        return await handler(request.override(messages=edited_messages))


# --8<-- [end:context_editing_middleware]
