"""Graders for day01: ``add_messages`` (langgraph/graph/message.py:65) and the predictions.

Each test runs against every implementation ``--impl`` names (``impl`` fixture, see
``course/grading.md``). Four groups:

* the function alone, one rule of the contract per test, with upstream's results written out
  (each row was run on langgraph 1.2.24; the contributors' differential test runs the same
  cases on both libraries);
* generated histories: 200 random lists of updates (the same on every run, shortest first) fed
  through your reducer one after another, compared with miniagent's ``add_messages`` after
  every update; a failure shows the first list that goes wrong;
* your function as the reducer of a real ``create_react_agent``'s ``messages`` key
  (``install_add_messages``), run beside an agent that keeps miniagent's;
* ``impl.predictions()`` against the real ``add_messages``, pair by pair.
"""

from __future__ import annotations

import re

import pytest

from miniagent.checkpoint import InMemorySaver
from miniagent.messages import (
    REMOVE_ALL_MESSAGES,
    AIMessage,
    AIMessageChunk,
    HumanMessage,
    RemoveMessage,
    ToolMessage,
)
from miniagent.prebuilt import create_react_agent
from miniagent.testing import ScriptedChatModel, message_trace
from miniagent.tools import tool
from miniagent_course.grading.judgments import as_message_pairs, judgment_graders, message_pairs
from miniagent_course.kits.day01 import cases as reference
from miniagent_course.sides import mini
from miniagent_course.todo import NotStarted

UUID4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
CALL = {"name": "add", "args": {"a": 2, "b": 3}, "id": "call_1"}


def _seen(messages) -> list[tuple]:
    """(type, content, id) of each message: what the history holds, in order."""
    return [(m.type, m.content, m.id) for m in messages]


def _chat() -> list:
    return [HumanMessage("2 + 3?", id="1"), AIMessage("let me add", id="2", tool_calls=[CALL])]


def _error(call) -> tuple[str, str]:
    with pytest.raises(Exception) as caught:
        call()
    if isinstance(caught.value, NotStarted):  # a stub: "not started", not a wrong error
        raise caught.value
    return type(caught.value).__name__, str(caught.value)


# --- the function alone ---------------------------------------------------------------------


def test_appends_one_message_or_a_list(impl):
    one = impl.add_messages(_chat(), ToolMessage("5", id="3", tool_call_id="call_1"))
    assert _seen(one) == [
        ("human", "2 + 3?", "1"),
        ("ai", "let me add", "2"),
        ("tool", "5", "3"),
    ]
    many = impl.add_messages([HumanMessage("hi", id="1")], [AIMessage("a", id="2"), "b"])
    assert [(m.type, m.content) for m in many] == [("human", "hi"), ("ai", "a"), ("human", "b")]
    assert impl.add_messages([], []) == []


def test_gives_every_message_without_an_id_a_uuid4_on_the_callers_object(impl):
    question, answer = HumanMessage("hi"), AIMessage("hello")
    merged = impl.add_messages([question], [answer])
    assert merged[0] is question and merged[1] is answer  # the very objects, not copies
    for message in (question, answer):  # left's message gets an id too
        assert isinstance(message.id, str) and UUID4.match(message.id), message.id
    assert question.id != answer.id
    kept = AIMessage("x", id="mine")
    assert impl.add_messages([], [kept])[0].id == "mine"  # a given id is kept


def test_a_known_id_replaces_that_message_in_place(impl):
    merged = impl.add_messages(
        [*_chat(), HumanMessage("and 3 + 4?", id="3")], [AIMessage("2 + 3 = 5", id="2")]
    )
    assert _seen(merged) == [
        ("human", "2 + 3?", "1"),
        ("ai", "2 + 3 = 5", "2"),
        ("human", "and 3 + 4?", "3"),
    ]


def test_only_the_id_counts_not_the_type_or_the_content(impl):
    merged = impl.add_messages(_chat(), [ToolMessage("5", id="2", tool_call_id="call_1")])
    assert _seen(merged) == [("human", "2 + 3?", "1"), ("tool", "5", "2")]
    twice = impl.add_messages(_chat(), [AIMessage("let me add", tool_calls=[CALL])])  # no id
    assert [m.type for m in twice] == ["human", "ai", "ai"]


def test_the_same_id_twice_in_one_update_keeps_the_later_message(impl):
    merged = impl.add_messages([], [HumanMessage("a", id="1"), AIMessage("b", id="1")])
    assert _seen(merged) == [("ai", "b", "1")]


def test_remove_message_deletes_by_id(impl):
    assert _seen(impl.add_messages(_chat(), [RemoveMessage(id="2")])) == [("human", "2 + 3?", "1")]
    assert impl.add_messages([HumanMessage("a", id="1")], RemoveMessage(id="1")) == []


def test_deletions_wait_for_the_end_of_the_update(impl):
    added_then_removed = impl.add_messages(
        _chat(), [AIMessage("draft", id="7"), RemoveMessage(id="7")]
    )
    assert _seen(added_then_removed) == _seen(_chat())
    removed_then_sent = impl.add_messages(
        _chat(), [RemoveMessage(id="2"), AIMessage("again", id="2")]
    )
    assert _seen(removed_then_sent) == [("human", "2 + 3?", "1"), ("ai", "again", "2")]
    added_removed_added = impl.add_messages(
        _chat(), [AIMessage("x", id="7"), RemoveMessage(id="7"), AIMessage("y", id="7")]
    )
    assert _seen(added_removed_added)[-1] == ("ai", "y", "7")


def test_removing_an_unknown_id_raises_the_exact_error(impl):
    text = "Attempting to delete a message with an ID that doesn't exist ('9')"
    assert _error(lambda: impl.add_messages(_chat(), [RemoveMessage(id="9")])) == (
        "ValueError",
        text,
    )
    empty = "Attempting to delete a message with an ID that doesn't exist ('1')"
    assert _error(lambda: impl.add_messages([], [RemoveMessage(id="1")])) == ("ValueError", empty)


def test_remove_all_keeps_what_follows_the_last_marker(impl):
    fresh = impl.add_messages(_chat(), [RemoveMessage(id=REMOVE_ALL_MESSAGES), HumanMessage("f")])
    assert [(m.type, m.content) for m in fresh] == [("human", "f")]
    two_markers = impl.add_messages(
        _chat(),
        [
            HumanMessage("a", id="a"),
            RemoveMessage(id=REMOVE_ALL_MESSAGES),
            HumanMessage("b", id="b"),
            RemoveMessage(id=REMOVE_ALL_MESSAGES),
            HumanMessage("c", id="c"),
        ],
    )
    assert _seen(two_markers) == [("human", "c", "c")]
    assert impl.add_messages(_chat(), RemoveMessage(id=REMOVE_ALL_MESSAGES)) == []


def test_after_remove_all_the_rest_is_returned_as_it_stands(impl):
    # Nothing after the marker is merged: the RemoveMessage comes back instead of deleting.
    tail = [RemoveMessage(id=REMOVE_ALL_MESSAGES), HumanMessage("a", id="x"), RemoveMessage(id="x")]
    assert _seen(impl.add_messages(_chat(), tail)) == [("human", "a", "x"), ("remove", "", "x")]
    same_id = [
        RemoveMessage(id=REMOVE_ALL_MESSAGES),
        HumanMessage("a", id="1"),
        AIMessage("b", id="1"),
    ]
    assert _seen(impl.add_messages([], same_id)) == [("human", "a", "1"), ("ai", "b", "1")]


def test_message_likes_become_messages(impl):
    merged = impl.add_messages(
        "hi",
        [
            {"role": "user", "content": "q", "id": "u1", "name": "ada"},
            ("assistant", "hello"),
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "c9", "type": "function", "function": {"name": "f", "arguments": "{}"}}
                ],
            },
            {"role": "tool", "content": "42", "tool_call_id": "c9"},
        ],
    )
    assert [type(m).__name__ for m in merged] == [
        "HumanMessage",
        "HumanMessage",
        "AIMessage",
        "AIMessage",
        "ToolMessage",
    ]
    assert (merged[1].id, merged[1].name) == ("u1", "ada")
    assert merged[3].content == "" and merged[3].tool_calls[0]["id"] == "c9"
    assert merged[4].tool_call_id == "c9"


def test_a_tuple_is_one_message_like_value_not_a_list(impl):
    assert [(m.type, m.content) for m in impl.add_messages([], ("user", "hi"))] == [("human", "hi")]
    three = (HumanMessage("a"), HumanMessage("b"), HumanMessage("c"))
    assert _error(lambda: impl.add_messages([], three)) == (
        "NotImplementedError",
        "Message as a sequence must be (role string, template)",
    )


def test_coercion_errors_come_through_unchanged(impl):
    kind, text = _error(lambda: impl.add_messages([], [{"role": "user"}]))
    assert kind == "ValueError"
    assert text.startswith(
        "Message dict must contain 'role' and 'content' keys, got {'role': 'user'}"
    )
    kind, text = _error(lambda: impl.add_messages([], [("robot", "beep")]))
    assert kind == "ValueError" and text.startswith("Unexpected message type: 'robot'.")
    assert _error(lambda: impl.add_messages([], [{"role": "tool", "content": "5"}])) == (
        "KeyError",
        "'tool_call_id'",
    )


def test_a_chunk_is_stored_as_a_whole_message(impl):
    chunk = AIMessageChunk("2 + 3", id="4", tool_call_chunks=[
        {"name": "add", "args": '{"a": 2', "id": "call_1", "index": 0}])  # fmt: skip
    merged = impl.add_messages(_chat(), chunk)
    assert type(merged[-1]) is AIMessage and merged[-1].type == "ai"
    assert merged[-1].tool_calls == [
        {"name": "add", "args": {"a": 2}, "id": "call_1", "type": "tool_call"}
    ]
    assert type(impl.add_messages([chunk], [])[0]) is AIMessage  # on the left too


def test_the_left_list_is_never_changed(impl):
    left = _chat()
    before = list(left)
    impl.add_messages(left, [AIMessage("x", id="9"), AIMessage("y", id="2"), RemoveMessage(id="1")])
    assert left == before and all(a is b for a, b in zip(left, before, strict=True))


def test_duplicate_ids_in_a_hand_made_left(impl):
    left = [HumanMessage("a", id="1"), HumanMessage("b", id="1"), HumanMessage("c", id="2")]
    replaced = impl.add_messages(left, [AIMessage("new", id="1")])
    assert _seen(replaced) == [("human", "a", "1"), ("ai", "new", "1"), ("human", "c", "2")]
    removed = impl.add_messages(left, [RemoveMessage(id="1")])
    assert _seen(removed) == [("human", "c", "2")]


def test_format(impl):
    assert _seen(impl.add_messages(_chat(), [], format=None)) == _seen(_chat())
    bogus = "Unrecognized format='bogus'. Expected one of 'langchain-openai', None."
    assert _error(lambda: impl.add_messages(_chat(), [], format="bogus")) == ("ValueError", bogus)
    # The merge comes first: its error wins; REMOVE_ALL returns before format is looked at.
    unknown = "Attempting to delete a message with an ID that doesn't exist ('9')"
    assert _error(lambda: impl.add_messages(_chat(), [RemoveMessage(id="9")], format="bogus")) == (
        "ValueError",
        unknown,
    )
    cleared = impl.add_messages(_chat(), [RemoveMessage(id=REMOVE_ALL_MESSAGES)], format="bogus")
    assert cleared == []


# --- generated histories --------------------------------------------------------------------


def _as_code(spec: tuple) -> str:
    """A message spec of ``reference.generated()`` written as the value it builds."""
    kind = spec[0]
    if kind == "remove":
        return f"RemoveMessage(id={spec[1]!r})"
    if kind == "tuple":
        return f"('ai', {spec[1]!r})"
    content, id_ = spec[1], spec[2]
    return {
        "human": f"HumanMessage({content!r}, id={id_!r})",
        "ai": f"AIMessage({content!r}, id={id_!r}, tool_calls=[f])",
        "chunk": f"AIMessageChunk({content!r}, id={id_!r})",
        "tool": f"ToolMessage({content!r}, id={id_!r}, tool_call_id='t')",
        "dict": f"{{'role': 'user', 'content': {content!r}, 'id': {id_!r}}}",
    }[kind]


GENERATED = reference.generated()


def test_generated_histories_match_miniagents_add_messages(impl):
    lib = mini()
    for steps in GENERATED:  # smallest first: the first that goes wrong is one of the shortest
        expected = reference.replay(lib, reference.add_messages, steps)
        yours = reference.replay(lib, impl.add_messages, steps)
        if yours != expected:
            break
    else:
        return
    n = next(i for i, (a, b) in enumerate(zip(yours, expected, strict=True)) if a != b)
    applied = "\n".join(
        f"  add_messages(history, [{', '.join(_as_code(s) for s in step)}])"
        for step in steps[: n + 1]
    )
    raise AssertionError(
        f"starting from add_messages([], []), then\n{applied}\n"
        f"after the last one your history is\n  {yours[n]}\nexpected\n  {expected[n]}\n"
        "(generated ids are shown as <id-1>, <id-2>... in order of appearance)"
    )


# --- your add_messages as the agent's reducer -----------------------------------------------


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def _run(add_messages, replies, *turns, checkpointer=None):
    """A create_react_agent whose `messages` key reduces with `add_messages`, run turn by turn.

    Returns the final state's messages (as a trace) after each turn, what the model saw on each
    call, and how many times the reducer ran.
    """
    calls = []

    def counted(left, right):
        calls.append(1)
        return add_messages(left, right)

    model = ScriptedChatModel(replies)
    agent = create_react_agent(model, [add], checkpointer=checkpointer)
    reference.install_add_messages(agent, counted)
    config = {"configurable": {"thread_id": "t"}} if checkpointer else None
    results = []
    for turn in turns:
        try:
            results.append(message_trace(agent.invoke({"messages": turn}, config)["messages"]))
        except NotStarted:
            raise
        except Exception as error:  # an error is an outcome to compare too
            results.append(f"{type(error).__name__}: {error}")
    seen = [[(m.type, m.content) for m in c["messages"]] for c in model.calls]
    return results, seen, len(calls)


def _both(impl, replies, *turns, checkpointer=None):
    yours = _run(impl.add_messages, replies, *turns, checkpointer=checkpointer and checkpointer())
    ours = _run(
        reference.add_messages, replies, *turns, checkpointer=checkpointer and checkpointer()
    )
    return yours, ours


def test_your_reducer_runs_a_tool_round_in_a_real_agent(impl):
    replies = [AIMessage("", tool_calls=[CALL]), AIMessage("2 + 3 = 5")]
    yours, ours = _both(impl, replies, [("user", "2 + 3?")])
    (results, seen, reductions), expected = yours, ours
    assert reductions >= 4, "the agent must merge every update with your add_messages"
    assert [m["type"] for m in results[0]] == ["human", "ai", "tool", "ai"]
    assert results == expected[0] and seen == expected[1]


def test_a_reply_that_reuses_an_id_replaces_the_earlier_one_in_the_agent(impl):
    # A model (or a fake one) that sends the same id twice overwrites its first message.
    replies = [AIMessage("", id="reply", tool_calls=[CALL]), AIMessage("2 + 3 = 5", id="reply")]
    (results, seen, _), (expected, expected_seen, _) = _both(impl, replies, [("user", "2 + 3?")])
    assert [(m["type"], m["content"]) for m in results[0]] == [
        ("human", "2 + 3?"),
        ("ai", "2 + 3 = 5"),
        ("tool", "5"),
    ]
    assert results == expected and seen == expected_seen


def test_a_saved_thread_rewritten_with_remove_messages(impl):
    replies = [AIMessage("", tool_calls=[CALL]), AIMessage("2 + 3 = 5"), AIMessage("hello again")]
    clear = [RemoveMessage(id=REMOVE_ALL_MESSAGES), HumanMessage("start over", id="n1")]
    (results, seen, _), (expected, expected_seen, _) = _both(
        impl, replies, [("user", "2 + 3?")], clear, checkpointer=InMemorySaver
    )
    assert [(m["type"], m["content"]) for m in results[1]] == [
        ("human", "start over"),
        ("ai", "hello again"),
    ]
    assert seen[-1] == [("human", "start over")]  # the model saw the rewritten history only
    assert results == expected and seen == expected_seen


# --- predictions against the real add_messages (the predict kind, grading/judgments.py) -------

CASES = list(reference.pairs(mini()))


def _what_add_messages_does(case):
    lib = mini()
    return reference.what_it_returns(lib, *reference.pairs(lib)[case])


test_predictions_are_a_table_of_every_case, test_prediction = judgment_graders(
    __file__,
    cases=CASES,
    outcome=_what_add_messages_does,
    row="pair {case!r}",
    raised="it raised {actual}",
    gave="it returned {actual!r}",
    shape=message_pairs,
    normalise=as_message_pairs,
)
