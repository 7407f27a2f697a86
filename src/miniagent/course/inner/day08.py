"""Day 08's reference: ``call_model``, the ``agent`` node of ``create_react_agent``.

Upstream defines ``call_model`` inside ``create_react_agent`` (chat_agent_executor.py:661), so
it closes over seven values: three flags and settings (``is_async_dynamic_model``,
``is_dynamic_model``, ``static_model``, ``name``) and three sibling inner functions
(``_get_model_input_state``, ``_resolve_model``, ``_are_more_steps_needed``). The exercise
passes those seven values as arguments instead; this module turns them back into the real
function, so the reference *is* miniagent's ``call_model`` and never a second copy of it.

    pieces = call_model_pieces(agent)          # what `agent` was built with
    fn = make_call_model(**pieces)             # the real call_model, with those values
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable
from typing import Any

from miniagent.course.closures import agent_node_function, closure_vars

# The exercise's keyword -> the free variable of call_model that holds it.
CLOSURE_NAMES = {
    "is_async_dynamic_model": "is_async_dynamic_model",
    "is_dynamic_model": "is_dynamic_model",
    "static_model": "static_model",
    "name": "name",
    "get_model_input_state": "_get_model_input_state",
    "resolve_model": "_resolve_model",
    "are_more_steps_needed": "_are_more_steps_needed",
}


def call_model_pieces(agent: Any) -> dict[str, Any]:
    """The arguments of ``make_call_model`` that rebuild ``agent``'s own ``call_model``."""
    values = closure_vars(agent_node_function(agent))
    return {keyword: values[free] for keyword, free in CLOSURE_NAMES.items()}


@functools.cache
def _real_call_model() -> Callable[..., Any]:
    """miniagent's ``call_model``, taken from an agent built once (only its code is reused)."""
    from miniagent.prebuilt import create_react_agent
    from miniagent.testing import FakeToolCallingModel

    return agent_node_function(create_react_agent(FakeToolCallingModel(), []))


def make_call_model(
    *,
    is_async_dynamic_model: bool,
    is_dynamic_model: bool,
    static_model: Any,
    name: str | None,
    get_model_input_state: Callable[[Any], Any],
    resolve_model: Callable[[Any, Any], Any],
    are_more_steps_needed: Callable[[Any, Any], bool],
) -> Callable[..., dict[str, Any]]:
    """The real ``call_model`` (chat_agent_executor.py:661), closing over these values.

    Python keeps a closure's free variables in cells; a new function object made from
    ``call_model``'s code and fresh cells is ``call_model`` as ``create_react_agent`` would have
    built it with these values. Read the code itself in ``src/miniagent/prebuilt/
    chat_agent_executor.py`` (snippet ``call_model``) or upstream at line 661.
    """
    values = {  # the free variable names of call_model
        "is_async_dynamic_model": is_async_dynamic_model,
        "is_dynamic_model": is_dynamic_model,
        "static_model": static_model,
        "name": name,
        "_get_model_input_state": get_model_input_state,
        "_resolve_model": resolve_model,
        "_are_more_steps_needed": are_more_steps_needed,
    }
    real = _real_call_model()
    cells = tuple(types.CellType(values[free]) for free in real.__code__.co_freevars)
    call_model = types.FunctionType(
        real.__code__, real.__globals__, real.__name__, real.__defaults__, cells
    )
    call_model.__annotations__ = dict(real.__annotations__)
    call_model.__qualname__ = real.__qualname__
    return call_model
