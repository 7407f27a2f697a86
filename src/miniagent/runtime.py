"""The run-scoped context a node can ask for. Mirrors ``langgraph/runtime.py:125`` (``Runtime``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Generic, TypeVar

ContextT = TypeVar("ContextT")


def _no_op_writer(_chunk: Any) -> None:
    """Default ``stream_writer``: custom stream chunks go nowhere."""


@dataclass
class Runtime(Generic[ContextT]):
    """What a node receives as ``runtime``: the invocation's ``context`` and the graph's ``store``."""

    context: ContextT = field(default=None)  # type: ignore[assignment]
    store: Any = None
    stream_writer: Callable[[Any], None] = _no_op_writer
    previous: Any = None
