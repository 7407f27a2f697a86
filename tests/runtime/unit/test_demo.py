"""``python -m miniagent.demo`` prints the ReAct loop round by round; ``--agent create_agent``
prints a ``create_agent`` run with middleware, node by node."""

import os
import string
import subprocess
import sys

import pytest

from miniagent import demo
from miniagent.messages import AIMessage
from miniagent.testing import ScriptedChatModel


def run_demo(*args: str, env: dict[str, str] | None = None) -> str:
    code = (
        "import runpy, sys\n"
        f"sys.argv = ['demo', *{list(args)!r}]\n"
        "runpy.run_module('miniagent.demo', run_name='__main__')\n"
        "loaded = {m.split('.')[0] for m in sys.modules}\n"
        "heavy = sorted(loaded & {'langchain', 'langchain_core', 'langgraph', 'numpy', 'openai'}\n"
        "    | {m for m in loaded if m.startswith('miniagent_')})  # the course tooling\n"
        "print('HEAVY:', heavy)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        env=env,
    )
    return done.stdout


def test_demo_prints_the_loop_round_by_round():
    out = run_demo()
    lines = out.splitlines()
    assert lines[0] == demo.TEXT["en"]["title"]
    rounds = [line for line in lines if line.startswith("Round ")]
    assert rounds == ["Round 1", "Round 2", "Round 3"]
    assert "    tool call    find_city(landmark='Eiffel Tower')  [id call_1]" in lines
    assert "    tool result  find_city -> Paris" in lines
    assert "    tool call    check_weather(city='Paris')  [id call_2]" in lines
    assert "    tool result  check_weather -> sunny, 21 °C" in lines
    assert "    model sees   5 message(s)" in lines  # the history grows by two each round
    assert "    no tool calls: the loop ends here" in lines
    final = lines.index("Final answer:")
    assert lines[final + 1].strip() == demo.TEXT["en"]["answer"]
    assert "State after the run: 6 messages (human, ai, tool, ai, tool, ai)" in lines
    assert lines[-2] == (
        "The path through the graph: agent -> tools -> agent -> tools -> agent -> end"
    )
    assert lines[-1] == "HEAVY: []"  # stdlib + miniagent only


def test_demo_order_within_a_round():
    lines = demo.render().splitlines()
    first = lines.index("Round 1")
    assert [line.split()[1] for line in lines[first + 1 : first + 5]] == [
        "sees",
        "said",
        "call",
        "result",
    ]


def test_demo_is_deterministic_and_fits_100_columns():
    first, second = demo.render(), demo.render()
    assert first == second
    assert max(len(line) for line in first.splitlines()) <= 100


def test_demo_wraps_long_text(monkeypatch):
    monkeypatch.setitem(demo.TEXT["en"], "say_1", "word " * 60)
    lines = demo.render().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("    model said"))
    assert lines[start + 1].startswith(" " * 17 + "word")
    assert max(len(line) for line in lines) <= 100


def test_demo_text_falls_back_to_english(monkeypatch):
    monkeypatch.setenv("MINIAGENT_LANG", "xx")
    assert demo.t("round", n=2) == "Round 2"
    monkeypatch.setitem(demo.TEXT, "xx", {"round": "R{n}"})
    assert demo.t("round", n=2) == "R2"
    assert demo.t("final") == "Final answer"


# ---- the Simplified Chinese edition (issue #23) -------------------------------------------------


def _fields(text: str) -> list[tuple[str, str, str | None]]:
    """The placeholders of ``text``: name, format spec and conversion."""
    return sorted((f, spec or "", conv) for _, f, spec, conv in string.Formatter().parse(text) if f)


def test_chinese_text_has_the_english_keys_and_placeholders():
    english, chinese = demo.TEXT["en"], demo.TEXT["zh"]
    assert set(chinese) == set(english)
    for key, text in english.items():
        assert _fields(chinese[key]) == _fields(text), key


def test_demo_speaks_chinese():
    out = run_demo(env={**os.environ, "MINIAGENT_LANG": "zh", "MINIAGENT_MODEL": ""})
    zh, en = demo.TEXT["zh"], demo.TEXT["en"]
    lines = out.splitlines()
    assert lines[:2] == [zh["title"], "=" * demo.columns(zh["title"])]  # a 汉字 takes two columns
    assert [line for line in lines if line.startswith("第 ")] == ["第 1 轮", "第 2 轮", "第 3 轮"]
    assert "    工具调用     find_city(landmark='埃菲尔铁塔')  [id call_1]" in lines
    assert "    工具结果     check_weather -> 晴，21 °C" in lines
    assert lines[lines.index("最终回答：") + 1].strip() == zh["answer"]
    for key in ("title", "question", "landmark", "city", "say_1", "answer", "final", "no_calls"):
        assert en[key] not in out, key
    assert "Round " not in out and "model sees" not in out and "tool result" not in out
    assert max(demo.columns(line) for line in lines) <= 100
    assert lines[-1] == "HEAVY: []"


def test_create_agent_demo_speaks_chinese_within_100_columns(monkeypatch):
    monkeypatch.setenv("MINIAGENT_LANG", "zh")
    out = demo.render_create_agent()
    lines = out.splitlines()
    assert lines[0] == demo.TEXT["zh"]["mw_title"]
    assert nodes_run(lines)[:2] == [f"{LOG}.before_agent", f"{LIMIT}.before_model"]  # code names
    assert "    日志 wrap_tool_call：find_city -> handler" in lines
    assert "    设置 run_model_call_count = 3" in lines
    assert "log  " not in out and "sets " not in out and "Middleware: " not in out
    assert max(demo.columns(line) for line in lines) <= 100


def test_chinese_text_wraps_by_columns(monkeypatch):
    monkeypatch.setenv("MINIAGENT_LANG", "zh")
    monkeypatch.setitem(demo.TEXT["zh"], "say_1", "模型说了很长的一段话，" * 12)
    lines = demo.render().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("    模型说"))
    assert lines[start].startswith("    模型说       模型说了")  # the label column: 13 columns
    assert lines[start + 1].startswith(" " * 17) and lines[start + 1][17] != " "
    assert not [line for line in lines if line.lstrip().startswith("，")]  # no line opens on ，
    assert max(demo.columns(line) for line in lines) <= 100


def test_chinese_help_wraps_by_columns(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("MINIAGENT_LANG", "zh")
    text = demo._parser().format_help()
    head, variables = text.split(demo.TEXT["zh"]["help_variables"].splitlines()[0])
    assert "由哪个 agent 来演这段故事" in head and "看 agent 的循环" in head
    assert "which agent runs the story" not in head and "Watch an agent" not in head
    assert max(demo.columns(line) for line in head.splitlines()) <= 80
    assert "MINIAGENT_TIMEOUT=<seconds>      一个请求最多等多少秒（默认 60）" in variables


def test_a_chinese_locale_speaks_chinese_unless_miniagent_lang_says_otherwise(monkeypatch):
    for var in ("MINIAGENT_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    assert demo.t("final") == "Final answer"
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")  # as the course tooling picks its language
    assert demo.t("final") == "最终回答"
    monkeypatch.setenv("LC_ALL", "en_US.UTF-8")  # the first one set decides
    assert demo.t("final") == "Final answer"
    monkeypatch.setenv("MINIAGENT_LANG", "zh")
    assert demo.t("round", n=2) == "第 2 轮"


# ---- --agent create_agent ----------------------------------------------------------------------

LIMIT, LOG = "ModelCallLimitMiddleware", "LogMiddleware"
MODEL_TURN = [f"{LIMIT}.before_model", f"{LOG}.before_model", "model"]
MODEL_TURN += [f"{LOG}.after_model", f"{LIMIT}.after_model"]  # after hooks: reversed


def nodes_run(lines: list[str]) -> list[str]:
    return [line[1:-1] for line in lines if line.startswith("[") and line.endswith("]")]


def test_create_agent_demo_prints_every_node_in_hook_order():
    out = run_demo("--agent", "create_agent", env={**os.environ, "MINIAGENT_MODEL": ""})
    lines = out.splitlines()
    assert lines[0] == demo.TEXT["en"]["mw_title"]
    assert nodes_run(lines) == [
        f"{LOG}.before_agent",
        *MODEL_TURN,
        "tools",
        *MODEL_TURN,
        "tools",
        *MODEL_TURN,
        f"{LOG}.after_agent",
    ]
    # the logging hooks' lines sit under the node they ran in; the wraps run inside the nodes
    model = lines.index("[model]")
    assert lines[model + 1 : model + 3] == [
        "    log  wrap_model_call: -> handler (the model, 2 tool(s) bound)",
        "    log  wrap_model_call: <- 1 tool call(s)",
    ]
    tools = lines.index("[tools]")
    assert lines[tools + 1 : tools + 3] == [
        "    log  wrap_tool_call: find_city -> handler",
        "    tool result  find_city -> Paris",
    ]
    # the limit middleware counts each model call in its after_model
    counts = [line.strip() for line in lines if "run_model_call_count" in line]
    assert counts == [f"sets run_model_call_count = {n}" for n in (1, 2, 3)]
    assert "    log  after_agent: the run ends with 6 message(s)" in lines
    final = lines.index("Final answer:")
    assert lines[final + 1].strip() == demo.TEXT["en"]["answer"]
    assert lines[-2] == "State after the run: 6 messages (human, ai, tool, ai, tool, ai)"
    assert lines[-1] == "HEAVY: []"  # no upstream, no course tooling, no SDK


def test_create_agent_demo_limit_stops_a_model_that_keeps_calling_tools():
    call = {"name": "find_city", "args": {"landmark": "Eiffel Tower"}, "id": "c"}
    wanders = ScriptedChatModel([AIMessage("again", tool_calls=[call])] * (demo.RUN_LIMIT + 1))
    lines = demo.render_create_agent(wanders).splitlines()
    assert len(wanders.calls) == demo.RUN_LIMIT
    assert nodes_run(lines)[-2:] == [f"{LIMIT}.before_model", f"{LOG}.after_agent"]
    limit = lines.index(f"[{LIMIT}.before_model]", len(lines) - 12)
    assert lines[limit + 1 :][:2] == [
        "    sets jump_to = 'end'",
        "    ai: Model call limits exceeded: run limit (3/3)",
    ]
    assert lines[lines.index("Final answer:") + 1].strip() == (
        "Model call limits exceeded: run limit (3/3)"
    )


def test_create_agent_demo_is_deterministic_and_fits_100_columns():
    first, second = demo.render_create_agent(), demo.render_create_agent()
    assert first == second
    assert max(len(line) for line in first.splitlines()) <= 100


def test_main_picks_the_agent(capsys, monkeypatch):
    monkeypatch.delenv("MINIAGENT_MODEL", raising=False)
    demo.main(["--agent", "react"])
    assert capsys.readouterr().out == demo.render() + "\n"
    demo.main(["--agent", "create_agent"])
    assert capsys.readouterr().out == demo.render_create_agent() + "\n"
    with pytest.raises(SystemExit):
        demo.main(["--agent", "nope"])


def test_create_agent_demo_runs_against_the_named_endpoint():
    pytest.importorskip("openai")
    from sides.loopback import LoopbackServer, Reply, completion

    replies = [
        completion("Looking.", [("call_1", "find_city", '{"landmark": "Eiffel Tower"}')]),
        completion("", [("call_2", "check_weather", '{"city": "Paris"}')]),
        completion("Paris: sunny, 21 °C."),
    ]
    secret = "sk-loopback-demo-SECRET"
    with LoopbackServer([Reply.json(body) for body in replies]) as server:
        env = {**os.environ, "MINIAGENT_MODEL": "openai:loop-model"}
        env.update(OPENAI_BASE_URL=server.base_url, OPENAI_API_KEY=secret)
        out = run_demo("--agent", "create_agent", env=env)
    lines = out.splitlines()
    assert len(server.bodies) == 3
    assert {body["model"] for body in server.bodies} == {"loop-model"}
    assert [len(body["messages"]) for body in server.bodies] == [1, 3, 5]
    assert "    tool call    find_city(landmark='Eiffel Tower')  [id call_1]" in lines
    assert "    tool result  check_weather -> sunny, 21 °C" in lines
    assert lines[lines.index("Final answer:") + 1].strip() == "Paris: sunny, 21 °C."
    assert secret not in out
    assert lines[-1] == "HEAVY: ['openai']"  # the SDK, now that a real model runs
