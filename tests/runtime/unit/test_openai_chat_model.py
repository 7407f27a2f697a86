"""The real chat model end to end: a loopback Chat Completions server, the ``openai`` SDK,
``create_react_agent`` and the demo.

The server (``tests/runtime/sides/loopback.py``) listens on 127.0.0.1 only and answers from a
script; retries are off (``max_retries=0``) and timeouts short, so every test is quick and
offline. The course's payload tracer and model switch, which run on it too, are tested in the
kits of the days that use them (Day 14, Day 15).
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from typing import Any

import pytest

pytest.importorskip("openai")

import openai  # noqa: E402
from sides.loopback import (  # noqa: E402
    LoopbackServer,
    Reply,
    completion,
    streamed_tool_call_chunks,
)

from miniagent.chat_models import init_chat_model  # noqa: E402
from miniagent.checkpoint import InMemorySaver  # noqa: E402
from miniagent.messages import AIMessage, HumanMessage, ToolMessage  # noqa: E402
from miniagent.openai import ChatOpenAI  # noqa: E402
from miniagent.prebuilt import create_react_agent  # noqa: E402
from miniagent.testing import ScriptedChatModel  # noqa: E402
from miniagent.tools import tool  # noqa: E402

SECRET = "sk-loopback-SECRET-0123456789"


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_BASE", "MINIAGENT_MODEL"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture
def server():
    with LoopbackServer() as s:
        yield s


def find_city(landmark: str) -> str:
    """Return the city a famous landmark is in."""
    return "Paris"


def check_weather(city: str) -> str:
    """Return the current weather in a city."""
    return "sunny, 21 °C"


TOOLS = [tool(find_city), tool(check_weather)]

SCRIPT = [
    completion("Let me look.", [("call_1", "find_city", '{"landmark": "Eiffel Tower"}')]),
    completion("", [("call_2", "check_weather", '{"city": "Paris"}')]),
    completion("It is in Paris, where it is sunny and 21 °C."),
]


def real_model(server: LoopbackServer, **kwargs: Any) -> ChatOpenAI:
    return ChatOpenAI(
        model="loop-model", base_url=server.base_url, api_key=SECRET, max_retries=0, **kwargs
    )


# ---- the key ------------------------------------------------------------------------------------


def test_the_key_is_never_shown(server: LoopbackServer, caplog: pytest.LogCaptureFixture):
    model = real_model(server)
    shown = [repr(model), str(model), model.model_dump_json(), json.dumps(model.asdict())]
    shown.append(json.dumps(model._get_invocation_params(tools=[])))
    server.script(Reply.json(SCRIPT[2]), Reply.error(401, "Incorrect API key provided"))
    caplog.set_level(logging.DEBUG)
    model.invoke("hi")
    with pytest.raises(openai.AuthenticationError) as info:
        model.invoke("hi")
    shown += [str(info.value), repr(info.value)]
    shown += [record.getMessage() for record in caplog.records]
    assert all(SECRET not in text for text in shown)
    assert "SecretStr('**********')" in repr(model)
    assert server.headers[0]["authorization"] == f"Bearer {SECRET}"  # it is sent, nowhere else


def test_key_and_endpoint_from_the_usual_environment(server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)  # read by the SDK, as upstream
    model = ChatOpenAI(model="loop-model", max_retries=0)
    assert model.openai_api_key.get_secret_value() == SECRET and model.stream_usage is None
    server.script(Reply.json(SCRIPT[2]))
    assert model.invoke("hi").content == SCRIPT[2]["choices"][0]["message"]["content"]
    assert server.paths == ["/v1/chat/completions"]


def test_no_key_fails_at_construction():
    with pytest.raises(openai.OpenAIError, match="Missing credentials"):
        ChatOpenAI(model="gpt-4o-mini")


# ---- a full agent run through the SDK -------------------------------------------------------


def test_agent_run_sends_each_request_through_the_sdk(server: LoopbackServer):
    server.script(*(Reply.json(body) for body in SCRIPT))
    agent = create_react_agent(real_model(server, temperature=0), TOOLS, prompt="Be brief.")
    result = agent.invoke({"messages": [("user", "Weather at the Eiffel Tower?")]})
    assert [m.type for m in result["messages"]] == ["human", "ai", "tool", "ai", "tool", "ai"]
    assert result["messages"][2].content == "Paris"
    assert len(server.bodies) == 3
    last = server.bodies[-1]
    assert [m["role"] for m in last["messages"]] == [
        "system",
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
    ]
    assert [t["function"]["name"] for t in last["tools"]] == ["find_city", "check_weather"]
    assert last["temperature"] == 0
    assert last["messages"][0] == {"role": "system", "content": "Be brief."}


def test_streamed_agent_run_merges_tool_call_chunks(server: LoopbackServer):
    calls = [("call_1", "find_city", '{"landmark": "Eiffel Tower"}')]
    server.script(
        Reply.sse(streamed_tool_call_chunks(calls, "Looking.")),
        Reply.sse(streamed_tool_call_chunks([], "It is in Paris.")),
    )
    agent = create_react_agent(real_model(server), TOOLS)
    tokens = []
    for message, _meta in agent.stream({"messages": [("user", "Where?")]}, stream_mode="messages"):
        tokens.append(message)
    ai_chunks = [t for t in tokens if t.type == "AIMessageChunk"]
    assert "".join(c.content for c in ai_chunks) == "Looking.It is in Paris."
    tool_results = [t for t in tokens if isinstance(t, ToolMessage)]
    assert [t.content for t in tool_results] == ["Paris"]  # the merged call ran
    # streamed requests say so (no stream_options: a custom URL may not support them)
    assert [(b["stream"], "stream_options" in b) for b in server.bodies] == [(True, False)] * 2


FAILURES = {
    "401": (Reply.error(401, "Incorrect API key provided"), openai.AuthenticationError),
    "429": (Reply.error(429, "Rate limit reached"), openai.RateLimitError),
    "500": (Reply.error(500, "The server had an error"), openai.InternalServerError),
    "malformed": (Reply(body=b"<html>bad gateway</html>", content_type="text/html"), ValueError),
    "timeout": (Reply(delay=1.5, body=json.dumps(SCRIPT[2]).encode()), openai.APITimeoutError),
}


@pytest.mark.parametrize("failure", list(FAILURES))
def test_a_failed_call_is_a_clear_error_and_loses_no_state(server: LoopbackServer, failure: str):
    reply, error = FAILURES[failure]
    server.script(Reply.json(completion("Hello!")), reply)
    saver = InMemorySaver()
    agent = create_react_agent(real_model(server, timeout=0.5), [], checkpointer=saver)
    config = {"configurable": {"thread_id": "t1"}}
    agent.invoke({"messages": [("user", "hi")]}, config)
    before = agent.get_state(config).values["messages"]
    with pytest.raises(error) as info:
        agent.invoke({"messages": [("user", "again")]}, config)
    text = str(info.value)
    expected = {
        "401": "Error code: 401 - Incorrect API key provided",
        "429": "Error code: 429 - Rate limit reached",
        "500": "Error code: 500 - The server had an error",
        "malformed": "Unexpected response type from OpenAI-compatible endpoint",
        "timeout": "Request timed out.",
    }[failure]
    assert expected in text and SECRET not in text
    after = agent.get_state(config).values["messages"]
    assert [m.content for m in after[: len(before)]] == ["hi", "Hello!"]
    assert len(server.bodies) == 2  # one try each: retries are off


# ---- callbacks ----------------------------------------------------------------------------------


def test_on_chat_model_start_gets_upstreams_arguments():
    seen: list[tuple[Any, ...]] = []

    class Handler:
        def on_chat_model_start(self, serialized, messages, *, run_id, **kwargs):
            seen.append((serialized, messages, run_id, kwargs))

    fake = ScriptedChatModel([AIMessage("ok")])
    reply = fake.bind_tools(TOOLS).invoke(
        [HumanMessage("hi")], {"callbacks": [Handler()], "tags": ["t"]}
    )
    serialized, messages, run_id, kwargs = seen[0]
    assert serialized["name"] == "ScriptedChatModel" and serialized["id"][-1] == "ScriptedChatModel"
    assert [[m.content for m in batch] for batch in messages] == [["hi"]]
    assert reply.id == f"lc_run--{run_id}-0"
    params = kwargs["invocation_params"]
    assert params["_type"] == "scripted-chat-model" and params["stop"] is None
    assert [t["function"]["name"] for t in params["tools"]] == ["find_city", "check_weather"]
    assert kwargs["tags"] == ["t"] and kwargs["batch_size"] == 1


# ---- resolving a model name ------------------------------------------------------------------------


def test_init_chat_model_builds_miniagents_chat_openai(monkeypatch):
    model = init_chat_model("openai:gpt-4o-mini", api_key="k", temperature=0)
    assert type(model) is ChatOpenAI and model.model_name == "gpt-4o-mini"
    with pytest.raises(NotImplementedError, match="miniagent has no ChatAnthropic"):
        init_chat_model("anthropic:claude-x")
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    agent = create_react_agent("openai:gpt-4o-mini", TOOLS)  # the string path of the factory
    assert agent.get_graph() is not None


# ---- the demo ---------------------------------------------------------------------------------------


def test_demo_runs_against_the_named_endpoint(server: LoopbackServer):
    server.script(*(Reply.json(body) for body in SCRIPT))
    env = {**os.environ, "MINIAGENT_MODEL": "openai:loop-model", "OPENAI_BASE_URL": server.base_url}
    env["OPENAI_API_KEY"] = SECRET
    done = subprocess.run(
        [sys.executable, "-m", "miniagent.demo"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "    tool call    find_city(landmark='Eiffel Tower')  [id call_1]" in lines
    assert "    model sees   5 message(s)" in lines
    assert (
        lines[lines.index("Final answer:") + 1].strip()
        == SCRIPT[2]["choices"][0]["message"]["content"]
    )
    assert len(server.bodies) == 3 and server.bodies[0]["model"] == "loop-model"
    assert SECRET not in done.stdout + done.stderr


def test_demo_ignores_an_exported_key_alone(monkeypatch):
    env = {**os.environ, "OPENAI_API_KEY": SECRET, "OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}
    env.pop("MINIAGENT_MODEL", None)
    done = subprocess.run(
        [sys.executable, "-m", "miniagent.demo"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "The Eiffel Tower is in Paris, where it is sunny and 21 °C right now." in done.stdout


def test_payloads_need_no_openai_sdk():
    """``import miniagent`` and a payload never import ``openai``; a request names it."""
    code = (
        "import sys; sys.modules['openai'] = None\n"
        "from miniagent.openai import ChatOpenAI\n"
        "model = ChatOpenAI(model='m', api_key='k')\n"
        "assert model._get_request_payload('hi')['messages'] == [{'content': 'hi', 'role': 'user'}]\n"
        "try:\n"
        "    model.invoke('hi')\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert 'pip install "miniagent[openai]"' in done.stdout
