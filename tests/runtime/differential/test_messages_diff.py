"""Differential tests: messages, coercion and add_messages against langchain-core / langgraph.

Every case is a function of a namespace ``M`` that holds either the upstream names or the
miniagent names; both runs must give the same ``repr``/``pretty_repr`` or the same error
(type and text). Random uuid4 ids are replaced by placeholders in order of appearance.
"""

import copy
import re
import uuid
from types import SimpleNamespace
from typing import Any, Callable

import pytest

pytest.importorskip("langchain_core")
pytest.importorskip("langgraph")

import langchain_core.messages as lc_messages  # noqa: E402
import langgraph.graph.message as lg_message  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from langchain_core.messages.utils import _convert_to_message as lc_convert  # noqa: E402
from langchain_core.utils._merge import merge_dicts as lc_merge_dicts  # noqa: E402
from langchain_core.utils._merge import merge_lists as lc_merge_lists  # noqa: E402
from langchain_core.utils.json import parse_partial_json as lc_parse_partial_json  # noqa: E402

import miniagent.graph.message as mini_graph_message  # noqa: E402
import miniagent.messages as mini_messages  # noqa: E402
from miniagent.messages.utils import _convert_to_message as mini_convert  # noqa: E402

NAMES = [
    "AIMessage",
    "AIMessageChunk",
    "FunctionMessage",
    "HumanMessage",
    "RemoveMessage",
    "SystemMessage",
    "ToolMessage",
    "convert_to_messages",
    "message_chunk_to_message",
    "merge_content",
]
UP = SimpleNamespace(
    **{n: getattr(lc_messages, n) for n in NAMES},
    convert=lc_convert,
    add_messages=lg_message.add_messages,
    REMOVE_ALL=lg_message.REMOVE_ALL_MESSAGES,
    parse_partial_json=lc_parse_partial_json,
    merge_dicts=lc_merge_dicts,
    merge_lists=lc_merge_lists,
)
MINI = SimpleNamespace(
    **{n: getattr(mini_messages, n) for n in NAMES},
    convert=mini_convert,
    add_messages=mini_graph_message.add_messages,
    REMOVE_ALL=mini_graph_message.REMOVE_ALL_MESSAGES,
    parse_partial_json=mini_messages.parse_partial_json,
    merge_dicts=mini_messages.merge_dicts,
    merge_lists=mini_messages.merge_lists,
)

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")


def _normalise_uuids(text: str) -> str:
    seen: dict[str, str] = {}
    return _UUID.sub(lambda m: seen.setdefault(m.group(), f"<uuid{len(seen)}>"), text)


def outcome(fn: Callable[[], Any], show: Callable[[Any], Any] = repr) -> tuple:
    """("ok", shown result) or ("error", exception type name, message), uuids normalised."""
    try:
        result = fn()
    except Exception as e:  # noqa: BLE001 - the error itself is the result under test
        return ("error", type(e).__name__, _normalise_uuids(str(e)))
    return ("ok", _normalise_uuids(str(show(result))))


def assert_same(case: Callable[[SimpleNamespace], Any], show: Callable[[Any], Any] = repr) -> tuple:
    up, mini = outcome(lambda: case(UP), show), outcome(lambda: case(MINI), show)
    assert mini == up
    return up


# --- construction, repr, str, pretty_repr, text -----------------------------------------------

TC = {"name": "check_weather", "args": {"location": "sf"}, "id": "call_1"}
USAGE = {
    "total_tokens": 3,
    "input_tokens": 1,
    "output_tokens": 2,
    "input_token_details": {"cache_read": 1, "audio": 2, "other": 4},
    "zz": 5,
}
CONSTRUCT = {
    "human": lambda M: M.HumanMessage("what is the weather in sf", id="h-1"),
    "human-kw-name": lambda M: M.HumanMessage(content="hi", name="bob", id="x"),
    "human-int-id": lambda M: M.HumanMessage("hi", id=5),
    "human-extra": lambda M: M.HumanMessage("hi", foo=1),
    "human-blocks": lambda M: M.HumanMessage(["a", {"type": "text", "text": "b"}, {"type": "image"}]),
    "human-none": lambda M: M.HumanMessage(),
    "human-int": lambda M: M.HumanMessage(5),
    "human-wrong-type": lambda M: M.HumanMessage("x", type="ai"),
    "system": lambda M: M.SystemMessage("You are a helpful assistant"),
    "system-meta": lambda M: M.SystemMessage("s", additional_kwargs={"a": 1}, response_metadata={"b": 2}),
    "ai-empty": lambda M: M.AIMessage(""),
    "ai-tool-call": lambda M: M.AIMessage("", id="ai-1", tool_calls=[TC]),
    "ai-final": lambda M: M.AIMessage("It's sunny in SF.", id="ai-2"),
    "ai-named": lambda M: M.AIMessage("hi", name="agent", tool_calls=[{"name": "f", "args": {"a": 1, "b": "x"}, "id": "c"}, TC]),
    "ai-args-str": lambda M: M.AIMessage("", tool_calls=[{"name": "f", "args": "x", "id": "c"}]),
    "ai-no-id": lambda M: M.AIMessage("", tool_calls=[{"name": "f", "args": {}}]),
    "ai-extra-key": lambda M: M.AIMessage("", tool_calls=[{"name": "f", "args": {}, "id": None, "x": 1}]),
    "ai-extras": lambda M: M.AIMessage("", tool_calls=[{**TC, "extras": {"k": 1}, "type": "tool_call"}]),
    "ai-invalid": lambda M: M.AIMessage("x", invalid_tool_calls=[{"name": "g", "args": "{bad", "id": "d", "error": "boom"}]),
    "ai-invalid-extra": lambda M: M.AIMessage("x", invalid_tool_calls=[{"name": "g", "args": "{", "id": "d", "error": None, "zz": 1}]),
    "ai-usage": lambda M: M.AIMessage("", usage_metadata=USAGE),
    "ai-openai-kwargs": lambda M: M.AIMessage("", additional_kwargs={"tool_calls": [
        {"id": "x", "function": {"name": "h", "arguments": '{"q": 1}'}},
        {"id": "y", "function": {"name": "h", "arguments": "{bad"}}, {"id": "z"}]}),
    "ai-openai-kwargs-ignored": lambda M: M.AIMessage("", tool_calls=[TC], additional_kwargs={"tool_calls": [
        {"id": "x", "function": {"name": "h", "arguments": "{}"}}]}),
    "ai-openai-kwargs-broken": lambda M: M.AIMessage("", additional_kwargs={"tool_calls": [{"function": {"name": "h"}}]}),
    "tool": lambda M: M.ToolMessage("It's always sunny in sf", name="check_weather", id="t-1", tool_call_id="call_1"),
    "tool-missing-id": lambda M: M.ToolMessage("x"),
    "tool-no-content": lambda M: M.ToolMessage(tool_call_id="c"),
    "tool-int": lambda M: M.ToolMessage(5, tool_call_id=1),
    "tool-float-id": lambda M: M.ToolMessage("x", tool_call_id=2.5),
    "tool-uuid-id": lambda M: M.ToolMessage("x", tool_call_id=uuid.UUID(int=3)),
    "tool-list": lambda M: M.ToolMessage([1, "a", {"t": 1}], tool_call_id="c"),
    "tool-tuple": lambda M: M.ToolMessage((1, 2), tool_call_id="c"),
    "tool-dict": lambda M: M.ToolMessage({"a": 1}, tool_call_id="c"),
    "tool-error": lambda M: M.ToolMessage("boom", tool_call_id="c", status="error", artifact={"a": 1}, name="n"),
    "tool-bad-status": lambda M: M.ToolMessage("x", tool_call_id="c", status="bad"),
    "tool-kwargs-hidden": lambda M: M.ToolMessage("x", tool_call_id="c", additional_kwargs={"a": 1}),
    "function": lambda M: M.FunctionMessage("42", name="add", id="f-1"),
    "function-no-name": lambda M: M.FunctionMessage("42"),
    "function-none-name": lambda M: M.FunctionMessage("42", name=None),
    "function-blocks": lambda M: M.FunctionMessage(["a", {"type": "text", "text": "b"}], name="f"),
    "remove": lambda M: M.RemoveMessage(id="x"),
    "remove-positional": lambda M: M.RemoveMessage("x"),
    "remove-content": lambda M: M.RemoveMessage(id="x", content="y"),
    "remove-no-id": lambda M: M.RemoveMessage(),
    "chunk": lambda M: M.AIMessageChunk("x", id="run-1"),
    "chunk-partial": lambda M: M.AIMessageChunk("", tool_call_chunks=[{"name": "f", "args": '{"a": 1', "id": "c", "index": 0}]),
    "chunk-from-calls": lambda M: M.AIMessageChunk("", tool_calls=[TC], invalid_tool_calls=[{"name": "g", "args": "{", "id": "2", "error": "e"}]),
    "chunk-openai-kwargs": lambda M: M.AIMessageChunk("", additional_kwargs={"tool_calls": [
        {"id": "x", "index": 0, "function": {"name": "h", "arguments": "{}"}}, {"index": 1}]}),
}  # fmt: skip


def _message_views(m: Any) -> tuple:
    return (repr(m), str(m), m.pretty_repr(), m.pretty_repr(html=True), str(m.text), m.type)


@pytest.mark.parametrize("name", list(CONSTRUCT))
def test_construction_repr_and_pretty_repr(name: str):
    assert_same(CONSTRUCT[name], _message_views)


def test_at_least_ten_messages_print_alike():
    ok = [n for n in CONSTRUCT if outcome(lambda n=n: CONSTRUCT[n](UP))[0] == "ok"]
    assert len(ok) >= 10


@pytest.mark.parametrize(
    "case",
    [
        lambda M: M.HumanMessage("a", id="1") == M.HumanMessage("a", id="1"),
        lambda M: M.HumanMessage("a", id="1") == M.HumanMessage("a", id="2"),
        lambda M: M.AIMessage("a") == M.AIMessageChunk("a"),
        lambda M: M.AIMessage("a") == M.HumanMessage("a"),
        lambda M: M.RemoveMessage("x") == M.RemoveMessage(id="x"),
        lambda M: M.AIMessage("", tool_calls=[TC]) == M.AIMessage("", tool_calls=[{**TC, "type": "tool_call"}]),
    ],
)  # fmt: skip
def test_equality(case: Callable):
    assert_same(case)


def test_pretty_print(capsys: pytest.CaptureFixture[str]):
    printed = {}
    for ns in (UP, MINI):
        for name in ("ai-named", "tool", "human-kw-name", "ai-invalid"):
            CONSTRUCT[name](ns).pretty_print()
        printed[ns is UP] = capsys.readouterr().out
    assert printed[False] == printed[True]


# --- coercion: spec §4.1 ----------------------------------------------------------------------

CONVERT = {
    "str": "bare string",
    "tuple": ("user", "tuple form"),
    "list": ["ai", "list form"],
    "tuple-list-content": ("human", ["x", {"type": "text", "text": "y"}]),
    "tuple-int-content": ("user", 5),
    "tuple-short": ("user",),
    "tuple-long": ("a", "b", "c"),
    "bytes": b"bytes",
    "int": 5,
    "none": None,
    "user": {"role": "user", "content": "hi"},
    "type-key": {"type": "human", "content": "t"},
    "role-and-type": {"type": "ai", "content": "t", "role": "user"},
    "assistant": {"role": "assistant", "content": "a"},
    "ai": {"role": "ai", "content": "a", "example": True},
    "human-example": {"role": "human", "content": "a", "example": True},
    "system": {"role": "system", "content": "s", "tool_call_id": "y"},
    "developer": {"role": "developer", "content": "dev"},
    "developer-kwargs": {"role": "developer", "content": "d", "additional_kwargs": {"x": 1}},
    "tool": {"role": "tool", "content": "42", "tool_call_id": "c1"},
    "tool-lifted": {"role": "tool", "content": "42", "tool_call_id": "c1", "artifact": [1], "status": "error", "foo": 2},
    "tool-no-id": {"role": "tool", "content": "42"},
    "tool-none-id": {"role": "tool", "content": "", "tool_call_id": None},
    "function": {"role": "function", "content": "42", "name": "add"},
    "function-type-key": {"type": "function", "content": "42", "name": "add", "id": "f1"},
    "function-extras": {"role": "function", "content": None, "name": "add", "tool_call_id": "c1", "x": 1},
    "function-no-name": {"role": "function", "content": "42"},
    "function-tuple": ("function", "42"),
    "remove": {"role": "remove", "content": "", "id": "r1"},
    "remove-content": {"role": "remove", "content": "x", "id": "r1"},
    "remove-no-id": {"role": "remove", "content": ""},
    "with-id-name": {"role": "user", "content": "with id", "id": "m1", "name": "bob"},
    "none-name-id": {"role": "user", "content": "x", "name": None, "id": None},
    "int-id": {"role": "user", "content": "x", "id": 7},
    "none-content": {"role": "user", "content": None},
    "zero-content": {"role": "user", "content": 0},
    "list-content": {"role": "user", "content": ["a", {"type": "text", "text": "b"}]},
    "metadata": {"role": "user", "content": "x", "response_metadata": {"a": 1}, "additional_kwargs": {"b": 2}, "c": 3},
    "empty-metadata": {"role": "user", "content": "x", "response_metadata": {}},
    "no-content": {"role": "user"},
    "no-role": {"content": "x"},
    "bogus-role": {"role": "bogus", "content": "x"},
    "bogus-tuple": ("bogus", "x"),
    "openai-tool-calls": {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c9", "type": "function", "function": {"name": "f", "arguments": '{"a": 1}'}}]},
    "openai-dict-args": {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c9", "type": "function", "function": {"name": "f", "arguments": {"a": 1}}}]},
    "openai-control-char": {"role": "assistant", "content": "", "tool_calls": [
        {"id": "c9", "function": {"name": "f", "arguments": '{"a": "x\ny"}'}}]},
    "openai-bad-json": {"role": "assistant", "content": "", "tool_calls": [
        {"id": "c9", "function": {"name": "f", "arguments": "{bad"}}]},
    "openai-no-id": {"role": "assistant", "content": "", "tool_calls": [
        {"function": {"name": "f", "arguments": "{}"}}]},
    "langchain-tool-calls": {"role": "assistant", "content": "", "tool_calls": [{"id": "c9", "name": "f", "args": {"a": 1}}]},
    "empty-tool-calls": {"role": "assistant", "content": "", "tool_calls": []},
    "none-tool-calls": {"role": "assistant", "content": "", "tool_calls": None},
    "invalid-tool-calls-key": {"role": "assistant", "content": "", "invalid_tool_calls": []},
    "envelope": {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", "HumanMessage"],
                 "kwargs": {"content": "hey", "id": "z"}},
    "envelope-ai-chunk": {"lc": 1, "type": "constructor", "id": ["x", "AIMessageChunk"],
                          "kwargs": {"content": "hey", "tool_calls": [TC]}},
    "envelope-tool": {"lc": 1, "type": "constructor", "id": ["x", "ToolMessage"],
                      "kwargs": {"content": "r", "tool_call_id": "c"}},
    "envelope-function": {"lc": 1, "type": "constructor", "id": ["x", "FunctionMessage"],
                          "kwargs": {"content": "r", "name": "f"}},
    "envelope-function-chunk": {"lc": 1, "type": "constructor", "id": ["x", "FunctionMessageChunk"],
                                "kwargs": {"content": "r", "name": "f"}},
    "envelope-remove": {"lc": 1, "type": "constructor", "id": ["x", "RemoveMessage"], "kwargs": {"id": "r"}},
    "envelope-unknown": {"lc": 1, "type": "constructor", "id": ["x", "Nope"], "kwargs": {"content": "h"}},
    "envelope-empty-id": {"lc": 1, "type": "constructor", "id": [], "kwargs": {"content": "h"}},
}  # fmt: skip


@pytest.mark.parametrize("name", list(CONVERT))
def test_convert_to_message(name: str):
    assert_same(lambda M: M.convert(copy.deepcopy(CONVERT[name])))


def test_convert_to_messages_of_many():
    items = [
        v
        for k, v in CONVERT.items()
        if outcome(lambda v=v: lc_convert(copy.deepcopy(v)))[0] == "ok"
    ]
    assert len(items) > 30
    assert_same(lambda M: M.convert_to_messages(copy.deepcopy(items)))
    assert_same(lambda M: M.convert_to_messages("ab"))
    assert_same(lambda M: M.convert_to_messages(iter([("ai", "x")])))


def test_a_function_message_is_the_same_message_everywhere_the_course_looks():
    """The role ``"function"`` beyond coercion: a pydantic state's ``AnyMessage`` picks the
    class, the OpenAI role is ``"function"``, the approximate token count counts it, it is no
    ``ToolMessage`` (so the pairing check ignores it), and it is no chunk."""
    import langchain_core.messages.utils as lc_utils
    from pydantic import TypeAdapter

    import miniagent.messages.utils as mini_utils

    def utils(M: SimpleNamespace) -> Any:
        return lc_utils if M is UP else mini_utils

    def parsed(M: SimpleNamespace) -> Any:
        adapter = TypeAdapter(list[utils(M).AnyMessage])
        return adapter.validate_python([{"type": "function", "content": "5", "name": "add"}])

    def message(M: SimpleNamespace) -> Any:
        return M.FunctionMessage("5", name="add")

    shown = "FunctionMessage(content='5', additional_kwargs={}, response_metadata={}, name='add')"
    assert assert_same(parsed) == ("ok", f"[{shown}]")
    role = assert_same(lambda M: utils(M)._get_message_openai_role(message(M)))
    assert role == ("ok", "'function'")
    assert assert_same(lambda M: utils(M).count_tokens_approximately([message(M)])) == ("ok", "6")
    assert assert_same(lambda M: isinstance(message(M), M.ToolMessage)) == ("ok", "False")
    assert assert_same(lambda M: M.message_chunk_to_message(message(M))) == ("ok", shown)


def test_message_passes_through():
    for ns in (UP, MINI):
        m = ns.AIMessage("x")
        assert ns.convert(m) is m


# --- add_messages: spec §4.2 ------------------------------------------------------------------


def _h(M: SimpleNamespace, content: str = "hi", id: Any = "h") -> Any:
    return M.HumanMessage(content, id=id)


ADD = {
    "append-assigns-left-id": lambda M: M.add_messages([M.HumanMessage("hi")], [M.AIMessage("a1", id="a1")]),
    "right-ids": lambda M: M.add_messages([], [M.AIMessage("x"), M.HumanMessage("y")]),
    "replace-in-place": lambda M: M.add_messages(
        [_h(M), M.AIMessage("a1", id="a1"), ("user", "tuple!")], [M.AIMessage("a1-replaced", id="a1")]),
    "remove": lambda M: M.add_messages([_h(M), M.AIMessage("a1", id="a1")], [M.RemoveMessage(id="a1")]),
    "remove-single": lambda M: M.add_messages([_h(M)], M.RemoveMessage(id="h")),
    "remove-unknown": lambda M: M.add_messages([_h(M)], [M.RemoveMessage(id="nope")]),
    "remove-all": lambda M: M.add_messages([_h(M)], [M.RemoveMessage(id=M.REMOVE_ALL), _h(M, "fresh", "f")]),
    "remove-all-last-marker": lambda M: M.add_messages([_h(M)], [
        _h(M, "a", "a"), M.RemoveMessage(id=M.REMOVE_ALL), _h(M, "b", "b"), M.RemoveMessage(id=M.REMOVE_ALL), "c"]),
    "remove-all-tail-verbatim": lambda M: M.add_messages([_h(M, "a", "1")], [
        M.RemoveMessage(id=M.REMOVE_ALL), _h(M, "b", "1"), M.RemoveMessage(id="1")]),
    "remove-all-skips-format": lambda M: M.add_messages([_h(M)], [M.RemoveMessage(id=M.REMOVE_ALL)], format="bogus"),
    "add-then-remove": lambda M: M.add_messages([_h(M, "a", "1")], [_h(M, "x", "2"), M.RemoveMessage(id="2")]),
    "remove-then-add": lambda M: M.add_messages([_h(M, "a", "1")], [M.RemoveMessage(id="1"), _h(M, "c", "1")]),
    "add-remove-add": lambda M: M.add_messages([_h(M, "a", "1")], [
        _h(M, "x", "2"), M.RemoveMessage(id="2"), _h(M, "y", "2")]),
    "duplicate-left-replace": lambda M: M.add_messages([_h(M, "a", "1"), _h(M, "b", "1")], [_h(M, "c", "1")]),
    "duplicate-left-remove": lambda M: M.add_messages([_h(M, "a", "1"), _h(M, "b", "1")], [M.RemoveMessage(id="1")]),
    "duplicate-right": lambda M: M.add_messages([], [_h(M, "a", "1"), _h(M, "b", "1")]),
    "coerce-str-tuple": lambda M: M.add_messages("hi", ("ai", "yo")),
    "coerce-dict-replaces": lambda M: M.add_messages(_h(M, "a", "1"), {"role": "ai", "content": "x", "id": "1"}),
    "coerce-dicts": lambda M: M.add_messages([{"role": "user", "content": "q", "id": "h-1"}], [
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "tool", "content": "r", "tool_call_id": "c"}]),
    "chunk-right": lambda M: M.add_messages([_h(M, "a", "1")], M.AIMessageChunk("chunk", id="2")),
    "chunk-left": lambda M: M.add_messages([M.AIMessageChunk("c", id="1", tool_call_chunks=[
        {"name": "f", "args": '{"a": 1', "id": "t", "index": 0}])], []),
    "tuple-left": lambda M: M.add_messages((_h(M, "a", "1"),), []),
    "tuple-right": lambda M: M.add_messages([_h(M, "a", "1")], (_h(M, "b", "2"),)),
    "function-role": lambda M: M.add_messages([_h(M, "a", "1")], [{"role": "function", "content": "5", "name": "add"}]),
    "function-tuple": lambda M: M.add_messages([_h(M, "a", "1")], [("function", "6")]),
    "function-replaces": lambda M: M.add_messages([_h(M, "a", "1")], M.FunctionMessage("5", name="add", id="1")),
    "bogus-role": lambda M: M.add_messages([_h(M, "a", "1")], [("bogus", "x")]),
    "bogus-item": lambda M: M.add_messages([_h(M, "a", "1")], [5]),
    "both-empty": lambda M: M.add_messages([], []),
    "only-left": lambda M: M.add_messages([_h(M)], None),
    "only-empty-left": lambda M: M.add_messages([], None),
    "only-right": lambda M: M.add_messages(None, [_h(M)]),
    "only-left-kw": lambda M: M.add_messages(left=[_h(M)]),
    "three-args": lambda M: M.add_messages([], [], "x"),
    "bad-format": lambda M: M.add_messages([_h(M)], [], format="bogus"),
    "bad-format-after-remove-error": lambda M: M.add_messages([_h(M)], [M.RemoveMessage(id="x")], format="bogus"),
    "partial-bad-format": lambda M: M.add_messages(format="bogus")([_h(M)], [_h(M, "b", "b")]),
    "partial-one-arg": lambda M: M.add_messages(format="bogus")([_h(M)]),
    "partial-no-format": lambda M: M.add_messages()([_h(M)], [_h(M, "b", "b")]),
}  # fmt: skip


@pytest.mark.parametrize("name", list(ADD))
def test_add_messages(name: str):
    assert_same(ADD[name])


def test_add_messages_mutates_ids_of_the_given_objects():
    for ns in (UP, MINI):
        left, right = ns.HumanMessage("a"), ns.AIMessage("b")
        result = ns.add_messages([left], [right])
        assert (left.id, right.id) == (result[0].id, result[1].id)
        assert uuid.UUID(left.id).version == 4


def test_add_messages_partial_is_a_partial_of_add_messages():
    for ns in (UP, MINI):
        reducer = ns.add_messages(format="langchain-openai")
        assert (reducer.func.__name__, reducer.keywords) == (
            "add_messages",
            {"format": "langchain-openai"},
        )
        assert ns.add_messages.__name__ == "_add_messages"


# --- chunks, partial JSON, merge helpers ------------------------------------------------------


def _chunks(M: SimpleNamespace) -> tuple:
    a = M.AIMessageChunk(
        "Hel",
        id="lc_run-1",
        tool_call_chunks=[{"name": "f", "args": '{"ci', "id": "c1", "index": 0}],
        usage_metadata={
            "input_tokens": 1,
            "output_tokens": 2,
            "total_tokens": 3,
            "input_token_details": {"cache_read": 1},
        },
    )
    b = M.AIMessageChunk(
        "lo",
        id="run-xyz",
        tool_call_chunks=[
            {"name": None, "args": 'ty": "sf"}', "id": None, "index": 0},
            {"name": "g", "args": "", "id": "c2", "index": 1},
        ],
        usage_metadata={
            "input_tokens": 1,
            "output_tokens": 2,
            "total_tokens": 3,
            "output_token_details": {"reasoning": 1},
        },
        response_metadata={"model": "x", "n": 1},
        additional_kwargs={"k": "v"},
    )
    c = M.AIMessageChunk(
        ["x", {"type": "text", "text": "y", "index": 0}],
        chunk_position="last",
        response_metadata={"model": "y", "n": 2},
    )
    return a, b, c


# fmt: skip


CHUNK_CASES = {
    "a+b": lambda M: (lambda a, b, c: a + b)(*_chunks(M)),
    "a+[b,c]": lambda M: (lambda a, b, c: a + [b, c])(*_chunks(M)),
    "a+(b,c)": lambda M: (lambda a, b, c: a + (b, c))(*_chunks(M)),
    "a+b+c": lambda M: (lambda a, b, c: a + b + c)(*_chunks(M)),
    "to-message": lambda M: M.message_chunk_to_message((lambda a, b, c: a + b)(*_chunks(M))),
    "to-message-drops-extras": lambda M: M.message_chunk_to_message(M.AIMessageChunk("x", foo=1)),
    "plus-message": lambda M: M.AIMessageChunk("a") + M.HumanMessage("x"),
    "plus-list-of-messages": lambda M: M.AIMessageChunk("a") + [M.HumanMessage("x")],
    "plus-int": lambda M: M.AIMessageChunk("a") + 1,
    "bools": lambda M: M.AIMessageChunk("a", additional_kwargs={"n": True}) + M.AIMessageChunk("b", additional_kwargs={"n": False}),
    "types": lambda M: M.AIMessageChunk("a", additional_kwargs={"n": 1}) + M.AIMessageChunk("b", additional_kwargs={"n": "x"}),
    "floats": lambda M: M.AIMessageChunk("a", additional_kwargs={"n": 1.0}) + M.AIMessageChunk("b", additional_kwargs={"n": 2.0}),
    "nested": lambda M: M.AIMessageChunk("a", additional_kwargs={"index": 1, "d": {"x": "a"}, "l": [1]})
    + M.AIMessageChunk("b", additional_kwargs={"index": 2, "d": {"x": "b"}, "l": [2]}),
    "ids": lambda M: M.AIMessageChunk("a", id="lc_1") + M.AIMessageChunk("b", id="lc_run-2") + M.AIMessageChunk("c", id="lc_3"),
    "str+list": lambda M: M.AIMessageChunk("a") + M.AIMessageChunk(["b"]),
    "list+str": lambda M: M.AIMessageChunk([{"type": "x"}]) + M.AIMessageChunk("b"),
    "empty-list+str": lambda M: M.AIMessageChunk([]) + M.AIMessageChunk("b"),
    "list+empty": lambda M: M.AIMessageChunk([{"type": "x"}]) + M.AIMessageChunk(""),
    "usage-one-side": lambda M: M.AIMessageChunk("a") + M.AIMessageChunk("b", usage_metadata={"input_tokens": 1, "output_tokens": 1, "total_tokens": 2}),
    "stream-of-args": lambda M: sum(
        (M.AIMessageChunk("", tool_call_chunks=[{"name": "f" if i == 0 else None, "args": part, "id": "c" if i == 0 else None, "index": 0}])
         for i, part in enumerate(['{"loc', 'ation": "s', 'f", "n": [1, ', '2]}'])),
        M.AIMessageChunk("")),
    "merge-content": lambda M: [M.merge_content(*c) for c in [("a", "b"), ("a", ["b"]), (["a"], "b"), (None, "b"), ([], "b")]],
    "merge-dicts": lambda M: M.merge_dicts({"s": "a", "n": 1, "created": 1, "none": None, "id": "x", "model_provider": "p"},
                                           {"s": "b", "n": 2, "created": 5, "none": "v", "id": "x", "model_provider": "p", "new": 0}),
    "merge-lists": lambda M: M.merge_lists([{"index": 0, "args": "{", "id": "a"}, "s", {"index": "lc_1", "t": "a"}],
                                           [{"index": 0, "args": "}", "type": "t"}, {"index": 0, "args": "x", "id": "b"}, 3,
                                            {"index": "lc_1", "t": "b"}, {"index": "other", "t": "c"}]),
    "merge-lists-none": lambda M: (M.merge_lists(None, None), M.merge_lists(None, [1], None, [2])),
}  # fmt: skip


@pytest.mark.parametrize("name", list(CHUNK_CASES))
def test_chunks_and_merging(name: str):
    assert_same(CHUNK_CASES[name])


PARTIAL_JSON = ['{"a": 1', '{"city":', "", "not json", "[1,2]", '{"a": "x\ny', '{"a": [1, {"b": "c\\',
                '{"a": 1}}', '{"a": tr', '"abc', '{"a": 1, "b": [', "  ", '{"a":"\\u12', "]", '{"a": {"b": 1}, "c', "1"]  # fmt: skip


@pytest.mark.parametrize("s", PARTIAL_JSON)
def test_parse_partial_json_and_chunk_tool_calls(s: str):
    assert_same(lambda M: M.parse_partial_json(s))
    assert_same(
        lambda M: M.AIMessageChunk(
            "", tool_call_chunks=[{"name": "f", "args": s, "id": "c", "index": 0}]
        )
    )


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-50, 50) | st.text("ab\n\"\\ é", max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text("ab\"", max_size=3), inner, max_size=3),
    max_leaves=8,
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES, st.integers(0, 200), st.booleans())
def test_parse_partial_json_on_cut_documents(value: Any, cut: int, raw_newlines: bool):
    import json

    text = json.dumps(value, ensure_ascii=False)
    if raw_newlines:
        text = text.replace("\\n", "\n")  # models emit raw newlines inside strings
    prefix = text[: cut % (len(text) + 1)]
    assert_same(lambda M: M.parse_partial_json(prefix))


@settings(max_examples=300, deadline=None)
@given(st.text('{}[]":,a1\\ \n', max_size=12))
def test_parse_partial_json_on_noise(s: str):
    assert_same(lambda M: M.parse_partial_json(s))
