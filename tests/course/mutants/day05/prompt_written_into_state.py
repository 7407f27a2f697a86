"""Mutant: puts the system message into the state's own message list (`insert(0, ...)`) instead
of building a new list for the model. The state changes, and the prompt piles up."""

from __future__ import annotations

import inspect
from typing import Any

from miniagent.messages import SystemMessage
from miniagent.prebuilt.chat_agent_executor import PROMPT_RUNNABLE_NAME, _get_state_value
from miniagent.runnables import Runnable, RunnableCallable


def _get_prompt_runnable(prompt: Any) -> Runnable:
    def prepend(system_message: SystemMessage) -> Runnable:
        def add_to_state(state: Any) -> Any:
            messages = _get_state_value(state, "messages")
            messages.insert(0, system_message)
            return messages

        return RunnableCallable(add_to_state, name=PROMPT_RUNNABLE_NAME)

    if prompt is None:
        return RunnableCallable(
            lambda state: _get_state_value(state, "messages"), name=PROMPT_RUNNABLE_NAME
        )
    elif isinstance(prompt, str):
        return prepend(SystemMessage(content=prompt))
    elif isinstance(prompt, SystemMessage):
        return prepend(prompt)
    elif inspect.iscoroutinefunction(prompt):
        return RunnableCallable(None, prompt, name=PROMPT_RUNNABLE_NAME)
    elif callable(prompt):
        return RunnableCallable(prompt, name=PROMPT_RUNNABLE_NAME)
    elif isinstance(prompt, Runnable):
        return prompt
    raise ValueError(f"Got unexpected type for `prompt`: {type(prompt)}")
