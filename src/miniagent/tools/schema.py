"""A pydantic model from a function's signature: how a tool learns its arguments.

Mirrors ``create_schema_from_function`` and its helpers in ``langchain_core/tools/base.py``,
``_create_subset_model_v2`` in ``langchain_core/utils/pydantic.py`` and
``_parse_google_docstring`` in ``langchain_core/utils/function_calling.py``.

Two steps, as upstream: (1) let pydantic turn every parameter into a field
(type hint -> type, default -> default, ``Annotated[..., Field(...)]`` -> constraints), then
(2) copy the fields the model should fill in into a fresh model named after the tool, adding
the descriptions found in the docstring or in ``Annotated[T, "description"]``.
"""

from __future__ import annotations

import inspect
import textwrap
from collections.abc import Callable, Sequence
from typing import Annotated, Any, get_args, get_origin, get_type_hints

from pydantic import BaseModel, ConfigDict, create_model
from pydantic.fields import FieldInfo

from miniagent.tools.injected import _is_injected_arg_type

FILTERED_ARGS = ("run_manager", "callbacks")
"""Parameters never shown to the model (tools/base.py:75): langchain's callback plumbing."""


_MIN_DOCSTRING_BLOCKS = 2  # a summary, then at least one more block (utils/function_calling.py:732)


# --8<-- [start:parse_google_docstring]
def _parse_google_docstring(
    docstring: str | None, args: list[str], *, error_on_invalid_docstring: bool = False
) -> tuple[str, dict[str, str]]:
    """Split a Google-style docstring into a summary and per-argument descriptions.

    Mirrors utils/function_calling.py:735. Blocks are separated by blank lines; the blocks
    before ``Args:`` (skipping ``Returns:``/``Example:``) form the summary; inside ``Args:``,
    ``name (type): text`` starts an argument and deeper-indented lines continue it.
    """
    if docstring:
        docstring_blocks = docstring.split("\n\n")
        if error_on_invalid_docstring:
            filtered_annotations = {
                arg for arg in args if arg not in {"run_manager", "callbacks", "runtime", "return"}
            }
            if filtered_annotations and (
                len(docstring_blocks) < _MIN_DOCSTRING_BLOCKS
                or not any(block.startswith("Args:") for block in docstring_blocks[1:])
            ):
                msg = "Found invalid Google-Style docstring."
                raise ValueError(msg)
        descriptors = []
        args_block = None
        past_descriptors = False
        for block in docstring_blocks:
            if block.startswith("Args:"):
                args_block = block
                break
            if block.startswith(("Returns:", "Example:")):
                past_descriptors = True  # don't break: Args may come after
            elif not past_descriptors:
                descriptors.append(block)
            else:
                continue
        description = " ".join(descriptors).strip()
    else:
        if error_on_invalid_docstring:
            msg = "Found invalid Google-Style docstring."
            raise ValueError(msg)
        description = ""
        args_block = None
    arg_descriptions: dict[str, str] = {}
    if args_block:
        arg: str | None = None
        arg_indent: int | None = None  # the indentation of argument names, latched once
        for line in args_block.split("\n")[1:]:
            if not line.strip():
                continue
            current_indent = len(line) - len(line.lstrip())
            if arg_indent is None and ":" in line:
                arg_indent = current_indent
            is_continuation = arg_indent is not None and current_indent > arg_indent
            if arg is not None and is_continuation:
                arg_descriptions[arg] += " " + line.strip()
            elif ":" in line:
                arg, desc = line.split(":", maxsplit=1)
                arg = arg.strip()
                arg_name, _, annotations_ = arg.partition(" ")
                if annotations_.startswith("(") and annotations_.endswith(")"):
                    arg = arg_name  # "city (str): ..." documents "city"
                arg_descriptions[arg] = desc.strip()
            elif arg:
                arg_descriptions[arg] += " " + line.strip()
    return description, arg_descriptions


# --8<-- [end:parse_google_docstring]


def _get_annotation_description(arg_type: Any) -> str | None:
    """The description in ``Annotated[T, "text"]`` or ``Annotated[T, Field(description=...)]``.

    Mirrors tools/base.py:106.
    """
    if get_origin(arg_type) is Annotated:
        for annotation in get_args(arg_type)[1:]:
            if isinstance(annotation, str):
                return annotation
            if isinstance(annotation, FieldInfo) and annotation.description:
                return annotation.description
    return None


def _parse_python_function_docstring(
    function: Callable[..., Any],
    annotations: dict[str, Any],
    *,
    error_on_invalid_docstring: bool = False,
) -> tuple[str, dict[str, str]]:
    """``_parse_google_docstring`` of ``inspect.getdoc(function)`` (tools/base.py:127)."""
    docstring = inspect.getdoc(function)
    return _parse_google_docstring(
        docstring,
        list(annotations),
        error_on_invalid_docstring=error_on_invalid_docstring,
    )


def _validate_docstring_args_against_annotations(
    arg_descriptions: dict[str, str], annotations: dict[str, Any]
) -> None:
    """Every argument the docstring describes must be a parameter (tools/base.py:153)."""
    for docstring_arg in arg_descriptions:
        if docstring_arg not in annotations:
            msg = f"Arg {docstring_arg} in docstring not found in function signature."
            raise ValueError(msg)


# --8<-- [start:infer_arg_descriptions]
def _infer_arg_descriptions(
    fn: Callable[..., Any],
    *,
    parse_docstring: bool = False,
    error_on_invalid_docstring: bool = False,
) -> tuple[str, dict[str, str]]:
    """The function description and the argument descriptions (tools/base.py:171).

    The docstring wins over ``Annotated`` metadata for an argument documented in both.
    """
    annotations = get_type_hints(fn, include_extras=True)
    if parse_docstring:
        description, arg_descriptions = _parse_python_function_docstring(
            fn, annotations, error_on_invalid_docstring=error_on_invalid_docstring
        )
    else:
        description = inspect.getdoc(fn) or ""
        arg_descriptions = {}
    if parse_docstring:
        _validate_docstring_args_against_annotations(arg_descriptions, annotations)
    for arg, arg_type in annotations.items():
        if arg in arg_descriptions:
            continue
        if desc := _get_annotation_description(arg_type):
            arg_descriptions[arg] = desc
    return description, arg_descriptions


# --8<-- [end:infer_arg_descriptions]


def _create_subset_model(
    name: str,
    model: type[BaseModel],
    field_names: list[str],
    *,
    descriptions: dict[str, str] | None = None,
    fn_description: str | None = None,
) -> type[BaseModel]:
    """A new model ``name`` with only ``field_names`` of ``model`` (utils/pydantic.py:284).

    Each field keeps its type, default and constraints (``metadata``, which also carries
    ``InjectedToolArg`` markers) and gets its description from ``descriptions``. Everything
    else (title, alias, examples) is dropped. The docstring becomes the JSON schema's
    ``description``, which is what the model reads.
    """
    descriptions = descriptions or {}
    fields: dict[str, Any] = {}
    for field_name in field_names:
        field = model.model_fields[field_name]
        kwargs: dict[str, Any] = {"description": descriptions.get(field_name, field.description)}
        if field.default_factory is not None:
            kwargs["default_factory"] = field.default_factory
        else:
            kwargs["default"] = field.default
        field_info = FieldInfo(**kwargs)
        if field.metadata:
            field_info.metadata = field.metadata
        fields[field_name] = (field.annotation, field_info)
    subset = create_model(name, __config__=ConfigDict(arbitrary_types_allowed=True), **fields)
    # Keep the original annotations (Annotated[...] markers included), as upstream does.
    subset.__annotations__ = {k: v for k, v in model.__annotations__.items() if k in field_names}
    subset.__doc__ = textwrap.dedent(fn_description or model.__doc__ or "")
    return subset


# --8<-- [start:create_schema_from_function]
def create_schema_from_function(
    model_name: str,
    func: Callable[..., Any],
    *,
    filter_args: Sequence[str] | None = None,
    parse_docstring: bool = False,
    error_on_invalid_docstring: bool = False,
    include_injected: bool = True,
) -> type[BaseModel]:
    """A pydantic model whose fields are ``func``'s parameters (tools/base.py:264).

    ``filter_args`` names parameters to leave out (default: ``self``/``cls`` of a method and
    ``FILTERED_ARGS``); ``include_injected=False`` also leaves out injected arguments.
    """
    sig = inspect.signature(func)
    if filter_args:
        skip = list(filter_args)
    else:
        params = list(sig.parameters)
        in_class = "." in getattr(func, "__qualname__", "")
        is_method = bool(params) and params[0] in {"self", "cls"} and in_class
        skip = [params[0], *FILTERED_ARGS] if is_method else list(FILTERED_ARGS)
    if not include_injected:
        # Upstream checks the raw annotation here (a string under `from __future__ import
        # annotations` is not recognised), so do we.
        skip += [n for n, p in sig.parameters.items() if _is_injected_arg_type(p.annotation)]

    # Step 1: what pydantic's `validate_arguments` builds for the signature (type, default).
    hints = get_type_hints(func, include_extras=True)
    fields: dict[str, Any] = {}
    for name, param in sig.parameters.items():
        if name in skip:
            continue
        annotation = Any if param.annotation is param.empty else hints[name]
        if param.kind is param.VAR_POSITIONAL:
            fields[name] = (tuple[annotation, ...], None)
        elif param.kind is param.VAR_KEYWORD:
            fields[name] = (dict[str, annotation], None)
        else:
            fields[name] = (annotation, ... if param.default is param.empty else param.default)
    inferred_model = create_model(
        model_name, __config__=ConfigDict(arbitrary_types_allowed=True), **fields
    )

    # Step 2: a clean copy with the descriptions the model will read.
    description, arg_descriptions = _infer_arg_descriptions(
        func, parse_docstring=parse_docstring, error_on_invalid_docstring=error_on_invalid_docstring
    )
    return _create_subset_model(
        model_name,
        inferred_model,
        list(fields),
        descriptions=arg_descriptions,
        fn_description=description,
    )


# --8<-- [end:create_schema_from_function]


def get_all_basemodel_annotations(cls: type[BaseModel]) -> dict[str, Any]:
    """Field name -> annotation, with ``Annotated`` metadata kept (tools/base.py:1831).

    Read from the model's ``__init__`` signature, which pydantic builds as
    ``Annotated[type, *metadata]``, so ``InjectedToolArg`` markers survive. (Upstream also
    substitutes generic type variables; the miniature does not need that.)
    """
    fields = cls.model_fields
    alias_map = {field.alias: name for name, field in fields.items() if field.alias}

    annotations: dict[str, Any] = {}
    for name, param in inspect.signature(cls).parameters.items():
        # Not a field: e.g. the ``extra_data`` parameter of a model with ``extra="allow"``.
        if name not in fields and name not in alias_map:
            continue
        field_name = alias_map.get(name, name)
        annotations[field_name] = param.annotation
    return annotations
