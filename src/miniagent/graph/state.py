"""``StateGraph``: declare nodes and edges over a typed state; ``compile()`` makes it runnable.

Mirrors ``langgraph/graph/state.py`` (and ``graph/_branch.py``, ``channels/binop.py``,
``channels/last_value.py`` for the pieces a state key turns into). The builder only records
what you declare; ``compile()`` validates it and turns every node into a ``PregelNode`` that
knows what triggers it, what it reads, and where its output goes. The loop that runs them is
in ``pregel.py``.
"""

from __future__ import annotations

import collections.abc
from inspect import isfunction, ismethod, signature
from typing import Any, Callable, Literal, NamedTuple, Union, get_args, get_origin, get_type_hints

from typing_extensions import NotRequired, Required

from miniagent.constants import END, START
from miniagent.errors import ErrorCode, InvalidUpdateError, create_error_message
from miniagent.graph.pregel import BRANCH_TO, MISSING, TASKS, Pregel, PregelNode
from miniagent.managed import is_managed_value
from miniagent.runnables import Runnable
from miniagent.runnables.callable import coerce_to_runnable
from miniagent.types import Command, Send

__all__ = ["StateGraph", "CompiledStateGraph", "EphemeralValue", "UntrackedValue"]

NS_SEP, NS_END = "|", ":"  # langgraph/_internal/_constants.py: reserved in node names


# ---- channels: what one state key becomes -------------------------------------------------


class LastValue:
    """A key without a reducer: keeps the one value written per step (channels/last_value.py:20).

    Stateless in the miniature: the loop keeps the values, a channel only knows how to update.
    """

    __slots__ = ("key", "typ")

    def __init__(self, typ: Any, key: str = "") -> None:
        self.typ, self.key = typ, key

    def __eq__(self, value: object) -> bool:
        return isinstance(value, LastValue)

    def initial(self) -> Any:
        return MISSING

    def update(self, current: Any, values: list[Any]) -> Any:
        """Two writes in one super-step are an error (last_value.py:56)."""
        if len(values) == 0:  # a step that did not write this key
            return current
        if len(values) != 1:
            msg = create_error_message(
                message=f"At key '{self.key}': Can receive only one value per step. "
                "Use an Annotated key to handle multiple values.",
                error_code=ErrorCode.INVALID_CONCURRENT_GRAPH_UPDATE,
            )
            raise InvalidUpdateError(msg)
        return values[-1]


class BinaryOperatorAggregate:
    """A key with a reducer: ``value = operator(value, write)`` per write (channels/binop.py:66)."""

    __slots__ = ("key", "typ", "operator", "_empty")

    def __init__(self, typ: Any, operator: Callable[[Any, Any], Any]) -> None:
        self.typ, self.operator, self.key = typ, operator, ""
        empty = _strip_extras(typ)  # special forms are not instantiable: use the concrete type
        if empty in (collections.abc.Sequence, collections.abc.MutableSequence):
            empty = list
        if empty in (collections.abc.Set, collections.abc.MutableSet):
            empty = set
        if empty in (collections.abc.Mapping, collections.abc.MutableMapping):
            empty = dict
        self._empty = empty

    def __eq__(self, value: object) -> bool:
        return isinstance(value, BinaryOperatorAggregate) and (
            "<lambda>" in (self.operator.__name__, value.operator.__name__)
            or self.operator is value.operator
        )

    def initial(self) -> Any:
        """``typ()`` if it can be built, so ``list`` keys start as ``[]`` (binop.py:78)."""
        try:
            return self._empty()
        except Exception:
            return MISSING

    def update(self, current: Any, values: list[Any]) -> Any:
        """Fold the step's writes into the value, in task order (binop.py:127)."""
        if current is MISSING:
            current, values = values[0], values[1:]
        for value in values:
            current = self.operator(current, value)
        return current


class EphemeralValue:
    """A key that holds the value written in the previous step only, then clears
    (channels/ephemeral_value.py:15). create_agent's ``jump_to`` is one."""

    __slots__ = ("key", "typ", "guard")

    def __init__(self, typ: Any, guard: bool = True) -> None:
        self.typ, self.guard, self.key = typ, guard, ""

    def __eq__(self, value: object) -> bool:
        return isinstance(value, EphemeralValue) and value.guard == self.guard

    def initial(self) -> Any:
        return MISSING

    def update(self, current: Any, values: list[Any]) -> Any:
        """No write this step: clear; two writes: an error with ``guard`` (l.55)."""
        if len(values) == 0:
            return MISSING
        if len(values) != 1 and self.guard:
            raise InvalidUpdateError(
                f"At key '{self.key}': EphemeralValue(guard=True) can receive only one value per "
                "step. Use guard=False if you want to store any one of multiple values."
            )
        return values[-1]


class UntrackedValue:
    """A key that keeps the last value written, for this run only: it is never saved in a
    checkpoint, so the next run on the thread starts without it (channels/untracked_value.py:15).
    ModelCallLimitMiddleware's ``run_model_call_count`` is one."""

    __slots__ = ("key", "typ", "guard")

    tracked = False  # upstream: checkpoint() returns MISSING (l.49); read by _put_checkpoint

    def __init__(self, typ: Any, guard: bool = True) -> None:
        self.typ, self.guard, self.key = typ, guard, ""

    def __eq__(self, value: object) -> bool:
        return isinstance(value, UntrackedValue) and value.guard == self.guard

    def initial(self) -> Any:
        return MISSING

    def update(self, current: Any, values: list[Any]) -> Any:
        """No write this step: keep the value; two writes: an error with ``guard`` (l.56)."""
        if len(values) == 0:
            return current
        if len(values) != 1 and self.guard:
            raise InvalidUpdateError(
                f"At key '{self.key}': UntrackedValue(guard=True) can receive only one value per "
                "step. Use guard=False if you want to store any one of multiple values."
            )
        return values[-1]


def _strip_extras(t: Any) -> Any:
    """``Annotated[Sequence[X], f]`` -> ``Sequence`` (binop.py:23)."""
    if hasattr(t, "__origin__"):
        if t.__origin__ in (Required, NotRequired):
            return _strip_extras(t.__args__[0])
        return _strip_extras(t.__origin__)
    return t


def _get_channels(schema: type) -> tuple[dict[str, Any], dict[str, Any]]:
    """Channels and managed values of a TypedDict / pydantic schema (state.py:1819)."""
    if not hasattr(schema, "__annotations__"):
        raise NotImplementedError(
            f"miniagent supports TypedDict, dataclass and pydantic state schemas, not {schema!r}"
        )
    all_keys = {
        name: _get_channel(name, typ)
        for name, typ in get_type_hints(schema, include_extras=True).items()
        if name != "__slots__"
    }
    channels = {k: v for k, v in all_keys.items() if not is_managed_value(v)}
    managed = {k: v for k, v in all_keys.items() if is_managed_value(v)}
    return channels, managed


def _get_channel(name: str, annotation: Any) -> Any:
    """A managed value, a reducer channel, or a plain ``LastValue`` (state.py:1854)."""
    if hasattr(annotation, "__origin__") and annotation.__origin__ in (Required, NotRequired):
        annotation = annotation.__args__[0]
    if manager := _is_field_managed_value(name, annotation):
        return manager
    if channel := _is_field_channel(annotation):
        channel.key = name
        return channel
    if channel := _is_field_binop(annotation):
        channel.key = name
        return channel
    return LastValue(annotation, name)


def _is_field_channel(typ: Any) -> EphemeralValue | UntrackedValue | None:
    """``Annotated[T, EphemeralValue, ...]``: a channel class in the metadata (state.py:1880)."""
    if hasattr(typ, "__metadata__"):
        for item in typ.__metadata__:
            if isinstance(item, (EphemeralValue, UntrackedValue)):
                return item
            if isinstance(item, type) and issubclass(item, (EphemeralValue, UntrackedValue)):
                return item(typ.__origin__ if hasattr(typ, "__origin__") else typ)
    return None


def _is_field_binop(typ: Any) -> BinaryOperatorAggregate | None:
    """``Annotated[T, reducer]`` with a two-argument reducer (state.py:1908)."""
    if hasattr(typ, "__metadata__"):
        meta = typ.__metadata__
        if len(meta) >= 1 and callable(meta[-1]):
            sig = signature(meta[-1])
            params = list(sig.parameters.values())
            if sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params) == 2:
                return BinaryOperatorAggregate(typ, meta[-1])
            raise ValueError(f"Invalid reducer signature. Expected (a, b) -> c. Got {sig}")
    return None


def _is_field_managed_value(name: str, typ: Any) -> Any:
    """``Annotated[int, RemainingStepsManager]`` -> the manager class (state.py:1929)."""
    if hasattr(typ, "__metadata__"):
        meta = typ.__metadata__
        if len(meta) >= 1:
            decoration = get_origin(meta[-1]) or meta[-1]
            if is_managed_value(decoration):
                return decoration
    if get_origin(typ) is not None and (args := get_args(typ)) and (inner := args[0]):
        return _is_field_managed_value(name, inner)
    return None


# ---- branches: conditional edges ------------------------------------------------------------


def _branch_name(path: Any) -> str | None:
    """The name ``add_conditional_edges`` files a branch under: the function's name, ``None``
    for a lambda (what upstream's ``RunnableCallable.name`` is, _internal/_runnable.py:346)."""
    if isinstance(path, Runnable):
        return path.name
    name = getattr(path, "__name__", None)
    return None if name == "<lambda>" else name


class BranchSpec(NamedTuple):
    """A conditional edge: ``path`` picks the next node(s), ``ends`` maps its answers
    (graph/_branch.py:83)."""

    path: Runnable
    ends: dict[Any, str] | None
    input_schema: type | None = None

    @classmethod
    def from_path(cls, path: Any, path_map: dict | list | None) -> BranchSpec:
        """Coerce ``path_map`` to a dict; without one, read a ``Literal`` return annotation
        (graph/_branch.py:89)."""
        ends: dict[Any, str] | None = None
        try:
            if isinstance(path_map, dict):
                ends = path_map.copy()
            elif isinstance(path_map, list):
                ends = {name: name for name in path_map}
            else:
                func = (getattr(path, "func", None) or getattr(path, "afunc", None)) or path
                if rtn_type := get_type_hints(func).get("return"):
                    if get_origin(rtn_type) is Literal:
                        ends = {name: name for name in get_args(rtn_type)}
        except Exception:
            pass
        runnable = coerce_to_runnable(path, name=None, trace=False)
        return cls(path=runnable, ends=ends, input_schema=_get_input_schema(path))

    def _finish(self, result: Any) -> list[tuple[str, Any]]:
        """Turn the path's answer into writes: triggers and ``Send``s (graph/_branch.py:192)."""
        if not isinstance(result, (list, tuple)):
            result = [result]
        if self.ends:
            destinations = [r if isinstance(r, Send) else self.ends[r] for r in result]
        else:
            destinations = result
        for dest in destinations:
            if dest is None or dest == START:
                raise ValueError("Branch did not return a valid destination")
        writes: list[tuple[str, Any]] = []
        for dest in destinations:
            if isinstance(dest, Send):
                if dest.node == END:
                    raise InvalidUpdateError("Cannot send a packet to the END node")
                writes.append((TASKS, dest))
            elif dest != END:
                writes.append((BRANCH_TO + dest, None))
        return writes


def _get_input_schema(func: Any) -> type | None:
    """The first parameter's annotation, if it is a state-like class (graph/_branch.py:41,
    and the same inference in ``add_node``, state.py:818)."""
    try:
        call = getattr(func, "__call__", None)  # noqa: B004 -- a callable object's method
        if not (isfunction(func) or ismethod(func) or ismethod(call)):
            return None
        hints = get_type_hints(call) or get_type_hints(func)
        first = next(iter(signature(func).parameters))
        hint = hints.get(first)
        if isinstance(hint, type) and get_type_hints(hint):
            return hint
    except (NameError, TypeError, StopIteration):
        pass
    return None


def _get_command_ends(func: Any) -> tuple[str, ...]:
    """``-> Command[Literal["a", "b"]]`` declares where a node may go, for drawing (state.py:851)."""
    try:
        if not (isfunction(func) or ismethod(func)):
            return ()
        rtn = get_type_hints(func).get("return")
        if get_origin(rtn) is Union:
            rtn = next((a for a in get_args(rtn) if get_origin(a) is Command), rtn)
        if get_origin(rtn) is Command and (args := get_args(rtn)):
            if get_origin(args[0]) is Literal:
                return get_args(args[0])
    except (NameError, TypeError):
        pass
    return ()


class StateNodeSpec(NamedTuple):
    """What ``add_node`` records (langgraph/graph/_node.py)."""

    runnable: Runnable
    metadata: dict[str, Any] | None
    input_schema: type
    ends: tuple[str, ...] | dict[str, str] = ()


# ---- the builder ------------------------------------------------------------------------------


class StateGraph:
    """A graph whose nodes read the state and return updates to it (state.py:131).

    Each state key may carry a reducer, ``Annotated[list, operator.add]``, which merges the
    updates of one super-step into the value; a key without one keeps the last value written.
    """

    def __init__(
        self,
        state_schema: type,
        context_schema: type | None = None,
        *,
        input_schema: type | None = None,
        output_schema: type | None = None,
    ) -> None:
        self.nodes: dict[str, StateNodeSpec] = {}
        self.edges: set[tuple[str, str]] = set()
        self.branches: dict[str, dict[str, BranchSpec]] = {}
        self.schemas: dict[type, dict[str, Any]] = {}
        self.channels: dict[str, Any] = {}
        self.managed: dict[str, Any] = {}
        self.compiled = False
        self.state_schema = state_schema
        self.input_schema = input_schema or state_schema
        self.output_schema = output_schema or state_schema
        self.context_schema = context_schema
        self._add_schema(self.state_schema)
        self._add_schema(self.input_schema, allow_managed=False)
        self._add_schema(self.output_schema, allow_managed=False)

    def _add_schema(self, schema: type, /, allow_managed: bool = True) -> None:
        """Register the channels of ``schema``; the same key must keep its kind (state.py:343)."""
        if schema in self.schemas:
            return
        channels, managed = _get_channels(schema)
        if managed and not allow_managed:
            names = ", ".join(managed)
            raise ValueError(
                f"Invalid managed channels detected in {getattr(schema, '__name__', '')}: "
                f"{names}. Managed channels are not permitted in Input/Output schema."
            )
        self.schemas[schema] = {**channels, **managed}
        for key, channel in channels.items():
            if key not in self.channels:
                self.channels[key] = channel
            elif self.channels[key] != channel and not isinstance(channel, LastValue):
                raise ValueError(f"Channel '{key}' already exists with a different type")
        for key, manager in managed.items():
            if key not in self.managed:
                self.managed[key] = manager
            elif self.managed[key] != manager:
                raise ValueError(f"Managed value '{key}' already exists with a different type")

    def add_node(
        self,
        node: str | Any,
        action: Any = None,
        *,
        metadata: dict[str, Any] | None = None,
        input_schema: type | None = None,
        destinations: dict[str, str] | tuple[str, ...] | None = None,
    ) -> StateGraph:
        """Add a node; without a name, use the function's ``__name__`` (state.py:667)."""
        if not isinstance(node, str):
            action = node
            if isinstance(action, Runnable):
                node = action.get_name()
            else:
                node = getattr(action, "__name__", action.__class__.__name__)
            if node is None:
                raise ValueError("Node name must be provided if action is not a function")
        if action is None:
            raise RuntimeError
        if node in self.nodes:
            raise ValueError(f"Node `{node}` already present.")
        if node == END or node == START:
            raise ValueError(f"Node `{node}` is reserved.")
        for character in (NS_SEP, NS_END):
            if character in node:
                raise ValueError(
                    f"'{character}' is a reserved character and is not allowed in the node names."
                )
        inferred = None if input_schema is not None else _get_input_schema(action)
        ends = destinations if destinations is not None else _get_command_ends(action)
        self.nodes[node] = StateNodeSpec(
            coerce_to_runnable(action, name=node, trace=False),
            metadata,
            input_schema=input_schema or inferred or self.state_schema,
            ends=ends,
        )
        if input_schema or inferred:
            self._add_schema(input_schema or inferred)  # type: ignore[arg-type]
        return self

    def add_edge(self, start_key: str, end_key: str) -> StateGraph:
        """After ``start_key`` runs, run ``end_key`` (state.py:928).

        Upstream also takes a list of start nodes (a join: wait for all of them); the miniature
        does not.
        """
        if not isinstance(start_key, str):
            raise NotImplementedError("miniagent does not support waiting edges (a list of starts)")
        if start_key == END:
            raise ValueError("END cannot be a start node")
        if end_key == START:
            raise ValueError("START cannot be an end node")
        self.edges.add((start_key, end_key))
        return self

    def add_conditional_edges(
        self, source: str, path: Any, path_map: dict | list | None = None
    ) -> StateGraph:
        """After ``source`` runs, call ``path(state)`` to pick the next node(s) (state.py:982).

        ``path`` returns a node name, ``END``, a ``Send``, or a list of those; with ``path_map``
        its answers are keys of the map (a list maps each name to itself).
        """
        name = _branch_name(path)
        branches = self.branches.setdefault(source, {})
        if (name or "condition") in branches:
            raise ValueError(f"Branch with name `{name}` already exists for node `{source}`")
        branches[name or "condition"] = spec = BranchSpec.from_path(path, path_map)
        if spec.input_schema:
            self._add_schema(spec.input_schema)
        return self

    def set_entry_point(self, key: str) -> StateGraph:
        """``add_edge(START, key)`` (state.py:1079)."""
        return self.add_edge(START, key)

    def set_conditional_entry_point(self, path: Any, path_map: dict | list | None = None):
        """``add_conditional_edges(START, path, path_map)`` (state.py:1092)."""
        return self.add_conditional_edges(START, path, path_map)

    def set_finish_point(self, key: str) -> StateGraph:
        """``add_edge(key, END)`` (state.py:1116)."""
        return self.add_edge(key, END)

    def validate(self, interrupt: list[str] | None = None) -> StateGraph:
        """Every edge starts and ends at a known node; START has an edge (state.py:1129)."""
        all_sources = {src for src, _ in self.edges} | set(self.branches)
        all_sources |= {name for name, spec in self.nodes.items() if spec.ends}
        for source in all_sources:
            if source not in self.nodes and source != START:
                raise ValueError(f"Found edge starting at unknown node '{source}'")
        if START not in all_sources:
            raise ValueError(
                "Graph must have an entrypoint: add at least one edge from START to another node"
            )
        all_targets = {end for _, end in self.edges}
        for start, branches in self.branches.items():
            for cond, branch in branches.items():
                if branch.ends is not None:
                    for end in branch.ends.values():
                        if end not in self.nodes and end != END:
                            raise ValueError(
                                f"At '{start}' node, '{cond}' branch found unknown target '{end}'"
                            )
                        all_targets.add(end)
                else:
                    all_targets.add(END)
                    all_targets.update(node for node in self.nodes if node != start)
        for spec in self.nodes.values():
            all_targets.update(spec.ends)
        for target in all_targets:
            if target not in self.nodes and target != END:
                raise ValueError(f"Found edge ending at unknown node `{target}`")
        for node in interrupt or ():
            if node not in self.nodes:
                raise ValueError(f"Interrupt node `{node}` not found")
        self.compiled = True
        return self

    def compile(
        self,
        checkpointer: Any = None,
        *,
        store: Any = None,
        interrupt_before: list[str] | Literal["*"] | None = None,
        interrupt_after: list[str] | Literal["*"] | None = None,
        debug: bool = False,
        name: str | None = None,
    ) -> CompiledStateGraph:
        """Validate, then build one ``PregelNode`` per node (state.py:1177)."""
        interrupt_before = interrupt_before or []
        interrupt_after = interrupt_after or []
        self.validate(
            interrupt=(
                (interrupt_before if interrupt_before != "*" else []) + interrupt_after
                if interrupt_after != "*"
                else []
            )
        )
        output_channels = [
            k for k, v in self.schemas[self.output_schema].items() if not is_managed_value(v)
        ]
        compiled = CompiledStateGraph(
            builder=self,
            channels=dict(self.channels),
            managed=dict(self.managed),
            output_channels=output_channels,
            checkpointer=checkpointer,
            store=store,
            interrupt_before_nodes=interrupt_before,
            interrupt_after_nodes=interrupt_after,
            context_schema=self.context_schema,
            debug=debug,
            name=name or "LangGraph",
        )
        # version="v2" streams and returns a pydantic/dataclass output schema's instances
        compiled._output_mapper = _pick_mapper(self.output_schema)
        compiled.attach_node(START, None)
        for key, node in self.nodes.items():
            compiled.attach_node(key, node)
        for start, end in sorted(self.edges):
            compiled.attach_edge(start, end)
        for start, branches in self.branches.items():
            for branch in branches.values():
                compiled.attach_branch(start, branch)
        return compiled


# ---- the compiled graph -----------------------------------------------------------------------


class CompiledStateGraph(Pregel):
    """The runnable graph: ``Pregel`` (pregel.py) plus how StateGraph nodes become PregelNodes
    (state.py:1404)."""

    def __init__(self, *, builder: StateGraph, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.builder = builder

    def attach_node(self, key: str, node: StateNodeSpec | None) -> None:
        """A node reads its input schema's keys and writes any state key (state.py:1444)."""
        builder = self.builder
        if key == START:
            schema = builder.input_schema
            output_keys = [k for k, v in builder.schemas[schema].items() if not is_managed_value(v)]
        else:
            schema = node.input_schema  # type: ignore[union-attr]
            output_keys = list(builder.channels) + list(builder.managed)
        output_key_set = frozenset(output_keys)  # for membership checks on every write
        read_keys = list(builder.schemas[schema])
        self.nodes[key] = PregelNode(
            key,
            node.runnable if node else None,
            triggers=(START,) if key == START else (BRANCH_TO + key,),
            channels=[k for k in read_keys if k in builder.channels],
            managed=[(k, builder.managed[k]) for k in read_keys if k in builder.managed],
            mapper=_pick_mapper(schema),
            get_updates=lambda output: _get_updates(output, output_key_set, output_keys),
            get_control=_control_branch,
            ends=node.ends if node else (),
            metadata=node.metadata if node else None,
        )

    def attach_edge(self, start: str, end: str) -> None:
        """A static edge: ``start`` writes the trigger of ``end`` (state.py:1555)."""
        if end != END:
            self.nodes[start].edges.append(end)

    def attach_branch(self, start: str, branch: BranchSpec) -> None:
        """A branch reads the state (its own schema, or its node's) after the node (state.py:1581)."""
        schema = branch.input_schema or (
            self.builder.nodes[start].input_schema
            if start in self.builder.nodes
            else self.builder.state_schema
        )
        keys = list(self.builder.schemas[schema])
        reader = PregelNode(
            start,
            None,
            channels=[k for k in keys if k in self.builder.channels],
            managed=[(k, self.builder.managed[k]) for k in keys if k in self.builder.managed],
            mapper=_pick_mapper(schema),
        )
        self.nodes[start].branches.append((branch, reader))


def _pick_mapper(schema: type) -> Callable[[dict], Any] | None:
    """Pydantic and dataclass states reach nodes as instances: ``Schema(**state)`` (state.py:1736)."""
    if isinstance(schema, type) and (
        hasattr(schema, "model_fields") or hasattr(schema, "__dataclass_fields__")
    ):
        return lambda values: schema(**values)
    return None


# --8<-- [start:get_updates]
def _get_updates(output: Any, keys: frozenset[str], ordered: list[str]) -> list[tuple[str, Any]]:
    """A node's return value as ``(key, value)`` writes (``_get_updates`` in state.py:1458).

    A dict, ``None``, a ``Command`` (its ``update``), a list mixing those (ToolNode returns one),
    or a pydantic model instance. Keys that are not state keys are dropped silently.
    """
    if output is None:
        return []
    if isinstance(output, dict):
        return [(k, v) for k, v in output.items() if k in keys]
    if isinstance(output, Command):
        if output.graph == Command.PARENT:
            return []
        return [(k, v) for k, v in output._update_as_tuples() if k in keys]
    if isinstance(output, (list, tuple)) and any(isinstance(i, Command) for i in output):
        updates: list[tuple[str, Any]] = []
        for item in output:
            updates.extend(_get_updates(item, keys, ordered))
        return updates
    if hasattr(type(output), "model_fields"):
        return _get_update_as_tuples(output, ordered)
    msg = create_error_message(
        message=f"Expected dict, got {output}",
        error_code=ErrorCode.INVALID_GRAPH_NODE_RETURN_VALUE,
    )
    raise InvalidUpdateError(msg)


# --8<-- [end:get_updates]


def _control_branch(value: Any) -> collections.abc.Sequence[tuple[str, Any]]:
    """Where a node sends control itself: a returned ``Send``, or ``Command(goto=...)``
    (state.py:1753). ``goto=END`` writes nothing; a plain update (a dict, None) yields no write.

    Upstream raises ``ParentCommand`` for ``Command.PARENT``; miniagent graphs have no parent.
    """
    if isinstance(value, Send):
        return ((TASKS, value),)
    commands: list[Command] = []
    if isinstance(value, Command):
        commands.append(value)
    elif isinstance(value, (list, tuple)):
        for cmd in value:
            if isinstance(cmd, Command):
                commands.append(cmd)
    rtn: list[tuple[str, Any]] = []
    for command in commands:
        if command.graph == Command.PARENT:
            raise NotImplementedError("miniagent graphs have no parent graph (Command.PARENT)")

        goto_targets = [command.goto] if isinstance(command.goto, (Send, str)) else command.goto

        for go in goto_targets:
            if isinstance(go, Send):
                rtn.append((TASKS, go))
            elif isinstance(go, str) and go != END:
                # END is no node to branch to: the run just ends
                rtn.append((BRANCH_TO + go, None))
    return rtn


def _get_update_as_tuples(output: Any, keys: list[str]) -> list[tuple[str, Any]]:
    """A pydantic model as an update: fields that are set or differ from a ``None`` default
    (langgraph/_internal/_fields.py:166)."""
    defaults = {k: f.default for k, f in type(output).model_fields.items()}
    return [
        (k, value)
        for k in keys
        if (value := getattr(output, k, MISSING)) is not MISSING
        and (
            value is not None
            or defaults.get(k, MISSING) is not None
            or k in output.model_fields_set
        )
    ]
