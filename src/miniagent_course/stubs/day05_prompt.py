"""Day 05: turn any ``prompt`` a user may pass into one Runnable: state -> model input.

Lesson:    course/days/day05-prompt.md
Notebook:  notebooks/day05_prompt.ipynb
Check:     miniagent check day05        Stuck?  miniagent hint day05
"""

from __future__ import annotations

import inspect  # noqa: F401  (you will need it)
from typing import Any

from miniagent.messages import SystemMessage  # noqa: F401
from miniagent.prebuilt.chat_agent_executor import (  # noqa: F401
    PROMPT_RUNNABLE_NAME,
    _get_state_value,
)
from miniagent.runnables import Runnable, RunnableCallable  # noqa: F401
from miniagent_course.todo import NotStarted


def _get_prompt_runnable(prompt: Any) -> Runnable:
    """Return a Runnable that maps the agent's state to what the model must see.

    ``prompt`` is what the user passed to ``create_react_agent(..., prompt=...)``. Check it in
    this order and stop at the first match:

    1. ``None``: the state's messages, unchanged.
    2. a ``str``: a ``SystemMessage(content=prompt)``, built once (here, not on every call),
       followed by the state's messages.
    3. a ``SystemMessage``: that very message, followed by the state's messages.
    4. an ``async def`` function (``inspect.iscoroutinefunction``): an async-only Runnable
       (``RunnableCallable(None, prompt, ...)``), so a sync ``invoke`` fails and ``ainvoke``
       awaits it.
    5. any other callable: a Runnable that calls ``prompt(state)`` (the whole state).
    6. a ``Runnable``: ``prompt`` itself, not wrapped.
    7. anything else: ``ValueError("Got unexpected type for `prompt`: <class '...'>")``
       (the text is ``f"Got unexpected type for `prompt`: {type(prompt)}"``).

    Every Runnable you build (branches 1 to 5) is a ``RunnableCallable`` named
    ``PROMPT_RUNNABLE_NAME`` (``"Prompt"``). Read the messages with
    ``_get_state_value(state, "messages")``: the state may be a dict or a pydantic object.
    Never change the state: the prompt shapes the model's input, it is not stored.

    >>> _get_prompt_runnable("Be brief.").invoke({"messages": []})
    [SystemMessage(content='Be brief.', ...)]

    Upstream: ``langgraph/prebuilt/chat_agent_executor.py:137`` (langgraph-prebuilt 1.1.3).
    """
    # TODO(day05): replace the line below with your code (seven branches, in the order above).
    raise NotStarted("day05")
