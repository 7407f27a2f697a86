"""Unit tests for miniagent.messages: construction, repr, pretty printing, coercion, chunks.

Expected values and error texts are upstream's (langchain-core 1.8.3), as recorded in
upstream-spec.md §4 and §7; tests/runtime/differential/test_messages_diff.py checks them side by side.
"""

import json
import sys
import uuid
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from miniagent.messages import (
    AIMessage,
    AIMessageChunk,
    AnyMessage,
    BaseMessage,
    FunctionMessage,
    HumanMessage,
    RemoveMessage,
    SystemMessage,
    ToolMessage,
    convert_to_messages,
    get_msg_title_repr,
    invalid_tool_call,
    merge_content,
    merge_dicts,
    merge_lists,
    message_chunk_to_message,
    parse_partial_json,
    tool_call,
    tool_call_chunk,
)
from miniagent.messages.utils import _convert_to_message, _get_message_openai_role

COERCION_LINK = (
    "\nFor troubleshooting, visit: https://docs.langchain.com/oss/python/langchain"
    "/errors/MESSAGE_COERCION_FAILURE "
)
TC = {"name": "check_weather", "args": {"location": "sf"}, "id": "call_1", "type": "tool_call"}


# --- construction and fields ------------------------------------------------------------------


def test_content_positional_or_keyword():
    assert HumanMessage("hi") == HumanMessage(content="hi")
    assert HumanMessage("hi").type == "human"
    assert SystemMessage("s").type == "system"
    assert AIMessage("a").type == "ai"


def test_defaults():
    m = AIMessage("x")
    assert (m.additional_kwargs, m.response_metadata, m.name, m.id) == ({}, {}, None, None)
    assert (m.tool_calls, m.invalid_tool_calls, m.usage_metadata) == ([], [], None)
    assert m.additional_kwargs is not AIMessage("y").additional_kwargs


def test_id_number_becomes_str():
    assert HumanMessage("hi", id=5).id == "5"


def test_extra_keyword_is_kept_as_field():
    m = HumanMessage("hi", foo=1)
    assert m.foo == 1
    assert repr(m).endswith("foo=1)")


@pytest.mark.parametrize("content", [None, 5])
def test_content_must_be_str_or_list(content: Any):
    with pytest.raises(ValidationError, match="2 validation errors for HumanMessage"):
        HumanMessage(content)


def test_list_content_allowed():
    assert HumanMessage(["a", {"type": "text", "text": "b"}]).content == [
        "a",
        {"type": "text", "text": "b"},
    ]


def test_base_message_needs_a_type():
    with pytest.raises(ValidationError, match="type\n  Field required"):
        BaseMessage("x")
    assert BaseMessage("x", type="custom").type == "custom"


def test_type_literal_is_checked():
    with pytest.raises(ValidationError, match="Input should be 'human'"):
        HumanMessage("x", type="ai")


# --- repr: fields at their default are hidden -------------------------------------------------


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (
            HumanMessage("hi"),
            "HumanMessage(content='hi', additional_kwargs={}, response_metadata={})",
        ),
        (
            HumanMessage("hi", name="bob", id="x"),
            "HumanMessage(content='hi', additional_kwargs={}, response_metadata={}, name='bob', id='x')",
        ),
        (
            AIMessage("", id="ai-1", tool_calls=[TC]),
            "AIMessage(content='', additional_kwargs={}, response_metadata={}, id='ai-1', "
            "tool_calls=[{'name': 'check_weather', 'args': {'location': 'sf'}, 'id': 'call_1', "
            "'type': 'tool_call'}], invalid_tool_calls=[])",
        ),
        (
            ToolMessage(
                "It's always sunny in sf", name="check_weather", id="t1", tool_call_id="call_1"
            ),
            "ToolMessage(content=\"It's always sunny in sf\", name='check_weather', id='t1', "
            "tool_call_id='call_1')",
        ),
        (
            ToolMessage("x", tool_call_id="c", status="error", artifact={"a": 1}),
            "ToolMessage(content='x', tool_call_id='c', artifact={'a': 1}, status='error')",
        ),
        (
            RemoveMessage(id="x"),
            "RemoveMessage(content='', additional_kwargs={}, response_metadata={}, id='x')",
        ),
        (
            AIMessageChunk("x"),
            "AIMessageChunk(content='x', additional_kwargs={}, response_metadata={}, "
            "tool_calls=[], invalid_tool_calls=[], tool_call_chunks=[])",
        ),
    ],
)
def test_repr_hides_defaults(message: BaseMessage, expected: str):
    assert repr(message) == expected


def test_repr_shows_usage_metadata_when_set():
    usage = {"input_tokens": 1, "output_tokens": 2, "total_tokens": 3}
    assert repr(AIMessage("", usage_metadata=usage)).endswith(f"usage_metadata={usage})")


def test_tool_message_hides_additional_kwargs_even_when_set():
    assert "additional_kwargs" not in repr(
        ToolMessage("x", tool_call_id="c", additional_kwargs={"a": 1})
    )


def test_str_is_pydantic_style():
    assert str(HumanMessage("hi", id="1")) == (
        "content='hi' additional_kwargs={} response_metadata={} id='1'"
    )


def test_equality_compares_class_and_fields():
    assert HumanMessage("a", id="1") == HumanMessage("a", id="1")
    assert HumanMessage("a", id="1") != HumanMessage("a", id="2")
    assert AIMessage("a") != AIMessageChunk("a")
    assert AIMessage("a") != HumanMessage("a")


# --- text and pretty printing -----------------------------------------------------------------


def test_text_of_string_and_block_content():
    assert HumanMessage("plain").text == "plain"
    content = [{"type": "text", "text": "a"}, "b", {"type": "image"}, {"type": "text", "text": 1}]
    assert HumanMessage(content).text == "ab"


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("Ai Message", "=" * 34 + " Ai Message " + "=" * 34),
        ("Tool Message", "=" * 33 + " Tool Message " + "=" * 33),
        ("Human Message", "=" * 32 + " Human Message " + "=" * 33),
    ],
)
def test_title_bar_is_80_wide(title: str, expected: str):
    assert get_msg_title_repr(title) == expected
    assert len(expected) == 80


def test_title_bar_bold():
    assert get_msg_title_repr("X", bold=True) == "=" * 38 + "\033[1m X \033[0m" + "=" * 39


def test_pretty_repr_human_with_name():
    assert HumanMessage("What?", name="bob").pretty_repr() == (
        get_msg_title_repr("Human Message") + "\nName: bob\n\nWhat?"
    )


def test_pretty_repr_tool_message():
    m = ToolMessage("res", tool_call_id="c1", name="check")
    assert m.pretty_repr() == get_msg_title_repr("Tool Message") + "\nName: check\n\nres"


def test_pretty_repr_ai_with_tool_calls_and_invalid_tool_calls():
    m = AIMessage(
        "hi",
        name="bot",
        tool_calls=[{"name": "f", "args": {"a": 1, "b": "x"}, "id": "c"}],
        invalid_tool_calls=[{"name": "g", "args": "{bad", "id": "d", "error": "boom"}],
    )
    assert m.pretty_repr().split("\n") == [
        get_msg_title_repr("Ai Message"),
        "Name: bot",
        "",
        "hi",
        "Tool Calls:",
        "  f (c)",
        " Call ID: c",
        "  Args:",
        "    a: 1",
        "    b: x",
        "Invalid Tool Calls:",
        "  g (d)",
        " Call ID: d",
        "  Error: boom",
        "  Args:",
        "    {bad",
    ]


def test_pretty_repr_ai_empty_content_strips_blank_lines():
    m = AIMessage("", tool_calls=[{"name": "f", "args": {}, "id": "c"}])
    assert m.pretty_repr() == (
        get_msg_title_repr("Ai Message") + "\nTool Calls:\n  f (c)\n Call ID: c\n  Args:"
    )
    assert AIMessage("").pretty_repr() == get_msg_title_repr("Ai Message")


def test_pretty_repr_list_content_and_chunk_title():
    assert HumanMessage(["a"]).pretty_repr().endswith("\n\n['a']")
    assert AIMessageChunk("x").pretty_repr().startswith("=" * 28 + " Aimessagechunk Message ")


def test_pretty_print(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delattr(sys, "ps2", raising=False)
    SystemMessage("be nice").pretty_print()
    assert capsys.readouterr().out == SystemMessage("be nice").pretty_repr() + "\n"
    monkeypatch.setattr(sys, "ps2", "...", raising=False)  # IPython/Jupyter: bold title
    SystemMessage("be nice").pretty_print()
    assert "\033[1m System Message \033[0m" in capsys.readouterr().out


# --- AIMessage tool calls ---------------------------------------------------------------------


def test_tool_calls_get_type():
    m = AIMessage("", tool_calls=[{"name": "f", "args": {"a": 1}, "id": "c"}])
    assert m.tool_calls == [{"name": "f", "args": {"a": 1}, "id": "c", "type": "tool_call"}]
    assert list(m.tool_calls[0]) == ["name", "args", "id", "type"]


def test_tool_call_args_must_be_a_dict():
    with pytest.raises(ValidationError, match="tool_calls.0.args\n  Input should be a valid dict"):
        AIMessage("", tool_calls=[{"name": "f", "args": "x", "id": "c"}])


def test_tool_call_needs_id_and_known_keys():
    with pytest.raises(
        TypeError, match=r"^tool_call\(\) missing 1 required keyword-only argument: 'id'$"
    ):
        AIMessage("", tool_calls=[{"name": "f", "args": {}}])
    with pytest.raises(TypeError, match=r"^tool_call\(\) got an unexpected keyword argument 'x'$"):
        AIMessage("", tool_calls=[{"name": "f", "args": {}, "id": None, "x": 1}])


def test_tool_call_extras_are_dropped():
    m = AIMessage("", tool_calls=[{"name": "f", "args": {}, "id": "c", "extras": {"k": 1}}])
    assert m.tool_calls == [{"name": "f", "args": {}, "id": "c", "type": "tool_call"}]


def test_invalid_tool_calls_get_type_in_declared_order():
    m = AIMessage("", invalid_tool_calls=[{"name": "f", "args": "x", "id": "c", "error": None}])
    assert list(m.invalid_tool_calls[0].items()) == [
        ("type", "invalid_tool_call"),
        ("id", "c"),
        ("name", "f"),
        ("args", "x"),
        ("error", None),
    ]


def test_openai_tool_calls_in_additional_kwargs_are_parsed():
    raw = [
        {"id": "x", "function": {"name": "h", "arguments": '{"a": 1}'}},
        {"id": "y", "function": {"name": "h", "arguments": "{bad"}},
        {"id": "z"},  # no "function": skipped
    ]
    m = AIMessage("", additional_kwargs={"tool_calls": raw})
    assert m.tool_calls == [tool_call(name="h", args={"a": 1}, id="x")]
    assert m.invalid_tool_calls == [invalid_tool_call(name="h", args="{bad", id="y")]
    assert m.additional_kwargs == {"tool_calls": raw}


def test_explicit_tool_calls_win_over_additional_kwargs():
    raw = [{"id": "x", "function": {"name": "h", "arguments": "{}"}}]
    m = AIMessage("", tool_calls=[TC], additional_kwargs={"tool_calls": raw})
    assert m.tool_calls == [TC]


def test_openai_tool_calls_that_fail_to_parse_are_ignored():
    m = AIMessage("", additional_kwargs={"tool_calls": [{"function": {"name": "h"}}]})
    assert (m.tool_calls, m.invalid_tool_calls) == ([], [])


def test_usage_metadata_details_in_schema_order():
    usage = {
        "total_tokens": 3,
        "input_tokens": 1,
        "output_tokens": 2,
        "input_token_details": {"cache_read": 1, "audio": 2},
    }
    m = AIMessage("", usage_metadata=usage)
    assert list(m.usage_metadata) == [
        "input_tokens",
        "output_tokens",
        "total_tokens",
        "input_token_details",
    ]
    assert list(m.usage_metadata["input_token_details"]) == ["audio", "cache_read"]


# --- ToolMessage ------------------------------------------------------------------------------


def test_tool_message_requires_tool_call_id():
    with pytest.raises(KeyError, match="'tool_call_id'"):
        ToolMessage("x")


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (5, "5"),
        (None, "None"),
        ({"a": 1}, "{'a': 1}"),
        ((1, 2), ["1", "2"]),
        ([1, "a", {"t": 1}], ["1", "a", {"t": 1}]),
    ],
)
def test_tool_message_content_is_coerced(content: Any, expected: Any):
    assert ToolMessage(content, tool_call_id="c").content == expected


def test_tool_message_without_content():
    assert ToolMessage(tool_call_id="c").content == "None"


def test_tool_call_id_coerced_to_str():
    u = uuid.UUID(int=7)
    assert ToolMessage("x", tool_call_id=1).tool_call_id == "1"
    assert ToolMessage("x", tool_call_id=1.5).tool_call_id == "1.5"
    assert ToolMessage("x", tool_call_id=u).tool_call_id == str(u)


def test_tool_message_status_and_artifact():
    m = ToolMessage("x", tool_call_id="c")
    assert (m.status, m.artifact, m.type) == ("success", None, "tool")
    with pytest.raises(ValidationError, match="Input should be 'success' or 'error'"):
        ToolMessage("x", tool_call_id="c", status="bad")


# --- RemoveMessage ----------------------------------------------------------------------------


def test_remove_message():
    m = RemoveMessage(id="x")
    assert (m.content, m.id, m.type) == ("", "x", "remove")
    assert RemoveMessage("x") == m


def test_remove_message_rejects_content_and_needs_id():
    with pytest.raises(ValueError, match="^RemoveMessage does not support 'content' field.$"):
        RemoveMessage(id="x", content="y")
    with pytest.raises(
        TypeError, match=r"RemoveMessage.__init__\(\) missing 1 required positional"
    ):
        RemoveMessage()


# --- AIMessageChunk ---------------------------------------------------------------------------


def _chunk_args(args: str) -> AIMessageChunk:
    return AIMessageChunk("", tool_call_chunks=[{"name": "f", "args": args, "id": "c", "index": 0}])


@pytest.mark.parametrize(
    ("args", "parsed"),
    [('{"a": 1', {"a": 1}), ('{"city":', {}), ("", {}), ('{"a": 1, "b": [', {"a": 1, "b": []})],
)
def test_chunk_args_parsed_partially(args: str, parsed: dict):
    m = _chunk_args(args)
    assert m.tool_calls == [tool_call(name="f", args=parsed, id="c")]
    assert m.invalid_tool_calls == []


@pytest.mark.parametrize("args", ["not json", "[1,2]", '{"a": 1}}', "  "])
def test_chunk_args_that_are_not_an_object_are_invalid(args: str):
    m = _chunk_args(args)
    assert m.tool_calls == []
    assert m.invalid_tool_calls == [invalid_tool_call(name="f", args=args, id="c", error=None)]


def test_chunk_without_name_gets_empty_name():
    m = AIMessageChunk("", tool_call_chunks=[tool_call_chunk(args="{}", index=0)])
    assert m.tool_calls == [tool_call(name="", args={}, id=None)]


def test_chunk_derives_chunks_from_tool_calls():
    m = AIMessageChunk(
        "",
        tool_calls=[{"name": "f", "args": {"x": 1}, "id": "1"}],
        invalid_tool_calls=[{"name": "g", "args": "{bad", "id": "2", "error": "e"}],
    )
    assert m.tool_call_chunks == [
        tool_call_chunk(name="f", args='{"x": 1}', id="1"),
        tool_call_chunk(name="g", args="{bad", id="2"),
    ]


def test_chunk_parses_openai_deltas_from_additional_kwargs():
    raw = [{"id": "x", "index": 0, "function": {"name": "h", "arguments": "{}"}}]
    m = AIMessageChunk("", additional_kwargs={"tool_calls": raw})
    assert m.tool_call_chunks == [tool_call_chunk(name="h", args="{}", id="x", index=0)]
    assert m.tool_calls == [tool_call(name="h", args={}, id="x")]


def test_adding_chunks_merges_content_tool_chunks_usage_and_metadata():
    a = AIMessageChunk(
        "Hel",
        id="lc_run-1",
        tool_call_chunks=[tool_call_chunk(name="f", args='{"ci', id="c1", index=0)],
        usage_metadata={"input_tokens": 1, "output_tokens": 2, "total_tokens": 3},
        response_metadata={"model": "x", "n": 1},
    )
    b = AIMessageChunk(
        "lo",
        id="run-xyz",
        tool_call_chunks=[
            tool_call_chunk(args='ty": "sf"}', index=0),
            tool_call_chunk(name="g", args="", id="c2", index=1),
        ],
        usage_metadata={
            "input_tokens": 1,
            "output_tokens": 2,
            "total_tokens": 3,
            "output_token_details": {"reasoning": 1},
        },
        response_metadata={"model": "y", "n": 2},
        chunk_position="last",
    )
    m = a + b
    assert isinstance(m, AIMessageChunk)
    assert m.content == "Hello"
    assert m.id == "run-xyz"  # a provider id beats an lc_run- id
    assert m.tool_call_chunks == [
        tool_call_chunk(name="f", args='{"city": "sf"}', id="c1", index=0),
        tool_call_chunk(name="g", args="", id="c2", index=1),
    ]
    assert m.tool_calls == [
        tool_call(name="f", args={"city": "sf"}, id="c1"),
        tool_call(name="g", args={}, id="c2"),
    ]
    assert m.usage_metadata == {
        "input_tokens": 2,
        "output_tokens": 4,
        "total_tokens": 6,
        "output_token_details": {"reasoning": 1},
    }
    assert m.response_metadata == {"model": "xy", "n": 3}
    assert m.chunk_position == "last"
    assert a + [b] == m


def test_chunk_id_ranking():
    m = AIMessageChunk("a", id="lc_1") + AIMessageChunk("b", id="lc_run-2") + AIMessageChunk("c")
    assert m.id == "lc_run-2"
    assert (AIMessageChunk("a", id="lc_1") + AIMessageChunk("b")).id == "lc_1"
    assert (AIMessageChunk("a") + AIMessageChunk("b")).id is None


def test_adding_non_chunks_raises():
    a = AIMessageChunk("a")
    for other, name in [
        (HumanMessage("x"), "HumanMessage"),
        ([HumanMessage("x")], "list"),
        (1, "int"),
    ]:
        with pytest.raises(TypeError) as e:
            a + other
        assert str(e.value) == f'unsupported operand type(s) for +: "AIMessageChunk" and "{name}"'


def test_message_chunk_to_message():
    chunk = _chunk_args('{"a": 1')
    chunk.id = "m1"
    m = message_chunk_to_message(chunk)
    assert type(m) is AIMessage
    assert m == AIMessage("", id="m1", tool_calls=[tool_call(name="f", args={"a": 1}, id="c")])
    assert message_chunk_to_message(AIMessageChunk("x", foo=1)) == AIMessage("x")  # extras dropped
    plain = HumanMessage("x")
    assert message_chunk_to_message(plain) is plain


# --- merge helpers ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("contents", "expected"),
    [
        (("a", "b"), "ab"),
        (("a", ["b"]), ["a", "b"]),
        ((["a"], "b"), ["ab"]),
        (([{"type": "x"}], "b"), [{"type": "x"}, "b"]),
        (([{"type": "x"}], ""), [{"type": "x"}]),
        (([], "b"), []),
        ((None, "b"), "b"),
    ],
)
def test_merge_content(contents: tuple, expected: Any):
    assert merge_content(*contents) == expected


def test_merge_content_does_not_change_the_first_list():
    first = ["a"]
    merge_content(first, ["b"])
    assert first == ["a"]


def test_merge_dicts():
    assert merge_dicts(
        {"s": "a", "n": 1, "index": 1, "d": {"x": "a"}, "l": [1], "none": None, "same": 1.5},
        {
            "s": "b",
            "n": 2,
            "index": 5,
            "d": {"x": "b"},
            "l": [2],
            "none": "v",
            "same": 1.5,
            "new": 0,
        },
    ) == {
        "s": "ab",
        "n": 3,
        "index": 5,
        "d": {"x": "ab"},
        "l": [1, 2],
        "none": "v",
        "same": 1.5,
        "new": 0,
    }
    assert merge_dicts({"id": "x", "index": "lc_1"}, {"id": "x", "index": "lc_1"}) == {
        "id": "x",
        "index": "lc_1",
    }
    assert merge_dicts({"a": 1}, {"a": None}) == {"a": 1}


@pytest.mark.parametrize(
    ("left", "right", "message"),
    [
        ({"n": 1}, {"n": "x"}, 'additional_kwargs["n"] already exists in this message, but with a different type.'),
        ({"n": True}, {"n": False}, "Additional kwargs key n already exists in left dict and value has unsupported type <class 'bool'>."),
        ({"n": 1.0}, {"n": 2.0}, "Additional kwargs key n already exists in left dict and value has unsupported type <class 'float'>."),
    ],
)  # fmt: skip
def test_merge_dicts_errors(left: dict, right: dict, message: str):
    with pytest.raises(TypeError) as e:
        merge_dicts(left, right)
    assert str(e.value) == message


def test_merge_lists_by_index():
    left = [{"index": 0, "args": "{", "id": "a"}, "s"]
    right = [{"index": 0, "args": "}", "type": "t"}, {"index": 0, "args": "x", "id": "b"}, 3]
    assert merge_lists(left, right) == [
        {"index": 0, "args": "{}", "id": "a"},
        "s",
        {"index": 0, "args": "x", "id": "b"},
        3,
    ]
    assert merge_lists(None, None) is None
    assert merge_lists(None, [1]) == [1]


# --- parse_partial_json -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("s", "expected"),
    [
        ('{"a": 1', {"a": 1}),
        ('{"city":', {}),
        ('{"a": "x\ny', {"a": "x\ny"}),
        ('{"a": [1, {"b": "c\\', {"a": [1, {"b": "c"}]}),
        ('{"a": 1}}', None),
        ('"abc', "abc"),
        ("[1, 2", [1, 2]),
        ('{"a": tr', {}),
    ],
)
def test_parse_partial_json(s: str, expected: Any):
    assert parse_partial_json(s) == expected


@pytest.mark.parametrize("s", ["", "not json", "  "])
def test_parse_partial_json_raises_when_nothing_parses(s: str):
    with pytest.raises(json.JSONDecodeError):
        parse_partial_json(s)


# --- coercion ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message_like", "expected"),
    [
        ("bare string", HumanMessage("bare string")),
        (("user", "tuple form"), HumanMessage("tuple form")),
        (["ai", "list form"], AIMessage("list form")),
        (("human", ["x"]), HumanMessage(["x"])),
        ({"role": "user", "content": "hi"}, HumanMessage("hi")),
        ({"type": "human", "content": "t"}, HumanMessage("t")),
        ({"role": "assistant", "content": "a"}, AIMessage("a")),
        ({"role": "system", "content": "s"}, SystemMessage("s")),
        (
            {"role": "developer", "content": "dev"},
            SystemMessage("dev", additional_kwargs={"__openai_role__": "developer"}),
        ),
        (
            {"role": "developer", "content": "d", "additional_kwargs": {"x": 1}},
            SystemMessage("d", additional_kwargs={"x": 1, "__openai_role__": "developer"}),
        ),
        (
            {"role": "tool", "content": "42", "tool_call_id": "c1"},
            ToolMessage("42", tool_call_id="c1"),
        ),
        (
            {"role": "tool", "content": "42", "tool_call_id": "c1", "artifact": [1], "status": "error"},
            ToolMessage("42", tool_call_id="c1", artifact=[1], status="error"),
        ),
        ({"role": "remove", "content": "ignored", "id": "r1"}, RemoveMessage(id="r1")),
        (
            {"role": "user", "content": "with id", "id": "m1", "name": "bob"},
            HumanMessage("with id", id="m1", name="bob"),
        ),
        ({"role": "user", "content": None}, HumanMessage("")),
        ({"role": "user", "content": 0}, HumanMessage("")),
        ({"role": "user", "content": "x", "name": None, "id": None}, HumanMessage("x")),
        ({"type": "ai", "content": "t", "role": "user"}, HumanMessage("t", additional_kwargs={"type": "ai"})),
        (
            {"role": "user", "content": "x", "response_metadata": {"a": 1}, "additional_kwargs": {"b": 2}, "c": 3},
            HumanMessage("x", additional_kwargs={"c": 3, "b": 2}, response_metadata={"a": 1}),
        ),
        ({"role": "user", "content": "x", "example": True}, HumanMessage("x", example=True)),
        ({"role": "ai", "content": "x", "example": True}, AIMessage("x", example=True)),
        ({"role": "system", "content": "x", "tool_call_id": "y"}, SystemMessage("x", tool_call_id="y")),
        (
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c9", "type": "function", "function": {"name": "f", "arguments": '{"a": 1}'}}
            ]},
            AIMessage("", tool_calls=[tool_call(name="f", args={"a": 1}, id="c9")]),
        ),
        (
            {"role": "assistant", "content": "", "tool_calls": [
                {"id": "c9", "function": {"name": "f", "arguments": {"a": 1}}}
            ]},
            AIMessage("", tool_calls=[tool_call(name="f", args={"a": 1}, id="c9")]),
        ),
        (
            {"role": "assistant", "content": "", "tool_calls": [{"id": "c9", "name": "f", "args": {}}]},
            AIMessage("", tool_calls=[tool_call(name="f", args={}, id="c9")]),
        ),
        (
            {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", "HumanMessage"],
             "kwargs": {"content": "hey", "id": "z"}},
            HumanMessage("hey", id="z"),
        ),
    ],
)  # fmt: skip
def test_convert_to_message(message_like: Any, expected: BaseMessage):
    assert _convert_to_message(message_like) == expected
    assert type(_convert_to_message(message_like)) is type(expected)


def test_message_passes_through_unchanged():
    m = AIMessage("x")
    assert _convert_to_message(m) is m


def test_convert_to_messages_maps_every_item():
    assert convert_to_messages(["a", ("ai", "b")]) == [HumanMessage("a"), AIMessage("b")]
    assert convert_to_messages("ab") == [HumanMessage("a"), HumanMessage("b")]
    assert convert_to_messages(iter(["a"])) == [HumanMessage("a")]


@pytest.mark.parametrize("message_like", [("user",), ("a", "b", "c"), b"bytes"])
def test_sequence_must_be_role_and_content(message_like: Any):
    with pytest.raises(NotImplementedError) as e:
        _convert_to_message(message_like)
    assert str(e.value) == "Message as a sequence must be (role string, template)"


@pytest.mark.parametrize("message_like", [{"role": "user"}, {"content": "x"}])
def test_dict_needs_role_and_content(message_like: dict):
    with pytest.raises(ValueError) as e:
        _convert_to_message(message_like)
    assert str(e.value) == (
        f"Message dict must contain 'role' and 'content' keys, got {message_like}" + COERCION_LINK
    )


@pytest.mark.parametrize("message_like", [{"role": "bogus", "content": "x"}, ("bogus", "x")])
def test_unknown_role(message_like: Any):
    with pytest.raises(ValueError) as e:
        _convert_to_message(message_like)
    assert str(e.value) == (
        "Unexpected message type: 'bogus'. Use one of 'human', 'user', 'ai', 'assistant', "
        "'function', 'tool', 'system', or 'developer'." + COERCION_LINK
    )


@pytest.mark.parametrize("message_like", [5, None])
def test_unsupported_type(message_like: Any):
    with pytest.raises(NotImplementedError) as e:
        _convert_to_message(message_like)
    assert str(e.value) == f"Unsupported message type: {type(message_like)}" + COERCION_LINK


def test_unknown_envelope_class_is_treated_as_a_dict():
    envelope = {"lc": 1, "type": "constructor", "id": ["x", "Nope"], "kwargs": {"content": "h"}}
    with pytest.raises(ValueError, match="^Message dict must contain 'role' and 'content' keys"):
        _convert_to_message(envelope)


def test_tool_dict_without_tool_call_id():
    with pytest.raises(KeyError, match="'tool_call_id'"):
        _convert_to_message({"role": "tool", "content": "42"})
    with pytest.raises(KeyError, match="'tool_call_id'"):
        _convert_to_message({"role": "tool", "content": "42", "tool_call_id": None})


def test_remove_dict_without_id():
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'id'"):
        _convert_to_message({"role": "remove", "content": ""})


def test_openai_tool_call_with_bad_json_raises():
    bad = {"role": "assistant", "content": "", "tool_calls": [
        {"id": "c", "function": {"name": "f", "arguments": "{bad"}}
    ]}  # fmt: skip
    with pytest.raises(json.JSONDecodeError):
        _convert_to_message(bad)


def test_function_role_becomes_a_function_message():
    m = _convert_to_message({"role": "function", "content": "x", "name": "f", "id": "m1"})
    assert type(m) is FunctionMessage and (m.type, m.name, m.content, m.id) == (
        "function",
        "f",
        "x",
        "m1",
    )
    assert _get_message_openai_role(m) == "function"
    assert m.pretty_repr().splitlines()[:2] == [get_msg_title_repr("Function Message"), "Name: f"]


@pytest.mark.parametrize("message_like", [("function", "x"), {"role": "function", "content": "x"}])
def test_function_message_needs_a_name(message_like: Any):
    with pytest.raises(ValidationError, match="name\n  Field required"):
        _convert_to_message(message_like)


def test_any_message_picks_class_by_type():
    adapter = TypeAdapter(list[AnyMessage])
    parsed = adapter.validate_python(
        [
            {"type": "ai", "content": "a"},
            {"type": "human", "content": "h"},
            {"type": "tool", "content": "t", "tool_call_id": "c"},
            {"type": "AIMessageChunk", "content": "c"},
            {"type": "function", "content": "f", "name": "add"},
            SystemMessage("s"),
        ]
    )
    assert [type(m).__name__ for m in parsed] == [
        "AIMessage",
        "HumanMessage",
        "ToolMessage",
        "AIMessageChunk",
        "FunctionMessage",
        "SystemMessage",
    ]
