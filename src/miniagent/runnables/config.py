"""The config every Runnable call carries. Mirrors ``langchain_core/runnables/config.py``.

A config is a plain dict. The one idea worth learning here is the *current config*: while a
Runnable runs its function, the context variable ``var_child_runnable_config`` holds the config,
and ``ensure_config()`` starts from it. So ``model.invoke(x)`` called inside a node, without a
``config`` argument, still reports to the graph's callbacks (that is how ``stream_mode="messages"``
sees the model's tokens).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar, copy_context
from functools import partial
from typing import Any, TypeVar

from typing_extensions import TypedDict  # pydantic needs it for TypedDict fields before 3.12

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


def ensure_config(config: RunnableConfig | None = None) -> RunnableConfig:
    """A new config with every key present: defaults < current config < ``config`` (config.py:255).

    Lists and dicts are copied one level deep, so the caller may change the result freely.
    """
    empty = RunnableConfig(
        tags=[],
        metadata={},
        callbacks=None,
        recursion_limit=DEFAULT_RECURSION_LIMIT,
        configurable={},
    )
    if var_config := var_child_runnable_config.get():
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


class ContextThreadPoolExecutor(ThreadPoolExecutor):
    """A thread pool whose tasks each run in a copy of the submitter's context (config.py:607).

    The copy carries the context variables, the current config among them, into the threads.
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
