"""The ``@tool`` decorator. Mirrors ``langchain_core/tools/convert.py``.

Three spellings, one result (a ``StructuredTool``)::

    @tool                                  # name = the function's __name__
    @tool("search")                        # name = "search"
    @tool(parse_docstring=True, ...)       # options, name from __name__
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, Literal

from miniagent.tools.base import ArgsSchema, BaseTool
from miniagent.tools.structured import StructuredTool


# --8<-- [start:tool]
def tool(
    name_or_callable: str | Callable[..., Any] | None = None,
    *args: Any,
    description: str | None = None,
    return_direct: bool = False,
    args_schema: ArgsSchema | None = None,
    response_format: Literal["content", "content_and_artifact"] = "content",
    parse_docstring: bool = False,
    error_on_invalid_docstring: bool = True,
) -> BaseTool | Callable[[Callable[..., Any]], BaseTool]:
    """Turn a function into a tool, used bare or with arguments (convert.py:77).

    An ``async def`` function gives a tool with only a ``coroutine`` (it must be ``ainvoke``d).
    Note ``error_on_invalid_docstring`` defaults to True here but to False in ``from_function``.
    """

    def _create_tool_factory(tool_name: str) -> Callable[[Callable[..., Any]], BaseTool]:
        def _tool_factory(dec_func: Callable[..., Any]) -> BaseTool:
            is_async = inspect.iscoroutinefunction(dec_func)
            return StructuredTool.from_function(
                None if is_async else dec_func,
                dec_func if is_async else None,
                name=tool_name,
                description=description,
                return_direct=return_direct,
                args_schema=args_schema,
                response_format=response_format,
                parse_docstring=parse_docstring,
                error_on_invalid_docstring=error_on_invalid_docstring,
            )

        return _tool_factory

    if args:  # e.g. @tool("name", something, "extra")
        raise ValueError("Too many arguments for tool decorator. A decorator ")
    if name_or_callable is None:  # @tool(parse_docstring=True)
        return lambda func: _create_tool_factory(func.__name__)(func)
    if callable(name_or_callable) and hasattr(name_or_callable, "__name__"):  # @tool
        return _create_tool_factory(name_or_callable.__name__)(name_or_callable)
    if isinstance(name_or_callable, str):  # @tool("name")
        return _create_tool_factory(name_or_callable)
    raise ValueError(
        f"The first argument must be a string or a callable with a __name__ "
        f"for tool decorator. Got {type(name_or_callable)}"
    )


# --8<-- [end:tool]
