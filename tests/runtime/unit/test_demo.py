"""``python -m miniagent.demo`` prints the ReAct loop round by round."""

import subprocess
import sys

from miniagent import demo


def run_demo(*extra_env: tuple[str, str]) -> str:
    code = (
        "import runpy, sys\n"
        "runpy.run_module('miniagent.demo', run_name='__main__')\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('langchain', 'langchain_core', 'langgraph', 'numpy'))\n"
        "print('HEAVY:', heavy)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
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
