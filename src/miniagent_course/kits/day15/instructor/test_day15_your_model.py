"""The capstone's "run it against your model" path, end to end against the loopback server.

``course_model`` is the switch: the offline fake unless ``MINIAGENT_MODEL`` names a model.
``day15.with_your_model`` builds the capstone on the model ``MINIAGENT_MODEL`` names, through
``OPENAI_BASE_URL``, as a learner does with Ollama, vLLM, DeepSeek, Qwen or OpenAI; here the
endpoint is the loopback Chat Completions server, scripted to look a customer up, create the order
and answer with a ``WorkOrder``. The tracer must show exactly what the server received.
"""

import json

import pytest

from miniagent.messages import AIMessage
from miniagent.testing import ScriptedChatModel
from miniagent_course.kits.day15 import cases as day15
from miniagent_course.lab.loopback import LoopbackServer, Reply, completion
from miniagent_course.models import course_model

ORDER = {"order_id": "WO-1", "customer_id": "C-1", "priority": "high", "escalated": False}
CREATE = {"customer_id": "C-1", "title": "Pump leaks", "priority": "high"}


def script() -> list[Reply]:
    return [
        Reply.json(completion(None, [("c1", "lookup_customer", '{"customer_id": "C-1"}')])),
        Reply.json(completion(None, [("c2", "create_work_order", json.dumps(CREATE))])),
        Reply.json(completion(None, [("c3", "WorkOrder", json.dumps(ORDER))])),
    ]


def test_the_capstone_runs_on_an_openai_compatible_endpoint(monkeypatch):
    with LoopbackServer(script()) as server:
        monkeypatch.setenv("MINIAGENT_MODEL", "openai:loop-model")
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        out, tracer = day15.with_your_model("C-1 reports a leaking pump, high priority.")
        bodies = server.bodies
    assert out["structured_response"].model_dump() == ORDER
    assert out["current_order"]["id"] == "WO-1"
    assert len(bodies) == len(tracer.calls) == 3
    # what the tracer shows is what went over the wire
    assert [call.payload for call in tracer.calls] == bodies
    # ToolStrategy forces a tool call at every request (create_agent's tool_choice="any")
    assert [body["tool_choice"] for body in bodies] == ["required"] * 3
    first, last = bodies[0], bodies[-1]
    assert first["model"] == "loop-model" and first["temperature"] == 0
    assert [t["function"]["name"] for t in first["tools"]] == [
        "lookup_customer",
        "create_work_order",
        "escalate",
        "WorkOrder",
    ]
    assert first["messages"][0] == {
        "role": "system",
        "content": f"{day15.RULES}\nNo current order yet.",
    }
    # the dynamic prompt of the last call carries the order the tool saved into the state
    assert last["messages"][0]["content"].endswith(
        '"id": "WO-1", "priority": "high", "title": "Pump leaks"}'
    )


def test_without_a_named_model_it_says_what_to_set(monkeypatch):
    monkeypatch.delenv("MINIAGENT_MODEL", raising=False)
    with pytest.raises(RuntimeError, match="MINIAGENT_MODEL"):
        day15.with_your_model("hi")


def test_course_model_is_the_fake_unless_a_model_is_named(monkeypatch):
    pytest.importorskip("openai")
    from miniagent.openai import ChatOpenAI

    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_BASE", "MINIAGENT_MODEL"):
        monkeypatch.delenv(var, raising=False)
    fake = ScriptedChatModel([AIMessage("offline")])
    assert course_model(fake) is fake
    with LoopbackServer() as server:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")  # a key alone switches nothing on
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        assert course_model(fake) is fake
        monkeypatch.setenv("MINIAGENT_MODEL", "  ")
        assert course_model(fake) is fake
        monkeypatch.setenv("MINIAGENT_MODEL", "openai:loop-model")
        real = course_model(fake, max_retries=0)
        assert type(real) is ChatOpenAI and real.model_name == "loop-model"
        named = course_model(fake, "openai:other", max_retries=0)
        assert named.model_name == "other"  # the argument wins over MINIAGENT_MODEL
        assert course_model(fake, fake) is fake
        server.script(Reply.json(completion("online")))
        assert real.invoke("hi").content == "online"
