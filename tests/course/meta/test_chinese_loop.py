"""The learner's loop in Chinese (issue #23): with ``MINIAGENT_LANG=zh``, the README ``pytest``,
``miniagent check``, ``hint``, ``list``, ``mine`` and ``reset`` speak Chinese, and the learner-loop
proofs hold as they do in English: no spoilers, sealed predictions, one message per problem.

Everything runs in a copy of the course of its own (never ``exercises/``), its processes started
with ``MINIAGENT_LANG=zh`` (``chinese``: the module's environment, which ``_pytest`` and
``_miniagent``, the helpers of the English proofs, hand to their processes). Texts are compared
with the catalogue, ``cli.zh.toml``, its fields filled (never a sentence written here), and the
English string of the same key must not show.

Two runs of the README ``pytest`` carry most proofs: one on a fresh copy (``fresh``: it lays out
``exercises/``, nothing started) and one on the same copy with four days written (``written``):
a wrong answer (``WRONG``), a syntax error (``SYNTAX``), an endless loop (``LOOP``) and a sealed
predictions table, well formed and wrong in every row (``SEALED``).
"""

from __future__ import annotations

import ast
import re
import string
import types
from pathlib import Path
from types import SimpleNamespace

import pytest

from miniagent_course import cli
from miniagent_course.grading.course import Course, load_course, pristine_stub
from miniagent_course.grading.sealed import first_try
from miniagent_course.text import _lookup, catalog

from .conftest import COPIED, _copy
from .test_chinese_kits import HAN
from .test_grading_process import _miniagent
from .test_sealed_predictions import Day, _forget_first_tries, _pytest

pytestmark = pytest.mark.timeout(600)

WRONG, SYNTAX, LOOP, SEALED, SWITCH = "day00", "day06", "day07", "day05", "day09"
# A learner's slip on Day 00: an object's attributes read through vars(), which a mapping that is
# not a dict and an object with __slots__ do not have (their graders fail in the learner's line).
WRONG_BODY = (
    "    if isinstance(state, dict):\n"
    "        return state.get(key, default)\n"
    "    return vars(state).get(key, default)"
)
WRONG_LINE = "return vars(state).get(key, default)"


def _text(key: str, lang: str) -> str:
    """The ``cli`` catalogue's string of ``key`` in ``lang`` (English filling a gap), unformatted."""
    return _lookup(catalog("cli", lang), key)


def _zh_text(key: str) -> str:
    """The Chinese string of ``key``, unformatted; one that falls back to English fails."""
    text = _text(key, "zh")
    assert text != _text(key, "en"), f"cli.zh.toml does not translate {key}"
    return text


def _zh(key: str, **fields: object) -> str:
    return _zh_text(key).format(**fields)


def _en(key: str, **fields: object) -> str:
    return _text(key, "en").format(**fields)


def _speaks(output: str, key: str, **fields: object) -> None:
    """``output`` says ``key`` in Chinese, with these fields, and not in English."""
    zh, en = _zh(key, **fields), _en(key, **fields)
    assert zh in output, f"{key}: {zh!r} not in\n{output}"
    assert en not in output, f"{key} in English: {en!r} in\n{output}"


def _pattern(template: str) -> re.Pattern[str]:
    """A catalogue string as a pattern of whole lines: its words as they are, any value in each
    field (a group each, in order)."""
    parts = []
    for literal, field, _spec, _conversion in string.Formatter().parse(template.strip("\n")):
        parts.append(re.escape(literal))
        if field is not None:
            parts.append("(.+?)")
    return re.compile("^" + "".join(parts) + "$", re.M)


def _shape(key: str, lang: str = "zh") -> re.Pattern[str]:
    """The string of ``key`` as a pattern (see ``_pattern``)."""
    return _pattern(_zh_text(key) if lang == "zh" else _text(key, lang))


def _row(output: str, day: str) -> list[str]:
    """A day's row of the progress table (or of ``list``): ``[day, title, status...]``."""
    (row,) = [line for line in output.splitlines() if re.match(rf"^[ ✓✗…·?]+{day}  ", line)]
    return re.split(r"\s{2,}", row.strip(" ✓✗…·?"))


def _shown_title(shown: str, title: str) -> bool:
    """Is ``shown`` the day's title, whole or cut to fit (``…``)?"""
    return shown == title or (shown.endswith("…") and title.startswith(shown[:-1]))


def _with_body(stub: str, day: str, body: str) -> str:
    """The stub with its first ``raise NotStarted`` replaced by ``body``."""
    todo = f'    raise NotStarted("{day}")'
    assert todo in stub, day
    return stub.replace(todo, body, 1)


@pytest.fixture(scope="module")
def chinese():
    """The module's processes speak Chinese (the helpers pass this environment on)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MINIAGENT_LANG", "zh")
        patch.delenv("PYTEST_ADDOPTS", raising=False)
        yield


@pytest.fixture(scope="module")
def fresh(chinese, tmp_path_factory) -> SimpleNamespace:
    """A course copy without ``exercises/``, and the README ``pytest`` that lays it out."""
    root = tmp_path_factory.mktemp("zh-course")
    _copy(COPIED, root)
    output = _pytest(root)
    course = load_course(root, lang="zh")
    laid = {e.id: (root / e.file).read_text(encoding="utf-8") for e in course.exercises}
    return SimpleNamespace(course=course, output=output, laid=laid)


@pytest.fixture(scope="module")
def written(fresh) -> SimpleNamespace:
    """Four days written in the fresh copy, graded by one README ``pytest`` (1 s per grader).

    The endless loop goes back to its stub after the run (``list`` and ``mine`` would each wait
    for it); the sealed day's first try is the one this run records."""
    course: Course = fresh.course
    stub = {e.id: pristine_stub(course, e, "zh") for e in course.exercises}
    sealed = Day(course, course.exercise(SEALED))
    sources = {
        WRONG: _with_body(stub[WRONG], WRONG, WRONG_BODY),
        SYNTAX: stub[SYNTAX] + "\n\ndef oops(:\n",
        LOOP: _with_body(stub[LOOP], LOOP, "    while True:\n        pass"),
        SEALED: sealed.source(course),  # the Chinese stub (this environment) with the wrong table
    }
    for day, source in sources.items():
        (course.root / course.exercise(day).file).write_text(source, encoding="utf-8")
    _forget_first_tries(course)
    output = _pytest(course.root, "--grader-timeout=1")
    recorded = first_try(course.root, SEALED)
    loop = course.root / course.exercise(LOOP).file
    loop.write_text(stub[LOOP], encoding="utf-8")
    return SimpleNamespace(
        course=course, output=output, sealed=sealed, recorded=recorded, sources=sources
    )


def test_a_fresh_workspace_is_laid_out_from_the_chinese_stubs(fresh):
    course = fresh.course
    _speaks(fresh.output, "workspace.created", count=len(course.exercises), folder="exercises/")
    for exercise in course.exercises:
        laid = fresh.laid[exercise.id]
        assert laid == pristine_stub(course, exercise, "zh"), exercise.id
        assert laid != pristine_stub(course, exercise, "en"), exercise.id
        assert HAN.search(ast.get_docstring(ast.parse(laid)) or ""), exercise.id


def test_the_readme_pytest_with_nothing_started_speaks_chinese(fresh):
    output, course = fresh.output, fresh.course
    lines = output.splitlines()
    assert any(line.strip("= ") == _zh("table.title") for line in lines), output
    assert _en("table.title") not in output
    _speaks(output, "table.learner_header")
    for exercise in course.exercises:  # every day: its Chinese title, not started
        day, title, status = _row(output, exercise.id)
        assert _shown_title(title, exercise.title), (title, exercise.title)
        assert status == _zh("status.not_started"), status
    assert _en("status.not_started") not in output
    _speaks(output, "table.next_not_started", day=course.exercises[0].id)
    _speaks(output, "table.agent_none")  # `mine`'s line under the table


def test_a_wrong_answer_gives_one_chinese_report_with_the_days_check(written):
    """The day's first failure is reported in full, its other failures in a line each: the
    report says in Chinese what the grader checks ([zh.checks]) and shows the learner's own
    exception, raised in the learner's line."""
    output, exercise = written.output, written.course.exercise(WRONG)
    try:
        vars(types.MappingProxyType({}))
    except TypeError as error:
        raised = f"TypeError: {error}"
    lines = output.splitlines()
    headers = [n for n, line in enumerate(lines) if line.startswith(f"{WRONG} · ")]
    assert len(headers) == 1, output  # one report for the day
    test = lines[headers[0]].removeprefix(f"{WRONG} · ")
    report = lines[headers[0] : lines.index(_zh("explain.hint", day=WRONG), headers[0]) + 1]
    assert report[1] == _zh("explain.check", text=exercise.checks[test]), report
    source = written.sources[WRONG].splitlines()
    line = next(n for n, text in enumerate(source, 1) if text.strip() == WRONG_LINE)
    file = Path(exercise.file).name
    text = "\n".join(report)
    _speaks(text, "explain.in_your_code", file=file, line=line, code=WRONG_LINE)
    _speaks(text, "explain.raised", error=raised)  # what the learner's call did (你的调用)
    _speaks(text, "explain.error", error=raised)  # the learner's exception, not the grader's
    _speaks(text, "explain.check", text=exercise.checks[test])
    _speaks(text, "explain.hint", day=WRONG)
    assert [r for r in report if r.startswith(_zh("explain.error", error=""))] == [
        _zh("explain.error", error=raised)
    ]
    assert output.count(_zh("explain.hint", day=WRONG)) == 1
    assert output.count(_zh("explain.check", text="")) == 1  # no other report in full
    _day, _title, status = _row(output, WRONG)
    assert _shape("status.failing").match(status), status


def test_a_syntax_error_and_an_endless_loop_each_give_one_chinese_message(written):
    output, course = written.output, written.course
    syntax = course.exercise(SYNTAX)
    said = _zh("load.syntax_error", file=syntax.file, detail="").splitlines()[0]
    assert output.count(said) == 1 and output.count("SyntaxError") == 1, output
    assert _en("load.syntax_error", file=syntax.file, detail="").splitlines()[0] not in output
    timeout = {"seconds": 1.0, "day": LOOP}
    assert output.count(_zh("grading.timeout", **timeout)) == 1, output
    _speaks(output, "grading.timeout", **timeout)
    status_with_not_run = _pattern(_zh_text("status.failing") + _zh_text("status.not_run"))
    for day in (SYNTAX, LOOP):  # one failing check; the day's others not run
        _day, _title, status = _row(output, day)
        found = status_with_not_run.match(status)  # groups: m, n, k
        assert found and found.group(2) == "1", status
    checked = _miniagent(course, "check", SYNTAX).stdout  # the command: one message too
    assert checked.count(said) == 1 and checked.count("SyntaxError") == 1, checked
    _speaks(checked, "cli.one_failure", day=SYNTAX, file=syntax.file)


def test_check_hint_list_and_mine_speak_chinese(written):
    course = written.course
    exercise = course.exercise(WRONG)
    (course.root / cli.STATE_FILE).unlink(missing_ok=True)
    checked = _miniagent(course, "check", WRONG).stdout
    _day, title, status = _row(checked, WRONG)
    assert _shown_title(title, exercise.title) and _shape("status.failing").match(status)
    _speaks(checked, "cli.failing_header", day=WRONG, file=exercise.file)
    first = re.search(rf"^{WRONG} · (\S+)$", checked, re.M).group(1)
    _speaks(checked, "cli.first_failure", name=first)
    _speaks(checked, "explain.check", text=exercise.checks[first])
    lesson = cli.lesson_address(exercise, course.root)
    _speaks(checked, "cli.failing_next", day=WRONG, lesson=lesson)

    hinted = _miniagent(course, "hint", WRONG).stdout
    english = load_course(course.root, lang="en").exercise(WRONG).hints
    assert [h for h in exercise.hints if h in hinted] and not [h for h in english if h in hinted]
    assert _shape("cli.hint_for").match(hinted.splitlines()[0]), hinted
    _speaks(hinted, "cli.hint_more", day=WRONG)

    listed = _miniagent(course, "list").stdout
    for day in course.exercises:
        _day, title, status, hints = _row(listed, day.id)
        assert _shown_title(title, day.title), (title, day.title)
        assert _shape("cli.hints_used").match(hints) or _shape("cli.list_first_try").match(hints)
    assert _zh("status.not_started") in listed and _en("status.not_started") not in listed
    assert not _shape("cli.hints_used", "en").search(listed)
    _speaks(listed, "cli.list_next", day=WRONG)

    mine = _miniagent(course, "mine").stdout
    for key, fields in [
        ("mine.title", {}),
        ("mine.yours", {"day": WRONG, "names": "_get_state_value"}),
        ("mine.theirs", {"day": "day01"}),
        ("mine.demo_title", {}),
        ("mine.loop_not_started", {"day": "day03"}),
    ]:
        _speaks(mine, key, **fields)
    (broken,) = [line for line in mine.splitlines() if line.startswith(f"  {SYNTAX}  ")]
    assert _shape("mine.broken").match(broken), broken
    for key in ("mine.score", "mine.agent_score"):
        assert _shape(key).search(mine) and not _shape(key, "en").search(mine), key


def test_a_sealed_day_shows_no_real_outcome_in_chinese_and_records_the_first_try(written):
    """The README ``pytest`` above was the first run of the sealed day's wrong table; then the
    hints and a first ``check``; a later ``check`` shows the real outcomes (the comparison,
    that of the English proofs, finds them: so it can fail)."""
    course, day = written.course, written.sealed
    total = len(day.table)
    assert day.shown(written.output) == {}
    assert written.recorded is not None and written.recorded.right == 0
    _day, _title, status = _row(written.output, SEALED)
    assert status.endswith(_zh("table.first_try", status="", score=f"0/{total}")), status
    _speaks(written.output, "judgment.wrong_sealed", row="", total=total, right=0)

    _forget_first_tries(course)  # the hints, from the first: each call shows one more
    (course.root / cli.STATE_FILE).unlink(missing_ok=True)
    hinted = "".join(_miniagent(course, "hint", SEALED).stdout for _ in day.exercise.hints)
    hinted += _miniagent(course, "hint", SEALED, "--all").stdout
    hints = course.exercise(SEALED).hints
    assert all(hint in hinted for hint in hints), hinted
    english = load_course(course.root, lang="en").exercise(SEALED).hints
    assert not [hint for hint in english if hint in hinted]
    assert day.shown(hinted) == {}

    _forget_first_tries(course)  # then a first check
    checked = _miniagent(course, "check", SEALED).stdout
    _speaks(checked, "judgment.wrong_sealed", row="", total=total, right=0)
    assert day.shown(checked) == {}
    assert first_try(course.root, SEALED).right == 0
    later = _miniagent(course, "check", SEALED).stdout  # the record is older: outcomes show
    assert day.shown(later), later
    # ...told in Chinese: the kit's [zh.judgment] templates, not the graders' English ones
    told = course.exercise(SEALED).judgment
    assert told.gave and told.gave.split("{")[0] in later and "the model saw" not in later, later


def test_reset_in_chinese_lays_out_the_chinese_stub_and_backs_up_only_the_learners_work(fresh):
    """A file laid out in English is pristine: reset under zh writes the Chinese stub and keeps
    no backup of it. A file the learner edited is backed up first, as in English."""
    course = fresh.course
    exercise = course.exercise(SWITCH)
    path = course.root / exercise.file
    backups = path.parent / ".backup"
    english, chinese = pristine_stub(course, exercise, "en"), pristine_stub(course, exercise, "zh")
    path.write_text(english, encoding="utf-8")
    done = _miniagent(course, "reset", SWITCH)
    assert done.returncode == 0 and path.read_text(encoding="utf-8") == chinese, done.stdout
    assert done.stdout.strip() == _zh("cli.reset_done", file=exercise.file, day=SWITCH)
    assert not list(backups.glob(f"{path.stem}-*")), "a pristine stub was backed up"

    edited = _with_body(english, SWITCH, "    return None  # my first idea")
    path.write_text(edited, encoding="utf-8")
    done = _miniagent(course, "reset", SWITCH)
    (backup,) = backups.glob(f"{path.stem}-*")
    assert backup.read_text(encoding="utf-8") == edited
    assert path.read_text(encoding="utf-8") == chinese
    _speaks(done.stdout, "cli.reset_backup", backup=backup.relative_to(course.root).as_posix())
    _speaks(done.stdout, "cli.reset_done", file=exercise.file, day=SWITCH)
