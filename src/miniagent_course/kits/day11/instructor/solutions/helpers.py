"""Day 11, solved with small helpers: the text first checks for a str, the types read the error
parameter through a helper, and the predictions are built from groups of cases."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from types import UnionType
from typing import Any, Union, get_args, get_origin, get_type_hints

from miniagent.prebuilt.tool_node import TOOL_CALL_ERROR_TEMPLATE

UNEXPECTED = (
    "Got unexpected type of `handle_tool_error`. Expected bool, str or callable. Received: "
)
NOT_ALL_EXCEPTIONS = (
    "All types in the error handler error annotation must be Exception types. For example, "
    "`def custom_handler(e: Union[ValueError, TypeError])`. Got '{}' instead."
)
ARBITRARY = (
    "Arbitrary types are not supported in the error handler signature. Please annotate the "
    "error with either a specific Exception type or a union of Exception types. For example, "
    "`def custom_handler(e: ValueError)` or `def custom_handler(e: Union[ValueError, "
    "TypeError])`. Got '{}' instead."
)


def _uses_template(flag: Any) -> bool:
    """True, False, a tuple of types, or an exception class."""
    if isinstance(flag, (bool, tuple)):
        return True
    return isinstance(flag, type) and issubclass(flag, Exception)


def _handle_tool_error(e: Exception, *, flag: Any) -> str:
    if isinstance(flag, str):
        return flag
    if _uses_template(flag):
        return TOOL_CALL_ERROR_TEMPLATE.format(error=repr(e))
    if not callable(flag):
        raise ValueError(UNEXPECTED + str(flag))
    return flag(e)


def _error_parameter(handler: Callable[..., Any]) -> inspect.Parameter | None:
    """The parameter that receives the error; ``self``/``cls`` skipped for a two-parameter one."""
    params = tuple(inspect.signature(handler).parameters.values())
    if not params:
        return None
    skip_first = len(params) == 2 and params[0].name in {"self", "cls"}
    return params[1] if skip_first else params[0]


def _infer_handled_types(handler: Callable[..., str]) -> tuple[type[Exception], ...]:
    param = _error_parameter(handler)
    if param is None:
        return (Exception,)
    hints = get_type_hints(handler)
    if param.name not in hints:
        return (Exception,)
    is_union = get_origin(param.annotation) in {Union, UnionType}
    if is_union:
        members = get_args(param.annotation)
        if any(not issubclass(member, Exception) for member in members):
            raise ValueError(NOT_ALL_EXCEPTIONS.format(param.annotation))
        return tuple(members)
    single = hints[param.name]
    if Exception not in single.__mro__:  # a resolved string union has no __mro__: as upstream
        raise ValueError(ARBITRARY.format(single))
    return (single,)


def predictions() -> dict[str, str]:
    table = dict.fromkeys(
        [
            "default_value_error",
            "default_tool_exception",
            "typed_handler_bad_args",
            "tuple_value_error",
        ],
        "raises",
    )
    table |= dict.fromkeys(["true_value_error", "true_bad_args", "class_value_error"], "repr")
    table |= dict.fromkeys(["str_value_error", "str_bad_args"], "text")
    table |= dict.fromkeys(
        [
            "typed_handler_value_error",
            "untyped_handler_bad_args",
            "tool_exception_handler_bad_args",
        ],
        "handler",
    )
    table |= {"default_bad_args": "invocation", "false_self_handled": "tool"}
    table |= dict.fromkeys(["default_unknown_tool", "false_unknown_tool"], "unknown")
    return table
