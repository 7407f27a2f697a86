"""Day 05, solved with a match statement and one shared "put this message in front" helper."""

from __future__ import annotations

import inspect
from typing import Any

from miniagent.messages import SystemMessage
from miniagent.prebuilt.chat_agent_executor import PROMPT_RUNNABLE_NAME, _get_state_value
from miniagent.runnables import Runnable, RunnableCallable


def _in_front(message: SystemMessage) -> Runnable:
    def with_system_message(state):
        return [message, *_get_state_value(state, "messages")]

    return RunnableCallable(with_system_message, name=PROMPT_RUNNABLE_NAME)


def _get_prompt_runnable(prompt: Any) -> Runnable:
    match prompt:
        case None:
            return RunnableCallable(
                lambda state: _get_state_value(state, "messages"), name=PROMPT_RUNNABLE_NAME
            )
        case str():
            return _in_front(SystemMessage(content=prompt))
        case SystemMessage():
            return _in_front(prompt)
        case _ if inspect.iscoroutinefunction(prompt):
            return RunnableCallable(None, prompt, name=PROMPT_RUNNABLE_NAME)
        case _ if callable(prompt):
            return RunnableCallable(prompt, name=PROMPT_RUNNABLE_NAME)
        case Runnable():
            return prompt
        case _:
            raise ValueError(f"Got unexpected type for `prompt`: {type(prompt)}")


def predictions() -> dict[str, list[tuple[str, str]] | str]:
    return {
        "none": [("human", "hi")],
        "empty_str": [("system", ""), ("human", "hi")],
        "str": [("system", "Be brief."), ("human", "hi")],
        "system_message": [("system", "Be terse."), ("human", "hi")],
        "function": [("system", "messages, remaining_steps"), ("human", "hi")],
        "returns_str": [("human", "Just answer.")],
        "config": [("system", "fr"), ("human", "hi")],
        "runtime": [("system", "Ada"), ("human", "hi")],
        "other_param": "TypeError",
        "async_function": "TypeError",
        "runnable": [("system", "Piped."), ("human", "hi")],
        "int": "ValueError",
        "message_list": "ValueError",
    }
