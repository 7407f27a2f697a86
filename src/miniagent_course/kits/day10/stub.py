"""Day 10: resolve a dynamic model at every step, and route between a cheap and a strong model.

Lesson:    course/days/day10-dynamic-model.md
Notebook:  notebooks/day10_dynamic_model.ipynb
Check:     miniagent check day10        Stuck?  miniagent hint day10

Two parts, graded separately:

(1) ``make_resolve_model``: the function the agent node asks for this step's model.
(2) Extend: ``choose_model``, a routing policy of your own that a dynamic agent runs as its model
    function. Upstream has none; its contract is in its docstring.
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

    ``create_react_agent`` defines ``_resolve_model`` inside itself and closes over values it
    computed while building the agent. Here they arrive as arguments (the graders take them
    from a real agent, then put the function you return into that agent, in its place).

    Input:

    * ``model`` -- what the user passed as ``model``: for a dynamic model, a callable
      ``(state, runtime) -> chat model``; for a static one, the chat model;
    * ``prompt`` -- what the user passed as ``prompt`` (``None``, a str, a SystemMessage, a
      callable or a Runnable);
    * ``is_dynamic_model`` -- True when ``model`` is such a callable;
    * ``static_model`` -- the pipeline ``prompt | model`` built once (``None`` when dynamic);
    * ``tools`` -- the agent's tools, in scope as they are in ``create_react_agent``.

    Output: ``_resolve_model``, which the agent calls positionally at every model step and whose
    result it invokes with the whole state. It returns:

    * static model: ``static_model``, the same object every time; ``model`` is never called;
    * dynamic model: a two-step ``RunnableSequence``: the prompt runnable of ``prompt`` (Day 05),
      then the chat model the callable returned for *this* call. The callable runs exactly once
      per call, given this call's state and runtime as two positional arguments (it may name its
      parameters as it likes). Its model is used as it came back: no tools are bound to it (the
      callable binds what it wants) and nothing is cached (the next step may want another).

    Errors: none of its own; what the callable raises goes through unchanged.

    >>> from miniagent.testing import FakeToolCallingModel
    >>> chat = FakeToolCallingModel()
    >>> resolve = make_resolve_model(
    ...     model=lambda state, runtime: chat, prompt="Be brief.",
    ...     is_dynamic_model=True, static_model=None)
    >>> [step.get_name() for step in resolve({"messages": []}, None).steps]
    ['Prompt', 'FakeToolCallingModel']

    Why, and what happens when the callable returns a string or a coroutine: the lesson,
    *Read the source* and *Edge cases and surprises*.
    Upstream: ``langgraph/prebuilt/chat_agent_executor.py:599`` (langgraph-prebuilt 1.1.3).
    """
    # TODO(day10): define _resolve_model(state, runtime) here and return it.
    raise NotStarted("day10")


# --- part 2: extend ---------------------------------------------------------------------------


def choose_model(state: Any, runtime: Runtime, *, cheap: Any, strong: Any) -> Any:
    """Your routing policy: pick the model for one step of a dynamic agent, cheap or strong.

    The agent calls it as ``model=lambda state, runtime: choose_model(state, runtime,
    cheap=..., strong=...)``, with two models the caller has already tool-bound.

    * Input: ``state`` is a dict (``AgentState``) or a pydantic ``AgentStatePydantic``; "the
      history" is its ``messages`` (read it so both shapes work). ``runtime`` is part of the
      signature the agent calls; this policy does not need it.
    * Output: ``cheap`` or ``strong`` itself, unchanged (no ``bind_tools``, no copy).
    * ``strong`` when the last message of the history is a ``ToolMessage`` whose ``status`` is
      ``"error"`` (a tool failed; the model must recover). Only the status says so: a failed
      tool's text may read like anything (a ToolNode with ``handle_tool_errors="Try later."``),
      and a tool that worked may return text that starts with "Error". Only the *last* message
      counts: an earlier failure that a later result follows does not.
    * ``strong`` when the history holds more than 4 messages (5 or more).
    * ``cheap`` otherwise, and that includes an empty history (nothing checks that the agent
      was given a message). Never raise.

    The lesson's *Your turn* shows the policy inside a real agent.
    """
    # TODO(day10): part 2, return cheap or strong.
    raise NotStarted("day10")
