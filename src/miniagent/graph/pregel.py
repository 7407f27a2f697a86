"""The super-step loop that runs a compiled graph. Mirrors ``langgraph/pregel/``.

One *super-step*: every node triggered by the previous step runs on the same snapshot of the
state; then all their writes are applied together, key by key, through the reducers; then the
nodes those writes trigger (static edges, conditional edges, ``Command(goto=...)``, ``Send``)
form the next step. The run ends when no node is triggered, or fails when the step counter
passes ``stop = first_step + recursion_limit + 1``.

Where each piece lives upstream (langgraph 1.2.24):

* ``Pregel.stream`` / ``invoke`` -- ``pregel/main.py`` (the ``while loop.tick()`` at line 3081)
* ``PregelLoop.tick`` / ``after_tick`` -- ``pregel/_loop.py:658`` / ``:708``
* ``prepare_next_tasks`` / ``apply_writes`` -- ``pregel/_algo.py:393`` / ``:235``
* ``StreamMessagesHandler`` (``stream_mode="messages"``) -- ``pregel/_messages.py:75``
* ``map_output_updates`` / ``map_output_values`` -- ``pregel/_io.py:118`` / ``:100``

Differences, on purpose:

* The tasks of one super-step run one after another, push tasks (``Send``) first, then
  triggered nodes by name -- the order upstream *submits* them. Upstream runs them concurrently
  (a thread pool, or ``asyncio`` tasks), so its ``updates`` chunks of parallel tasks arrive in
  completion order. Writes are applied in upstream's order either way: triggered nodes by name,
  then ``Send`` tasks by index (``_algo.py:257``).
* No channel versions and no serialization: the state is one dict, each key updated by its
  channel's reducer; a checkpoint is a shallow copy of it. So a super-step costs O(number of
  keys) plus what the reducers do, not O(size of the state).
* Only with ``stream_mode`` "messages" or "custom", whose chunks arrive while a node runs, is
  a task run in a worker thread (an asyncio task in ``astream``), so tokens stream live.
* ``version="v2"`` (the stream-output format, ``_output``, main.py:4398) is implemented; its
  ``ns`` is always ``()``. What is not implemented is refused with ``NotImplementedError``:
  ``subgraphs``, ``print_mode``, ``output_keys`` and ``debug`` (and the modes "checkpoints",
  "tasks", "debug"). Like upstream, any ``version`` other than "v2" is v1.
"""

from __future__ import annotations

import os
from collections import Counter, deque
from functools import partial
from itertools import count
from typing import Any, AsyncIterator, Iterator, Sequence
from uuid import uuid4

from miniagent.constants import CONFIG_KEY_READ_STATE, CONFIG_KEY_RUNTIME, START
from miniagent.errors import (
    EmptyInputError,
    ErrorCode,
    GraphRecursionError,
    create_error_message,
)
from miniagent.runnables import Runnable, var_child_runnable_config
from miniagent.runtime import Runtime
from miniagent.types import Command, GraphOutput, Send, StateSnapshot

__all__ = ["Pregel", "PregelNode", "PregelLoop", "StreamMessagesHandler", "DEFAULT_RECURSION_LIMIT"]

MISSING = object()  # a state key with no value yet (langgraph/_internal/_typing.py)
PUSH, PULL = "__pregel_push", "__pregel_pull"  # task kinds (_internal/_constants.py)
TASKS = "__pregel_tasks"  # the channel Sends are written to
BRANCH_TO = "branch:to:"  # "branch:to:agent" triggers the node "agent" (graph/state.py:98)
PUSH_TRIGGER = (PUSH,)

# Task ids: a random prefix + a counter, uuid-shaped and unique per process (upstream derives
# a uuid5 from the checkpoint id, _algo.py:664).
_TASK_ID_PREFIX = str(uuid4())[:24]
_task_counter = count(1)

DEFAULT_RECURSION_LIMIT = int(os.getenv("LANGGRAPH_DEFAULT_RECURSION_LIMIT", "10007"))
"""langgraph/_internal/_config.py:42 -- was 25 before langgraph 1.0.6, 10000 until 1.1.4."""

CONFIG_KEYS = ("tags", "metadata", "callbacks", "run_name", "max_concurrency")
CONFIG_KEYS += ("recursion_limit", "configurable", "run_id")
_PROPAGATE_TO_METADATA = ("thread_id", "checkpoint_id", "checkpoint_ns", "task_id", "run_id")


class PregelNode:
    """A compiled node: what triggers it, what it reads, what it runs, where it writes next
    (langgraph/pregel/_read.py:97). ``CompiledStateGraph.attach_*`` fill it in."""

    def __init__(
        self,
        name: str,
        bound: Runnable | None,
        *,
        triggers: tuple[str, ...] = (),
        channels: Sequence[str] = (),
        managed: Sequence[tuple[str, Any]] = (),
        mapper: Any = None,
        get_updates: Any = None,
        get_control: Any = None,
        ends: Any = (),
        metadata: dict[str, Any] | None = None,
    ) -> None:
        self.name, self.bound, self.triggers = name, bound, triggers
        self.channels = channels  # state keys the node reads
        self.managed = managed  # (key, ManagedValue) pairs the node reads
        self.mapper = mapper  # dict -> pydantic model, for pydantic input schemas
        self.get_updates = get_updates  # return value -> [(key, value)]
        self.get_control = get_control  # return value -> Command goto / Send writes
        self.edges: list[str] = []  # static edges out of this node (END excluded)
        self.branches: list[tuple[Any, PregelNode]] = []  # (BranchSpec, what it reads)
        self.ends, self.metadata = ends, metadata  # for drawing only

    def invoke(self, input: Any, config: dict | None = None, **kwargs: Any) -> Any:
        return self.bound.invoke(input, config, **kwargs)  # type: ignore[union-attr]

    async def ainvoke(self, input: Any, config: dict | None = None, **kwargs: Any) -> Any:
        return await self.bound.ainvoke(input, config, **kwargs)  # type: ignore[union-attr]

    def __repr__(self) -> str:
        return f"PregelNode(name={self.name!r}, triggers={self.triggers!r})"


class PregelExecutableTask:
    """One node run in one super-step (langgraph/types.py ``PregelExecutableTask``)."""

    __slots__ = ("name", "input", "proc", "writes", "config", "triggers", "path", "fresh")

    def __init__(self, name: str, input: Any, proc: PregelNode, config: dict, triggers, path):
        self.name, self.input, self.proc, self.config = name, input, proc, config
        self.triggers, self.path = triggers, path
        self.writes: list[tuple[str, Any]] = []  # (channel, value), in the order produced
        self.fresh: tuple[dict, set] | None = None  # state + own writes, once a branch read it


class PregelLoop:
    """Everything one run needs: the values, the step counter, the tasks of this super-step
    (langgraph/pregel/_loop.py:PregelLoop). ``tick`` starts a step, ``after_tick`` ends it."""

    def __init__(
        self,
        graph: Pregel,
        input: Any,
        config: dict[str, Any],
        *,
        stream_modes: set[str],
        output_keys: list[str],
        context: Any = None,
        interrupt_before: Any = None,
        interrupt_after: Any = None,
    ) -> None:
        self.nodes, self.channels = graph.nodes, graph.channels
        self.input, self.stream_modes = input, stream_modes
        self.output_keys, self._output_key_set = output_keys, frozenset(output_keys)
        self.interrupt_before = interrupt_before or graph.interrupt_before_nodes
        self.interrupt_after = interrupt_after or graph.interrupt_after_nodes
        self.checkpointer = graph.checkpointer
        self.out: deque[tuple[str, Any]] = deque()  # stream chunks not yet handed out
        self.status = "pending"
        self.tasks: list[PregelExecutableTask] = []
        self.triggers: set[str] = set()  # nodes to run next ("branch:to:<node>" was written)
        self.sends: list[Send] = []  # Send packets to run next
        self.output_written = False  # did a step write an output key? (else invoke -> None)
        self.skip_interrupt = False
        # "messages" and "custom" chunks arrive while a node runs: stream them live
        self.live = bool(stream_modes & {"messages", "custom"})
        self.wants_values = "values" in stream_modes
        self.wake: Any = None  # set while a live task runs: "a chunk is waiting"
        self.config = self._run_config(graph, config, context)
        # Does a finished task stream anything? Not for invoke (then task_done is skipped).
        self.reports_tasks = bool(self.messages) or "updates" in stream_modes
        self._first(input)

    def put(self, chunk: tuple[str, Any]) -> None:
        """Queue a chunk produced inside a node (a model token, a custom write)."""
        self.out.append(chunk)
        if self.wake:
            self.wake()

    def _run_config(self, graph: Pregel, config: dict[str, Any], context: Any) -> dict[str, Any]:
        """What every task's config starts from: the Runtime, and the "messages" handler."""
        self.messages = None
        if "messages" in self.stream_modes:
            self.messages = StreamMessagesHandler(self.put)
            config["callbacks"] = [*(config.get("callbacks") or ()), self.messages]
        runtime = Runtime(context=_coerce_context(graph.context_schema, context), store=graph.store)
        if "custom" in self.stream_modes:
            runtime.stream_writer = lambda chunk: self.put(("custom", chunk))
        config["configurable"][CONFIG_KEY_RUNTIME] = runtime
        return config

    def _first(self, input: Any) -> None:
        """Load the thread, set the step counter and schedule the input (_loop.py:931, :1922)."""
        saved = self.checkpointer.get_tuple(self.config) if self.checkpointer else None
        if saved:
            channel_values = saved.checkpoint["channel_values"]
            self.values = {k: v for k, v in channel_values.items() if k in self.channels}
            self.step = saved.metadata["step"] + 1
        else:
            self.values = {}
            for key, channel in self.channels.items():
                if (value := channel.initial()) is not MISSING:
                    self.values[key] = value
            self.step = -1  # an empty checkpoint has step -2
        # --8<-- [start:stop_step]
        self.stop = self.step + self.config["recursion_limit"] + 1
        # --8<-- [end:stop_step]
        if input is not None:
            self.step += 1  # upstream saves the input as its own checkpoint, at this step
            self.triggers = {START}  # the input runs as the hidden node "__start__"
        elif saved:  # resume an interrupted run: its pending tasks are in the checkpoint
            self.triggers = {k[len(BRANCH_TO) :] for k in channel_values if k.startswith(BRANCH_TO)}
            self.sends = list(channel_values.get(TASKS, ()))
            self.skip_interrupt = True
            self._emit_values()
        else:
            raise EmptyInputError(f"Received no input for {START}")

    # --8<-- [start:tick]
    def tick(self) -> bool:
        """Start a super-step: check the recursion limit, then prepare the tasks (_loop.py:658).

        The limit is checked *before* looking for tasks, so a run whose last node ran at
        ``remaining_steps == 0`` fails even though nothing else is scheduled.
        """
        if self.status != "pending":  # interrupted after the last step
            return False
        if self.step > self.stop:
            self.status = "out_of_steps"
            return False
        self.tasks = self.prepare_next_tasks()
        if not self.tasks:
            self.status = "done"
            return False
        if self.interrupt_before and not self.skip_interrupt:
            if _should_interrupt(self.interrupt_before, self.tasks):
                self.status = "interrupt_before"
                self._emit_interrupt()
                return False
        self.skip_interrupt = False
        return True

    # --8<-- [end:tick]

    def prepare_next_tasks(self) -> list[PregelExecutableTask]:
        """``Send`` packets first, then the triggered nodes by name (_algo.py:393)."""
        tasks: list[PregelExecutableTask] = []
        for idx, packet in enumerate(self.sends):
            proc = self.nodes.get(packet.node)
            if proc is None:
                _warn(f"Ignoring unknown node name {packet.node} in pending sends")
                continue
            task = self._task(proc, packet.arg, (PUSH, idx, False), PUSH_TRIGGER)
            # a Send's node may read the state it was sent from (prepare_push_task_send,
            # _algo.py:1087): create_agent's ToolNode does, for a bare list of tool calls
            task.config["configurable"][CONFIG_KEY_READ_STATE] = partial(
                self.read, proc, self.values
            )
            tasks.append(task)
        for name in sorted(self.triggers):
            proc = self.nodes[name]
            task_input = self.input if name == START else self.read(proc, self.values)
            tasks.append(self._task(proc, task_input, (PULL, name), proc.triggers))
        self.sends, self.triggers = [], set()
        return tasks

    def read(self, proc: PregelNode, values: dict[str, Any]) -> Any:
        """A node's input: its keys of the state plus managed values (``_proc_input``,
        _algo.py:1366). The values are not copied: a node must not mutate them in place."""
        state = {}
        for key in proc.channels:
            if key in values:
                state[key] = values[key]
        for key, manager in proc.managed:
            state[key] = manager.get(self)  # the loop is the scratchpad: .step, .stop
        return proc.mapper(state) if proc.mapper else state

    def _task(self, proc: PregelNode, input: Any, path: tuple, triggers: tuple):
        """The task's config: the run's, plus the ``langgraph_*`` metadata (_algo.py:655)."""
        name, config = proc.name, self.config
        checkpoint_ns = name + ":" + _TASK_ID_PREFIX + str(next(_task_counter)).zfill(12)
        metadata = {
            **config["metadata"],
            "langgraph_step": self.step,
            "langgraph_node": name,
            "langgraph_triggers": triggers,
            "langgraph_path": path,
            "langgraph_checkpoint_ns": checkpoint_ns,
        }
        if proc.metadata:
            metadata.update(proc.metadata)
        task_config = config.copy()  # the run's config, with these three keys replaced:
        task_config["metadata"] = metadata
        task_config["run_name"] = name
        task_config["configurable"] = configurable = config["configurable"].copy()
        configurable["checkpoint_ns"] = checkpoint_ns
        return PregelExecutableTask(name, input, proc, task_config, triggers, path)

    def put_writes(self, task: PregelExecutableTask, output: Any) -> None:
        """A node's return value becomes writes: its update, its ``Command`` goto, its static
        edges -- the writers ``attach_node`` / ``attach_edge`` build (graph/state.py:1444)."""
        proc, writes = task.proc, task.writes
        writes.extend(proc.get_updates(output))
        writes.extend(proc.get_control(output))
        for end in proc.edges:
            writes.append((BRANCH_TO + end, None))

    def local_read(self, task: PregelExecutableTask, reader: PregelNode) -> Any:
        """What a conditional edge sees: the state before this step plus the task's own writes
        (``local_read``, _algo.py:191). Siblings' writes in the same step are not visible."""
        if task.fresh is None:
            fresh = dict(self.values)
            task.fresh = (fresh, apply_writes(fresh, self.channels, [task]))
        value = self.read(reader, task.fresh[0])
        return value

    def task_done(self, task: PregelExecutableTask, output: Any) -> None:
        """Stream what the task produced: its messages, then its ``updates`` chunk."""
        if task.name == START:  # hidden, like upstream's TAG_HIDDEN
            return
        if self.messages:
            self.messages.on_node_end(task, output)
        if "updates" in self.stream_modes:
            self.out.append(("updates", map_output_updates(self._output_key_set, task)))

    # --8<-- [start:after_tick]
    def after_tick(self) -> None:
        """End the super-step: apply every task's writes, then stream and save (_loop.py:708)."""
        tasks = self.tasks
        if len(tasks) == 1 and tasks[0].fresh is not None:
            self.values, updated = tasks[0].fresh  # its branch already applied its writes
        else:
            tasks = sorted(tasks, key=_task_path_key) if len(tasks) > 1 else tasks
            updated = apply_writes(self.values, self.channels, tasks)
        channels, nodes = self.channels, self.nodes
        for task in tasks:  # what runs next: triggered nodes and Send packets
            for chan, value in task.writes:
                if chan in channels:
                    continue
                if chan == TASKS:
                    self.sends.append(value)
                elif chan.startswith(BRANCH_TO) and (node := chan[len(BRANCH_TO) :]) in nodes:
                    self.triggers.add(node)
                else:
                    _warn(f"Task {task.name} with path {task.path} wrote to unknown channel "
                          f"{chan}, ignoring it.")  # fmt: skip
        if not updated.isdisjoint(self._output_key_set):
            self.output_written = True
            if self.wants_values:  # invoke builds the output once, at the end
                self._emit_values()
        if self.checkpointer:
            self._put_checkpoint()
        self.step += 1
        if self.interrupt_after and _should_interrupt(self.interrupt_after, tasks):
            self.status = "interrupt_after"
            self._emit_interrupt()

    # --8<-- [end:after_tick]

    def _emit_values(self) -> None:
        """The ``values`` chunk (_io.py:100)."""
        self.output_written = True
        if self.wants_values:
            self.out.append(("values", self.output()))

    def _emit_interrupt(self) -> None:
        if "updates" in self.stream_modes:
            self.out.append(("updates", {"__interrupt__": ()}))

    def output(self) -> dict[str, Any]:
        values = self.values
        return {k: values[k] for k in self.output_keys if k in values}

    def _put_checkpoint(self) -> None:
        """Save the state and what runs next; the next run continues from here (_loop.py:1275)."""
        channels = self.channels  # an UntrackedValue key is never saved (untracked_value.py:49)
        channel_values = {
            k: v for k, v in self.values.items() if getattr(channels.get(k), "tracked", True)
        }
        for name in self.triggers:
            channel_values[BRANCH_TO + name] = None
        if self.sends:
            channel_values[TASKS] = list(self.sends)
        checkpoint = {"v": 1, "id": str(uuid4()), "channel_values": channel_values}
        metadata = {"source": "loop", "step": self.step, "parents": {}}
        self.checkpointer.put(self.config, checkpoint, metadata)  # type: ignore[union-attr]

    # --8<-- [start:finish]
    def finish(self) -> None:
        """Raise if the run ran out of steps (pregel/main.py:3119)."""
        if self.status == "out_of_steps":
            msg = create_error_message(
                message=(
                    f"Recursion limit of {self.config['recursion_limit']} reached "
                    "without hitting a stop condition. You can increase the "
                    "limit by setting the `recursion_limit` config key."
                ),
                error_code=ErrorCode.GRAPH_RECURSION_LIMIT,
            )
            raise GraphRecursionError(msg)

    # --8<-- [end:finish]


def apply_writes(values: dict[str, Any], channels: dict[str, Any], tasks) -> set[str]:
    """Apply the state writes of ``tasks`` to ``values``, one reducer call per key per step
    (_algo.py:235). Returns the keys written."""
    pending: dict[str, list[Any]] = {}
    for task in tasks:
        for chan, value in task.writes:
            if chan in channels:
                if chan in pending:
                    pending[chan].append(value)
                else:
                    pending[chan] = [value]
    for chan, vals in pending.items():
        values[chan] = channels[chan].update(values.get(chan, MISSING), vals)
    # Channels that weren't updated in this step are notified of a new step (_algo.py:322):
    # an ``EphemeralValue`` (create_agent's ``jump_to``) forgets its value.
    for chan in [c for c in values if c not in pending and c in channels]:
        if (value := channels[chan].update(values[chan], [])) is MISSING:
            del values[chan]
        else:
            values[chan] = value
    return pending.keys()  # type: ignore[return-value]


def map_output_updates(output_keys: frozenset[str], task: PregelExecutableTask) -> dict[str, Any]:
    """``{node: update}`` for one finished task (_io.py:118). The update is what the node wrote
    to state keys; a key written twice (a list of Commands) gives a list of one-key dicts."""
    writes = [(chan, value) for chan, value in task.writes if chan in output_keys]
    if not writes:
        return {task.name: None}
    if any(n > 1 for n in Counter(chan for chan, _ in writes).values()):
        return {task.name: [{chan: value} for chan, value in writes]}
    return {task.name: dict(writes)}


def _task_path_key(task: PregelExecutableTask) -> str:
    """Sort key of a task's path: ``~__pregel_pull, agent`` < ``~__pregel_push, 0000000000``
    (``task_path_str``, _algo.py:1430)."""
    parts = (f"{p:010d}" if isinstance(p, int) else str(p) for p in task.path)
    return "~" + ", ".join(parts)


def _should_interrupt(nodes: Any, tasks: list[PregelExecutableTask]) -> bool:
    """Is a task's node listed in ``interrupt_before`` / ``interrupt_after``? (_algo.py:158)"""
    return any(t.name != START and (nodes == "*" or t.name in nodes) for t in tasks)


def _warn(message: str) -> None:
    """Upstream logs these on ``logging.getLogger('langgraph...')``; import logging lazily."""
    import logging

    logging.getLogger("miniagent.graph").warning(message)


def _coerce_context(context_schema: Any, context: Any) -> Any:
    """A dict context becomes the schema's pydantic model / dataclass (pregel/main.py:4558)."""
    if context is None or context_schema is None or not isinstance(context, dict):
        return context
    if hasattr(context_schema, "model_fields") or hasattr(context_schema, "__dataclass_fields__"):
        return context_schema(**context)
    return context


def ensure_config(*configs: dict[str, Any] | None) -> dict[str, Any]:
    """The run's config: defaults < the current config < each of ``configs``
    (langgraph/_internal/_config.py:334; the graph default recursion limit is 10007, not 25).

    Inside another graph's node the current config carries that graph's handlers; its
    "messages" handler is dropped, so a subgraph's messages are not streamed by the parent
    (upstream shows them only with ``subgraphs=True``).
    """
    empty: dict[str, Any] = {
        "tags": [],
        "metadata": {},
        "callbacks": None,
        "recursion_limit": DEFAULT_RECURSION_LIMIT,
        "configurable": {},
    }
    if ambient := var_child_runnable_config.get():
        for k, v in ambient.items():
            if v is not None:
                empty[k] = v.copy() if isinstance(v, (dict, list)) else v
        if empty["callbacks"]:
            empty["callbacks"] = [
                h for h in empty["callbacks"] if not isinstance(h, StreamMessagesHandler)
            ]
    for config in configs:
        for k, v in (config or {}).items():
            if v is None:
                continue
            if k in ("configurable", "metadata"):
                empty[k] = {**empty[k], **v}
            elif k == "tags":
                empty[k] = [*empty[k], *(t for t in v if t not in empty[k])]
            elif k == "callbacks":
                empty[k] = [*(empty[k] or ()), *v]
            elif k in CONFIG_KEYS:
                empty[k] = v
            else:  # graph.invoke(x, {"thread_id": 1}) -> configurable.thread_id
                empty["configurable"] = {**empty["configurable"], k: v}
    for key in _PROPAGATE_TO_METADATA:
        if key not in empty["metadata"] and (value := empty["configurable"].get(key)):
            empty["metadata"] = {**empty["metadata"], key: value}
    return empty


class StreamMessagesHandler:
    """``stream_mode="messages"``: ``(message, metadata)`` for every message a node produces
    (langgraph/pregel/_messages.py:75).

    Two sources: the chat models a node calls (through the callbacks in its config, see
    ARCHITECTURE.md), and the messages in the node's return value that were not emitted yet --
    deduplicated by id, so the model's reply is not sent twice.
    """

    wants_stream = True  # ask chat models to take their streaming path (token chunks)

    def __init__(self, emit: Any) -> None:
        # The message classes load with the first "messages" run: a graph over plain reducers
        # never imports them (graph/__init__.py). The methods below use the module's name.
        global BaseMessage
        from miniagent.messages import BaseMessage

        self.emit = emit
        self.seen: set[Any] = set()

    def _is_message(self, value: Any) -> bool:
        """``isinstance(value, BaseMessage)``, for code outside this module (Day 12's stub)."""
        return isinstance(value, BaseMessage)

    # --8<-- [start:emit]
    def _emit(self, meta: dict[str, Any], message: Any, *, dedupe: bool = False) -> None:
        if dedupe and message.id in self.seen:
            return
        else:
            if message.id is None:
                message.id = str(uuid4())
            self.seen.add(message.id)
            self.emit(("messages", (message, meta)))

    # --8<-- [end:emit]

    # --8<-- [start:find_and_emit_messages]
    def _find_and_emit_messages(self, meta: dict[str, Any], response: Any) -> None:
        """A message, a list of them, or any state-like value holding some (l.132)."""
        if isinstance(response, BaseMessage):
            self._emit(meta, response, dedupe=True)
        elif isinstance(response, Sequence):
            for value in response:
                if isinstance(value, BaseMessage):
                    self._emit(meta, value, dedupe=True)
        else:
            for value in _state_values(response):
                if isinstance(value, BaseMessage):
                    self._emit(meta, value, dedupe=True)
                elif isinstance(value, Sequence):
                    for item in value:
                        if isinstance(item, BaseMessage):
                            self._emit(meta, item, dedupe=True)

    # --8<-- [end:find_and_emit_messages]

    def _meta(self, config: dict[str, Any]) -> dict[str, Any] | None:
        """The model run's metadata, unless the model is tagged ``nostream`` (l.156)."""
        metadata = config.get("metadata")
        tags = config.get("tags") or ()
        if not metadata or "nostream" in tags:
            return None
        if user_tags := [t for t in tags if not t.startswith("seq:step")]:
            return {**metadata, "tags": user_tags}
        return metadata

    def on_chat_model_stream(self, chunk: Any, config: dict[str, Any]) -> None:
        """Every token chunk (upstream ``on_llm_new_token``, l.175)."""
        if (meta := self._meta(config)) is not None:
            self._emit(meta, chunk)

    def on_chat_model_end(self, message: Any, config: dict[str, Any]) -> None:
        """The final message, unless its chunks already went out (``on_llm_end``, l.190)."""
        if (meta := self._meta(config)) is not None:
            self._emit(meta, message, dedupe=True)

    def on_node_start(self, task: PregelExecutableTask) -> None:
        """Messages already in the node's input are not news (``on_chain_start``, l.215)."""
        for value in _state_values(task.input):
            if isinstance(value, BaseMessage):
                if value.id is not None:
                    self.seen.add(value.id)
            elif isinstance(value, Sequence) and not isinstance(value, str):
                for item in value:
                    if isinstance(item, BaseMessage):
                        if item.id is not None:
                            self.seen.add(item.id)

    def on_node_end(self, task: PregelExecutableTask, response: Any) -> None:
        """Messages the node returned, also inside ``Command.update`` (``on_chain_end``, l.245)."""
        meta = task.config["metadata"]
        if isinstance(response, Command):
            self._find_and_emit_messages(meta, response.update)
        elif isinstance(response, Sequence) and any(
            isinstance(value, Command) for value in response
        ):
            for value in response:
                if isinstance(value, Command):
                    self._find_and_emit_messages(meta, value.update)
                else:
                    self._find_and_emit_messages(meta, value)
        else:
            self._find_and_emit_messages(meta, response)


def _state_values(obj: Any) -> Sequence[Any]:
    """Top-level values of a dict or pydantic state (_messages.py:47)."""
    if isinstance(obj, dict):
        return list(obj.values())
    if hasattr(type(obj), "model_fields"):
        return [getattr(obj, k) for k in type(obj).model_fields]
    return ()


class Pregel(Runnable):
    """A compiled graph: invoke / stream it like any Runnable (langgraph/pregel/main.py).

    ``CompiledStateGraph`` (state.py) subclasses it and fills in ``nodes``.
    """

    stream_mode = "updates"  # the default of stream(); CompiledStateGraph (state.py:1357)
    _output_mapper: Any = None  # version="v2": dict -> pydantic/dataclass output (main.py:1216)

    def __init__(
        self,
        *,
        channels: dict[str, Any],
        managed: dict[str, Any],
        output_channels: list[str],
        checkpointer: Any = None,
        store: Any = None,
        interrupt_before_nodes: Any = (),
        interrupt_after_nodes: Any = (),
        context_schema: Any = None,
        debug: bool = False,
        name: str = "LangGraph",
        config: dict[str, Any] | None = None,
    ) -> None:
        self.nodes: dict[str, PregelNode] = {}
        self.channels, self.managed = channels, managed
        self.output_channels = output_channels
        self.checkpointer, self.store = checkpointer, store
        self.interrupt_before_nodes = interrupt_before_nodes
        self.interrupt_after_nodes = interrupt_after_nodes
        self.context_schema, self.debug = context_schema, debug
        self.name, self.config = name, config

    # ---- running ----

    def _loop(self, input, config, context, stream_mode, output_keys, kwargs) -> PregelLoop:
        config = ensure_config(self.config, config)
        if config["recursion_limit"] < 1:
            raise ValueError("recursion_limit must be at least 1")
        modes = {stream_mode} if isinstance(stream_mode, str) else set(stream_mode)
        if unknown := modes - {"values", "updates", "messages", "custom"}:
            raise NotImplementedError(f"miniagent does not implement stream_mode {unknown}")
        if self.debug:  # upstream then prints every step (pregel/main.py:2857)
            kwargs = {**kwargs, "debug": True}
        for name in ("subgraphs", "print_mode", "output_keys", "debug"):  # refused, not ignored
            if kwargs.get(name) not in (None, False, ()):
                raise NotImplementedError(f"miniagent does not implement {name}={kwargs[name]!r}")
        return PregelLoop(
            self,
            input,
            config,
            stream_modes=modes,
            output_keys=output_keys,
            context=context,
            interrupt_before=kwargs.get("interrupt_before"),
            interrupt_after=kwargs.get("interrupt_after"),
        )

    # --8<-- [start:run]
    def _run(self, loop: PregelLoop) -> Iterator[tuple[str, Any]]:
        """The super-step loop (pregel/main.py:3081): tick, run each task, after_tick."""
        out = loop.out  # chunks queue up here; most runs (invoke) never fill it
        yield from _drain(out)
        while loop.tick():
            for task in loop.tasks:
                if loop.live:
                    yield from self._run_task_live(loop, task)
                else:
                    self._run_task(loop, task)
                # a lone task's chunk comes out after after_tick, as in upstream's fast path
                # for one task (_runner.py:206): its messages then carry their new ids
                if out and (loop.live or len(loop.tasks) > 1):
                    yield from _drain(out)
            loop.after_tick()
            if out:
                yield from _drain(out)
        yield from _drain(out)  # an interrupt's chunk
        loop.finish()

    def _run_task(self, loop: PregelLoop, task: PregelExecutableTask) -> None:
        """Run one node, then its conditional edges, with the task's config as the current
        config (so a model called inside reports to this graph)."""
        token = var_child_runnable_config.set(task.config)
        try:
            if loop.messages and task.name != START:
                loop.messages.on_node_start(task)
            proc = task.proc
            if proc.bound is None:  # "__start__": the input is its output
                output = task.input
            else:
                output = proc.bound.invoke(task.input, task.config)
            loop.put_writes(task, output)
            for branch, reader in proc.branches:
                value = _branch_input(loop.local_read(task, reader), output, branch)
                task.writes.extend(branch._finish(branch.path.invoke(value, task.config)))
        finally:
            var_child_runnable_config.reset(token)
        if loop.reports_tasks:
            loop.task_done(task, output)

    # --8<-- [end:run]

    def _run_task_live(self, loop: PregelLoop, task: PregelExecutableTask) -> Iterator[Any]:
        """``_run_task`` in a worker thread, handing out its chunks as they come, so tokens
        stream while the model runs (upstream runs every task on a thread pool)."""
        import contextvars
        import queue
        import threading

        wake: queue.SimpleQueue[bool] = queue.SimpleQueue()
        errors: list[BaseException] = []

        def work() -> None:
            try:
                self._run_task(loop, task)
            except BaseException as e:  # re-raised below, in the caller's thread
                errors.append(e)
            finally:
                wake.put(False)

        loop.wake = lambda: wake.put(True)
        threading.Thread(target=contextvars.copy_context().run, args=(work,), daemon=True).start()
        while wake.get():
            yield from _drain(loop.out)
        loop.wake = None
        if errors:
            raise errors[0]

    async def _arun(self, loop: PregelLoop) -> AsyncIterator[tuple[str, Any]]:
        """``_run`` with ``await`` (pregel/main.py:3550)."""
        for chunk in _drain(loop.out):
            yield chunk
        while loop.tick():
            for task in loop.tasks:
                if loop.live:
                    async for chunk in self._arun_task_live(loop, task):
                        yield chunk
                else:
                    await self._arun_task(loop, task)
                if loop.live or len(loop.tasks) > 1:  # as in _run
                    for chunk in _drain(loop.out):
                        yield chunk
            loop.after_tick()
            for chunk in _drain(loop.out):
                yield chunk
        for chunk in _drain(loop.out):
            yield chunk
        loop.finish()

    async def _arun_task(self, loop: PregelLoop, task: PregelExecutableTask) -> None:
        token = var_child_runnable_config.set(task.config)
        try:
            if loop.messages and task.name != START:
                loop.messages.on_node_start(task)
            proc = task.proc
            if proc.bound is None:
                output = task.input
            else:
                output = await proc.bound.ainvoke(task.input, task.config)
            loop.put_writes(task, output)
            for branch, reader in proc.branches:
                value = _branch_input(loop.local_read(task, reader), output, branch)
                result = await branch.path.ainvoke(value, task.config)
                task.writes.extend(branch._finish(result))
        finally:
            var_child_runnable_config.reset(token)
        loop.task_done(task, output)

    async def _arun_task_live(self, loop: PregelLoop, task: PregelExecutableTask):
        """``_arun_task`` as an asyncio task, handing out its chunks as they come."""
        import asyncio

        wake: asyncio.Queue[bool] = asyncio.Queue()
        loop.wake = lambda: wake.put_nowait(True)
        running = asyncio.ensure_future(self._arun_task(loop, task))
        running.add_done_callback(lambda _: wake.put_nowait(False))
        while await wake.get():
            for chunk in _drain(loop.out):
                yield chunk
        loop.wake = None
        running.result()  # raise the task's error, if any

    def stream(
        self,
        input: Any,
        config: dict[str, Any] | None = None,
        *,
        context: Any = None,
        stream_mode: str | list[str] | None = None,
        version: str = "v1",
        **kwargs: Any,
    ) -> Iterator[Any]:
        """Run the graph, yielding chunks of the chosen mode(s) (pregel/main.py:2767).

        "values": the whole state after the input and after each super-step; "updates":
        ``{node: update}`` per task; "messages": ``(message, metadata)``; "custom": what nodes
        write with ``runtime.stream_writer``. ``version="v1"``: a list of modes yields
        ``(mode, chunk)`` pairs; ``version="v2"``: every item is a dict, see ``_output``.
        """
        stream_mode = self.stream_mode if stream_mode is None else stream_mode
        loop = self._loop(input, config, context, stream_mode, list(self.channels), kwargs)
        for mode, payload in self._run(loop):
            yield self._output(stream_mode, version, mode, payload)

    async def astream(
        self,
        input: Any,
        config: dict[str, Any] | None = None,
        *,
        context: Any = None,
        stream_mode: str | list[str] | None = None,
        version: str = "v1",
        **kwargs: Any,
    ) -> AsyncIterator[Any]:
        """Async ``stream`` (pregel/main.py:3180)."""
        stream_mode = self.stream_mode if stream_mode is None else stream_mode
        loop = self._loop(input, config, context, stream_mode, list(self.channels), kwargs)
        async for mode, payload in self._arun(loop):
            yield self._output(stream_mode, version, mode, payload)

    def _output(self, stream_mode: Any, version: str, mode: str, payload: Any) -> Any:
        """One chunk in the caller's format (``_output``, pregel/main.py:4398).

        ``version="v2"``: ``{"type": mode, "ns": (), "data": payload}`` whatever ``stream_mode``
        is, and a ``values`` item also has ``"interrupts"`` and its state in the output
        schema's class. Any other version is v1, as upstream (which only tests ``== "v2"``):
        the payload alone, or ``(mode, payload)`` when ``stream_mode`` is a list.
        """
        if version == "v2":
            # "ns": the subgraph path, always () here; "interrupts": always () (no interrupt())
            if mode == "values":
                if self._output_mapper and isinstance(payload, dict):
                    payload = self._output_mapper(payload)
                return {"type": mode, "ns": (), "data": payload, "interrupts": ()}
            return {"type": mode, "ns": (), "data": payload}
        return (mode, payload) if isinstance(stream_mode, list) else payload

    def invoke(
        self,
        input: Any,
        config: dict[str, Any] | None = None,
        *,
        context: Any = None,
        stream_mode: str = "values",
        version: str = "v1",
        **kwargs: Any,
    ) -> Any:
        """Run to the end; return the final state (the output keys) (pregel/main.py:3948).

        With another ``stream_mode``, return the list of its chunks, as ``stream`` yields them.
        The state is not copied into a ``values`` chunk per step: only the final one is built.
        ``version="v2"`` wraps the final state in a ``GraphOutput``.
        """
        if stream_mode != "values":
            loop = self._loop(input, config, context, stream_mode, self.output_channels, kwargs)
            return [self._output(stream_mode, version, *chunk) for chunk in self._run(loop)]
        loop = self._loop(input, config, context, set(), self.output_channels, kwargs)
        for _ in self._run(loop):
            pass
        return self._final(loop, version)

    def _final(self, loop: PregelLoop, version: str) -> Any:
        """``invoke``'s result: the last state, ``None`` if no step wrote an output key."""
        latest = loop.output() if loop.output_written else None
        if version == "v2":
            return GraphOutput(self._output(None, version, "values", latest)["data"], ())
        return latest

    async def ainvoke(
        self,
        input: Any,
        config: dict[str, Any] | None = None,
        *,
        context: Any = None,
        stream_mode: str = "values",
        version: str = "v1",
        **kwargs: Any,
    ) -> Any:
        """Async ``invoke`` (pregel/main.py:4125)."""
        if stream_mode != "values":
            loop = self._loop(input, config, context, stream_mode, self.output_channels, kwargs)
            return [self._output(stream_mode, version, *chunk) async for chunk in self._arun(loop)]
        loop = self._loop(input, config, context, set(), self.output_channels, kwargs)
        async for _ in self._arun(loop):
            pass
        return self._final(loop, version)

    # ---- inspecting ----

    def get_state(self, config: dict[str, Any]) -> StateSnapshot:
        """The thread's saved values and the nodes that would run next (pregel/main.py:1479)."""
        if not self.checkpointer:
            raise ValueError("No checkpointer set")
        saved = self.checkpointer.get_tuple(config)
        if saved is None:
            return StateSnapshot(values={}, next=(), config=config, metadata=None)
        channel_values = saved.checkpoint["channel_values"]
        values = {k: v for k, v in channel_values.items() if k in self.channels}
        sends = tuple(s.node for s in channel_values.get(TASKS, ()))
        triggers = sorted(k[len(BRANCH_TO) :] for k in channel_values if k.startswith(BRANCH_TO))
        return StateSnapshot(values, sends + tuple(triggers), saved.config, saved.metadata)

    def get_graph(self, config: dict[str, Any] | None = None, *, xray: Any = False):
        """The graph's nodes and edges, drawable with ``.draw_mermaid()`` (pregel/main.py:923)."""
        from miniagent.graph.mermaid import draw_graph

        return draw_graph(self.nodes, self.interrupt_before_nodes, self.interrupt_after_nodes)

    def with_config(self, config: dict[str, Any] | None = None, **kwargs: Any) -> Pregel:
        """A copy of the graph whose runs start from this config (pregel/main.py:1005)."""
        import copy

        graph = copy.copy(self)
        graph.config = _merge_configs(self.config, config, kwargs)
        return graph


def _merge_configs(*configs: dict[str, Any] | None) -> dict[str, Any]:
    """Merge configs, later wins; metadata and configurable merge key by key."""
    merged: dict[str, Any] = {}
    for config in configs:
        for k, v in (config or {}).items():
            if k in ("metadata", "configurable") and k in merged:
                merged[k] = {**merged[k], **v}
            else:
                merged[k] = v
    return merged


def _branch_input(value: Any, node_output: Any, branch: Any) -> Any:
    """A dict-state branch also sees the keys of what its node returned (graph/_branch.py:146:
    the branch is a writer after the node, so its ``input`` is the node's output, not the
    node's input). The fresh state wins, so an ``EphemeralValue`` the node did not write
    (create_agent's ``jump_to``) reads as unset."""
    if isinstance(value, dict) and isinstance(node_output, dict) and branch.input_schema is None:
        return {**node_output, **value}
    return value


def _drain(out: deque) -> Iterator[Any]:
    while out:
        yield out.popleft()
