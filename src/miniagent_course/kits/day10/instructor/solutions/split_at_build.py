"""Day 10, solved by deciding static or dynamic once, when the maker runs: two different inner
functions, the sequence built with ``RunnableSequence(...)`` instead of ``|``, and a ``match``
on the last message for the policy."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from miniagent.messages import ToolMessage
from miniagent.prebuilt.chat_agent_executor import _get_prompt_runnable
from miniagent.runnables import RunnableSequence


def make_resolve_model(
    *,
    model: Any,
    prompt: Any,
    is_dynamic_model: bool,
    static_model: Any,
    tools: Sequence[Any] = (),
) -> Callable[[Any, Any], Any]:
    if not is_dynamic_model:

        def resolve_static(state: Any, runtime: Any) -> Any:
            return static_model

        return resolve_static

    def resolve_dynamic(state: Any, runtime: Any) -> Any:
        chosen = model(state, runtime)
        return RunnableSequence(_get_prompt_runnable(prompt), chosen)  # flattens like `|`

    return resolve_dynamic


def choose_model(state: Any, runtime: Any, *, cheap: Any, strong: Any) -> Any:
    messages = state["messages"] if isinstance(state, dict) else state.messages
    match messages[-1:]:
        case [ToolMessage(status="error")]:
            return strong
    return strong if len(messages) >= 5 else cheap
