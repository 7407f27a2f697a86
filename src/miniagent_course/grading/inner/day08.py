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

from collections.abc import Callable
from typing import Any

from miniagent_course.grading.closures import (
    agent_node_function,
    closure_vars,
    rebind,
    reference_inner_function,
)

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
    return rebind(reference_inner_function("call_model"), **values)
