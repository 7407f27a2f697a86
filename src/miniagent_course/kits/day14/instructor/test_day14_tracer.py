"""Day 14's instrument, the payload tracer (``miniagent_course.tracer``): what it records is what
goes over the wire, offline it builds the request a real model would send, and it never shows
the key or breaks a run. The wire is the loopback Chat Completions server (127.0.0.1 only)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytest.importorskip("openai")

from miniagent.messages import AIMessage  # noqa: E402
from miniagent.openai import ChatOpenAI  # noqa: E402
from miniagent.prebuilt import create_react_agent  # noqa: E402
from miniagent.testing import ScriptedChatModel  # noqa: E402
from miniagent.tools import tool  # noqa: E402
from miniagent_course.lab.loopback import (  # noqa: E402
    LoopbackServer,
    Reply,
    completion,
    streamed_tool_call_chunks,
)
from miniagent_course.tracer import PayloadTracer, request_payload  # noqa: E402

SECRET = "sk-loopback-TRACER-0123456789"


def lookup_order(order_id: str) -> str:
    """Return the status of a work order."""
    return "open, due Friday"


def assign(order_id: str, person: str) -> str:
    """Assign a work order to a person."""
    return "assigned"


TOOLS = [tool(lookup_order), tool(assign)]
LOOKUP = ("call_1", "lookup_order", '{"order_id": "WO-7"}')
SCRIPT = [
    completion("Checking.", [LOOKUP]),
    completion("", [("call_2", "assign", '{"order_id": "WO-7", "person": "Ada"}')]),
    completion("WO-7 is open, due Friday; Ada has it."),
]


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch):
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_BASE", "MINIAGENT_MODEL"):
        monkeypatch.delenv(var, raising=False)
    with LoopbackServer() as s:
        yield s


def real_model(server: LoopbackServer, **kwargs) -> ChatOpenAI:
    return ChatOpenAI(
        model="loop-model", base_url=server.base_url, api_key=SECRET, max_retries=0, **kwargs
    )


# ---- over the wire ----------------------------------------------------------------------------


def test_the_tracer_never_shows_the_key(server: LoopbackServer):
    server.script(Reply.json(SCRIPT[2]))
    tracer = PayloadTracer()
    real_model(server).invoke("hi", {"callbacks": [tracer]})
    assert SECRET not in tracer.to_json() and SECRET not in repr(tracer.calls)
    assert server.headers[0]["authorization"] == f"Bearer {SECRET}"  # it is sent, nowhere else


def test_what_the_tracer_reports_is_what_went_over_the_wire(server: LoopbackServer):
    server.script(*(Reply.json(body) for body in SCRIPT))
    agent = create_react_agent(real_model(server, temperature=0), TOOLS, prompt="Be brief.")
    tracer = PayloadTracer()
    agent.invoke({"messages": [("user", "Who has WO-7?")]}, {"callbacks": [tracer]})
    assert len(server.bodies) == len(tracer.calls) == 3
    assert server.bodies == tracer.payloads()
    assert server.bodies[-1]["tools"] == tracer.calls[-1].tools
    assert tracer.calls[-1].messages[0].content == "Be brief."


def test_a_streamed_request_is_the_traced_one_plus_the_stream_flag(server: LoopbackServer):
    server.script(
        Reply.sse(streamed_tool_call_chunks([LOOKUP], "Checking.")),
        Reply.sse(streamed_tool_call_chunks([], "It is open.")),
    )
    tracer = PayloadTracer()
    agent = create_react_agent(real_model(server), TOOLS)
    for _ in agent.stream(
        {"messages": [("user", "WO-7?")]}, {"callbacks": [tracer]}, stream_mode="messages"
    ):
        pass
    # no stream_options: a custom URL may not support them
    assert server.bodies == [{**p, "stream": True} for p in tracer.payloads()]


# ---- offline ----------------------------------------------------------------------------------


def test_tracer_with_a_fake_builds_the_payload_the_real_model_would_send():
    call = {"name": "lookup_order", "args": {"order_id": "WO-7"}, "id": "c1"}
    fake = ScriptedChatModel([AIMessage("", tool_calls=[call]), AIMessage("Open.")])
    agent = create_react_agent(fake, TOOLS, prompt="Be brief.")
    tracer = PayloadTracer(model="gpt-4o-mini")
    agent.invoke({"messages": [("user", "WO-7?")]}, {"callbacks": [tracer]})
    assert len(tracer.calls) == 2
    second = tracer.calls[1]
    real = ChatOpenAI(model="gpt-4o-mini", api_key="unused")
    bound = real.bind_tools(TOOLS).kwargs
    assert second.payload == real._get_request_payload(second.messages, **bound)
    assert [m["role"] for m in second.payload["messages"]] == [
        "system",
        "user",
        "assistant",
        "tool",
    ]
    assert second.payload["messages"][2]["tool_calls"][0]["function"]["arguments"] == (
        '{"order_id": "WO-7"}'
    )
    assert json.loads(second.payload_json()) == second.payload
    assert second.model == "ScriptedChatModel"


def test_tracer_never_breaks_a_run():
    tracer = PayloadTracer()
    fake = ScriptedChatModel([AIMessage("ok")])
    assert (
        fake.invoke("hi", {"callbacks": [tracer]}, tools=[{"type": "web_search"}]).content == "ok"
    )
    assert tracer.calls[0].payload is None
    assert tracer.calls[0].payload_error.startswith("NotImplementedError: miniagent's ChatOpenAI")


def test_request_payload_of_a_real_models_parameters_is_its_payload():
    model = ChatOpenAI(model="o3-mini", api_key="k", max_tokens=5, model_kwargs={"user": "u"})
    messages = [("system", "s"), ("user", "q")]
    params = model._get_invocation_params(stop=["x"], tool_choice="auto")
    expected = model._get_request_payload(messages, stop=["x"], tool_choice="auto")
    assert request_payload(model._convert_input(messages), params) == expected
    assert expected["messages"][0]["role"] == "developer"


def test_the_offline_tracer_needs_no_openai_sdk():
    code = (
        "import sys; sys.modules['openai'] = None\n"
        "from miniagent.testing import ScriptedChatModel\n"
        "from miniagent.messages import AIMessage\n"
        "from miniagent_course.tracer import PayloadTracer\n"
        "tracer = PayloadTracer()\n"
        "ScriptedChatModel([AIMessage('ok')]).invoke('hi', {'callbacks': [tracer]})\n"
        "assert tracer.calls[0].payload['messages'][0]['content'] == 'hi'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
