"""Cap the number of model calls. Mirrors ``langchain/agents/middleware/model_call_limit.py``.

Two counters in state: ``thread_model_call_count`` (checkpointed, so it adds up across the
runs of a thread) and ``run_model_call_count`` (an ``UntrackedValue``: never checkpointed, so
every run starts at 0). ``before_model`` checks them, ``after_model`` counts the call.
Nothing is left out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from typing_extensions import NotRequired, override

from miniagent.agents.middleware.types import (
    AgentMiddleware,
    AgentState,
    ContextT,
    PrivateStateAttr,
    ResponseT,
    hook_config,
)
from miniagent.graph.state import UntrackedValue
from miniagent.messages import AIMessage

if TYPE_CHECKING:
    from miniagent.runtime import Runtime

__all__ = ["ModelCallLimitExceededError", "ModelCallLimitMiddleware", "ModelCallLimitState"]


class ModelCallLimitState(AgentState[ResponseT]):
    """``AgentState`` plus the two private counters (model_call_limit.py:24)."""

    thread_model_call_count: NotRequired[Annotated[int, PrivateStateAttr]]
    run_model_call_count: NotRequired[Annotated[int, UntrackedValue, PrivateStateAttr]]


def _build_limit_exceeded_message(
    thread_count: int,
    run_count: int,
    thread_limit: int | None,
    run_limit: int | None,
) -> str:
    """``"Model call limits exceeded: run limit (2/2)"`` (model_call_limit.py:37)."""
    exceeded_limits = []
    if thread_limit is not None and thread_count >= thread_limit:
        exceeded_limits.append(f"thread limit ({thread_count}/{thread_limit})")
    if run_limit is not None and run_count >= run_limit:
        exceeded_limits.append(f"run limit ({run_count}/{run_limit})")

    return f"Model call limits exceeded: {', '.join(exceeded_limits)}"


class ModelCallLimitExceededError(Exception):
    """Raised with ``exit_behavior="error"`` when a limit is reached (model_call_limit.py:63)."""

    def __init__(
        self,
        thread_count: int,
        run_count: int,
        thread_limit: int | None,
        run_limit: int | None,
    ) -> None:
        """Keep the counts and limits; the message is the ``"end"`` message's text (l.70)."""
        self.thread_count = thread_count
        self.run_count = run_count
        self.thread_limit = thread_limit
        self.run_limit = run_limit

        msg = _build_limit_exceeded_message(thread_count, run_count, thread_limit, run_limit)
        super().__init__(msg)


# --8<-- [start:model_call_limit_middleware]
class ModelCallLimitMiddleware(
    AgentMiddleware[ModelCallLimitState[ResponseT], ContextT, ResponseT]
):
    """Stop the agent after ``thread_limit`` / ``run_limit`` model calls (model_call_limit.py:94).

    ``exit_behavior="end"``: add ``AIMessage("Model call limits exceeded: ...")`` and jump to
    the end; ``"error"``: raise ``ModelCallLimitExceededError``.
    """

    state_schema = ModelCallLimitState  # type: ignore[assignment]

    def __init__(
        self,
        *,
        thread_limit: int | None = None,
        run_limit: int | None = None,
        exit_behavior: Literal["end", "error"] = "end",
    ) -> None:
        """At least one limit; ``exit_behavior`` is ``"end"`` or ``"error"`` (l.126)."""
        super().__init__()

        if thread_limit is None and run_limit is None:
            msg = "At least one limit must be specified (thread_limit or run_limit)"
            raise ValueError(msg)

        if exit_behavior not in {"end", "error"}:
            msg = f"Invalid exit_behavior: {exit_behavior}. Must be 'end' or 'error'"
            raise ValueError(msg)

        self.thread_limit = thread_limit
        self.run_limit = run_limit
        self.exit_behavior = exit_behavior

    @hook_config(can_jump_to=["end"])
    @override
    def before_model(
        self, state: ModelCallLimitState[ResponseT], runtime: Runtime[ContextT]
    ) -> dict[str, Any] | None:
        """Before the call: a limit already reached ends the run or raises (l.168)."""
        thread_count = state.get("thread_model_call_count", 0)
        run_count = state.get("run_model_call_count", 0)

        # Check if any limits will be exceeded after the next call
        thread_limit_exceeded = self.thread_limit is not None and thread_count >= self.thread_limit
        run_limit_exceeded = self.run_limit is not None and run_count >= self.run_limit

        if thread_limit_exceeded or run_limit_exceeded:
            if self.exit_behavior == "error":
                raise ModelCallLimitExceededError(
                    thread_count=thread_count,
                    run_count=run_count,
                    thread_limit=self.thread_limit,
                    run_limit=self.run_limit,
                )
            if self.exit_behavior == "end":
                # Create a message indicating the limit was exceeded
                limit_message = _build_limit_exceeded_message(
                    thread_count, run_count, self.thread_limit, self.run_limit
                )
                limit_ai_message = AIMessage(content=limit_message)

                return {"jump_to": "end", "messages": [limit_ai_message]}

        return None

    @hook_config(can_jump_to=["end"])
    async def abefore_model(
        self,
        state: ModelCallLimitState[ResponseT],
        runtime: Runtime[ContextT],
    ) -> dict[str, Any] | None:
        """Async ``before_model`` (l.213)."""
        return self.before_model(state, runtime)

    @override
    def after_model(
        self, state: ModelCallLimitState[ResponseT], runtime: Runtime[ContextT]
    ) -> dict[str, Any] | None:
        """After the call: both counters up by one (l.236)."""
        return {
            "thread_model_call_count": state.get("thread_model_call_count", 0) + 1,
            "run_model_call_count": state.get("run_model_call_count", 0) + 1,
        }

    async def aafter_model(
        self,
        state: ModelCallLimitState[ResponseT],
        runtime: Runtime[ContextT],
    ) -> dict[str, Any] | None:
        """Async ``after_model`` (l.253)."""
        return self.after_model(state, runtime)


# --8<-- [end:model_call_limit_middleware]
