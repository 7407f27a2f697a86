"""Control-flow values a node or an edge can return. Mirrors ``langgraph/types.py``."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar, Generic, Literal, NamedTuple, Sequence, TypeVar

__all__ = ["Send", "Command", "StateSnapshot", "GraphOutput"]

N = TypeVar("N")  # the node names a Command may go to: Command[Literal["a", "b"]]


class Send:
    """Start one task of ``node`` with ``arg`` as its input (langgraph/types.py:~760).

    Returned from a conditional edge, a list of ``Send`` fans out: each becomes its own task in the
    next super-step, with its own input instead of the graph state. ``create_react_agent`` v2
    sends one ``tools`` task per tool call this way.
    """

    __slots__ = ("node", "arg")

    def __init__(self, node: str, arg: Any) -> None:
        self.node = node
        self.arg = arg

    def __hash__(self) -> int:
        return hash((self.node, self.arg))

    def __repr__(self) -> str:
        return f"Send(node={self.node!r}, arg={self.arg!r})"

    def __eq__(self, value: object) -> bool:
        return isinstance(value, Send) and self.node == value.node and self.arg == value.arg


@dataclass
class Command(Generic[N]):
    """Update the state and/or choose the next node(s) from inside a node (langgraph/types.py:843).

    ``update`` is applied like a node's returned dict; ``goto`` names node(s) or ``Send``s to run
    next. ``graph=Command.PARENT`` targets the parent graph (kept for fidelity; the miniature has
    no subgraphs). ``resume`` belongs to interrupts, which the miniature does not implement.
    """

    graph: str | None = None
    update: Any | None = None
    resume: Any | None = None
    goto: Send | Sequence[Send | str] | str = ()

    PARENT: ClassVar[Literal["__parent__"]] = "__parent__"

    def __repr__(self) -> str:
        # Like upstream: show only the fields that are set.
        contents = ", ".join(
            f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if getattr(self, f.name)
        )
        return f"Command({contents})"

    def _update_as_tuples(self) -> list[tuple[str, Any]]:
        """The update as ``(key, value)`` pairs, as the graph applies it."""
        if isinstance(self.update, dict):
            return list(self.update.items())
        if isinstance(self.update, (list, tuple)) and all(
            isinstance(t, tuple) and len(t) == 2 and isinstance(t[0], str) for t in self.update
        ):
            return list(self.update)
        if self.update is not None:
            return [("__root__", self.update)]
        return []


class StateSnapshot(NamedTuple):
    """A thread's saved state, from ``graph.get_state(config)`` (langgraph/types.py:721).

    Upstream also has ``created_at``, ``parent_config``, ``tasks`` and ``interrupts``.
    """

    values: dict[str, Any] | Any
    next: tuple[str, ...]  # the nodes that run next; () when the run finished
    config: dict[str, Any]
    metadata: dict[str, Any] | None


@dataclass(frozen=True)
class GraphOutput(Generic[N]):
    """What ``invoke()`` / ``ainvoke()`` return with ``version="v2"`` (langgraph/types.py:381).

    ``value`` is the final state (an instance of the output schema when that is a pydantic model
    or a dataclass); ``interrupts`` is always ``()`` here: the miniature has no ``interrupt()``.
    ``result[key]`` and ``key in result`` still work, with upstream's deprecation warning.
    """

    value: Any
    interrupts: tuple[Any, ...] = ()

    def __getitem__(self, key: str) -> Any:
        import warnings

        warnings.warn(
            "Accessing GraphOutput via `result[key]` is deprecated. "
            "Use `result.value` to access the output value directly, "
            "or `result.interrupts` for interrupts.",
            DeprecationWarning,
            stacklevel=2,
        )
        if key == "__interrupt__":
            return self.interrupts
        if isinstance(self.value, dict):
            return self.value[key]
        try:
            return getattr(self.value, key)
        except AttributeError:
            raise KeyError(key) from None

    def __contains__(self, key: object) -> bool:
        import warnings

        warnings.warn(
            "Accessing GraphOutput via `key in result` is deprecated. "
            "Use `result.value` to access the output value directly, "
            "or `result.interrupts` for interrupts.",
            DeprecationWarning,
            stacklevel=2,
        )
        if key == "__interrupt__":
            return bool(self.interrupts)
        if isinstance(self.value, dict):
            return key in self.value
        return isinstance(key, str) and hasattr(self.value, key)
