"""The config every Runnable call carries. Mirrors ``langchain_core/runnables/config.py``.

A config is a plain dict. The one idea worth learning here is the *current config*: while a
Runnable runs its function, the context variable ``var_child_runnable_config`` holds the config,
and ``ensure_config()`` starts from it. So ``model.invoke(x)`` called inside a node, without a
``config`` argument, still reports to the graph's callbacks (that is how ``stream_mode="messages"``
sees the model's tokens).
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any, Sequence

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
]


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
# Not in upstream: the same keys as sets, for faster `in` checks on every config copy.
_CONFIG_KEYS = frozenset(CONFIG_KEYS)
_COPIABLE = frozenset(COPIABLE_KEYS)

DEFAULT_RECURSION_LIMIT = 25
"""langchain-core's default (config.py:171). The graph uses its own default, 10007."""

var_child_runnable_config: ContextVar[RunnableConfig | None] = ContextVar(
    "child_runnable_config", default=None
)
"""The config of the Runnable that is running now (config.py:174)."""


class set_config_context:  # noqa: N801 -- a function in upstream; a class is cheaper to enter
    """Make ``config`` the current config while the ``with`` block runs (config.py:224).

    Upstream yields a copied ``contextvars.Context`` and runs the function with
    ``context.run(...)`` (it also sets the LangSmith tracing parent); we set and reset the variable.
    Not in upstream: a small class, not a ``@contextmanager`` generator, since every Runnable call
    enters one (about 1 us less per ``with``).
    """

    __slots__ = ("config", "_token")

    def __init__(self, config: RunnableConfig) -> None:
        self.config = config

    def __enter__(self) -> RunnableConfig:
        self._token = var_child_runnable_config.set(self.config)
        return self.config

    def __exit__(self, *exc_info: object) -> None:
        var_child_runnable_config.reset(self._token)


def ensure_config(config: RunnableConfig | None = None) -> RunnableConfig:
    """A new config with every key present: defaults < current config < ``config`` (config.py:255).

    Lists and dicts are copied one level deep, so the caller may change the result freely.
    """
    var_config = var_child_runnable_config.get()
    if (source := _only_source(config, var_config)) is not None:
        if (copied := _copy_ensured(source)) is not None:
            return copied
    empty: RunnableConfig = {
        "tags": [],
        "metadata": {},
        "callbacks": None,
        "recursion_limit": DEFAULT_RECURSION_LIMIT,
        "configurable": {},
    }
    if var_config:
        for k, v in var_config.items():
            if v is not None:
                empty[k] = v.copy() if k in _COPIABLE else v  # type: ignore[literal-required]
    if config is not None:
        # Not in upstream: inside a graph the config passed down is usually the current one
        # itself; copying its values a second time would change nothing.
        if config is not var_config:
            for k, v in config.items():
                if v is not None and k in _CONFIG_KEYS:
                    empty[k] = v.copy() if k in _COPIABLE else v  # type: ignore[literal-required]
        if not _CONFIG_KEYS.issuperset(config):  # ensure_config({"thread_id": 1}) -> configurable
            for k, v in config.items():
                if v is not None and k not in _CONFIG_KEYS:
                    empty["configurable"][k] = v
    configurable, metadata = empty["configurable"], empty["metadata"]
    if configurable:
        for key in ("model", "checkpoint_ns"):  # shown in traces as metadata
            value = configurable.get(key)
            if isinstance(value, str) and key not in metadata:
                metadata[key] = value
    return empty


def _only_source(
    config: RunnableConfig | None, var_config: RunnableConfig | None
) -> RunnableConfig | None:
    """Not in upstream: the one config ``ensure_config`` takes every value from, if there is
    one (speed): the current config when no other is given, or ``config`` when it has every
    key the current one has and does not leave its callbacks to it (``None``)."""
    if config is None or config is var_config:
        return var_config
    if var_config is None:
        return config
    if var_config.keys() <= config.keys() and (
        config.get("callbacks") is not None or var_config.get("callbacks") is None
    ):
        return config
    return None


def _copy_ensured(config: RunnableConfig) -> RunnableConfig | None:
    """Not in upstream: ``ensure_config`` of a config that is already ensured (speed).

    Nearly every call inside a graph asks for a copy of the current config or of the node's
    config, which the graph or an outer Runnable made with ``ensure_config``: the five default
    keys, set, plus perhaps a ``run_name``. Copying it then gives what the general loop of
    ``ensure_config`` would build key by key. Any other config returns ``None``, and
    ``ensure_config`` takes the general path.
    """
    size = len(config)
    if size != 5 and (size != 6 or config.get("run_name") is None):
        return None
    tags, metadata = config.get("tags"), config.get("metadata")
    configurable = config.get("configurable")
    if (
        tags is None
        or metadata is None
        or configurable is None
        or config.get("recursion_limit") is None
        or "callbacks" not in config
    ):
        return None
    copied = config.copy()
    copied["tags"] = tags.copy()
    copied["metadata"] = metadata = metadata.copy()
    copied["configurable"] = configurable.copy()
    if (callbacks := config["callbacks"]) is not None:  # type: ignore[typeddict-item]
        copied["callbacks"] = callbacks.copy()
    if configurable:  # as at the end of ensure_config, unrolled
        if "model" not in metadata and isinstance(value := configurable.get("model"), str):
            metadata["model"] = value
        if "checkpoint_ns" not in metadata and isinstance(
            value := configurable.get("checkpoint_ns"), str
        ):
            metadata["checkpoint_ns"] = value
    return copied


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
    configs = _drop_redundant(configs)
    if len(configs) == 1 and configs[0] is not None:
        return _merge_one(ensure_config(configs[0]))
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


def _merge_one(config: RunnableConfig) -> RunnableConfig:
    """Not in upstream: what the loop of ``merge_configs`` makes of one ensured config.

    The copies were made by ``ensure_config``; only tags, callbacks and the default
    recursion limit are treated differently.
    """
    tags = config["tags"]
    if tags:
        config["tags"] = sorted(set(tags))
    callbacks = config["callbacks"]
    if callbacks is not None:
        config["callbacks"] = _merge_callbacks(None, callbacks)
    else:
        del config["callbacks"]
    if config["recursion_limit"] == DEFAULT_RECURSION_LIMIT:
        del config["recursion_limit"]
    for key, value in config.items():  # the other keys: `value or base.get(key)`
        if not value and key not in _MERGED_KEYS:
            config[key] = None  # type: ignore[literal-required]
    return config


_MERGED_KEYS = frozenset(("tags", "metadata", "callbacks", "recursion_limit", "configurable"))


def _drop_redundant(
    configs: tuple[RunnableConfig | None, ...],
) -> tuple[RunnableConfig | None, ...]:
    """Not in upstream: ``merge_configs({}, current)`` is ``merge_configs(current)``.

    ``RunnableBinding`` merges its (usually empty) config with the current one on every call.
    Both ensure to the same config, and merging a config with an equal one changes nothing.
    """
    if len(configs) == 2 and not configs[0]:
        current = var_child_runnable_config.get()
        if configs[1] is current and current is not None and _CONFIG_KEYS.issuperset(current):
            return configs[1:]
    return configs


def _merges_to_itself(own: RunnableConfig, configs: tuple[RunnableConfig | None, ...]) -> bool:
    """Not in upstream: would ``merge_configs(own, *configs)`` give an equal copy of the
    current config? (speed)

    True when a binding with no config of its own is called with the current config, whose
    tags are empty (merging sorts them) and whose keys are all config keys. The bound chat
    model then gets the current config itself; its ``invoke`` copies it with ``ensure_config``
    and arrives at the same config as from the merged one.
    """
    if own or len(configs) != 1:
        return False
    config = configs[0]
    return (
        config is not None
        and config is var_child_runnable_config.get()
        and not config.get("tags")
        and _CONFIG_KEYS.issuperset(config)
    )


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
