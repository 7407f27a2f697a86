"""The notebooks' bench (``miniagent_course.lab``) speaks the learner's language (issue #23): its
lines come from the ``[lab]`` table of the ``cli`` catalogue, English exactly as before, Chinese
with ``MINIAGENT_LANG=zh``. And ``python -m miniagent.demo``'s Chinese real-model lines say what
the course's Chinese ``[model]`` and ``[trace]`` tables say (the demo may not import the course
tooling, so it keeps its own copy; ``test_real_model.py`` checks the English one)."""

from __future__ import annotations

import re

import pytest

from miniagent import demo
from miniagent_course import lab
from miniagent_course.text import catalog
from miniagent_course.todo import NotStarted

HAN = re.compile(r"[\u4e00-\u9fff]")


def _not_started() -> None:
    raise NotStarted("day03")


def lines_of_the_bench(monkeypatch, capsys) -> dict[str, str]:
    """Every line ``lab`` prints or returns, by the case that makes it."""
    out: dict[str, str] = {}

    def raise_not_started(day: str) -> None:
        raise NotStarted(day)

    monkeypatch.setattr(lab, "load_learner", raise_not_started)
    assert lab.yours("day03") is None
    out["yours"] = capsys.readouterr().out
    out["try_yours"] = lab.try_yours(_not_started)
    monkeypatch.setattr(lab, "LIBS", ["one", "two"])
    out["on_both"] = lab.on_both(lambda lib: lib)
    monkeypatch.setattr(lab, "UP", object())  # as if langgraph were installed
    monkeypatch.setattr(lab, "_COMPARED", [True, True])
    lab.agreement()
    monkeypatch.setattr(lab, "_COMPARED", [True, False, False])
    lab.agreement()
    monkeypatch.setattr(lab, "UP", None)
    lab.agreement()
    out["same"], out["different"], out["missing"] = capsys.readouterr().out.splitlines()
    return out


def test_the_bench_speaks_english_as_before(monkeypatch, capsys):
    monkeypatch.setenv("MINIAGENT_LANG", "en")
    assert lines_of_the_bench(monkeypatch, capsys) == {
        "yours": "day03 is not started yet: write your code, save, and run this cell again.\n",
        "try_yours": "not started yet (day03)",
        "on_both": "miniagent: one  |  langgraph: two",
        "same": "(langgraph, same code: the same results in 2 run(s) above)",
        "different": "(langgraph, same code: DIFFERENT in 2 of the results in 3 run(s) above)",
        "missing": '(langgraph is not installed: to compare, pip install -e ".[upstream]")',
    }


def test_the_bench_speaks_chinese(monkeypatch, capsys):
    monkeypatch.setenv("MINIAGENT_LANG", "zh")
    lines = lines_of_the_bench(monkeypatch, capsys)
    assert lines.pop("on_both") == "miniagent: one  |  langgraph: two"  # two names, two results
    for case, line in lines.items():
        assert HAN.search(line), (case, line)
        assert not re.search(r"\b(not|same|run|results?|installed)\b", line), (case, line)
    assert "day03" in lines["yours"] and "day03" in lines["try_yours"]
    assert "2" in lines["same"] and "3" in lines["different"]
    assert 'pip install -e ".[upstream]"' in lines["missing"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_demo_and_the_course_say_the_same_in_each_language(lang):
    """As ``test_real_model.py``'s English check, for every language the demo speaks."""
    texts = demo.TEXT[lang]
    ours = {key.removeprefix("real_"): v for key, v in texts.items() if key.startswith("real_")}
    course = catalog("cli", lang)
    assert ours == course["model"]
    assert texts["help_variables"] == course["trace"]["variables"]
    assert texts["help_traceback"] == course["trace"]["help_traceback"]
