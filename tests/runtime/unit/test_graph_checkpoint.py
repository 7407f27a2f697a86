"""InMemorySaver: one list of checkpoints per thread (langgraph/checkpoint/memory)."""

import pytest

from miniagent.checkpoint import InMemorySaver, MemorySaver, empty_checkpoint


def checkpoint(id_: str, **values) -> dict:
    return {"v": 1, "id": id_, "channel_values": values}


def test_put_and_get_the_latest_checkpoint_of_a_thread():
    saver = InMemorySaver()
    config = {"configurable": {"thread_id": 1}}
    assert saver.get_tuple(config) is None
    first = saver.put(config, checkpoint("c1", n=1), {"step": 1})
    saver.put(config, checkpoint("c2", n=2), {"step": 2})
    assert first == {"configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "c1"}}
    latest = saver.get_tuple(config)
    assert latest.checkpoint["channel_values"] == {"n": 2}
    assert latest.metadata == {"step": 2}
    assert latest.parent_config == first
    assert saver.get(first)["id"] == "c1"  # a config with a checkpoint_id picks that one
    assert [t.checkpoint["id"] for t in saver.list(config)] == ["c2", "c1"]


def test_threads_are_separate_and_can_be_deleted():
    saver = MemorySaver()
    saver.put({"configurable": {"thread_id": "a"}}, checkpoint("x"), {})
    assert saver.get({"configurable": {"thread_id": "b"}}) is None
    saver.delete_thread("a")
    assert saver.get({"configurable": {"thread_id": "a"}}) is None


def test_a_thread_id_is_required():
    with pytest.raises(ValueError, match="'configurable' keys: thread_id, checkpoint_ns"):
        InMemorySaver().get_tuple({})


def test_empty_checkpoint():
    assert empty_checkpoint()["channel_values"] == {}
