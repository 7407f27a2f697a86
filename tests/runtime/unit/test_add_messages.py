"""Unit tests for miniagent.graph.message: the add_messages reducer and MessagesState.

The last part proves the id-index shortcut (``_MessageList``) changes nothing: a hypothesis
property test runs random update sequences through ``add_messages`` and through the plain
upstream algorithm written out below, and compares the histories after every step.
"""

import contextlib
import copy
import itertools
import pickle
import uuid
from typing import Annotated, Any, Callable, get_type_hints
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import miniagent.graph.message as message_module
from miniagent.graph.message import REMOVE_ALL_MESSAGES, MessagesState, add_messages
from miniagent.messages import (
    AIMessage,
    AIMessageChunk,
    AnyMessage,
    BaseMessage,
    BaseMessageChunk,
    HumanMessage,
    RemoveMessage,
    SystemMessage,
    ToolMessage,
    convert_to_messages,
    message_chunk_to_message,
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


# --- the id index (_MessageList) --------------------------------------------------------------


def _history(n: int) -> list:
    return add_messages([HumanMessage(f"m{i}", id=f"id{i}") for i in range(n)], [])


def test_result_carries_its_index_and_the_next_merge_takes_it():
    h = _history(3)
    assert h._index == {"id0": 0, "id1": 1, "id2": 2}
    h2 = add_messages(h, [AIMessage("x", id="new")])
    assert h._index is None
    assert h2._index == {"id0": 0, "id1": 1, "id2": 2, "new": 3}
    assert h2 == [*h, h2[3]]


def test_indexed_history_is_not_rescanned(monkeypatch: pytest.MonkeyPatch):
    seen: list[int] = []
    original = message_module._coerce_to_messages

    def spy(messages: list) -> list:
        seen.append(len(messages))
        return original(messages)

    monkeypatch.setattr(message_module, "_coerce_to_messages", spy)
    h = _history(50)
    seen.clear()
    add_messages(h, [AIMessage("x", id="new")])
    assert seen == [1]  # only `right` was checked
    add_messages(list(h), [AIMessage("x", id="new")])
    assert seen == [1, 50, 1]  # a plain list is coerced as upstream does


def test_history_reused_after_its_index_was_taken_is_rescanned():
    h = _history(2)
    a = add_messages(h, [AIMessage("a", id="x")])
    b = add_messages(h, [AIMessage("b", id="id0")])
    assert _summary(a) == [
        ("HumanMessage", "m0", "id0"),
        ("HumanMessage", "m1", "id1"),
        ("AIMessage", "a", "x"),
    ]
    assert _summary(b) == [("AIMessage", "b", "id0"), ("HumanMessage", "m1", "id1")]


MUTATIONS: list[tuple[str, Callable[[list], Any]]] = [
    ("setitem", lambda h: h.__setitem__(0, HumanMessage("z", id="id1"))),
    ("setitem-slice", lambda h: h.__setitem__(slice(0, 1), [HumanMessage("z", id="id1")])),
    ("delitem", lambda h: h.__delitem__(0)),
    ("iadd", lambda h: h.__iadd__([HumanMessage("z", id="id0")])),
    ("imul", lambda h: h.__imul__(2)),
    ("append", lambda h: h.append(HumanMessage("z", id="id0"))),
    ("extend", lambda h: h.extend([HumanMessage("z", id="id0")])),
    ("insert", lambda h: h.insert(0, HumanMessage("z", id="id1"))),
    ("pop", lambda h: h.pop(0)),
    ("remove", lambda h: h.remove(h[0])),
    ("clear", lambda h: h.clear()),
    ("sort", lambda h: h.sort(key=lambda m: m.content, reverse=True)),
    ("reverse", lambda h: h.reverse()),
]


@pytest.mark.parametrize(("name", "mutate"), MUTATIONS, ids=[n for n, _ in MUTATIONS])
def test_every_list_mutation_drops_the_index(name: str, mutate: Callable[[list], Any]):
    h, plain = _history(3), [HumanMessage(f"m{i}", id=f"id{i}") for i in range(3)]
    mutate(h)
    mutate(plain)
    assert h._index is None
    update = [AIMessage("r", id="id1"), AIMessage("n", id="new")]
    expected = _reference_add_messages(plain, copy.deepcopy(update))
    assert _summary(add_messages(h, update)) == _summary(expected)


def test_mutated_history_with_a_dict_and_a_missing_id_is_coerced():
    h = _history(2)
    h.append({"role": "user", "content": "from a dict"})
    result = add_messages(h, [])
    assert type(result[2]) is HumanMessage and result[2].id is not None


@pytest.mark.parametrize(
    "clone", [copy.copy, copy.deepcopy, lambda h: pickle.loads(pickle.dumps(h))]
)
def test_copies_merge_correctly(clone: Callable[[list], list]):
    h = _history(3)
    c = clone(h)
    assert c == h and c is not h
    result = add_messages(c, [AIMessage("r", id="id1"), RemoveMessage(id="id0")])
    assert _summary(result) == [("AIMessage", "r", "id1"), ("HumanMessage", "m2", "id2")]


def test_result_looks_like_a_list():
    h = _history(1)
    assert isinstance(h, list)
    assert repr(h) == repr(list(h))
    assert h == list(h)


# --- property: the shortcut is exactly the plain algorithm ------------------------------------


def _reference_add_messages(left: Any, right: Any) -> list:
    """langgraph/graph/message.py:191-243, written out plainly (no format handling)."""
    if not isinstance(left, list):
        left = [left]
    if not isinstance(right, list):
        right = [right]

    def coerce(messages: list) -> list:
        if all(
            isinstance(m, BaseMessage) and not isinstance(m, BaseMessageChunk) for m in messages
        ):
            return messages
        return [message_chunk_to_message(m) for m in convert_to_messages(messages)]

    left, right = coerce(left), coerce(right)
    remove_all_idx = None
    for m in left:
        if m.id is None:
            m.id = str(uuid.uuid4())
    for idx, m in enumerate(right):
        if m.id is None:
            m.id = str(uuid.uuid4())
        if isinstance(m, RemoveMessage) and m.id == REMOVE_ALL_MESSAGES:
            remove_all_idx = idx
    if remove_all_idx is not None:
        return right[remove_all_idx + 1 :]
    merged = left.copy()
    merged_by_id = {m.id: i for i, m in enumerate(merged)}
    ids_to_remove = set()
    for m in right:
        if (existing_idx := merged_by_id.get(m.id)) is not None:
            if isinstance(m, RemoveMessage):
                ids_to_remove.add(m.id)
            else:
                ids_to_remove.discard(m.id)
                merged[existing_idx] = m
        else:
            if isinstance(m, RemoveMessage):
                raise ValueError(
                    f"Attempting to delete a message with an ID that doesn't exist ('{m.id}')"
                )
            merged_by_id[m.id] = len(merged)
            merged.append(m)
    if ids_to_remove:
        merged = [m for m in merged if m.id not in ids_to_remove]
    return merged


IDS = st.sampled_from(["a", "b", "c", "d", None])
CONTENT = st.sampled_from(["x", "y", "z"])
MESSAGE_SPEC = st.one_of(
    st.tuples(st.sampled_from(["human", "ai", "system", "chunk", "dict", "tool"]), CONTENT, IDS),
    st.tuples(st.just("remove"), st.sampled_from(["a", "b", "c", "d", REMOVE_ALL_MESSAGES])),
    st.tuples(st.just("str"), CONTENT),
    st.tuples(st.just("tuple"), CONTENT),
)
UPDATE = st.one_of(
    st.tuples(st.just("merge"), st.lists(MESSAGE_SPEC, max_size=5), st.booleans()),
    st.tuples(st.just("append"), MESSAGE_SPEC),
    st.tuples(st.just("setitem"), st.integers(0, 9), MESSAGE_SPEC),
    st.tuples(st.just("delitem"), st.integers(0, 9)),
    st.tuples(st.just("reverse")),
)


def _build(spec: tuple) -> Any:
    kind = spec[0]
    if kind == "human":
        return HumanMessage(spec[1], id=spec[2])
    if kind == "ai":
        return AIMessage(spec[1], id=spec[2])
    if kind == "system":
        return SystemMessage(spec[1], id=spec[2])
    if kind == "tool":
        return ToolMessage(spec[1], id=spec[2], tool_call_id="call")
    if kind == "chunk":
        return AIMessageChunk(spec[1], id=spec[2])
    if kind == "dict":
        return {"role": "user", "content": spec[1], "id": spec[2]}
    if kind == "remove":
        return RemoveMessage(id=spec[1])
    if kind == "str":
        return spec[1]
    return ("ai", spec[1])


def _run(updates: list[tuple], add: Callable[..., Any]) -> list[Any]:
    """Apply the updates, return what the history looked like after each one (or the error)."""
    history: list = add([], [])
    trace: list[Any] = []
    for update in updates:
        if update[0] == "merge":
            right = [_build(s) for s in update[1]]
            if update[2] and len(right) == 1:
                right = right[0]  # a single message, not in a list
            try:
                history = add(history, right)
            except ValueError as e:
                trace.append(("error", str(e)))
                continue
        elif update[0] == "append":
            history.append(_build(update[1]))
        elif update[0] == "setitem" and history:
            history[update[1] % len(history)] = _build(update[2])
        elif update[0] == "delitem" and history:
            del history[update[1] % len(history)]
        elif update[0] == "reverse":
            history.reverse()
        trace.append(repr(history))
    return trace


@contextlib.contextmanager
def _deterministic_uuid4() -> Any:
    """Make new ids count up from 0, so two runs assign the same ids: ``uuid.uuid4`` for the
    reference, ``_new_message_id`` (its faster stand-in) for ours."""
    counter = itertools.count()
    with (
        mock.patch.object(uuid, "uuid4", lambda: uuid.UUID(int=next(counter))),
        mock.patch.object(message_module, "_new_message_id", lambda: str(uuid.uuid4())),
    ):
        yield


@settings(max_examples=300, deadline=None)
@given(st.lists(UPDATE, max_size=12))
def test_add_messages_equals_the_plain_algorithm(updates: list):
    with _deterministic_uuid4():
        expected = _run(updates, _reference_add_messages)
    with _deterministic_uuid4():
        assert _run(updates, add_messages) == expected


def test_new_ids_are_random_version_4_uuids():
    ids = [message_module._new_message_id() for _ in range(2000)]
    assert len(set(ids)) == len(ids)
    for text in ids[:200]:
        parsed = uuid.UUID(text)
        assert str(parsed) == text  # lower-case, hyphenated: the form of str(uuid.uuid4())
        assert parsed.version == 4 and parsed.variant == uuid.RFC_4122
