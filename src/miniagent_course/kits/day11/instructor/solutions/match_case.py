"""Day 11, solved with ``match`` statements: the flag's kind, then the handler's parameters."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from types import UnionType
from typing import Any, Union, get_args, get_origin, get_type_hints

from miniagent.prebuilt.tool_node import TOOL_CALL_ERROR_TEMPLATE


def _handle_tool_error(e: Exception, *, flag: Any) -> str:
    match flag:
        case bool() | tuple():
            return TOOL_CALL_ERROR_TEMPLATE.format(error=repr(e))
        case type() if issubclass(flag, Exception):  # a filter, never called
            return TOOL_CALL_ERROR_TEMPLATE.format(error=repr(e))
        case str():
            return flag
        case _ if callable(flag):
            return flag(e)
    raise ValueError(
        "Got unexpected type of `handle_tool_error`. Expected bool, str or callable. "
        f"Received: {flag}"
    )


def _infer_handled_types(handler: Callable[..., str]) -> tuple[type[Exception], ...]:
    match list(inspect.signature(handler).parameters.values()):
        case []:
            return (Exception,)
        case [first, second] if first.name in ("self", "cls"):
            error = second
        case [first, *_]:
            error = first
    hints = get_type_hints(handler)
    if error.name not in hints:
        return (Exception,)
    written = error.annotation
    if get_origin(written) in (Union, UnionType):  # only a union written as an object
        members = get_args(written)
        if all(issubclass(member, Exception) for member in members):
            return tuple(members)
        raise ValueError(
            "All types in the error handler error annotation must be Exception types. "
            "For example, `def custom_handler(e: Union[ValueError, TypeError])`. "
            f"Got '{written}' instead."
        )
    resolved = hints[error.name]
    if Exception in resolved.__mro__:
        return (resolved,)
    raise ValueError(
        "Arbitrary types are not supported in the error handler signature. Please annotate "
        "the error with either a specific Exception type or a union of Exception types. For "
        "example, `def custom_handler(e: ValueError)` or "
        "`def custom_handler(e: Union[ValueError, TypeError])`. "
        f"Got '{resolved}' instead."
    )


def predictions() -> dict[str, str]:
    return {
        "default_value_error": "raises",
        "default_bad_args": "invocation",
        "default_unknown_tool": "unknown",
        "default_tool_exception": "raises",
        "true_value_error": "repr",
        "true_bad_args": "repr",
        "str_value_error": "text",
        "str_bad_args": "text",
        "typed_handler_value_error": "handler",
        "typed_handler_bad_args": "raises",
        "untyped_handler_bad_args": "handler",
        "tool_exception_handler_bad_args": "handler",
        "class_value_error": "repr",
        "tuple_value_error": "raises",
        "false_unknown_tool": "unknown",
        "false_self_handled": "tool",
    }
