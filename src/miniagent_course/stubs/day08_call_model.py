"""Day 08: write ``call_model``, the function behind the agent's ``agent`` node.

Lesson:    course/days/day08-call-model.md
Notebook:  notebooks/day08_call_model.ipynb
Check:     miniagent check day08        Stuck?  miniagent hint day08
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from miniagent.messages import AIMessage, BaseMessage
from miniagent.runnables import Runnable, RunnableConfig
from miniagent.runtime import Runtime
from miniagent_course.todo import NotStarted


def make_call_model(
    *,
    is_async_dynamic_model: bool,
    is_dynamic_model: bool,
    static_model: Runnable | None,
    name: str | None,
    get_model_input_state: Callable[[Any], Any],
    resolve_model: Callable[[Any, Runtime], Runnable],
    are_more_steps_needed: Callable[[Any, BaseMessage], bool],
) -> Callable[[Any, Runtime, RunnableConfig], dict[str, Any]]:
    """Build and return ``call_model(state, runtime, config)``, the sync ``agent`` node.

    ``create_react_agent`` defines ``call_model`` inside itself, so it can use the values it
    computed. Here they arrive as arguments (the graders take them from a real agent):

    * ``is_async_dynamic_model`` -- ``model`` was an ``async def`` callable;
    * ``is_dynamic_model`` -- ``model`` was a callable ``(state, runtime) -> chat model``;
    * ``static_model`` -- the ``prompt | model`` Runnable (``None`` when the model is dynamic);
    * ``name`` -- the agent's ``name=`` argument (may be ``None``);
    * ``get_model_input_state(state)`` -- picks the messages the model sees, validates them,
      writes them into ``state["messages"]`` and returns the state (Day 07);
    * ``resolve_model(state, runtime)`` -- this step's ``prompt | model`` for a dynamic model;
    * ``are_more_steps_needed(state, response)`` -- True when too few steps are left (Day 09).

    The function you return must do, in this order:

    1. if the model is an async dynamic one, raise ``RuntimeError`` with exactly
       ``"Async model callable provided but agent invoked synchronously. Use agent.ainvoke()
       or agent.astream(), or provide a sync model callable."`` (one line, one space after
       each full stop) before anything else;
    2. ``model_input = get_model_input_state(state)``;
    3. get the response: ``resolve_model(state, runtime).invoke(model_input, config)`` for a
       dynamic model, else ``static_model.invoke(model_input, config)``;
    4. set ``response.name = name`` -- always, even when ``name`` is ``None``;
    5. if ``are_more_steps_needed(state, response)``, return ``{"messages": [m]}`` where ``m``
       is a new ``AIMessage`` with the response's ``id`` and the content
       ``"Sorry, need more steps to process this request."`` (nothing else);
    6. otherwise return ``{"messages": [response]}`` -- a list, holding the model's message.

    Its parameters must be exactly ``(state, runtime, config)``: the agent node looks them up
    by name to inject the runtime and the config.

    Upstream: ``langgraph/prebuilt/chat_agent_executor.py:661`` (langgraph-prebuilt 1.1.3).
    """
    # TODO(day08): define call_model(state, runtime, config) here and return it.
    raise NotStarted("day08")
