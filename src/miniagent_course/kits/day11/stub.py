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

    Input: ``e``, the exception a tool raised; ``flag``, the ``ToolNode``'s
    ``handle_tool_errors``. By the time this runs, the node has already decided that ``e`` is
    covered (the lesson, *Which exceptions are handled*).

    Output, a str, by the kind of ``flag``:

    * a bool, a tuple (of exception types) or an exception class (a subclass of ``Exception``):
      ``TOOL_CALL_ERROR_TEMPLATE`` filled with ``error=repr(e)``. An exception class is callable,
      but it is never called here;
    * a str (an empty one too): ``flag`` itself;
    * any other callable (a function, a lambda, an object with ``__call__``): what it returns
      when called with ``e``; what it raises goes through unchanged (the default policy re-raises
      this way).

    Error: any other ``flag`` (``None``, ``42``, a list...) raises ``ValueError`` with exactly::

        Got unexpected type of `handle_tool_error`. Expected bool, str or callable. Received: {flag}

    >>> _handle_tool_error(ValueError("boom"), flag="Try again.")
    'Try again.'

    Upstream: ``langgraph/prebuilt/tool_node.py:416`` (langgraph-prebuilt 1.1.3).
    """
    # TODO(day11): return the text for this flag.
    raise NotStarted("day11")


def _infer_handled_types(handler: Callable[..., str]) -> tuple[type[Exception], ...]:
    """Which exception types a handler function covers, read from the annotation of its error.

    Input: ``handler``, a function that takes the error (its first parameter; a ``self`` or
    ``cls`` first parameter does not count when the handler has exactly two parameters, as in a
    method's function ``def handle(self, e)``).

    Output, a tuple of exception types:

    * no parameters, or an error parameter without annotation: ``(Exception,)``;
    * ``e: ValueError``: ``(ValueError,)``; any subclass of ``Exception`` likewise;
    * ``e: Union[ValueError, TypeError]`` or ``e: ValueError | TypeError``, written as a real
      object: its members, in order, ``(ValueError, TypeError)``. An annotation written as a
      string (``"ValueError | TypeError"``, or any annotation in a module with
      ``from __future__ import annotations``) is not seen as a union: upstream then fails on the
      resolved union with ``AttributeError`` (``__mro__``). Reproduce that, do not repair it.

    Errors, with exactly these texts:

    * a union with a member that is not an exception class, ``ValueError``::

        All types in the error handler error annotation must be Exception types. For example, `def custom_handler(e: Union[ValueError, TypeError])`. Got '{annotation}' instead.

    * a single annotation that is not a subclass of ``Exception`` (``str``, ``BaseException``),
      ``ValueError``::

        Arbitrary types are not supported in the error handler signature. Please annotate the error with either a specific Exception type or a union of Exception types. For example, `def custom_handler(e: ValueError)` or `def custom_handler(e: Union[ValueError, TypeError])`. Got '{type}' instead.

      where ``{annotation}`` is the annotation as written and ``{type}`` the resolved one;
    * what reading the signature or resolving the annotations raises goes through unchanged (an
      object with ``__call__``: ``TypeError``; a name that cannot be resolved: ``NameError``).

    >>> def handler(e: ValueError) -> str:
    ...     return "bad value"
    >>> _infer_handled_types(handler)
    (<class 'ValueError'>,)

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
    the lesson: the graders run every case and compare.

    Sealed: a table with an entry missing (or not of this form) is not graded; it says only how
    many entries are filled. Your first complete table is recorded as your first try before any
    real outcome is shown: that run (``pytest``, ``miniagent check`` or the notebook's table
    cell) says only which rows are wrong, and later runs show what the real run gives.
    """
    # TODO(day11): replace the line below with `return {"default_value_error": ..., ...}`.
    raise NotStarted("day11")
