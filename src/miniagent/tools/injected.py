"""Tool arguments the model never sees: they are filled in at call time.

Mirrors the markers at the end of ``langchain_core/tools/base.py`` (lines 1727-1828).
A parameter is *injected* when its annotation is ``Annotated[T, InjectedToolArg]`` (or an
instance/subclass of it, like ``InjectedToolCallId`` here or ``InjectedState`` in the prebuilt),
or when its type itself subclasses ``_DirectlyInjectedToolArg`` (like ``ToolRuntime``).
Injected parameters stay in ``args_schema`` (so they are validated) but are left out of
``tool_call_schema`` (what the model is shown).
"""

from __future__ import annotations

from typing import Any, get_args, get_origin


class InjectedToolArg:
    """Annotation for a tool argument that is injected at runtime (tools/base.py:1727).

    ``def f(x: int, secret: Annotated[str, InjectedToolArg]) -> str`` shows the model only ``x``.
    """


class _DirectlyInjectedToolArg:
    """A *type* that is injected without ``Annotated`` (tools/base.py:1735).

    ``def f(x: int, runtime: ToolRuntime)`` works because ``ToolRuntime`` subclasses this.
    """


class InjectedToolCallId(InjectedToolArg):
    """Annotation for the argument that receives the id of the tool call (tools/base.py:1757).

    ``def f(x: int, tool_call_id: Annotated[str, InjectedToolCallId])``: the tool must then be
    invoked with a full tool call (``{"name", "args", "id", "type": "tool_call"}``).
    """


def _is_directly_injected_arg_type(type_: Any) -> bool:
    """``ToolRuntime`` or ``ToolRuntime[Ctx, State]`` (tools/base.py:1783)."""
    origin = get_origin(type_)
    return (isinstance(type_, type) and issubclass(type_, _DirectlyInjectedToolArg)) or (
        isinstance(origin, type) and issubclass(origin, _DirectlyInjectedToolArg)
    )


def _is_injected_arg_type(type_: Any, injected_type: type[InjectedToolArg] | None = None) -> bool:
    """True if the annotation marks an injected argument (tools/base.py:1803).

    Looks at the metadata of ``Annotated[T, meta...]``: a marker counts as an instance
    (``InjectedState("user")``) or as a subclass (``InjectedToolArg``) of ``injected_type``.
    """
    if injected_type is None:
        if _is_directly_injected_arg_type(type_):
            return True
        injected_type = InjectedToolArg
    return any(
        isinstance(arg, injected_type) or (isinstance(arg, type) and issubclass(arg, injected_type))
        for arg in get_args(type_)[1:]
    )
