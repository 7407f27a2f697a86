"""Mutant: "no prompt, nothing to do" returns None instead of a Runnable, so
`_get_prompt_runnable(None) | model` has nothing to pipe."""

from __future__ import annotations

import inspect
from typing import Any

from miniagent.messages import SystemMessage
from miniagent.prebuilt.chat_agent_executor import PROMPT_RUNNABLE_NAME, _get_state_value
from miniagent.runnables import Runnable, RunnableCallable


def _get_prompt_runnable(prompt: Any) -> Runnable:
    if prompt is None:
        return None  # type: ignore[return-value]
    elif isinstance(prompt, str):
        system_message = SystemMessage(content=prompt)
        return RunnableCallable(
            lambda state: [system_message] + _get_state_value(state, "messages"),
            name=PROMPT_RUNNABLE_NAME,
        )
    elif isinstance(prompt, SystemMessage):
        return RunnableCallable(
            lambda state: [prompt] + _get_state_value(state, "messages"),
            name=PROMPT_RUNNABLE_NAME,
        )
    elif inspect.iscoroutinefunction(prompt):
        return RunnableCallable(None, prompt, name=PROMPT_RUNNABLE_NAME)
    elif callable(prompt):
        return RunnableCallable(prompt, name=PROMPT_RUNNABLE_NAME)
    elif isinstance(prompt, Runnable):
        return prompt
    raise ValueError(f"Got unexpected type for `prompt`: {type(prompt)}")
