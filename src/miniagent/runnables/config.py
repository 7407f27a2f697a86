"""The config every Runnable call carries. Mirrors ``langchain_core/runnables/config.py``.

A config is a plain dict. The one idea worth learning here is the *current config*: while a
Runnable runs its function, the context variable ``var_child_runnable_config`` holds the config,
and ``ensure_config()`` starts from it. So ``model.invoke(x)`` called inside a node, without a
``config`` argument, still reports to the graph's callbacks (that is how ``stream_mode="messages"``
sees the model's tokens).
"""

from __future__ import annotations

import itertools
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar, copy_context
from functools import partial
from operator import countOf
from queue import Empty, SimpleQueue
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import TypedDict  # pydantic needs it for TypedDict fields before 3.12

if TYPE_CHECKING:  # concurrent.futures (and the logging it imports) loads on first use
    from concurrent.futures import Executor, Future

__all__ = [
    "RunnableConfig",
    "DEFAULT_RECURSION_LIMIT",
    "var_child_runnable_config",
    "set_config_context",
    "ensure_config",
    "get_config_list",
    "patch_config",
    "merge_configs",
    "ContextThreadPoolExecutor",
    "get_executor_for_config",
]

T = TypeVar("T")


class RunnableConfig(TypedDict, total=False):
    """Configuration for a Runnable call (langchain_core/runnables/config.py:57).

    ``callbacks`` is a list of handler objects here (upstream also accepts a callback manager).
    """

    tags: list[str]
    metadata: dict[str, Any]
    callbacks: Any
    run_name: str
    max_concurrency: int | None
    recursion_limit: int
    configurable: dict[str, Any]
    run_id: Any


CONFIG_KEYS = (  # config.py:131 -- any other top-level key is moved into "configurable"
    "tags",
    "metadata",
    "callbacks",
    "run_name",
    "max_concurrency",
    "recursion_limit",
    "configurable",
    "run_id",
)
COPIABLE_KEYS = ("tags", "metadata", "callbacks", "configurable")  # config.py:142

DEFAULT_RECURSION_LIMIT = 25
"""langchain-core's default (config.py:171). The graph uses its own default, 10007."""

var_child_runnable_config: ContextVar[RunnableConfig | None] = ContextVar(
    "child_runnable_config", default=None
)
"""The config of the Runnable that is running now (config.py:174)."""


@contextmanager
def set_config_context(config: RunnableConfig) -> Iterator[RunnableConfig]:
    """Make ``config`` the current config while the ``with`` block runs (config.py:224).

    Upstream yields a copied ``contextvars.Context`` and runs the function with
    ``context.run(...)`` (it also sets the LangSmith tracing parent); we set and reset the variable.
    """
    token = var_child_runnable_config.set(config)
    try:
        yield config
    finally:
        var_child_runnable_config.reset(token)


_CONFIG_KEY_SET = frozenset(CONFIG_KEYS)


def _only_callbacks_none(config: RunnableConfig) -> bool:
    """No value is ``None``, except perhaps ``callbacks`` (which every ensured config has)."""
    nones = countOf(config.values(), None)
    return nones == 0 or (nones == 1 and config.get("callbacks", 0) is None)


def ensure_config(config: RunnableConfig | None = None) -> RunnableConfig:
    """A new config with every key present: defaults < current config < ``config`` (config.py:255).

    Lists and dicts are copied one level deep, so the caller may change the result freely.
    (Upstream's steps, ``_ensure_config_by_key`` below; it runs about ten times per round trip,
    so the usual case -- no ``None`` values, no keys to move into ``configurable`` -- is done with
    two ``dict.update``s and four copies, which gives the same dict.)
    """
    var_config = var_child_runnable_config.get()
    try:
        usual = (not var_config or _only_callbacks_none(var_config)) and (
            config is None or (config.keys() <= _CONFIG_KEY_SET and _only_callbacks_none(config))
        )
    except Exception:  # a value whose == raises: take upstream's steps
        usual = False
    if not usual:
        return _ensure_config_by_key(var_config, config)
    empty: RunnableConfig = {
        "tags": [],
        "metadata": {},
        "callbacks": None,
        "recursion_limit": DEFAULT_RECURSION_LIMIT,
        "configurable": {},
    }
    if var_config:
        empty.update(var_config)
    if config:
        callbacks = empty["callbacks"]
        empty.update(config)
        if empty["callbacks"] is None:  # a None value does not replace what came before
            empty["callbacks"] = callbacks
    if var_config or config:
        empty["tags"] = empty["tags"].copy()
        empty["metadata"] = metadata = empty["metadata"].copy()
        if (callbacks := empty["callbacks"]) is not None:
            empty["callbacks"] = callbacks.copy()
        empty["configurable"] = configurable = empty["configurable"].copy()
        if configurable:
            for configurable_key in ("model", "checkpoint_ns"):  # shown in traces as metadata
                if (
                    isinstance(configurable_value := configurable.get(configurable_key), str)
                    and configurable_key not in metadata
                ):
                    metadata[configurable_key] = configurable_value
    return empty


def _ensure_config_by_key(
    var_config: RunnableConfig | None, config: RunnableConfig | None
) -> RunnableConfig:
    """``ensure_config``, upstream's steps key by key (config.py:255)."""
    empty = RunnableConfig(
        tags=[],
        metadata={},
        callbacks=None,
        recursion_limit=DEFAULT_RECURSION_LIMIT,
        configurable={},
    )
    if var_config:
        empty.update(
            {  # type: ignore[typeddict-item]
                k: v.copy() if k in COPIABLE_KEYS else v
                for k, v in var_config.items()
                if v is not None
            }
        )
    if config is not None:
        empty.update(
            {  # type: ignore[typeddict-item]
                k: v.copy() if k in COPIABLE_KEYS else v
                for k, v in config.items()
                if v is not None and k in CONFIG_KEYS
            }
        )
    if config is not None:
        for k, v in config.items():  # ensure_config({"thread_id": 1}) -> configurable
            if k not in CONFIG_KEYS and v is not None:
                empty["configurable"][k] = v
    for configurable_key in ("model", "checkpoint_ns"):  # shown in traces as metadata
        if (
            isinstance(
                configurable_value := empty.get("configurable", {}).get(configurable_key), str
            )
            and configurable_key not in empty["metadata"]
        ):
            empty["metadata"][configurable_key] = configurable_value
    return empty


def get_config_list(
    config: RunnableConfig | Sequence[RunnableConfig] | None, length: int
) -> list[RunnableConfig]:
    """One ensured config per input of a batch (config.py:311)."""
    if length < 0:
        raise ValueError(f"length must be >= 0, but got {length}")
    if isinstance(config, Sequence):
        if len(config) != length:
            raise ValueError(
                f"config must be a list of the same length as inputs, "
                f"but got {len(config)} configs for {length} inputs"
            )
        return [ensure_config(c) for c in config]
    return [ensure_config(config) for _ in range(length)]


def patch_config(
    config: RunnableConfig | None,
    *,
    callbacks: Any = None,
    recursion_limit: int | None = None,
    max_concurrency: int | None = None,
    run_name: str | None = None,
    configurable: dict[str, Any] | None = None,
) -> RunnableConfig:
    """An ensured copy of ``config`` with some values replaced (config.py:357)."""
    config = ensure_config(config)
    if callbacks is not None:
        # New callbacks mean a new (child) run: the run name and id belonged to the old one.
        config["callbacks"] = callbacks
        config.pop("run_name", None)
        config.pop("run_id", None)
    if recursion_limit is not None:
        config["recursion_limit"] = recursion_limit
    if max_concurrency is not None:
        config["max_concurrency"] = max_concurrency
    if run_name is not None:
        config["run_name"] = run_name
    if configurable is not None:
        config["configurable"] = {**config.get("configurable", {}), **configurable}
    return config


def _child_config(config: RunnableConfig | None) -> RunnableConfig:
    """The config a child run sees while a Runnable's function runs.

    Upstream writes ``patch_config(config, callbacks=run_manager.get_child())``
    (e.g. langchain_core/runnables/base.py:2352): ensured, and without ``run_name``/``run_id``,
    which named the parent run. We have no callback managers, so the handler list is passed on.
    """
    child = ensure_config(config)
    child.pop("run_name", None)
    child.pop("run_id", None)
    return child


def merge_configs(*configs: RunnableConfig | None) -> RunnableConfig:
    """Merge configs left to right (config.py:431).

    ``tags`` become a sorted set, ``metadata`` and ``configurable`` are dict-merged, callbacks are
    concatenated, and a ``recursion_limit`` equal to the default does not override another.
    """
    base: RunnableConfig = {}
    for config in (ensure_config(c) for c in configs if c is not None):
        for key, value in config.items():
            if key == "metadata":
                base["metadata"] = {**base.get("metadata", {}), **(value or {})}
            elif key == "tags":
                base["tags"] = sorted(set(base.get("tags", []) + (value or [])))
            elif key == "configurable":
                base["configurable"] = {**base.get("configurable", {}), **(value or {})}
            elif key == "callbacks":
                if value is not None:
                    base["callbacks"] = _merge_callbacks(base.get("callbacks"), value)
            elif key == "recursion_limit":
                if value != DEFAULT_RECURSION_LIMIT:
                    base["recursion_limit"] = value
            elif key in COPIABLE_KEYS and value is not None:
                base[key] = value.copy()  # type: ignore[literal-required]
            else:
                base[key] = value or base.get(key)  # type: ignore[literal-required]
    return base


def _merge_callbacks(base: list[Any] | None, these: list[Any]) -> list[Any]:
    """Concatenate two handler lists, skipping handlers already present.

    Inside a graph upstream's callbacks are callback managers, and merging managers skips a
    handler already present (langchain_core/callbacks/base.py:1085 ``merge``, :1122
    ``add_handler``). Our callbacks are plain lists standing in for managers, so we skip duplicates
    too: a handler inherited by both configs (the usual case in a node) is not called twice.
    """
    if base is None:
        return list(these)
    return base + [h for h in these if h not in base]


# ---- the thread pool behind ToolNode (machinery no lesson shows) --------------------------------
#
# Upstream's ``get_executor_for_config`` builds a new ``ThreadPoolExecutor`` for every call, so
# every tool call pays for starting a thread and joining it (most of a round trip's cost here).
# The miniature gives each ``with get_executor_for_config(...)`` block its own pool with the same
# rules -- at most ``max_concurrency`` calls at once (default: Python's ``min(32, cpus + 4)``),
# first in, first started, ``map`` in input order, each call in a copy of the caller's context,
# ``shutdown`` on leaving the block -- but the pool's *threads* are borrowed from a process-wide
# set of parked worker threads and handed back when a call ends, instead of started and joined.
#
# Why nested pools cannot deadlock (a tool that runs another agent, which maps its own tool calls
# while the outer call waits): no thread is shared between two calls at once, and the process-wide
# set has no size limit. A pool's call starts at once on a parked thread or a new one, unless
# that pool already runs ``max_workers`` calls; then it waits only for one of *its own* calls to
# end. An outer call waits only on pools opened inside it, so the waits form a tree whose leaves
# wait on nothing, exactly as with upstream's pool per call.
# tests/runtime/unit/test_tool_node.py (nested agents, parallel calls) keeps this so.

_DEFAULT_MAX_WORKERS = min(
    32, ((getattr(os, "process_cpu_count", None) or os.cpu_count)() or 1) + 4
)
"""``ThreadPoolExecutor``'s default ``max_workers``: ``min(32, cpus + 4)``."""

_PARKED_SECONDS = 60.0  # a parked worker thread with nothing to do for this long ends
_PENDING, _RUNNING, _DONE, _CANCELLED = 0, 1, 2, 3
_parked: list[SimpleQueue[Any]] = []  # the inboxes of the parked worker threads
_parked_lock = threading.Lock()
_worker_names = itertools.count()


def _forget_parked_workers() -> None:  # a forked child has none of its parent's threads
    global _parked_lock
    _parked.clear()
    _parked_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_parked_workers)


def _hand_to_worker(pool: _ThreadPool, task: _Task) -> None:
    """Run ``task`` (and then ``pool``'s next waiting calls) on a parked thread or a new one."""
    with _parked_lock:
        inbox = _parked.pop() if _parked else None
    if inbox is None:
        inbox = SimpleQueue()
        thread = threading.Thread(
            target=_worker, args=(inbox,), name=f"miniagent-pool_{next(_worker_names)}", daemon=True
        )
        inbox.put((pool, task))
        thread.start()
    else:
        inbox.put((pool, task))


def _worker(inbox: SimpleQueue[Any]) -> None:
    """A worker thread: run what arrives in ``inbox``, park between calls, end when idle."""
    while True:
        try:
            pool, task = inbox.get(timeout=_PARKED_SECONDS)
        except Empty:
            with _parked_lock:
                if any(parked is inbox for parked in _parked):
                    _parked.remove(inbox)
                    return
            continue  # taken from the parked set just now: its call is on the way
        while task is not None:
            task.run()
            task = pool._next_task()
        del pool  # hold on to nothing while parked
        with _parked_lock:
            _parked.append(inbox)


class _Task:
    """One call: ``fn(*args)``, its outcome, and a lock that is held until the outcome is in."""

    __slots__ = ("fn", "args", "state", "value", "error", "latch")

    def __init__(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self.fn, self.args = fn, args
        self.state = _PENDING
        self.value: Any = None
        self.error: BaseException | None = None
        self.latch = threading.Lock()
        self.latch.acquire()

    def run(self) -> None:
        try:
            self.value = self.fn(*self.args)
        except BaseException as error:  # as concurrent.futures: handed to the waiting caller
            self.error = error
        self.fn = self.args = None  # type: ignore[assignment]
        self.state = _DONE
        self.latch.release()

    def wait(self, timeout: float | None = None) -> None:
        if self.state < _DONE:
            if not self.latch.acquire(timeout=-1 if timeout is None else max(timeout, 0)):
                raise TimeoutError()
            self.latch.release()

    def result(self, timeout: float | None = None) -> Any:
        self.wait(timeout)
        if self.state == _CANCELLED:
            from concurrent.futures import CancelledError

            raise CancelledError()
        if self.error is not None:
            try:
                raise self.error
            finally:
                self = None  # type: ignore[assignment]  # no reference cycle via the traceback
        return self.value


class _ThreadPool:
    """A ``ThreadPoolExecutor`` whose threads are parked worker threads, reused across pools.

    Same rules as ``concurrent.futures.ThreadPoolExecutor``: at most ``max_workers`` calls run
    at once and the others wait in order; ``map`` submits every call at once and yields the
    results in input order (an error is raised when its turn comes, and the calls not started
    yet are cancelled); ``shutdown(wait=True)`` (leaving a ``with`` block) waits for every call.
    """

    def __init__(self, max_workers: int | None = None) -> None:
        if max_workers is None:
            max_workers = _DEFAULT_MAX_WORKERS
        if max_workers <= 0:
            raise ValueError("max_workers must be greater than 0")
        self._max_workers = max_workers
        self._lock = threading.Lock()
        self._running = 0
        self._waiting: deque[_Task] = deque()
        self._tasks: list[_Task] = []
        self._shutdown = False

    def _start(self, task: _Task) -> None:
        with self._lock:
            if self._shutdown:
                raise RuntimeError("cannot schedule new futures after shutdown")
            self._tasks.append(task)
            if self._running >= self._max_workers:
                self._waiting.append(task)
                return
            self._running += 1
            task.state = _RUNNING
        _hand_to_worker(self, task)

    def _next_task(self) -> _Task | None:
        """Called by a worker whose call ended: this pool's next waiting call, if any."""
        with self._lock:
            while self._waiting:
                task = self._waiting.popleft()
                if task.state == _PENDING:
                    task.state = _RUNNING
                    return task
            self._running -= 1
            return None

    def _cancel(self, task: _Task) -> None:
        with self._lock:
            if task.state == _PENDING:
                task.state = _CANCELLED
                task.latch.release()

    def __enter__(self) -> _ThreadPool:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.shutdown(wait=True)

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        from concurrent.futures import Future

        future: Future[T] = Future()

        def call() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                result = fn(*args, **kwargs)
            except BaseException as error:
                future.set_exception(error)
            else:
                future.set_result(result)

        self._start(_Task(call, ()))
        return future

    def map(
        self,
        fn: Callable[..., T],
        *iterables: Iterable[Any],
        timeout: float | None = None,
        chunksize: int = 1,
    ) -> Iterator[T]:
        if timeout is not None:
            end_time = timeout + time.monotonic()
        tasks = [_Task(fn, args) for args in zip(*iterables, strict=False)]
        for task in tasks:
            self._start(task)

        def result_iterator() -> Iterator[T]:
            try:
                tasks.reverse()
                while tasks:
                    task = tasks.pop()
                    try:
                        if timeout is None:
                            value = task.result()
                        else:
                            value = task.result(end_time - time.monotonic())
                    except BaseException:
                        self._cancel(task)  # as _result_or_cancel: a call timed out waits no more
                        raise
                    del task  # keep no reference to a finished call
                    yield value
            finally:
                for task in tasks:
                    self._cancel(task)

        return result_iterator()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            self._shutdown = True
            tasks, self._tasks = self._tasks, []
        if cancel_futures:
            for task in tasks:
                self._cancel(task)
        if wait:
            for task in tasks:
                task.wait()


class ContextThreadPoolExecutor(_ThreadPool):
    """A thread pool whose tasks each run in a copy of the submitter's context (config.py:607).

    The copy carries the context variables, the current config among them, into the threads.
    (Upstream's is a ``ThreadPoolExecutor``; ours, ``_ThreadPool`` above, has its rules but
    borrows parked threads instead of starting new ones.)
    """

    def submit(self, func: Callable[..., T], *args: Any, **kwargs: Any) -> Future[T]:
        """``func(*args, **kwargs)`` in a copy of the caller's context (config.py:610)."""
        return super().submit(partial(copy_context().run, func, *args, **kwargs))

    def map(self, fn: Callable[..., T], *iterables: Iterable[Any], **kwargs: Any) -> Iterator[T]:
        """``executor.map``, each call in its own copy of the caller's context (config.py:630).

        The copies are taken here, in the caller's thread, before any task starts.
        """
        contexts = [copy_context() for _ in range(len(iterables[0]))]  # type: ignore[arg-type]

        def _wrapped_fn(*args: Any) -> T:
            return contexts.pop().run(fn, *args)

        return super().map(
            _wrapped_fn,
            *iterables,
            **kwargs,
        )


@contextmanager
def get_executor_for_config(
    config: RunnableConfig | None,
) -> Generator[Executor, None, None]:
    """A ``ContextThreadPoolExecutor`` sized by ``max_concurrency`` (config.py:660)."""
    config = config or {}
    with ContextThreadPoolExecutor(max_workers=config.get("max_concurrency")) as executor:
        yield executor
