"""Mutant: builds the str prompt's SystemMessage inside the lambda, on every call, instead of
once when the runnable is built (and copies a SystemMessage prompt instead of using it)."""

from __future__ import annotations

import inspect
from typing import Any

from miniagent.messages import SystemMessage
from miniagent.prebuilt.chat_agent_executor import PROMPT_RUNNABLE_NAME, _get_state_value
from miniagent.runnables import Runnable, RunnableCallable


def _get_prompt_runnable(prompt: Any) -> Runnable:
    if prompt is None:
        return RunnableCallable(
            lambda state: _get_state_value(state, "messages"), name=PROMPT_RUNNABLE_NAME
        )
    elif isinstance(prompt, str):
        return RunnableCallable(
            lambda state: [SystemMessage(content=prompt)] + _get_state_value(state, "messages"),
            name=PROMPT_RUNNABLE_NAME,
        )
    elif isinstance(prompt, SystemMessage):
        return RunnableCallable(
            lambda state: (
                [SystemMessage(content=prompt.content)] + _get_state_value(state, "messages")
            ),
            name=PROMPT_RUNNABLE_NAME,
        )
    elif inspect.iscoroutinefunction(prompt):
        return RunnableCallable(None, prompt, name=PROMPT_RUNNABLE_NAME)
    elif callable(prompt):
        return RunnableCallable(prompt, name=PROMPT_RUNNABLE_NAME)
    elif isinstance(prompt, Runnable):
        return prompt
    raise ValueError(f"Got unexpected type for `prompt`: {type(prompt)}")
