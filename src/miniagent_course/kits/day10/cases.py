"""Day 10's reference: ``_resolve_model`` and a routing policy for a dynamic model.

Upstream defines ``_resolve_model`` inside ``create_react_agent`` (chat_agent_executor.py:599),
closing over four values: ``is_dynamic_model``, ``model``, ``prompt`` and ``static_model``. The
exercise passes them (and the agent's ``tools``) as keyword arguments instead; this module turns
them back into the real function, so the reference *is* miniagent's ``_resolve_model`` and never
a second copy of it.

    pieces = resolve_model_pieces(agent)        # what `agent` was built with
    fn = make_resolve_model(**pieces, tools=[...])   # the real _resolve_model, with those values

``choose_model`` is the course's own routing policy (upstream has none: you write it and pass it
as the model). Its rules are in ``exercises/day10_dynamic_model.py``; ``LONG_HISTORY`` is its
threshold.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from miniagent_course.grading.closures import (
    agent_node_function,
    closure_vars,
    rebind,
    reference_inner_function,
)

# The keywords of make_resolve_model that are free variables of _resolve_model.
CLOSURE_NAMES = ("model", "prompt", "is_dynamic_model", "static_model")

LONG_HISTORY = 4  # more messages than this: the strong model answers


def resolve_model_pieces(agent: Any) -> dict[str, Any]:
    """The arguments of ``make_resolve_model`` (all but ``tools``) that rebuild ``agent``'s own."""
    resolve_model = closure_vars(agent_node_function(agent))["_resolve_model"]
    values = closure_vars(resolve_model)
    return {name: values[name] for name in CLOSURE_NAMES}


def make_resolve_model(
    *,
    model: Any,
    prompt: Any,
    is_dynamic_model: bool,
    static_model: Any,
    tools: Sequence[Any] = (),
) -> Callable[[Any, Any], Any]:
    """The real ``_resolve_model`` (chat_agent_executor.py:599), closing over these values.

    ``tools`` is accepted and, as upstream, never used: a dynamic model is used exactly as the
    callable returns it. Python keeps a closure's free variables in cells; a new function made
    from ``_resolve_model``'s code and fresh cells is ``_resolve_model`` as
    ``create_react_agent`` would have built it. Read the code itself in
    ``src/miniagent/prebuilt/chat_agent_executor.py`` (snippet ``resolve_model``).
    """
    values = {
        "model": model,
        "prompt": prompt,
        "is_dynamic_model": is_dynamic_model,
        "static_model": static_model,
    }
    return rebind(reference_inner_function("_resolve_model"), **values)


def install_make_resolve_model(agent: Any, make: Callable[..., Any]) -> None:
    """Put the ``_resolve_model`` that ``make`` builds into ``agent`` (the agent's own values)."""
    from miniagent_course.grading.closures import swap_closure

    tools = (
        list(agent.nodes["tools"].bound.tools_by_name.values()) if "tools" in agent.nodes else []
    )
    swap_closure(
        agent_node_function(agent),
        "_resolve_model",
        make(**resolve_model_pieces(agent), tools=tools),
    )
