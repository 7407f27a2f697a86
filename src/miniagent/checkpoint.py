"""Short-term memory for a graph: one list of checkpoints per thread.

Mirrors ``langgraph/checkpoint/memory/__init__.py`` (``InMemorySaver``, line 34). Upstream
serializes every checkpoint (a deep copy, through msgpack) and versions each channel; the
miniature keeps a shallow copy of the state dict per super-step, so saving costs O(number of
keys), not O(size of the state). Values are shared with the running graph: do not mutate a
state value in place inside a node (reducers such as ``add_messages`` return new lists).
"""

from __future__ import annotations

from typing import Any, Iterator, NamedTuple

__all__ = ["InMemorySaver", "MemorySaver", "Checkpoint", "CheckpointTuple", "empty_checkpoint"]

Checkpoint = dict[str, Any]
"""``{"v": 1, "id": str, "channel_values": dict}``; besides the state keys, ``channel_values``
holds the pending triggers (``"branch:to:<node>": None``) and pending ``Send``s
(``"__pregel_tasks": [...]``) with upstream's channel names, so an interrupted run can resume."""


class CheckpointTuple(NamedTuple):
    """A checkpoint with its config and metadata (langgraph/checkpoint/base/__init__.py:140)."""

    config: dict[str, Any]
    checkpoint: Checkpoint
    metadata: dict[str, Any]
    parent_config: dict[str, Any] | None = None


def empty_checkpoint() -> Checkpoint:
    """A checkpoint with no values (langgraph/checkpoint/base/__init__.py:843)."""
    return {"v": 1, "id": "", "channel_values": {}}


def _thread_id(config: dict[str, Any]) -> str:
    """The thread key, as a string like upstream (``str(thread_id)``)."""
    configurable = config.get("configurable") or {}
    if "thread_id" not in configurable:
        raise ValueError(
            "Checkpointer requires one or more of the following 'configurable' keys: "
            "thread_id, checkpoint_ns, checkpoint_id"
        )
    return str(configurable["thread_id"])


class InMemorySaver:
    """Keep every checkpoint of every thread in a dict (langgraph/checkpoint/memory/__init__.py:34).

    ``storage[thread_id]`` is the list of that thread's checkpoints, oldest first. The graph calls
    ``get_tuple`` once when a run starts and ``put`` after every super-step.
    """

    def __init__(self) -> None:
        self.storage: dict[str, list[CheckpointTuple]] = {}

    def get_tuple(self, config: dict[str, Any]) -> CheckpointTuple | None:
        """The latest checkpoint of the thread, or the one named by ``checkpoint_id`` (l.239)."""
        history = self.storage.get(_thread_id(config))
        if not history:
            return None
        checkpoint_id = config["configurable"].get("checkpoint_id")
        if checkpoint_id is None:
            return history[-1]
        for saved in reversed(history):
            if saved.checkpoint["id"] == checkpoint_id:
                return saved
        return None

    def get(self, config: dict[str, Any]) -> Checkpoint | None:
        """Just the checkpoint of :meth:`get_tuple` (langgraph/checkpoint/base/__init__.py:250)."""
        saved = self.get_tuple(config)
        return saved.checkpoint if saved else None

    def list(self, config: dict[str, Any]) -> Iterator[CheckpointTuple]:
        """The thread's checkpoints, newest first (l.321)."""
        yield from reversed(self.storage.get(_thread_id(config), []))

    def put(
        self, config: dict[str, Any], checkpoint: Checkpoint, metadata: dict[str, Any]
    ) -> dict[str, Any]:
        """Append a checkpoint; return the config that points to it (l.430)."""
        thread_id = _thread_id(config)
        history = self.storage.setdefault(thread_id, [])
        parent = history[-1].config if history else None
        saved_config = {
            "configurable": {
                "thread_id": thread_id,
                "checkpoint_ns": "",
                "checkpoint_id": checkpoint["id"],
            }
        }
        history.append(CheckpointTuple(saved_config, checkpoint, metadata, parent))
        return saved_config

    def delete_thread(self, thread_id: str) -> None:
        """Forget a thread (l.514)."""
        self.storage.pop(str(thread_id), None)


MemorySaver = InMemorySaver  # memory/__init__.py:634 -- kept for backwards compatibility
