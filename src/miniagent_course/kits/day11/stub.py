"""Day 11: ``ToolNode``'s error policy -- which tool errors go back to the model, and as what.

Lesson:    course/days/day11-tool-node.md
Notebook:  notebooks/day11_tool_node.ipynb
Check:     miniagent check day11        Stuck?  miniagent hint day11

Two parts, graded separately:

(1) The two functions ``ToolNode`` asks when a tool call fails (both in
    ``langgraph/prebuilt/tool_node.py``): ``_infer_handled_types``, which exceptions a handler
    function covers, and ``_handle_tool_error``, the text of the error ToolMessage. The graders
    put yours into real ``ToolNode``s and agents, in place of miniagent's.
(2) Predict: ``predictions`` says, for sixteen pairs of ``handle_tool_errors`` and failing call,
    what the ``ToolNode`` writes. The graders run each pair.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from types import UnionType
from typing import Any, Union, get_args, get_origin, get_type_hints

from miniagent.prebuilt.tool_node import TOOL_CALL_ERROR_TEMPLATE
from miniagent_course.todo import NotStarted


def _handle_tool_error(e: Exception, *, flag: Any) -> str:
    """The content of the error ToolMessage for an exception the node decided to handle.

    ``flag`` is the ``ToolNode``'s ``handle_tool_errors``; by the time this runs, the node has
    already decided that ``e`` is covered (the lesson, *Which errors are handled*). Return:

    * ``TOOL_CALL_ERROR_TEMPLATE`` filled with ``error=repr(e)`` when ``flag`` is a bool, a
      tuple (of exception types), or an exception class (a subclass of ``Exception``). An
      exception class is callable, but it is never called here;
    * ``flag`` itself when it is a str (an empty string too);
    * ``flag(e)`` when it is any other callable (a function, a lambda, an object with
      ``__call__``). Whatever it returns is returned; whatever it raises propagates, unchanged
      (the default policy re-raises this way);
    * for anything else (``None``, ``42``, a list, ...) raise ``ValueError`` with exactly::

        Got unexpected type of `handle_tool_error`. Expected bool, str or callable. Received: {flag}

    Upstream: ``langgraph/prebuilt/tool_node.py:416`` (langgraph-prebuilt 1.1.3).
    """
    # TODO(day11): return the text for this flag.
    raise NotStarted("day11")


def _infer_handled_types(handler: Callable[..., str]) -> tuple[type[Exception], ...]:
    """Which exception types a handler function covers, read from the annotation of its error.

    The error is the handler's first parameter, except that a ``self`` or ``cls`` first
    parameter is skipped when the handler has exactly two parameters (a method's function,
    ``def handle(self, e)``). Read the parameters with ``inspect.signature`` and the resolved
    annotations with ``typing.get_type_hints``. Then:

    * no parameters, or an error parameter without annotation: ``(Exception,)``;
    * ``e: ValueError``: ``(ValueError,)``; any subclass of ``Exception`` likewise;
    * ``e: Union[ValueError, TypeError]`` or ``e: ValueError | TypeError``, written as a real
      object: the members, in order, ``(ValueError, TypeError)``. Upstream tests for a union on
      the parameter's annotation *as written* (``inspect.signature``), not on the resolved
      hint: an annotation written as a string (``"ValueError | TypeError"``, or any annotation
      in a module with ``from __future__ import annotations``) is not seen as a union, and the
      single-type branch then fails on the resolved union with ``AttributeError`` (``__mro__``).
      Reproduce that, do not repair it;
    * a union with a member that is not an exception class: raise ``ValueError``::

        All types in the error handler error annotation must be Exception types. For example, `def custom_handler(e: Union[ValueError, TypeError])`. Got '{annotation}' instead.

    * a single annotation that is not a subclass of ``Exception`` (``str``, ``BaseException``):
      raise ``ValueError``::

        Arbitrary types are not supported in the error handler signature. Please annotate the error with either a specific Exception type or a union of Exception types. For example, `def custom_handler(e: ValueError)` or `def custom_handler(e: Union[ValueError, TypeError])`. Got '{type}' instead.

      where ``{annotation}`` is the annotation as written and ``{type}`` the resolved one.
    * errors of ``inspect.signature`` and ``get_type_hints`` propagate (an object with
      ``__call__`` makes ``get_type_hints`` raise ``TypeError``; a name it cannot resolve,
      ``NameError``).

    Upstream: ``langgraph/prebuilt/tool_node.py:466`` (langgraph-prebuilt 1.1.3).
    """
    # TODO(day11): return the tuple of exception types the handler covers.
    raise NotStarted("day11")


# --- part 2: predict --------------------------------------------------------------------------


def predictions() -> dict[str, str]:
    """Your prediction of what a ``ToolNode`` writes for sixteen failing calls.

    Each case is ``ToolNode(tools, handle_tool_errors=...).invoke(...)`` on one AIMessage with one
    tool call. The node holds four tools: ``boom(x: int)`` raises ``ValueError("kaboom")``;
    ``fragile(x: int)`` raises ``ToolException("backend down")``; ``check_weather(location:
    str)`` works; ``careful(x: int)`` raises ``ToolException`` and was built with
    ``handle_tool_error=True`` (the tool's own switch). The calls: ``value_error`` calls
    ``boom``, ``tool_exception`` calls ``fragile``, ``bad_args`` calls ``check_weather`` with
    ``{"loc": 1}``, ``unknown_tool`` calls ``nope``, which is not a tool, ``self_handled`` calls
    ``careful``. The policy is the first part of each key:

    * ``default`` -- no ``handle_tool_errors`` given; ``true``/``false`` -- ``True``/``False``;
      ``str`` -- ``"Try again."``; ``class`` -- ``ValueError``; ``tuple`` -- ``(TypeError,)``;
    * ``typed_handler`` -- ``def h(e: ValueError) -> str``; ``untyped_handler`` -- ``def h(e)``;
      ``tool_exception_handler`` -- ``def h(e: ToolException) -> str`` (each returns a text).

    The keys: ``default_value_error``, ``default_bad_args``, ``default_unknown_tool``,
    ``default_tool_exception``, ``true_value_error``, ``true_bad_args``, ``str_value_error``,
    ``str_bad_args``, ``typed_handler_value_error``, ``typed_handler_bad_args``,
    ``untyped_handler_bad_args``, ``tool_exception_handler_bad_args``, ``class_value_error``,
    ``tuple_value_error``, ``false_unknown_tool``, ``false_self_handled``.

    For each key give one outcome:

    * ``"raises"`` -- no ToolMessage: the exception leaves the node;
    * ``"repr"`` -- ``"Error: {repr(e)}\\n Please fix your mistakes."``;
    * ``"text"`` -- the string given as ``handle_tool_errors``;
    * ``"handler"`` -- what the handler returned;
    * ``"invocation"`` -- ``"Error invoking tool 'check_weather' with kwargs {'loc': 1} ..."``;
    * ``"unknown"`` -- ``"Error: nope is not a valid tool, try one of [...]."``;
    * ``"tool"`` -- the tool's own error text.

    Return a literal dict with all sixteen keys. Its shape (the values are placeholders, not
    answers): ``{"default_value_error": "text", "default_bad_args": "text", ...}``. Predict from
    the lesson before you run the notebook: the graders run every case and compare.
    """
    # TODO(day11): replace the line below with `return {"default_value_error": ..., ...}`.
    raise NotStarted("day11")
