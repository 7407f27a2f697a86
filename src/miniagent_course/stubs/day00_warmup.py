"""Day 00 warm-up: read one value from an agent state, whatever the state's type.

Lesson:    course/days/day00-welcome.md
Notebook:  notebooks/day00_welcome.ipynb
Check:     miniagent check day00        Stuck?  miniagent hint day00
"""

from __future__ import annotations

from typing import Any

from miniagent_course.todo import NotStarted


def _get_state_value(state: Any, key: str, default: Any = None) -> Any:
    """Return the value stored under ``key`` in the agent's ``state``, or ``default``.

    An agent state comes in two shapes, and this function hides the difference:

    * a ``dict`` (``AgentState`` is a TypedDict, so at run time it is a plain dict, and so is
      any dict subclass): return ``state[key]``, or ``default`` when the key is missing;
    * any other object (a pydantic ``AgentStatePydantic``, a dataclass...): return the
      attribute ``state.<key>``, or ``default`` when there is no such attribute.

    Return the stored object itself, even when it is falsy (``0``, ``[]``, ``None``): only a
    *missing* key or attribute gives ``default``. Never raise for a missing one.

    >>> _get_state_value({"messages": ["hi"]}, "messages")
    ['hi']
    >>> _get_state_value({"messages": []}, "remaining_steps", 25)
    25

    Upstream: ``langgraph/prebuilt/chat_agent_executor.py:129`` (langgraph-prebuilt 1.1.3).
    """
    # TODO(day00): replace the line below with your code (one expression is enough).
    raise NotStarted("day00")
