"""Day 05, solved by refusing bad prompts first, then sorting functions from messages.

Every function (sync or async) becomes a RunnableCallable with the function in the right slot;
every message prompt becomes one "head + messages" step, the head empty for None.
"""

from __future__ import annotations

import inspect
from typing import Any

from miniagent.messages import SystemMessage
from miniagent.prebuilt.chat_agent_executor import PROMPT_RUNNABLE_NAME, _get_state_value
from miniagent.runnables import Runnable, RunnableCallable

ACCEPTED = (str, SystemMessage, Runnable)


def _get_prompt_runnable(prompt: Any) -> Runnable:
    if prompt is not None and not callable(prompt) and not isinstance(prompt, ACCEPTED):
        raise ValueError(f"Got unexpected type for `prompt`: {type(prompt)}")
    if callable(prompt):  # before the Runnable test: a callable Runnable counts as a function
        is_async = inspect.iscoroutinefunction(prompt)
        sync, asynchronous = (None, prompt) if is_async else (prompt, None)
        return RunnableCallable(sync, asynchronous, name=PROMPT_RUNNABLE_NAME)
    if isinstance(prompt, Runnable):
        return prompt
    if prompt is None:
        head = []
    elif isinstance(prompt, SystemMessage):
        head = [prompt]
    else:
        head = [SystemMessage(content=prompt)]  # made once, here
    return RunnableCallable(
        lambda state: head + list(_get_state_value(state, "messages")), name=PROMPT_RUNNABLE_NAME
    )


def predictions() -> dict[str, list[tuple[str, str]] | str]:
    hi = ("human", "hi")

    def system(text: str) -> list[tuple[str, str]]:
        return [("system", text), hi]

    table: dict[str, list[tuple[str, str]] | str] = {
        "none": [hi],
        "returns_str": [("human", "Just answer.")],
    }
    table.update(
        empty_str=system(""),
        str=system("Be brief."),
        system_message=system("Be terse."),
        function=system("messages, remaining_steps"),
        config=system("fr"),
        runtime=system("Ada"),
        runnable=system("Piped."),
    )
    for case in ("other_param", "async_function"):
        table[case] = "TypeError"  # a missing argument; no sync function to call
    for case in ("int", "message_list"):
        table[case] = "ValueError"  # refused while the agent is built
    return table
