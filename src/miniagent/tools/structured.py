"""``StructuredTool``: a tool made from a plain (sync or async) function.

Mirrors ``langchain_core/tools/structured.py``. ``from_function`` is where a Python function
becomes something a model can call: its ``__name__`` becomes the tool name, its docstring the
description (the prompt the model reads), and its signature the argument schema.
"""

from __future__ import annotations

import functools
import textwrap
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from miniagent.runnables import RunnableConfig
from miniagent.tools.base import (
    FILTERED_ARGS,
    ArgsSchema,
    BaseTool,
    _get_injected_args_keys_from_signature,
    _get_runnable_config_param,
    _is_model_class,
    _run_in_executor,
)
from miniagent.tools.schema import create_schema_from_function


class StructuredTool(BaseTool):
    """A tool that calls ``func`` (sync) or ``coroutine`` (async) (structured.py:93)."""

    description: str = ""
    args_schema: ArgsSchema
    func: Callable[..., Any] | None = None
    coroutine: Callable[..., Awaitable[Any]] | None = None

    async def ainvoke(
        self, input: str | dict[str, Any], config: RunnableConfig | None = None, **kwargs: Any
    ) -> Any:
        """Without a coroutine, run the sync ``invoke`` in a worker thread (structured.py:115)."""
        if not self.coroutine:
            return await _run_in_executor(self.invoke, input, config, **kwargs)
        return await super().ainvoke(input, config, **kwargs)

    def _run(self, *args: Any, config: RunnableConfig, **kwargs: Any) -> Any:
        """Call ``func``, passing the config to a parameter annotated ``RunnableConfig`` (l.129)."""
        if self.func:
            if config_param := _get_runnable_config_param(self.func):
                kwargs[config_param] = config
            return self.func(*args, **kwargs)
        raise NotImplementedError("StructuredTool does not support sync invocation.")

    async def _arun(self, *args: Any, config: RunnableConfig, **kwargs: Any) -> Any:
        """Await ``coroutine``; without one, run ``_run`` in a thread (structured.py:156)."""
        if self.coroutine:
            if config_param := _get_runnable_config_param(self.coroutine):
                kwargs[config_param] = config
            return await self.coroutine(*args, **kwargs)
        return await super()._arun(*args, config=config, **kwargs)

    # --8<-- [start:from_function]
    @classmethod
    def from_function(
        cls,
        func: Callable[..., Any] | None = None,
        coroutine: Callable[..., Awaitable[Any]] | None = None,
        name: str | None = None,
        description: str | None = None,
        return_direct: bool = False,
        args_schema: ArgsSchema | None = None,
        *,
        response_format: Literal["content", "content_and_artifact"] = "content",
        parse_docstring: bool = False,
        error_on_invalid_docstring: bool = False,
        **kwargs: Any,
    ) -> StructuredTool:
        """Make a tool from a function (structured.py:188).

        Name: ``name`` or ``func.__name__``. Schema: ``args_schema`` or one built from the
        signature. Description: ``description``, else the docstring (the parsed summary when
        ``parse_docstring``), else the docstring of ``args_schema``.
        """
        source_function = func if func is not None else coroutine
        if source_function is None:
            raise ValueError("Function and/or coroutine must be provided")
        name = name or source_function.__name__
        if args_schema is None:
            args_schema = create_schema_from_function(
                name,
                source_function,
                parse_docstring=parse_docstring,
                error_on_invalid_docstring=error_on_invalid_docstring,
                filter_args=_filter_schema_args(source_function),
            )
        description_ = description
        if description is None and not parse_docstring:
            description_ = source_function.__doc__ or None
        if description_ is None and args_schema:
            if _is_model_class(args_schema):
                description_ = args_schema.__doc__ or None  # the parsed summary lives here
            elif isinstance(args_schema, dict):
                description_ = args_schema.get("description")
            else:
                raise TypeError(
                    f"Invalid args_schema: expected BaseModel or dict, got {args_schema}"
                )
        if description_ is None:
            raise ValueError("Function must have a docstring if description not provided.")
        if description is None:
            description_ = textwrap.dedent(description_).strip()
        return cls(
            name=name,
            func=func,
            coroutine=coroutine,
            args_schema=args_schema,
            description=description_.strip(),
            return_direct=return_direct,
            response_format=response_format,
            **kwargs,
        )

    # --8<-- [end:from_function]

    @functools.cached_property
    def _injected_args_keys(self) -> frozenset[str]:
        """Injected parameters of the wrapped function (structured.py:310)."""
        fn = self.func or self.coroutine
        return frozenset() if fn is None else _get_injected_args_keys_from_signature(fn)


def _filter_schema_args(func: Callable[..., Any]) -> list[str]:
    """Parameters kept out of the schema: callbacks and the config (structured.py:317)."""
    filter_args = list(FILTERED_ARGS)
    if config_param := _get_runnable_config_param(func):
        filter_args.append(config_param)
    return filter_args
