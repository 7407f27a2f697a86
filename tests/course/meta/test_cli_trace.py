"""``miniagent trace``: the demo run with the ``PayloadTracer``, then each model call's request
body as JSON (on the toy course: the command needs no exercise)."""

from __future__ import annotations

import json
import re

import pytest

from miniagent import demo
from miniagent_course import cli
from miniagent_course.text import say
from miniagent_course.tracer import PayloadTracer


def printed_payloads(out: str) -> list[dict]:
    """The JSON body printed under each ``Model call n of N`` line."""
    decoder = json.JSONDecoder()
    headers = re.finditer(r"^Model call \d+ of \d+: .*\n", out, flags=re.MULTILINE)
    return [decoder.raw_decode(out, header.end())[0] for header in headers]


@pytest.mark.parametrize("agent", ["react", "create_agent"])
def test_trace_prints_the_demo_then_every_request_body(toy_course, capsys, monkeypatch, agent):
    monkeypatch.delenv("MINIAGENT_MODEL", raising=False)
    code = cli.main(["--root", str(toy_course.root), "trace", "--agent", agent])
    out = capsys.readouterr().out
    assert code == 0
    render = demo.RENDERERS[agent]
    assert out.startswith(render())  # the demo first, unchanged by the tracer
    assert say("trace.header", n=3) in out
    payloads = printed_payloads(out)
    assert [len(p["messages"]) for p in payloads] == [1, 3, 5]  # the history grows by two
    assert [m["role"] for m in payloads[2]["messages"]] == [
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
    ]
    assert payloads[1]["messages"][-1] == {
        "content": "Paris",
        "role": "tool",
        "tool_call_id": "call_1",
    }
    names = [[t["function"]["name"] for t in p["tools"]] for p in payloads]
    assert names == [["find_city", "check_weather"]] * 3
    tracer = PayloadTracer()  # the same run, traced here: the command prints those records
    render(config={"callbacks": [tracer]})
    assert payloads == tracer.payloads()


def test_trace_rejects_an_unknown_agent(toy_course, capsys):
    with pytest.raises(SystemExit):
        cli.main(["--root", str(toy_course.root), "trace", "--agent", "nope"])
    assert "create_agent" in capsys.readouterr().err  # the choices are listed
