"""miniagent's ChatOpenAI builds and reads Chat Completions exactly as langchain-openai 1.7.4.

* the request payload (``_get_request_payload``, no network) for the same messages, tools,
  ``tool_choice``, ``parallel_tool_calls``, settings and call kwargs: equal JSON, same key order;
* the reply (``_create_chat_result``) and its errors for the same JSON bodies;
* streamed chunks and their sum for the same SSE chunks, and the request bodies on the wire,
  through the ``openai`` SDK against a loopback server (``tests/runtime/sides/loopback.py``);
* ``bind_tools``' ``tool_choice`` spelling and errors, the invocation parameters the callbacks
  see, the missing-key error;
* ``init_chat_model``: what ``"openai:<model>"`` builds, and the errors for other strings.
"""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("langchain_openai")

import langchain_core.messages as up_messages  # noqa: E402
import sides.loopback as loop  # noqa: E402
from langchain.chat_models import init_chat_model as up_init_chat_model  # noqa: E402
from langchain_core.tools import tool as up_tool  # noqa: E402
from langchain_openai import ChatOpenAI as UpChatOpenAI  # noqa: E402
from pydantic import BaseModel, Field  # noqa: E402

import miniagent.messages as mini_messages  # noqa: E402
from miniagent.chat_models import init_chat_model as mini_init_chat_model  # noqa: E402
from miniagent.openai import ChatOpenAI as MiniChatOpenAI  # noqa: E402
from miniagent.testing import normalize_ids  # noqa: E402
from miniagent.tools import tool as mini_tool  # noqa: E402

MINI = SimpleNamespace(ChatOpenAI=MiniChatOpenAI, tool=mini_tool, m=mini_messages)
UP = SimpleNamespace(ChatOpenAI=UpChatOpenAI, tool=up_tool, m=up_messages)
SIDES = {"mini": MINI, "up": UP}


@pytest.fixture(autouse=True)
def _no_openai_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_BASE", "OPENAI_ORG_ID"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.delenv("LC_OUTPUT_VERSION", raising=False)


def get_weather(city: str, unit: str = "C") -> str:
    """Get weather for a city."""
    return city


def ping() -> str:
    """Ping."""
    return "pong"


class Search(BaseModel):
    """Search the web."""

    query: str = Field(description="the query")
    k: int | None = None


OPENAI_DICT_TOOL = {
    "type": "function",
    "function": {
        "name": "lookup",
        "description": "Look it up.",
        "parameters": {"type": "object", "properties": {"key": {"type": "string"}}},
    },
}


# ---- messages, written once for both sides --------------------------------------------------


def conversation(ns: SimpleNamespace) -> list[Any]:
    m = ns.m
    return [
        m.SystemMessage("You are terse."),
        m.HumanMessage("Weather in Zürich?", name="alice", id="h1"),
        m.AIMessage(
            "",
            id="a1",
            response_metadata={"model_name": "x"},
            additional_kwargs={"foo": 1},
            tool_calls=[
                {"name": "get_weather", "args": {"city": "Zürich", "n": 1}, "id": "call_1"},
                {"name": "ping", "args": {}, "id": "call_2"},
            ],
            usage_metadata={"input_tokens": 1, "output_tokens": 2, "total_tokens": 3},
        ),
        m.ToolMessage("72F", tool_call_id="call_1", name="get_weather", status="error"),
        m.ToolMessage(
            [{"type": "text", "text": "pong", "id": "blk", "extras": {"x": 1}}, "plain"],
            tool_call_id="call_2",
        ),
        m.AIMessage("It is 72F.", name="bot"),
    ]


def content_lists(ns: SimpleNamespace) -> list[Any]:
    m = ns.m
    return [
        m.SystemMessage([{"type": "text", "text": "sys"}], additional_kwargs={"name": "rules"}),
        m.HumanMessage(
            [
                {"type": "text", "text": "look", "id": "t1"},
                {"type": "image", "url": "https://x/img.png", "extras": {"detail": "high"}},
                {"type": "image", "base64": "AAAA", "mime_type": "image/png"},
                {"type": "image_url", "image_url": {"url": "https://x/raw.png"}},
                {
                    "type": "image",
                    "source": {"type": "base64", "media_type": "image/gif", "data": "R0"},
                },
                {"type": "image", "source": {"type": "url", "url": "https://x/a.png"}},
                {
                    "type": "file",
                    "base64": "JVBE",
                    "mime_type": "application/pdf",
                    "filename": "a.pdf",
                },
                {"type": "audio", "base64": "UklG", "mime_type": "audio/wav"},
                {"type": "thinking", "thinking": "hmm"},
                {"type": "tool_use", "id": "x", "name": "n", "input": {}},
            ]
        ),
        m.AIMessage(
            [
                {"type": "reasoning", "reasoning": "because"},
                {"type": "text", "text": "Sure.", "annotations": [{"type": "citation"}]},
                {"type": "refusal", "refusal": "no"},
                {"type": "refusal", "refusal": ""},
                {"type": "tool_call", "name": "ping", "args": {}, "id": "call_9"},
                {"type": "custom", "value": 1},
            ],
            tool_calls=[{"name": "ping", "args": {}, "id": "call_9"}],
        ),
        m.ToolMessage("pong", tool_call_id="call_9"),
        m.AIMessage(
            [{"type": "reasoning", "reasoning": "r"}],
            tool_calls=[{"name": "ping", "args": {}, "id": "call_10"}],
        ),
        m.ToolMessage("pong", tool_call_id="call_10"),
    ]


def odd_ai_messages(ns: SimpleNamespace) -> list[Any]:
    m = ns.m
    return [
        m.HumanMessage("go"),
        m.AIMessage(
            "",
            invalid_tool_calls=[{"name": "f", "args": "{bad json", "id": "c4", "error": "oops"}],
        ),
        m.AIMessage(
            "from kwargs",
            additional_kwargs={
                "tool_calls": [
                    {
                        "id": "k1",
                        "type": "function",
                        "function": {"name": "f", "arguments": "{}"},
                        "index": 0,
                    }
                ]
            },
        ),
        m.AIMessage("", additional_kwargs={"function_call": {"name": "f", "arguments": "{}"}}),
        m.AIMessage("spoken", additional_kwargs={"audio": {"id": "aud_1", "data": "xx"}}),
        m.SystemMessage("dev", additional_kwargs={"__openai_role__": "developer"}),
    ]


MESSAGE_SETS = {
    "str": lambda ns: "hi",
    "conversation": conversation,
    "content_lists": content_lists,
    "odd_ai_messages": odd_ai_messages,
}

TOOL_SETS = {
    "none": lambda ns: None,
    "functions": lambda ns: [ns.tool(get_weather), ns.tool(ping)],
    "mixed": lambda ns: [get_weather, Search, OPENAI_DICT_TOOL],
}

BINDINGS = [
    {},
    {"tool_choice": "auto"},
    {"tool_choice": "none"},
    {"tool_choice": "any", "parallel_tool_calls": False},
    {"tool_choice": True, "parallel_tool_calls": True},
    {"tool_choice": "get_weather"},
    {"tool_choice": "unknown_tool"},
    {"tool_choice": "file_search"},
    {"tool_choice": {"type": "function", "function": {"name": "ping"}}},
    {"tool_choice": False},
]

SETTINGS = {
    "default": {"model": "gpt-4o-mini"},
    "tuned": {
        "model": "gpt-4o-mini",
        "temperature": 0.2,
        "max_tokens": 100,
        "top_p": 0.9,
        "seed": 7,
        "n": 1,
        "presence_penalty": 0.0,
        "frequency_penalty": 0.5,
        "stop": ["END"],
        "logprobs": True,
        "top_logprobs": 2,
        "extra_body": {"custom": 1},
        "model_kwargs": {"user": "u1"},
    },
    "streaming": {"model": "deepseek-chat", "streaming": True, "temperature": 0},
    "o_series": {"model": "o3-mini"},
    "gpt5": {"model": "gpt-5-mini", "temperature": 0.3},
}

CALL_KWARGS = {
    "none": {},
    "call": {"temperature": None, "max_tokens": 10, "seed": 1, "stop": ["x"]},
    "stream": {"stream": True, "stream_options": {"include_usage": True}},
}


def payload(
    ns: SimpleNamespace, messages: str, tools: str, binding: dict, settings: str, call: str
):
    model = ns.ChatOpenAI(api_key="sk-test", **SETTINGS[settings])
    bound: dict[str, Any] = {}
    tool_list = TOOL_SETS[tools](ns)
    if tool_list is not None:
        bound = dict(model.bind_tools(tool_list, **binding).kwargs)
    kwargs = dict(CALL_KWARGS[call])
    stop = kwargs.pop("stop", None)
    return model._get_request_payload(MESSAGE_SETS[messages](ns), stop=stop, **bound, **kwargs)


def both(fn: Any, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
    out = []
    for ns in (MINI, UP):
        try:
            out.append(("ok", fn(ns, *args, **kwargs)))
        except Exception as e:
            out.append(("raised", type(e).__name__, str(e)))
    return out[0], out[1]


def as_json(x: Any) -> str:
    return json.dumps(x, ensure_ascii=False)


@pytest.mark.parametrize("messages", list(MESSAGE_SETS))
@pytest.mark.parametrize("settings", list(SETTINGS))
@pytest.mark.parametrize("call", list(CALL_KWARGS))
def test_payload_for_messages_settings_and_call_kwargs(messages: str, settings: str, call: str):
    mini, up = both(payload, messages, "functions", {"tool_choice": "any"}, settings, call)
    assert up[0] == "ok", up
    assert as_json(mini) == as_json(up)


@pytest.mark.parametrize("tools", list(TOOL_SETS))
@pytest.mark.parametrize("binding", BINDINGS, ids=lambda b: json.dumps(b, sort_keys=True))
def test_payload_for_tools_and_tool_choice(tools: str, binding: dict):
    mini, up = both(payload, "conversation", tools, binding, "default", "none")
    assert up[0] == "ok", up
    assert as_json(mini) == as_json(up)


def test_payload_errors_match():
    def bad_tool_choice(ns):
        return ns.ChatOpenAI(model="m", api_key="k").bind_tools([ns.tool(ping)], tool_choice=1)

    def bad_tool(ns):
        return ns.ChatOpenAI(model="m", api_key="k").bind_tools([42])

    def bad_image(ns):
        msg = ns.m.HumanMessage([{"type": "image", "file_id": "f1"}])
        return ns.ChatOpenAI(model="m", api_key="k")._get_request_payload([msg])

    def bad_n(ns):
        return ns.ChatOpenAI(model="m", api_key="k", n=0)

    def unknown_message(ns):
        return ns.ChatOpenAI(model="m", api_key="k")._get_request_payload(
            [ns.m.RemoveMessage(id="x")]
        )

    for fn in (bad_tool_choice, bad_tool, bad_image, unknown_message):
        mini, up = both(fn)
        assert up[0] == "raised"
        assert mini == up
    mini, up = both(bad_n)  # pydantic wraps the validator's ValueError
    assert mini[:2] == up[:2] == ("raised", "ValidationError")
    assert "n must be at least 1." in mini[2] and "n must be at least 1." in up[2]


def test_invocation_params_match():
    """What ``on_chat_model_start`` receives: the tracer builds its payload from it."""

    def params(ns):
        model = ns.ChatOpenAI(api_key="sk-test", **SETTINGS["tuned"])
        bound = model.bind_tools([ns.tool(get_weather)], tool_choice="any").kwargs
        return model._get_invocation_params(stop=["s"], **bound)

    mini, up = both(params)
    assert as_json(mini) == as_json(up)


def test_missing_key_fails_at_construction_like_upstream():
    mini, up = both(lambda ns: ns.ChatOpenAI(model="gpt-4o-mini"))
    assert up[:2] == ("raised", "OpenAIError")
    assert mini == up


# ---- replies ------------------------------------------------------------------------------------

REPLIES = {
    "text": loop.completion("Hello!"),
    "tools": {
        **loop.completion(None, [("call_1", "get_weather", '{"city": "Paris"}')]),
        "service_tier": "default",
    },
    "mixed_calls": {
        "id": "chatcmpl-x",
        "model": "gpt-4o-mini-2024-07-18",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": None,
                    "name": "bot",
                    "id": "m1",
                    "refusal": "I can't",
                    "tool_calls": [
                        {
                            "id": "call_1",
                            "type": "function",
                            "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
                        },
                        {
                            "id": "call_2",
                            "type": "function",
                            "function": {"name": "f", "arguments": "{bad"},
                        },
                        {
                            "id": "call_3",
                            "type": "function",
                            "function": {"name": "g", "arguments": ""},
                        },
                        {
                            "id": "call_4",
                            "type": "function",
                            "function": {"name": "h", "arguments": "null"},
                        },
                    ],
                },
            }
        ],
    },
    "priority_usage": {
        **loop.completion("Hi"),
        "service_tier": "priority",
        "usage": {
            "prompt_tokens": 50,
            "completion_tokens": 20,
            "total_tokens": 70,
            "prompt_tokens_details": {"cached_tokens": 10, "audio_tokens": 0},
            "completion_tokens_details": {"reasoning_tokens": 5, "audio_tokens": 0},
        },
    },
    "flex_partial_usage": {
        **loop.completion("Hi"),
        "service_tier": "flex",
        "usage": {"prompt_tokens": 7, "completion_tokens": None},
    },
    "roles": {
        "choices": [
            {"message": {"role": "developer", "content": "be brief"}, "finish_reason": None},
        ],
    },
    "tool_role": {
        "choices": [{"message": {"role": "tool", "content": "r", "tool_call_id": "c", "name": "t"}}]
    },
    "user_role": {"choices": [{"message": {"role": "user", "content": "q", "name": "n"}}]},
    "error": {"error": {"message": "boom"}, "choices": None},
    "no_choices": {"id": "x", "object": "chat.completion"},
    "null_choices": {"id": "x", "choices": None},
    "non_object_args": loop.completion(None, [("c", "f", "[1, 2]")]),
}


def chat_result(ns: SimpleNamespace, body: Any) -> Any:
    model = ns.ChatOpenAI(model="gpt-4o-mini", api_key="sk-test")
    result = model._create_chat_result(body)
    if ns is MINI:
        return result
    # what the core does with a ChatResult (chat_models.py:2082): merge its metadata
    generation = result.generations[0]
    message = generation.message
    message.response_metadata = {**(generation.generation_info or {}), **message.response_metadata}
    if len(result.generations) == 1 and result.llm_output is not None:
        message.response_metadata = {**result.llm_output, **message.response_metadata}
    return message


@pytest.mark.parametrize("name", list(REPLIES))
def test_reply_parsed_like_upstream(name: str):
    mini, up = both(chat_result, REPLIES[name])
    if name == "non_object_args":  # pydantic's message names the package's model class
        assert mini[:2] == up[:2] == ("raised", "ValidationError")
        assert "Input should be a valid dictionary" in mini[2]
        return
    assert repr(mini) == repr(up)


def test_reply_that_is_not_json_fails_like_upstream():
    mini, up = both(chat_result, "<html>" + "x" * 300)
    assert up[0] == "raised" and mini == up


# ---- the wire: the same server, the same SDK ------------------------------------------------


def run_on_loopback(ns: SimpleNamespace, replies: list, call: Any, **settings: Any):
    with loop.LoopbackServer(list(replies)) as server:
        model = ns.ChatOpenAI(
            model="gpt-4o-mini",
            base_url=server.base_url,
            api_key="sk-test",
            max_retries=0,
            **settings,
        )
        try:
            result = ("ok", call(model))
        except Exception as e:
            result = ("raised", type(e), str(e))
    return normalize_ids(result), server.bodies


def chunks_and_sum(model: Any) -> Any:
    chunks = list(model.stream("hi", stop=["END"]))
    total = chunks[0]
    for c in chunks[1:]:
        total = total + c
    return chunks, total


STREAMS = {
    "text": [
        loop.chunk({"role": "assistant", "content": ""}),
        loop.chunk({"content": "Hel"}),
        loop.chunk({"content": "lo"}),
        {**loop.chunk({}, finish_reason="stop"), "service_tier": "default"},
        loop.chunk(choices=False, usage=(12, 8)),
    ],
    "two_tool_calls": [
        loop.chunk({"role": "assistant", "content": None}),
        loop.chunk(
            {
                "tool_calls": [
                    {
                        "index": 0,
                        "id": "call_A",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": ""},
                    }
                ]
            }
        ),
        loop.chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"ci'}}]}),
        loop.chunk({"tool_calls": [{"index": 0, "function": {"arguments": 'ty": "Paris"}'}}]}),
        loop.chunk(
            {
                "tool_calls": [
                    {
                        "index": 1,
                        "id": "call_B",
                        "type": "function",
                        "function": {"name": "get_time", "arguments": "{}"},
                    }
                ]
            }
        ),
        loop.chunk({}, finish_reason="tool_calls"),
    ],
    "odd_deltas": [
        loop.chunk(
            {"role": "assistant", "content": "a", "function_call": {"name": None, "arguments": "{"}}
        ),
        loop.chunk(
            {"tool_calls": [{"id": "no_index", "function": {"name": "f", "arguments": "{}"}}]}
        ),
        loop.chunk(
            {
                "tool_calls": [
                    {"index": 0, "id": "c1", "function": {"name": "f", "arguments": "{bad"}}
                ]
            }
        ),
        loop.chunk({"tool_calls": [{"index": 0, "function": {"name": "f", "arguments": ""}}]}),
        {
            **loop.chunk({"content": "b"}, finish_reason="stop"),
            "choices": [
                {
                    "index": 0,
                    "delta": {"content": "b"},
                    "finish_reason": "stop",
                    "logprobs": {"content": []},
                }
            ],
        },
    ],
}


@pytest.mark.parametrize("name", list(STREAMS))
@pytest.mark.parametrize("stream_usage", [None, True])
def test_stream_chunks_merge_like_upstream_and_send_the_same_body(name: str, stream_usage: Any):
    reply = loop.Reply.sse(STREAMS[name])
    mini, mini_bodies = run_on_loopback(MINI, [reply], chunks_and_sum, stream_usage=stream_usage)
    up, up_bodies = run_on_loopback(UP, [reply], chunks_and_sum, stream_usage=stream_usage)
    assert up[0] == "ok"
    assert repr(mini) == repr(up)
    assert as_json(mini_bodies) == as_json(up_bodies)
    assert mini_bodies[0]["stream"] is True


@pytest.mark.parametrize("name", ["text", "tools", "mixed_calls", "priority_usage"])
def test_invoke_through_the_sdk_like_upstream(name: str):
    """An SDK ``ChatCompletion`` (not a dict) reaches ``_create_chat_result``: ``refusal`` is set."""
    reply = loop.Reply.json(REPLIES[name])
    tools = [get_weather]

    def call(model):
        return model.bind_tools(tools, tool_choice="any").invoke([("system", "s"), ("user", "q")])

    mini, mini_bodies = run_on_loopback(MINI, [reply], call)
    up, up_bodies = run_on_loopback(UP, [reply], call)
    assert up[0] == "ok"
    assert repr(mini) == repr(up)
    assert as_json(mini_bodies) == as_json(up_bodies)


@pytest.mark.parametrize(
    "reply",
    [
        loop.Reply.error(401, "Incorrect API key provided"),
        loop.Reply.error(429, "Rate limit reached"),
        loop.Reply.error(500, "The server had an error"),
        loop.Reply(body=b"<html>oops</html>", content_type="text/html"),
    ],
    ids=["401", "429", "500", "html"],
)
def test_errors_are_upstreams_subclasses_of_the_sdks(reply: Any):
    """Both re-raise the SDK's error as a subclass of it and of a model error (``base.py:684``):
    same class name, same SDK bases, same text (every failure and the retry middleware:
    ``test_openai_errors_diff.py``)."""
    mini, _ = run_on_loopback(MINI, [reply], lambda m: m.invoke("hi"))
    up, _ = run_on_loopback(UP, [reply], lambda m: m.invoke("hi"))
    assert mini[0] == up[0] == "raised"
    assert mini[2] == up[2]
    if reply.status == 200:  # a ValueError from _create_chat_result itself, on both sides
        assert mini[1] is up[1] is ValueError
        return
    assert mini[1].__name__ == up[1].__name__
    assert mini[1].__name__ in {
        "OpenAIAuthenticationError",
        "OpenAIRateLimitError",
        "OpenAIAPIError",
    }
    sdk_bases = [
        [c for c in side.__mro__ if c.__module__.startswith("openai")] for side in (mini[1], up[1])
    ]
    assert sdk_bases[0] == sdk_bases[1] and sdk_bases[0]  # the very same openai classes


# ---- init_chat_model ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ("openai:gpt-4o-mini", {}),
        ("gpt-4o-mini", {}),
        ("openai:ft:gpt-4o-mini:org:x:id", {}),
        ("o3-mini", {"temperature": 0}),
        ("my-model", {"model_provider": "openai"}),
        ("my-model", {"model_provider": "OpenAI"}),
    ],
)
def test_init_chat_model_openai(args: tuple) -> None:
    model, kwargs = args

    def build(init):
        m = init(model, api_key="sk-test", **kwargs)
        return type(m).__name__, m.model_name, m.temperature

    assert build(mini_init_chat_model) == build(up_init_chat_model)


@pytest.mark.parametrize(
    "args",
    [
        ("foo:bar", {}),
        ("my-model", {}),
        ("OpenAI:gpt-4o-mini", {}),
        ("ft:gpt-4o-mini:org", {}),
        ("bar", {"model_provider": "foo"}),
        (42, {}),
    ],
)
def test_init_chat_model_errors(args: tuple) -> None:
    model, kwargs = args
    out = []
    for init in (mini_init_chat_model, up_init_chat_model):
        with pytest.raises(Exception) as info:
            init(model, **kwargs)
        out.append((type(info.value).__name__, str(info.value)))
    assert out[0] == out[1]
