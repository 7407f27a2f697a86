"""Runnables and their config. Mirrors ``langchain_core.runnables`` plus LangGraph's
``RunnableCallable`` (``langgraph/_internal/_runnable.py``).

* ``config.py`` -- ``RunnableConfig``, ``ensure_config``, the current config (context variable)
* ``base.py`` -- ``Runnable``, ``RunnableSequence`` (``a | b``), ``RunnableLambda``,
  ``RunnableBinding`` (``.bind()``), ``RunnableParallel``, ``coerce_to_runnable``
* ``callable.py`` -- ``RunnableCallable``: how a graph node is called, with injection by name
"""

from miniagent.runnables.base import (
    Runnable,
    RunnableBinding,
    RunnableLambda,
    RunnableParallel,
    RunnableSequence,
    coerce_to_runnable,
)
from miniagent.runnables.callable import RunnableCallable
from miniagent.runnables.config import (
    DEFAULT_RECURSION_LIMIT,
    RunnableConfig,
    ensure_config,
    get_config_list,
    merge_configs,
    patch_config,
    set_config_context,
    var_child_runnable_config,
)

__all__ = [
    "DEFAULT_RECURSION_LIMIT",
    "Runnable",
    "RunnableBinding",
    "RunnableCallable",
    "RunnableConfig",
    "RunnableLambda",
    "RunnableParallel",
    "RunnableSequence",
    "coerce_to_runnable",
    "ensure_config",
    "get_config_list",
    "merge_configs",
    "patch_config",
    "set_config_context",
    "var_child_runnable_config",
]
