"""``.miniagent/status.json`` after a language switch: the cached statuses hold words (``done``,
``failing 1 of 2``) in the language they were graded in, so an entry of the other language is
stale and ``miniagent list`` never mixes two languages (issue #23)."""

from __future__ import annotations

import json

import pytest

from miniagent_course import cli


def _list(course, capsys) -> str:
    assert cli.main(["--root", str(course.root), "list"]) == 0
    return capsys.readouterr().out


def _cache(course) -> dict:
    return json.loads((course.root / cli.STATUS_CACHE).read_text(encoding="utf-8"))


def test_a_language_switch_regrades_the_cached_words(toy_course, capsys, monkeypatch):
    root = toy_course.root
    (root / "exercises/day01_double.py").write_text("def double(x):\n    return 2 * x\n")
    (root / "exercises/day02_inc.py").write_text("def inc(x):\n    return x\n")  # fails
    monkeypatch.setenv("MINIAGENT_LANG", "en")
    out = _list(toy_course, capsys)
    assert "done" in out and "failing 1 of" in out
    assert {day["lang"] for day in _cache(toy_course).values()} == {"en"}

    # Same language, same files: the cache answers, nothing is graded again.
    grade = cli._grade
    monkeypatch.setattr(cli, "_grade", lambda *a, **k: pytest.fail("graded a cached day again"))
    assert _list(toy_course, capsys) == out
    monkeypatch.setattr(cli, "_grade", grade)

    monkeypatch.setenv("MINIAGENT_LANG", "zh")
    out = _list(toy_course, capsys)
    assert "已完成" in out and "项未通过" in out
    assert "done" not in out and "failing" not in out  # nothing left from the English run
    cache = _cache(toy_course)
    assert {day["lang"] for day in cache.values()} == {"zh"}
    assert cache["day01"]["text"] == "已完成"


def test_an_entry_without_a_language_is_stale(toy_course, capsys, monkeypatch):
    """A status.json written before entries recorded their language is graded once again."""
    root = toy_course.root
    (root / "exercises/day01_double.py").write_text("def double(x):\n    return 2 * x\n")
    monkeypatch.setenv("MINIAGENT_LANG", "zh")
    _list(toy_course, capsys)
    old = {
        day: {k: v for k, v in entry.items() if k != "lang"}
        for day, entry in _cache(toy_course).items()
    }
    old["day01"]["text"] = "done"  # as an English run left it
    (root / cli.STATUS_CACHE).write_text(json.dumps(old), encoding="utf-8")
    out = _list(toy_course, capsys)
    assert "已完成" in out and "done" not in out
