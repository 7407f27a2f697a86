"""Reach the functions ``create_react_agent`` defines *inside* itself, for grading.

Upstream defines ``_resolve_model``, ``_are_more_steps_needed``, ``_get_model_input_state`` and
``call_model`` inside ``create_react_agent`` (chat_agent_executor.py:599-696), closing over the
arguments it was given. The miniature keeps that shape so it reads line by line like upstream.
A grader therefore cannot swap a learner's version in by replacing a module attribute. It does
what Python allows instead: every closure keeps its free variables in *cells*, and a cell's
contents can be read and replaced. ``agent.nodes["agent"]`` wraps ``call_model``; its cells hold
the other inner functions and the values ``create_react_agent`` computed (``static_model``,
``name``, ``is_dynamic_model``, ...).

    call_model = agent_node_function(agent)
    closure_vars(call_model)["static_model"]          # read what the agent was built with
    swap_closure(call_model, "_are_more_steps_needed", my_version)   # the agent now calls yours

The graders' *reference* for such a function is the real one with other closure values:
``rebind(reference_inner_function("_are_more_steps_needed"), should_return_direct={"x"})``.

The same cells hold a learner's function that a decorator turned into an object (a middleware
made by ``@dynamic_prompt``): :func:`written_function` finds it, so it is graded as written.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable
from typing import Any


def agent_node_function(agent: Any, node: str = "agent", *, asynchronous: bool = False) -> Any:
    """The plain function behind a compiled agent's node (``call_model`` for ``"agent"``)."""
    runnable = agent.nodes[node].bound
    return runnable.afunc if asynchronous else runnable.func


def _cells(fn: Callable[..., Any]) -> dict[str, Any]:
    code = fn.__code__
    return dict(zip(code.co_freevars, fn.__closure__ or (), strict=True))


def closure_vars(fn: Callable[..., Any]) -> dict[str, Any]:
    """The free variables of ``fn`` and their current values."""
    return {name: cell.cell_contents for name, cell in _cells(fn).items()}


def swap_closure(fn: Callable[..., Any], name: str, value: Any) -> Callable[[], None]:
    """Make ``fn`` see ``value`` for its free variable ``name``; return a function that undoes it.

    The cell is shared by every inner function of the same ``create_react_agent`` call that uses
    ``name``, so the swap reaches all of them (e.g. ``call_model`` and ``acall_model``).
    """
    cells = _cells(fn)
    if name not in cells:
        raise KeyError(f"{fn.__qualname__} has no free variable {name!r}; it has {sorted(cells)}")
    cell = cells[name]
    old = cell.cell_contents
    cell.cell_contents = value

    def undo() -> None:
        cell.cell_contents = old

    return undo


@functools.cache
def reference_inner_function(name: str) -> Callable[..., Any]:
    """miniagent's ``call_model``, or one of the inner functions it closes over, by name.

    Taken from an agent built once; only its code is reused (see :func:`rebind`).
    """
    from miniagent.prebuilt.chat_agent_executor import create_react_agent  # never a swapped one
    from miniagent.testing import FakeToolCallingModel

    call_model = agent_node_function(create_react_agent(FakeToolCallingModel(), []))
    return call_model if name == "call_model" else closure_vars(call_model)[name]


def rebind(fn: Callable[..., Any], **values: Any) -> Callable[..., Any]:
    """A copy of ``fn`` whose free variables hold ``values`` (one for each of them).

    A new function object made from ``fn``'s code and fresh cells is ``fn`` as
    ``create_react_agent`` would have built it with these values: the same code, not a copy of
    the logic.
    """
    cells = tuple(types.CellType(values[free]) for free in fn.__code__.co_freevars)
    copy = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, cells)
    copy.__annotations__ = dict(fn.__annotations__)
    copy.__qualname__ = fn.__qualname__
    return copy


def written_function(value: Any, filename: str) -> Callable[..., Any] | None:
    """The function written in ``filename`` that a decorator turned into ``value``, or None.

    A learner may write a graded function decorated as a page shows it (Day 15:
    ``@dynamic_prompt def order_prompt(request)``). The name then holds what the decorator made:
    a middleware object whose class keeps the function only in the closure of its hook
    (``wrap_model_call``), a wrapper with ``__wrapped__`` (``functools.wraps``) or an object with
    ``.func``. Graders call the function itself, so it is looked for where a decorator keeps it:
    in those attributes and in the cells of the functions the object's class holds.
    """
    seen: set[int] = set()
    todo = [value]
    while todo and len(seen) < 100:  # a wrapper of a wrapper..., never a walk of everything
        current = todo.pop(0)
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, types.FunctionType):
            if current.__code__.co_filename == filename:
                return current
            todo += [cell.cell_contents for cell in _filled_cells(current)]
        elif not isinstance(current, type):
            todo += [_attribute(current, name) for name in ("__wrapped__", "func")]
            todo += [v for v in vars(type(current)).values() if isinstance(v, types.FunctionType)]
    return None


def _attribute(value: Any, name: str) -> Any:
    try:
        return getattr(value, name, None)
    except Exception:  # a property of the learner's object may raise anything
        return None


def _filled_cells(fn: types.FunctionType) -> list[types.CellType]:
    filled = []
    for cell in fn.__closure__ or ():
        try:
            cell.cell_contents  # noqa: B018 - an empty cell raises ValueError
        except ValueError:
            continue
        filled.append(cell)
    return filled
