"""RunnableCallable: how LangGraph runs a node. Mirrors ``langgraph/_internal/_runnable.py``.

A smaller ``RunnableLambda`` that takes a sync and an async function. Its one trick is injection:
a function that declares ``config``, ``runtime``, ``store``, ``writer``, ``previous`` or ``error``
gets that value from the config, found by parameter name. The signature is read once, when the
RunnableCallable is built, because ``invoke`` runs on every super-step.
"""

from __future__ import annotations

import inspect
import warnings
from typing import Any, Awaitable, Callable, Optional, Sequence

from miniagent.constants import CONFIG_KEY_RUNTIME
from miniagent.runnables.base import (
    Runnable,
    RunnableLambda,
    RunnableParallel,
    is_async_callable,
    is_async_generator,
)
from miniagent.runnables.config import (
    RunnableConfig,
    _child_config,
    ensure_config,
    set_config_context,
)

__all__ = ["RunnableCallable", "KWARGS_CONFIG_KEYS", "coerce_to_runnable"]

CONF = "configurable"
# holds a NodeError for an error handler node (langgraph/_internal/_constants.py:86); the
# miniature has no error handlers, so an `error: NodeError` parameter always gets its default
CONFIG_KEY_NODE_ERROR = "__pregel_node_error"
MISSING = object()  # langgraph/_internal/_typing.py:45
ANY_TYPE = object()  # "any annotation is fine" (_runnable.py:194)

StreamWriter = Callable[[Any], None]  # langgraph/types.py:148
"""The type of a node's ``writer`` parameter (``langgraph.types.StreamWriter``)."""

# (parameter name, annotations that opt in, Runtime attribute to read, default when missing).
# A default of ``inspect.Parameter.empty`` means "required": missing -> ValueError. As upstream,
# the function's own default value does not matter, only its annotation. (_runnable.py:200)
KWARGS_CONFIG_KEYS: tuple[tuple[str, tuple[Any, ...], str, Any], ...] = (
    (
        "config",
        (
            RunnableConfig,
            "RunnableConfig",
            Optional[RunnableConfig],
            "Optional[RunnableConfig]",
            inspect.Parameter.empty,
        ),
        "N/A",  # the config itself, not a Runtime attribute
        inspect.Parameter.empty,
    ),
    (
        "writer",
        (StreamWriter, "StreamWriter", inspect.Parameter.empty),
        "stream_writer",
        lambda _: None,
    ),
    ("store", ("BaseStore", inspect.Parameter.empty), "store", inspect.Parameter.empty),
    ("store", ("Optional[BaseStore]",), "store", None),
    ("previous", (ANY_TYPE,), "previous", inspect.Parameter.empty),
    ("runtime", (ANY_TYPE,), "N/A", inspect.Parameter.empty),  # the Runtime itself
    # read from the config (CONFIG_KEY_NODE_ERROR); a node that is not an error handler gets None
    ("error", ("NodeError",), "N/A", None),
)

VALID_KINDS = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)


def _annotation_matches(annotation: Any, accepted: tuple[Any, ...]) -> bool:
    """Upstream compares with ``in``; we also accept a class by its name, since the miniature has
    no ``BaseStore`` class and a learner may annotate with langchain-core's ``RunnableConfig``."""
    if annotation in accepted:
        return True
    return isinstance(annotation, type) and annotation.__name__ in accepted


# --8<-- [start:runnable_callable]
class RunnableCallable(Runnable):
    """A function (and/or an async function) with injection by parameter name.

    Mirrors langgraph/_internal/_runnable.py:331.
    """

    def __init__(
        self,
        func: Callable[..., Any] | None,
        afunc: Callable[..., Awaitable[Any]] | None = None,
        *,
        name: str | None = None,
        tags: Sequence[str] | None = None,
        trace: bool = True,
        recurse: bool = True,
        **kwargs: Any,
    ) -> None:
        """``trace=False`` (graph nodes, ToolNode) leaves the current config alone; ``recurse``
        invokes a Runnable the function returns; ``kwargs`` are passed on every call."""
        self.name = name
        if self.name is None:
            if func:
                if getattr(func, "__name__", "<lambda>") != "<lambda>":
                    self.name = func.__name__
            elif afunc:
                self.name = getattr(afunc, "__name__", None)  # even "<lambda>", as upstream
        self.func = func
        self.afunc = afunc
        self.tags = tags
        self.kwargs = kwargs
        self.trace = trace
        self.recurse = recurse
        if func is None and afunc is None:
            raise ValueError("At least one of func or afunc must be provided.")

        # Which injectable parameters does the function declare? Read once, here.
        self.func_accepts: dict[str, tuple[str, Any]] = {}
        params = inspect.signature(func or afunc).parameters  # type: ignore[arg-type]
        for kw, typ, runtime_key, default in KWARGS_CONFIG_KEYS:
            p = params.get(kw)
            if p is None or p.kind not in VALID_KINDS:
                continue  # not declared, or positional-only / *args / **kwargs
            if typ != (ANY_TYPE,) and not _annotation_matches(p.annotation, typ):
                if kw == "config" and p.annotation != inspect.Parameter.empty:
                    warnings.warn(
                        f"The 'config' parameter should be typed as 'RunnableConfig' or "
                        f"'RunnableConfig | None', not '{p.annotation}'. ",
                        UserWarning,
                        stacklevel=4,
                    )
                continue
            self.func_accepts[kw] = (runtime_key, default)

    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        """Call ``func`` with injected kwargs; invoke a returned Runnable (_runnable.py:406)."""
        if self.func is None:
            raise TypeError(
                f'No synchronous function provided to "{self.name}".'
                "\nEither initialize with a synchronous function or invoke"
                " via the async API (ainvoke, astream, etc.)"
            )
        if config is None:
            config = ensure_config()
        kwargs = self._inject_kwargs(config, {**self.kwargs, **kwargs})
        if self.trace:
            # upstream: patch_config(config, callbacks=run_manager.get_child())
            with set_config_context(_child_config(config)):
                ret = self.func(input, **kwargs)
        else:  # graph nodes and ToolNode: the graph has set the current config already
            ret = self.func(input, **kwargs)
        if self.recurse and isinstance(ret, Runnable):
            return ret.invoke(input, config)
        return ret

    def _inject_kwargs(self, config: RunnableConfig, kwargs: dict[str, Any]) -> dict[str, Any]:
        """Fill in each declared parameter not passed explicitly (inline in _runnable.py:426)."""
        runtime = config.get(CONF, {}).get(CONFIG_KEY_RUNTIME)
        for kw, (runtime_key, default) in self.func_accepts.items():
            if kw in kwargs:
                continue
            kw_value: Any = MISSING
            if kw == "config":
                kw_value = config
            elif kw == "error":
                kw_value = config.get(CONF, {}).get(CONFIG_KEY_NODE_ERROR, MISSING)
            elif runtime:
                if kw == "runtime":
                    kw_value = runtime
                else:
                    kw_value = getattr(runtime, runtime_key, MISSING)
            if kw_value is MISSING:
                if default is inspect.Parameter.empty:
                    raise ValueError(
                        f"Missing required config key '{runtime_key}' for '{self.name}'."
                    )
                kw_value = default
            kwargs[kw] = kw_value
        return kwargs

    # --8<-- [end:runnable_callable]

    async def ainvoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        """Await ``afunc``; without one, run ``invoke`` (_runnable.py:484).

        Without ``afunc`` upstream calls ``self.invoke(input, config)`` on the event loop's thread
        and drops ``kwargs``; so do we.
        """
        if not self.afunc:
            return self.invoke(input, config)
        if config is None:
            config = ensure_config()
        kwargs = self._inject_kwargs(config, {**self.kwargs, **kwargs})
        if self.trace:
            with set_config_context(_child_config(config)):
                ret = await self.afunc(input, **kwargs)
        else:
            ret = await self.afunc(input, **kwargs)
        if self.recurse and isinstance(ret, Runnable):
            return await ret.ainvoke(input, config)
        return ret

    def __repr__(self) -> str:
        """Like upstream: the name, then the settings (_runnable.py:398)."""
        skip = {"name", "func", "afunc", "config", "kwargs", "trace"}
        args = ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items() if k not in skip)
        return f"{self.get_name()}({args})"


def coerce_to_runnable(thing: Any, *, name: str | None, trace: bool) -> Runnable:
    """LangGraph's coercion of a node action (langgraph/_internal/_runnable.py:582).

    A generator function becomes a ``RunnableLambda`` (which adds up what it yields), not a
    ``RunnableCallable``: such a node gets no injection but ``config``. An ``async def`` becomes
    ``RunnableCallable(None, thing)``. Upstream gives a sync function an ``afunc`` that runs it in
    a thread pool; ours has none, so ``ainvoke`` calls it directly.
    """
    if isinstance(thing, Runnable):
        return thing
    if is_async_generator(thing) or inspect.isgeneratorfunction(thing):
        return RunnableLambda(thing, name=name)
    if callable(thing):
        if is_async_callable(thing):
            return RunnableCallable(None, thing, name=name, trace=trace)
        return RunnableCallable(thing, name=name, trace=trace)
    if isinstance(thing, dict):
        return RunnableParallel(thing)
    raise TypeError(
        f"Expected a Runnable, callable or dict.Instead got an unsupported type: {type(thing)}"
    )
