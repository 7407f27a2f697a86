"""Detect and handle personal data in the conversation. Mirrors
``langchain/agents/middleware/pii.py``.

``PIIMiddleware("email", strategy="redact")``: ``before_model`` rewrites the last user message
(``apply_to_input``, default) and the tool results after the last AI message
(``apply_to_tool_results``); ``after_model`` rewrites the last AI message
(``apply_to_output``). A rewritten message keeps its id, so ``add_messages`` replaces it in
state. The ``"block"`` strategy raises ``PIIDetectionError`` instead.

Left out: the stream transformer (``_PIIStreamTransformer``, installed as ``transformers`` with
``apply_to_output`` or ``apply_to_tool_results``) that redacts streamed deltas and tool events of
the v3 event stream: the miniature has no stream transformers. The state-level hooks, which
upstream calls the canonical enforcer, are all here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from typing_extensions import override

from miniagent.agents.middleware._redaction import (
    PIIDetectionError,
    PIIMatch,
    RedactionRule,
    ResolvedRedactionRule,
    apply_strategy,
    detect_credit_card,
    detect_email,
    detect_ip,
    detect_mac_address,
    detect_url,
)
from miniagent.agents.middleware.types import (
    AgentMiddleware,
    AgentState,
    ContextT,
    ResponseT,
    hook_config,
)
from miniagent.messages import AIMessage, HumanMessage, ToolMessage

if TYPE_CHECKING:
    from collections.abc import Callable

    from miniagent.runtime import Runtime

__all__ = [
    "PIIDetectionError",
    "PIIMatch",
    "PIIMiddleware",
    "detect_credit_card",
    "detect_email",
    "detect_ip",
    "detect_mac_address",
    "detect_url",
]


# --8<-- [start:pii_middleware]
class PIIMiddleware(AgentMiddleware[AgentState[ResponseT], ContextT, ResponseT]):
    """Detect one PII type (``email``, ``credit_card``, ``ip``, ``mac_address``, ``url``, or
    a custom one with a ``detector``) and ``block``, ``redact``, ``mask`` or ``hash`` it
    (pii.py:513)."""

    def __init__(
        self,
        # the literals are covered by 'str', but keep the hints for the caller
        pii_type: Literal["email", "credit_card", "ip", "mac_address", "url"] | str,  # noqa: PYI051
        *,
        strategy: Literal["block", "redact", "mask", "hash"] = "redact",
        detector: Callable[[str], list[PIIMatch]] | str | None = None,
        apply_to_input: bool = True,
        apply_to_output: bool = False,
        apply_to_tool_results: bool = False,
    ) -> None:
        """Resolve the rule; an unknown ``pii_type`` without a ``detector`` is a
        ``ValueError`` (l.577)."""
        super().__init__()

        self.apply_to_input = apply_to_input
        self.apply_to_output = apply_to_output
        self.apply_to_tool_results = apply_to_tool_results

        self._resolved_rule: ResolvedRedactionRule = RedactionRule(
            pii_type=pii_type,
            strategy=strategy,
            detector=detector,
        ).resolve()
        self.pii_type = self._resolved_rule.pii_type
        self.strategy = self._resolved_rule.strategy
        self.detector = self._resolved_rule.detector

    @property
    def name(self) -> str:
        """``PIIMiddleware[email]``: one instance per PII type (l.681)."""
        return f"{self.__class__.__name__}[{self.pii_type}]"

    def _process_content(
        self, content: str | list[str | dict[str, Any]]
    ) -> tuple[str | list[str | dict[str, Any]], bool]:
        """``(content with the rule applied, whether it changed)``; in block-list content only
        the text is touched, so the blocks keep their shape (l.685)."""
        if isinstance(content, str):
            matches = self.detector(content)
            if not matches:
                return content, False
            return apply_strategy(content, matches, self.strategy), True

        new_blocks: list[str | dict[str, Any]] = []
        changed = False
        for block in content:
            new_block: str | dict[str, Any] = block
            text = block if isinstance(block, str) else block.get("text")
            if isinstance(text, str) and (matches := self.detector(text)):
                redacted = apply_strategy(text, matches, self.strategy)
                new_block = redacted if isinstance(block, str) else {**block, "text": redacted}
                changed = True
            new_blocks.append(new_block)
        return (new_blocks, True) if changed else (content, False)

    @hook_config(can_jump_to=["end"])
    @override
    def before_model(
        self,
        state: AgentState[Any],
        runtime: Runtime[ContextT],
    ) -> dict[str, Any] | None:
        """The last user message and the latest tool results, rewritten (l.721)."""
        if not self.apply_to_input and not self.apply_to_tool_results:
            return None

        messages = state["messages"]
        if not messages:
            return None

        new_messages = list(messages)
        any_modified = False

        # Check user input if enabled
        if self.apply_to_input:
            # Get last user message
            last_user_msg = None
            last_user_idx = None
            for i in range(len(messages) - 1, -1, -1):
                if isinstance(messages[i], HumanMessage):
                    last_user_msg = messages[i]
                    last_user_idx = i
                    break

            if last_user_idx is not None and last_user_msg and last_user_msg.content:
                new_content, changed = self._process_content(last_user_msg.content)

                if changed:
                    new_messages[last_user_idx] = last_user_msg.model_copy(
                        update={"content": new_content}
                    )
                    any_modified = True

        # Check tool results if enabled
        if self.apply_to_tool_results:
            # Find the last AIMessage, then process all `ToolMessage` objects after it
            last_ai_idx = None
            for i in range(len(messages) - 1, -1, -1):
                if isinstance(messages[i], AIMessage):
                    last_ai_idx = i
                    break

            if last_ai_idx is not None:
                # Get all tool messages after the last AI message
                for i in range(last_ai_idx + 1, len(messages)):
                    msg = messages[i]
                    if isinstance(msg, ToolMessage):
                        tool_msg = msg
                        if not tool_msg.content:
                            continue

                        new_content, changed = self._process_content(tool_msg.content)

                        if not changed:
                            continue

                        new_messages[i] = tool_msg.model_copy(update={"content": new_content})
                        any_modified = True

        if any_modified:
            return {"messages": new_messages}

        return None

    @hook_config(can_jump_to=["end"])
    async def abefore_model(
        self,
        state: AgentState[Any],
        runtime: Runtime[ContextT],
    ) -> dict[str, Any] | None:
        """Async ``before_model`` (l.801)."""
        return self.before_model(state, runtime)

    @override
    def after_model(
        self,
        state: AgentState[Any],
        runtime: Runtime[ContextT],
    ) -> dict[str, Any] | None:
        """The last AI message, rewritten (l.822)."""
        if not self.apply_to_output:
            return None

        messages = state["messages"]
        if not messages:
            return None

        # Get last AI message
        last_ai_msg = None
        last_ai_idx = None
        for i in range(len(messages) - 1, -1, -1):
            msg = messages[i]
            if isinstance(msg, AIMessage):
                last_ai_msg = msg
                last_ai_idx = i
                break

        if last_ai_idx is None or not last_ai_msg or not last_ai_msg.content:
            return None

        new_content, changed = self._process_content(last_ai_msg.content)

        if not changed:
            return None

        new_messages = list(messages)
        new_messages[last_ai_idx] = last_ai_msg.model_copy(update={"content": new_content})

        return {"messages": new_messages}

    async def aafter_model(
        self,
        state: AgentState[Any],
        runtime: Runtime[ContextT],
    ) -> dict[str, Any] | None:
        """Async ``after_model`` (l.870)."""
        return self.after_model(state, runtime)


# --8<-- [end:pii_middleware]
