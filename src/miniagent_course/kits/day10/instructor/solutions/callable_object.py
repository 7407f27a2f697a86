"""Day 10, solved with a callable object that keeps the four values as attributes, and a policy
that computes its two reasons first and indexes a pair with them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from miniagent.prebuilt.chat_agent_executor import _get_prompt_runnable, _get_state_value


@dataclass(frozen=True)
class Resolver:
    model: Any
    prompt: Any
    is_dynamic_model: bool
    static_model: Any

    def __call__(self, state: Any, runtime: Any, /) -> Any:
        if self.is_dynamic_model:
            prompt_runnable = _get_prompt_runnable(self.prompt)
            return prompt_runnable | self.model(state, runtime)
        return self.static_model


def make_resolve_model(
    *,
    model: Any,
    prompt: Any,
    is_dynamic_model: bool,
    static_model: Any,
    tools: Sequence[Any] = (),
) -> Resolver:
    return Resolver(model, prompt, is_dynamic_model, static_model)


LONG = 5  # this many messages or more: the strong model


def choose_model(state: Any, runtime: Any, *, cheap: Any, strong: Any) -> Any:
    history = _get_state_value(state, "messages", [])
    last = history[-1] if len(history) else None
    failed = getattr(last, "type", None) == "tool" and last.status == "error"
    return (cheap, strong)[failed or len(history) >= LONG]
