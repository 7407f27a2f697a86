"""Day 10: resolve a dynamic model at every step, and route between a cheap and a strong model.

Lesson:    course/days/day10-dynamic-model.md
Notebook:  notebooks/day10_dynamic_model.ipynb
Check:     miniagent check day10        Stuck?  miniagent hint day10
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from miniagent.messages import ToolMessage
from miniagent.prebuilt.chat_agent_executor import _get_prompt_runnable, _get_state_value
from miniagent.runnables import Runnable
from miniagent.runtime import Runtime
from miniagent_course.todo import NotStarted


def make_resolve_model(
    *,
    model: Any,
    prompt: Any,
    is_dynamic_model: bool,
    static_model: Runnable | None,
    tools: Sequence[Any] = (),
) -> Callable[[Any, Runtime], Runnable]:
    """Build and return ``_resolve_model(state, runtime)``, as ``create_react_agent`` does.

    ``create_react_agent`` defines ``_resolve_model`` inside itself, so it can use the values it
    computed. Here they arrive as arguments (the graders take them from a real agent):

    * ``model`` -- what the user passed as ``model``: for a dynamic model, a callable
      ``(state, runtime) -> chat model`` (for a static one, the chat model, maybe tool-bound);
    * ``prompt`` -- what the user passed as ``prompt`` (``None``, a str, a SystemMessage, a
      callable or a Runnable);
    * ``is_dynamic_model`` -- True when ``model`` is such a callable;
    * ``static_model`` -- the ``prompt | model`` Runnable built once (``None`` when dynamic);
    * ``tools`` -- the agent's tools, in scope here as they are in ``create_react_agent``.

    The function you return must:

    * for a static model, return ``static_model`` itself;
    * for a dynamic model, on EVERY call, call ``model(state, runtime)`` once, with the state
      and the runtime it was given, and return ``_get_prompt_runnable(prompt) | <what it
      returned>``: this step's prompt piped into this step's model. Use the returned model
      exactly as it is: do not bind ``tools`` to it (the callable binds what it wants) and do
      not keep it for the next call (the next step may need another model).

    Its parameters must be ``(state, runtime)``: the agent calls it positionally.

    Upstream: ``langgraph/prebuilt/chat_agent_executor.py:599`` (langgraph-prebuilt 1.1.3).
    """
    # TODO(day10): define _resolve_model(state, runtime) here and return it.
    raise NotStarted("day10")


def choose_model(state: Any, runtime: Runtime, *, cheap: Any, strong: Any) -> Any:
    """Pick the model for this step of a dynamic agent: ``cheap`` or ``strong``.

    The agent calls it as ``model=lambda state, runtime: choose_model(state, runtime,
    cheap=..., strong=...)``, with two models the caller has already tool-bound. The rules:

    1. the last message of the history is a ``ToolMessage`` whose ``status`` is ``"error"``
       (a tool call failed; the model must recover) -> ``strong``;
    2. the history holds more than 4 messages (5 or more: the cheap model had its chance)
       -> ``strong``;
    3. otherwise -> ``cheap``.

    "The history" is the state's ``messages``; ``state`` is a dict (``AgentState``) or a
    pydantic ``AgentStatePydantic``, so read it with ``_get_state_value``. Only the *last*
    message counts for rule 1: an earlier failed tool does not. Return ``cheap`` or ``strong``
    itself, unchanged (no ``bind_tools``, no copy). ``runtime`` is part of the signature the
    agent calls; this policy does not need it.
    """
    # TODO(day10): return cheap or strong.
    raise NotStarted("day10")
