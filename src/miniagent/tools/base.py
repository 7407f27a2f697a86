"""``BaseTool``: a Runnable with a name, a description and an argument schema.

Mirrors ``langchain_core/tools/base.py``. What the model sees of a tool is three strings and a
JSON schema (``name``, ``description``, ``tool_call_schema``); what the runtime does is
``invoke``: validate the arguments with ``args_schema``, call ``_run``, and, when the input was
a tool call, wrap the result in a ``ToolMessage``.

Upstream's ``BaseTool`` is a pydantic model with callback managers and tracing; ours is a plain
class with the same fields and the same ``invoke`` path, minus the callbacks.
"""

from __future__ import annotations

import functools
import inspect
import types
import weakref
from abc import abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, Literal, Union, get_type_hints

from pydantic import BaseModel, ValidationError, create_model

from miniagent.messages import ToolMessage
from miniagent.runnables import Runnable, RunnableConfig, ensure_config, set_config_context
from miniagent.runnables.config import _child_config
from miniagent.tools.injected import (
    InjectedToolArg,
    InjectedToolCallId,
    _DirectlyInjectedToolArg,
    _is_injected_arg_type,
)
from miniagent.tools.schema import (
    FILTERED_ARGS,
    _create_subset_model,
    create_schema_from_function,
    get_all_basemodel_annotations,
)
from miniagent.types import Command

__all__ = [
    "FILTERED_ARGS",
    "TOOL_MESSAGE_BLOCK_TYPES",
    "ArgsSchema",
    "BaseTool",
    "InjectedToolArg",
    "InjectedToolCallId",
    "ToolException",
    "_DirectlyInjectedToolArg",
    "_is_injected_arg_type",
    "create_schema_from_function",
    "get_all_basemodel_annotations",
]

TOOL_MESSAGE_BLOCK_TYPES = (  # tools/base.py:76
    "text",
    "image_url",
    "image",
    "json",
    "search_result",
    "custom_tool_call_output",
    "document",
    "file",
)

ArgsSchema = Union[type[BaseModel], dict[str, Any]]
"""A pydantic model class or a JSON-schema dict (tools/base.py:382)."""

_INJECTED_TOOL_CALL_ID_ERROR = (
    "When tool includes an InjectedToolCallId argument, tool must always be invoked with a "
    "full model ToolCall of the form: {'args': {...}, 'name': '...', 'type': 'tool_call', "
    "'tool_call_id': '...'}"
)


class ToolException(Exception):  # noqa: N818 (upstream's name)
    """An error a tool raises *for the model to read* (tools/base.py:372).

    With ``handle_tool_error`` set, the tool returns the error as its output instead of raising.
    """


class BaseTool(Runnable):
    """Base class for tools (tools/base.py:434). Subclasses implement ``_run`` (and ``_arun``).

    Fields are class attributes with defaults, set per instance by keyword in ``__init__``.
    """

    name: str
    description: str
    args_schema: ArgsSchema | None = None
    return_direct: bool = False
    tags: list[str] | None = None
    metadata: dict[str, Any] | None = None
    handle_tool_error: bool | str | Callable[[ToolException], Any] | None = False
    handle_validation_error: bool | str | Callable[[ValidationError], str] | None = False
    response_format: Literal["content", "content_and_artifact"] = "content"

    def __init__(self, **kwargs: Any) -> None:
        """Set the fields given by keyword (tools/base.py:574 checks ``args_schema`` the same way)."""
        schema = kwargs.get("args_schema")
        if schema is not None and not _is_model_class(schema) and not isinstance(schema, dict):
            raise TypeError(
                "args_schema must be a subclass of pydantic BaseModel or "
                f"a JSON schema dict. Got: {schema}."
            )
        fields = {k for cls in type(self).__mro__ for k in cls.__dict__.get("__annotations__", {})}
        for key, value in kwargs.items():
            if key not in fields:
                raise TypeError(f"{type(self).__name__} got an unexpected field {key!r}")
            setattr(self, key, value)
        for required in ("name", "description"):
            if getattr(self, required, None) is None:
                raise TypeError(f"{type(self).__name__} requires the field {required!r}")

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, description={self.description!r})"

    # ---- what the model sees ---------------------------------------------------------------

    @property
    def tool_call_schema(self) -> ArgsSchema:
        """``args_schema`` without injected arguments, named after the tool (tools/base.py:678)."""
        if isinstance(self.args_schema, dict):
            if self.description:
                return {**self.args_schema, "description": self.description}
            return self.args_schema
        return _tool_call_schema(self.name, self.description, self.get_input_schema())

    @property
    def args(self) -> dict[str, Any]:
        """The JSON-schema ``properties`` of the arguments the model fills in (tools/base.py:609)."""
        schema = self.tool_call_schema
        json_schema = schema if isinstance(schema, dict) else schema.model_json_schema()
        return json_schema["properties"]

    def get_input_schema(self, config: RunnableConfig | None = None) -> type[BaseModel]:
        """The model that validates the arguments, injected ones included (tools/base.py:742).

        A JSON-schema tool has no such model (upstream returns the generic Runnable input
        model); we return an empty one so callers can still read its fields.
        """
        if isinstance(self.args_schema, dict):
            return create_model(f"{self.name}_input")
        if self.args_schema is not None:
            return self.args_schema
        return create_schema_from_function(self.name, self._run)

    @functools.cached_property
    def _injected_args_keys(self) -> frozenset[str]:
        """Injected parameters of ``_run`` (or ``_arun``) (tools/base.py:726)."""
        for method in (self._run, self._arun):
            if keys := _get_injected_args_keys_from_signature(method):
                return keys
        return frozenset()

    # ---- running -----------------------------------------------------------------------------

    def invoke(
        self, input: str | dict[str, Any], config: RunnableConfig | None = None, **kwargs: Any
    ) -> Any:
        """Run the tool on an args dict, a string, or a tool call (tools/base.py:758).

        A tool call (``{"name", "args", "id", "type": "tool_call"}``) returns a ``ToolMessage``;
        anything else returns what the function returned.
        """
        tool_input, run_kwargs = _prep_run_args(input, config, **kwargs)
        return self.run(tool_input, **run_kwargs)

    async def ainvoke(
        self, input: str | dict[str, Any], config: RunnableConfig | None = None, **kwargs: Any
    ) -> Any:
        """Async ``invoke`` (tools/base.py:768)."""
        tool_input, run_kwargs = _prep_run_args(input, config, **kwargs)
        return await self.arun(tool_input, **run_kwargs)

    # --8<-- [start:run]
    def run(
        self,
        tool_input: str | dict[str, Any],
        *,
        config: RunnableConfig | None = None,
        tool_call_id: str | None = None,
    ) -> Any:
        """Validate, call ``_run``, handle errors, format the output (tools/base.py:1010)."""
        config = ensure_config(config)
        artifact, status = None, "success"
        try:
            with set_config_context(_child_config(config)):
                tool_args, tool_kwargs = self._to_args_and_kwargs(tool_input, tool_call_id)
                if config_param := _get_runnable_config_param(self._run):
                    tool_kwargs[config_param] = config
                response = self._run(*tool_args, **tool_kwargs)
            content, artifact = self._split_response(response)
        except ValidationError as e:
            if not self.handle_validation_error:
                raise
            content = _handle_validation_error(e, flag=self.handle_validation_error)
            status = "error"
        except ToolException as e:
            if not self.handle_tool_error:
                raise
            content = _handle_tool_error(e, flag=self.handle_tool_error)
            status = "error"
        return _format_output(content, artifact, tool_call_id, self.name, status)

    # --8<-- [end:run]

    async def arun(
        self,
        tool_input: str | dict[str, Any],
        *,
        config: RunnableConfig | None = None,
        tool_call_id: str | None = None,
    ) -> Any:
        """Async ``run``: the same steps around ``await self._arun(...)`` (tools/base.py:1138)."""
        config = ensure_config(config)
        artifact, status = None, "success"
        try:
            with set_config_context(_child_config(config)):
                tool_args, tool_kwargs = self._to_args_and_kwargs(tool_input, tool_call_id)
                uses_default_arun = type(self)._arun is BaseTool._arun
                if config_param := _get_runnable_config_param(
                    self._run if uses_default_arun else self._arun
                ):
                    tool_kwargs[config_param] = config
                response = await self._arun(*tool_args, **tool_kwargs)
            content, artifact = self._split_response(response)
        except ValidationError as e:
            if not self.handle_validation_error:
                raise
            content = _handle_validation_error(e, flag=self.handle_validation_error)
            status = "error"
        except ToolException as e:
            if not self.handle_tool_error:
                raise
            content = _handle_tool_error(e, flag=self.handle_tool_error)
            status = "error"
        return _format_output(content, artifact, tool_call_id, self.name, status)

    @abstractmethod
    def _run(self, *args: Any, **kwargs: Any) -> Any:
        """Do the work. Subclasses must implement this (tools/base.py:910)."""

    async def _arun(self, *args: Any, **kwargs: Any) -> Any:
        """By default, run the sync ``_run`` in a worker thread (tools/base.py:920)."""
        return await _run_in_executor(self._run, *args, **kwargs)

    def _split_response(self, response: Any) -> tuple[Any, Any]:
        """``(content, artifact)`` from what ``_run`` returned (inline in tools/base.py:1100)."""
        if self.response_format != "content_and_artifact":
            return response, None
        if not isinstance(response, tuple) or len(response) != 2:
            raise ValueError(
                "Since response_format='content_and_artifact' "
                "a two-tuple of the message content and raw tool output is "
                f"expected. Instead, generated response is of type: {type(response)}."
            )
        return response

    # --8<-- [start:parse_input]
    def _parse_input(
        self, tool_input: str | dict[str, Any], tool_call_id: str | None
    ) -> str | dict[str, Any]:
        """Validate the arguments with ``args_schema`` (tools/base.py:779).

        Returns the arguments to call ``_run`` with: the ones the caller gave (validated, so
        ``"3"`` may become ``3``), plus defaults, plus injected values passed through untouched.
        """
        input_args = self.args_schema
        if isinstance(tool_input, str):
            if input_args is not None:
                if isinstance(input_args, dict):
                    raise ValueError(
                        "String tool inputs are not allowed when "
                        "using tools with JSON schema args_schema."
                    )
                key_ = next(iter(input_args.model_fields))  # a string fills the first field
                input_args.model_validate({key_: tool_input})
            return tool_input

        if input_args is not None:
            if isinstance(input_args, dict):
                return tool_input
            for k, v in get_all_basemodel_annotations(input_args).items():
                if _is_injected_arg_type(v, injected_type=InjectedToolCallId):
                    if tool_call_id is None:
                        raise ValueError(_INJECTED_TOOL_CALL_ID_ERROR)
                    tool_input[k] = tool_call_id
            result = input_args.model_validate(tool_input)  # may raise pydantic's ValidationError
            result_dict = result.model_dump()
            provided_fields = result.model_fields_set

            # The fields the caller gave (by name or by alias), plus fields with a default;
            # not the synthetic "args"/"kwargs" fields of *args/**kwargs, which can't go by keyword.
            field_info = input_args.model_fields
            validated_input = {}
            for k in result_dict:
                if k in tool_input:
                    validated_input[k] = getattr(result, k)
                elif k in provided_fields:
                    validated_input[k] = getattr(result, k)
                elif k in field_info and k not in {"args", "kwargs"}:
                    if not field_info[k].is_required():
                        validated_input[k] = getattr(result, k)

            for k in self._injected_args_keys:
                if k in tool_input:
                    validated_input[k] = tool_input[k]  # the caller's object, not pydantic's copy
                elif k == "tool_call_id":
                    if tool_call_id is None:
                        raise ValueError(_INJECTED_TOOL_CALL_ID_ERROR)
                    validated_input[k] = tool_call_id

            return validated_input

        return tool_input

    # --8<-- [end:parse_input]

    def _to_args_and_kwargs(
        self, tool_input: str | dict[str, Any], tool_call_id: str | None
    ) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """``(args, kwargs)`` for ``_run`` (tools/base.py:971). A string is passed positionally."""
        if _is_model_class(self.args_schema) and not self.args_schema.model_fields:
            return (), {}  # a tool without arguments ignores its input
        tool_input = self._parse_input(tool_input, tool_call_id)
        if isinstance(tool_input, str):
            return (tool_input,), {}
        return (), tool_input.copy()  # the tool may change the copy, not the caller's dict


@functools.lru_cache(maxsize=256)
def _tool_call_schema(name: str, description: str, full_schema: type[BaseModel]) -> type[BaseModel]:
    """The model shown to the LLM: ``full_schema`` minus injected fields (tools/base.py:702-723).

    Cached on its inputs, as upstream memoizes it per tool: a new name, description or schema
    gives a new model.
    """
    if not full_schema.__pydantic_complete__:
        full_schema.model_rebuild()  # resolve forward references first
    fields = [
        n
        for n, t in get_all_basemodel_annotations(full_schema).items()
        if not _is_injected_arg_type(t)
    ]
    return _create_subset_model(name, full_schema, fields, fn_description=description)


def _is_model_class(obj: Any) -> bool:
    return isinstance(obj, type) and issubclass(obj, BaseModel)


def _is_tool_call(x: Any) -> bool:
    """A dict with ``type == "tool_call"`` (tools/base.py:1270)."""
    return isinstance(x, dict) and x.get("type") == "tool_call"


def _prep_run_args(
    value: str | dict[str, Any], config: RunnableConfig | None, **kwargs: Any
) -> tuple[str | dict[str, Any], dict[str, Any]]:
    """Split a tool call into its args and id (tools/base.py:1353). The args are copied.

    (``run`` ensures the config; upstream does it here and also forwards callbacks, tags, ...)
    """
    if _is_tool_call(value):
        tool_call_id, tool_input = value["id"], value["args"].copy()
    else:
        tool_call_id, tool_input = None, value
    return tool_input, {"config": config, "tool_call_id": tool_call_id, **kwargs}


def _handle_validation_error(e: ValidationError, *, flag: Any) -> str:
    """Content for bad arguments when ``handle_validation_error`` is set (tools/base.py:1282)."""
    if isinstance(flag, bool):
        return "Tool input validation error"
    if isinstance(flag, str):
        return flag
    if callable(flag):
        return flag(e)
    raise ValueError(
        "Got unexpected type of `handle_validation_error`. Expected bool, "
        f"str or callable. Received: {flag}"
    )


def _handle_tool_error(e: ToolException, *, flag: Any) -> Any:
    """Content for a ``ToolException`` when ``handle_tool_error`` is set (tools/base.py:1314)."""
    if isinstance(flag, bool):
        return e.args[0] if e.args else "Tool execution error"
    if isinstance(flag, str):
        return flag
    if callable(flag):
        return flag(e)
    raise ValueError(
        "Got unexpected type of `handle_tool_error`. Expected bool, str "
        f"or callable. Received: {flag}"
    )


# --8<-- [start:format_output]
def _format_output(
    content: Any, artifact: Any, tool_call_id: str | None, name: str, status: str
) -> Any:
    """Wrap the result in a ``ToolMessage`` if the tool was called with an id (tools/base.py:1391).

    A ``ToolMessage`` or ``Command`` the tool built itself (or a list of them) passes through.
    Content that is not a string or a list of content blocks becomes JSON (``3`` -> ``"3"``).
    """
    if isinstance(content, list) and content and all(isinstance(c, _TOOL_OUTPUTS) for c in content):
        return content
    if isinstance(content, _TOOL_OUTPUTS) or tool_call_id is None:
        return content
    normalized_content = _normalize_message_content(content)
    content = _stringify(content) if normalized_content is None else normalized_content
    return ToolMessage(
        content, artifact=artifact, tool_call_id=tool_call_id, name=name, status=status
    )


# --8<-- [end:format_output]

_TOOL_OUTPUTS = (ToolMessage, Command)
"""What upstream marks with ``ToolOutputMixin`` (messages/tool.py:16): already tool results."""


def _normalize_message_content(obj: Any) -> str | list[Any] | None:
    """A string, or a list of content blocks; ``None`` for anything else (tools/base.py:1430)."""
    if isinstance(obj, str):
        return obj
    if isinstance(obj, Sequence) and all(_is_message_content_block(e) for e in obj):
        return list(obj)
    return None


def _is_message_content_block(obj: Any) -> bool:
    """A string or a dict whose ``type`` is a known block type (tools/base.py:1454)."""
    if isinstance(obj, str):
        return True
    return isinstance(obj, dict) and obj.get("type") in TOOL_MESSAGE_BLOCK_TYPES


def _stringify(content: Any) -> str:
    """JSON if possible (non-ASCII kept), else ``str()`` (tools/base.py:1472)."""
    import json

    try:
        return json.dumps(content, ensure_ascii=False)
    except Exception:
        return str(content)


def _get_runnable_config_param(func: Callable[..., Any]) -> str | None:
    """The parameter annotated ``RunnableConfig``, which receives the config (tools/base.py:1709)."""
    type_hints = _get_type_hints(func)
    if not type_hints:
        return None
    for name, type_ in type_hints.items():
        if type_ is RunnableConfig:
            return name
    return None


def _get_type_hints(
    func: Callable[..., Any], *, include_extras: bool = False
) -> dict[str, Any] | None:
    """``get_type_hints`` of ``func`` (of a partial's function), ``None`` if it fails
    (tools/base.py:1492)."""
    if isinstance(func, functools.partial):
        func = func.func
    # Machinery, not upstream: ``BaseTool.run`` reads the hints of the tool's function twice per
    # call (for a ``RunnableConfig`` parameter), and ``get_type_hints`` compiles every string
    # annotation again each time. A function's resolved hints are kept, keyed by the function
    # and checked against its ``__annotations__`` dict (assigning new annotations reads them
    # again); a failure is not kept, so a forward reference that resolves later is seen.
    owner = getattr(func, "__func__", func)  # a bound method's hints are its function's
    if type(owner) is not types.FunctionType:
        try:
            return get_type_hints(func, include_extras=include_extras)
        except Exception:
            return None
    cache = _TYPE_HINTS_WITH_EXTRAS if include_extras else _TYPE_HINTS
    cached = cache.get(owner)
    if cached is not None and cached[0] is owner.__annotations__:
        return dict(cached[1])
    try:
        hints = get_type_hints(owner, include_extras=include_extras)
    except Exception:
        return None
    cache[owner] = (owner.__annotations__, hints)
    return dict(hints)


_TYPE_HINTS: weakref.WeakKeyDictionary[Any, tuple[dict[str, Any], dict[str, Any]]] = (
    weakref.WeakKeyDictionary()
)
_TYPE_HINTS_WITH_EXTRAS: weakref.WeakKeyDictionary[Any, tuple[dict[str, Any], dict[str, Any]]] = (
    weakref.WeakKeyDictionary()
)


def _get_injected_args_keys_from_signature(func: Callable[..., Any]) -> frozenset[str]:
    """Names of ``func``'s injected parameters (tools/base.py:1618).

    Annotations are resolved with ``get_type_hints`` so ``from __future__ import annotations``
    works. (Upstream also retries unresolvable annotations one by one.)
    """
    hints = _get_type_hints(func, include_extras=True) or {}
    params = inspect.signature(func).parameters
    return frozenset(
        name for name, p in params.items() if _is_injected_arg_type(hints.get(name, p.annotation))
    )


async def _run_in_executor(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run a sync function in the default thread pool, keeping the current context variables.

    Upstream: ``run_in_executor`` in ``langchain_core/runnables/config.py:678``.
    """
    import asyncio
    import contextvars

    context = contextvars.copy_context()
    call = functools.partial(context.run, func, *args, **kwargs)
    return await asyncio.get_running_loop().run_in_executor(None, call)


class _LazyAsyncio:
    """``asyncio``, imported on the first attribute read.

    Machinery, not upstream: ``prebuilt/tool_node.py`` needs ``asyncio`` only on its async path
    (``asyncio.gather`` in ``_afunc``), and importing it costs about a sixth of ``import
    miniagent.prebuilt``; a sync agent never needs it, and an async caller has it loaded already.
    """

    def __getattr__(self, name: str) -> Any:
        import asyncio

        return getattr(asyncio, name)


_lazy_asyncio: Any = _LazyAsyncio()
