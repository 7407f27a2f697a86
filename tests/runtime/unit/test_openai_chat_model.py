"""The real chat model end to end: a loopback Chat Completions server, the ``openai`` SDK,
``create_react_agent``, the tracer, the course switch and the demo.

The server (``miniagent_course/lab/loopback.py``) listens on 127.0.0.1 only and answers from a script;
retries are off (``max_retries=0``) and timeouts short, so every test is quick and offline.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from typing import Any

import pytest

from miniagent_course.lab.loopback import (
    LoopbackServer,
    Reply,
    completion,
    streamed_tool_call_chunks,
)

pytest.importorskip("openai")

import openai  # noqa: E402

from miniagent.chat_models import init_chat_model  # noqa: E402
from miniagent.checkpoint import InMemorySaver  # noqa: E402
from miniagent.messages import AIMessage, HumanMessage, ToolMessage  # noqa: E402
from miniagent.openai import ChatOpenAI  # noqa: E402
from miniagent.prebuilt import create_react_agent  # noqa: E402
from miniagent.testing import ScriptedChatModel  # noqa: E402
from miniagent.tools import tool  # noqa: E402
from miniagent_course.models import course_model  # noqa: E402
from miniagent_course.tracer import PayloadTracer, request_payload  # noqa: E402

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
    tracer = PayloadTracer()
    caplog.set_level(logging.DEBUG)
    model.invoke("hi", {"callbacks": [tracer]})
    with pytest.raises(openai.AuthenticationError) as info:
        model.invoke("hi")
    shown += [tracer.to_json(), repr(tracer.calls), str(info.value), repr(info.value)]
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


def test_agent_run_sends_what_the_tracer_reports(server: LoopbackServer):
    server.script(*(Reply.json(body) for body in SCRIPT))
    agent = create_react_agent(real_model(server, temperature=0), TOOLS, prompt="Be brief.")
    tracer = PayloadTracer()
    result = agent.invoke(
        {"messages": [("user", "Weather at the Eiffel Tower?")]}, {"callbacks": [tracer]}
    )
    assert [m.type for m in result["messages"]] == ["human", "ai", "tool", "ai", "tool", "ai"]
    assert result["messages"][2].content == "Paris"
    assert len(server.bodies) == len(tracer.calls) == 3
    assert server.bodies == tracer.payloads()
    last = server.bodies[-1]
    assert [m["role"] for m in last["messages"]] == [
        "system",
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
    ]
    assert last["tools"] == tracer.calls[-1].tools and last["temperature"] == 0
    assert tracer.calls[-1].messages[0].content == "Be brief."


def test_streamed_agent_run_merges_tool_call_chunks(server: LoopbackServer):
    calls = [("call_1", "find_city", '{"landmark": "Eiffel Tower"}')]
    server.script(
        Reply.sse(streamed_tool_call_chunks(calls, "Looking.")),
        Reply.sse(streamed_tool_call_chunks([], "It is in Paris.")),
    )
    agent = create_react_agent(real_model(server), TOOLS)
    tracer = PayloadTracer()
    tokens = []
    for message, _meta in agent.stream(
        {"messages": [("user", "Where?")]}, {"callbacks": [tracer]}, stream_mode="messages"
    ):
        tokens.append(message)
    ai_chunks = [t for t in tokens if t.type == "AIMessageChunk"]
    assert "".join(c.content for c in ai_chunks) == "Looking.It is in Paris."
    tool_results = [t for t in tokens if isinstance(t, ToolMessage)]
    assert [t.content for t in tool_results] == ["Paris"]  # the merged call ran
    # the streamed request is the traced one plus the stream flag (no stream_options: custom URL)
    assert server.bodies == [{**p, "stream": True} for p in tracer.payloads()]


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


# ---- the tracer offline -------------------------------------------------------------------------


def test_tracer_with_a_fake_builds_the_payload_the_real_model_would_send():
    fake = ScriptedChatModel(
        [
            AIMessage(
                "", tool_calls=[{"name": "find_city", "args": {"landmark": "Tower"}, "id": "c1"}]
            ),
            AIMessage("Paris."),
        ]
    )
    agent = create_react_agent(fake, TOOLS, prompt="Be brief.")
    tracer = PayloadTracer(model="gpt-4o-mini")
    agent.invoke({"messages": [("user", "Where?")]}, {"callbacks": [tracer]})
    assert len(tracer.calls) == 2
    call = tracer.calls[1]
    real = ChatOpenAI(model="gpt-4o-mini", api_key="unused")
    bound = real.bind_tools(TOOLS).kwargs
    assert call.payload == real._get_request_payload(call.messages, **bound)
    assert [m["role"] for m in call.payload["messages"]] == ["system", "user", "assistant", "tool"]
    assert call.payload["messages"][2]["tool_calls"][0]["function"]["arguments"] == (
        '{"landmark": "Tower"}'
    )
    assert json.loads(call.payload_json()) == call.payload
    assert call.model == "ScriptedChatModel"


def test_tracer_never_breaks_a_run():
    tracer = PayloadTracer()
    fake = ScriptedChatModel([AIMessage("ok")])
    assert (
        fake.invoke("hi", {"callbacks": [tracer]}, tools=[{"type": "web_search"}]).content == "ok"
    )
    assert tracer.calls[0].payload is None
    assert tracer.calls[0].payload_error.startswith("NotImplementedError: miniagent's ChatOpenAI")


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


def test_request_payload_of_a_real_models_parameters_is_its_payload():
    model = ChatOpenAI(model="o3-mini", api_key="k", max_tokens=5, model_kwargs={"user": "u"})
    messages = [("system", "s"), ("user", "q")]
    params = model._get_invocation_params(stop=["x"], tool_choice="auto")
    expected = model._get_request_payload(messages, stop=["x"], tool_choice="auto")
    assert request_payload(model._convert_input(messages), params) == expected
    assert expected["messages"][0]["role"] == "developer"


# ---- resolving a model name ------------------------------------------------------------------------


def test_init_chat_model_builds_miniagents_chat_openai(monkeypatch):
    model = init_chat_model("openai:gpt-4o-mini", api_key="k", temperature=0)
    assert type(model) is ChatOpenAI and model.model_name == "gpt-4o-mini"
    with pytest.raises(NotImplementedError, match="miniagent has no ChatAnthropic"):
        init_chat_model("anthropic:claude-x")
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    agent = create_react_agent("openai:gpt-4o-mini", TOOLS)  # the string path of the factory
    assert agent.get_graph() is not None


def test_course_model_is_the_fake_unless_a_model_is_named(server, monkeypatch):
    fake = ScriptedChatModel([AIMessage("offline")])
    assert course_model(fake) is fake
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)  # a key alone switches nothing on
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    assert course_model(fake) is fake
    monkeypatch.setenv("MINIAGENT_MODEL", "  ")
    assert course_model(fake) is fake
    monkeypatch.setenv("MINIAGENT_MODEL", "openai:loop-model")
    real = course_model(fake, max_retries=0)
    assert type(real) is ChatOpenAI and real.model_name == "loop-model"
    assert course_model(fake, "openai:other", max_retries=0).model_name == "other"  # argument wins
    assert course_model(fake, fake) is fake
    server.script(Reply.json(completion("online")))
    assert real.invoke("hi").content == "online"


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


def test_payloads_and_traces_need_no_openai_sdk():
    """``import miniagent`` and the offline tracer never import ``openai``; a request names it."""
    code = (
        "import sys; sys.modules['openai'] = None\n"
        "from miniagent.openai import ChatOpenAI\n"
        "from miniagent.testing import ScriptedChatModel\n"
        "from miniagent.messages import AIMessage\n"
        "from miniagent_course.tracer import PayloadTracer\n"
        "model = ChatOpenAI(model='m', api_key='k')\n"
        "assert model._get_request_payload('hi')['messages'] == [{'content': 'hi', 'role': 'user'}]\n"
        "tracer = PayloadTracer()\n"
        "ScriptedChatModel([AIMessage('ok')]).invoke('hi', {'callbacks': [tracer]})\n"
        "assert tracer.calls[0].payload['messages'][0]['content'] == 'hi'\n"
        "try:\n"
        "    model.invoke('hi')\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert 'pip install "miniagent[openai]"' in done.stdout
