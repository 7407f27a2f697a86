"""Unit tests for miniagent.graph.message: the add_messages reducer and MessagesState.

The same cases, and random update sequences, are run against upstream in
tests/runtime/differential/test_messages_diff.py.
"""

import uuid
from typing import Annotated, Any, get_type_hints

import pytest

from miniagent.graph.message import REMOVE_ALL_MESSAGES, MessagesState, add_messages
from miniagent.messages import (
    AIMessage,
    AIMessageChunk,
    AnyMessage,
    HumanMessage,
    RemoveMessage,
    tool_call,
)


def _summary(messages: list) -> list[tuple[str, Any, Any]]:
    return [(type(m).__name__, m.content, m.id) for m in messages]


# --- the documented steps ---------------------------------------------------------------------


def test_append_and_assign_ids_by_mutation():
    left_msg, right_msg = HumanMessage("hi"), AIMessage("a1", id="a1")
    result = add_messages([left_msg], [right_msg])
    assert _summary(result) == [("HumanMessage", "hi", left_msg.id), ("AIMessage", "a1", "a1")]
    assert str(uuid.UUID(left_msg.id)) == left_msg.id  # a uuid4, written onto the object
    assert result[0] is left_msg and result[1] is right_msg


def test_right_messages_get_ids_too():
    m = AIMessage("x")
    add_messages([], [m])
    assert uuid.UUID(m.id).version == 4


def test_replace_by_id_keeps_position():
    left = [HumanMessage("hi", id="h"), AIMessage("a1", id="a1"), HumanMessage("t", id="t")]
    result = add_messages(left, [AIMessage("a1-replaced", id="a1")])
    assert _summary(result) == [
        ("HumanMessage", "hi", "h"),
        ("AIMessage", "a1-replaced", "a1"),
        ("HumanMessage", "t", "t"),
    ]


def test_left_is_not_changed():
    left = [HumanMessage("hi", id="h"), AIMessage("a", id="a")]
    before = list(left)
    result = add_messages(left, [AIMessage("b", id="a"), RemoveMessage(id="h")])
    assert left == before and result is not left
    assert _summary(result) == [("AIMessage", "b", "a")]


def test_remove_message():
    left = [HumanMessage("hi", id="h"), AIMessage("a1", id="a1"), HumanMessage("t", id="t")]
    assert _summary(add_messages(left, RemoveMessage(id="a1"))) == [
        ("HumanMessage", "hi", "h"),
        ("HumanMessage", "t", "t"),
    ]


def test_remove_unknown_id():
    with pytest.raises(ValueError) as e:
        add_messages([HumanMessage("hi", id="h")], [RemoveMessage(id="nope")])
    assert str(e.value) == "Attempting to delete a message with an ID that doesn't exist ('nope')"


def test_remove_all_keeps_only_what_follows_the_last_marker():
    left = [HumanMessage("old", id="o")]
    right = [
        HumanMessage("dropped", id="d"),
        RemoveMessage(id=REMOVE_ALL_MESSAGES),
        HumanMessage("kept", id="k"),
        RemoveMessage(id=REMOVE_ALL_MESSAGES),
        HumanMessage("fresh", id="f"),
    ]
    assert REMOVE_ALL_MESSAGES == "__remove_all__"
    assert _summary(add_messages(left, right)) == [("HumanMessage", "fresh", "f")]
    assert add_messages(left, [RemoveMessage(id=REMOVE_ALL_MESSAGES)]) == []


def test_remove_all_tail_is_returned_as_is():
    # Upstream returns the tail verbatim: duplicates and RemoveMessages stay in it.
    right = [
        RemoveMessage(id=REMOVE_ALL_MESSAGES),
        HumanMessage("b", id="1"),
        RemoveMessage(id="1"),
    ]
    assert _summary(add_messages([HumanMessage("a", id="1")], right)) == [
        ("HumanMessage", "b", "1"),
        ("RemoveMessage", "", "1"),
    ]


def test_add_then_remove_in_the_same_update():
    left = [HumanMessage("a", id="1")]
    assert _summary(add_messages(left, [HumanMessage("x", id="2"), RemoveMessage(id="2")])) == [
        ("HumanMessage", "a", "1")
    ]


def test_remove_then_add_again_keeps_the_message():
    left = [HumanMessage("a", id="1")]
    result = add_messages(left, [RemoveMessage(id="1"), HumanMessage("c", id="1")])
    assert _summary(result) == [("HumanMessage", "c", "1")]
    result = add_messages(
        left, [HumanMessage("x", id="2"), RemoveMessage(id="2"), HumanMessage("y", id="2")]
    )
    assert _summary(result) == [("HumanMessage", "a", "1"), ("HumanMessage", "y", "2")]


def test_duplicate_ids_in_left():
    left = [HumanMessage("a", id="1"), HumanMessage("b", id="1")]
    assert _summary(add_messages(left, [HumanMessage("c", id="1")])) == [
        ("HumanMessage", "a", "1"),
        ("HumanMessage", "c", "1"),
    ]
    assert add_messages(left, [RemoveMessage(id="1")]) == []


def test_coercion_of_both_sides():
    result = add_messages("hi", ("ai", "yo"))
    assert [type(m) for m in result] == [HumanMessage, AIMessage]
    assert all(m.id for m in result)
    result = add_messages(HumanMessage("a", id="1"), {"role": "ai", "content": "x", "id": "1"})
    assert _summary(result) == [("AIMessage", "x", "1")]


def test_chunks_become_messages():
    chunk = AIMessageChunk(
        "", id="1", tool_call_chunks=[{"name": "f", "args": '{"a": 1', "id": "t", "index": 0}]
    )
    result = add_messages([chunk], [AIMessageChunk("more", id="2")])
    assert [type(m) for m in result] == [AIMessage, AIMessage]
    assert result[0].tool_calls == [tool_call(name="f", args={"a": 1}, id="t")]


def test_tuple_is_one_message_like():
    with pytest.raises(NotImplementedError, match="Message as a sequence must be"):
        add_messages((HumanMessage("a", id="1"),), [])


def test_coercion_errors_surface():
    with pytest.raises(ValueError, match="^Unexpected message type: 'bogus'"):
        add_messages([HumanMessage("a", id="1")], [("bogus", "x")])
    with pytest.raises(NotImplementedError, match="^Unsupported message type: <class 'int'>"):
        add_messages([HumanMessage("a", id="1")], [5])


@pytest.mark.parametrize(
    ("left", "right", "side"),
    [([HumanMessage("a")], None, "left"), (None, [HumanMessage("a")], "right"), (None, [], "right"),
     ([], None, "right")],  # upstream tests `left` for truthiness: an empty left reads 'right'
)  # fmt: skip
def test_one_side_only(left: Any, right: Any, side: str):
    with pytest.raises(ValueError) as e:
        add_messages(left, right)
    assert str(e.value) == (
        f"Must specify non-null arguments for both 'left' and 'right'. Only received: '{side}'."
    )


def test_no_lists_gives_a_reducer():
    reducer = add_messages(format="bogus")
    with pytest.raises(ValueError) as e:
        reducer([HumanMessage("a", id="1")], [])
    assert str(e.value) == "Unrecognized format='bogus'. Expected one of 'langchain-openai', None."
    assert add_messages()([], [HumanMessage("a", id="1")])[0].id == "1"
    with pytest.raises(
        TypeError, match=r"add_messages\(\) missing 1 required positional argument: 'right'"
    ):
        reducer([])


def test_too_many_positional_arguments():
    with pytest.raises(TypeError, match=r"takes from 0 to 2 positional arguments but 3 were given"):
        add_messages([], [], "x")


def test_format_is_checked_after_merging():
    with pytest.raises(ValueError, match="^Attempting to delete"):
        add_messages([HumanMessage("a", id="1")], [RemoveMessage(id="x")], format="bogus")
    # REMOVE_ALL returns before the format is looked at, as upstream
    assert add_messages([], [RemoveMessage(id=REMOVE_ALL_MESSAGES)], format="bogus") == []


def test_langchain_openai_format_is_not_implemented():
    with pytest.raises(NotImplementedError, match="format='langchain-openai'"):
        add_messages([HumanMessage("a", id="1")], [], format="langchain-openai")


def test_messages_state():
    hints = get_type_hints(MessagesState, include_extras=True)
    assert hints["messages"].__metadata__ == (add_messages,)
    assert hints["messages"] == Annotated[list[AnyMessage], add_messages]
