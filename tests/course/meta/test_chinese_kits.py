"""The day kits in Chinese (issue #23): each stub has a translated twin, and each grader test says
what it checks in Chinese, so a learner who reads no English can work any day.

- ``kits/dayNN/stub.zh.py``: the same code, the contract (docstrings, comments) in Chinese; laid
  out as the exercise file under ``MINIAGENT_LANG=zh`` (its staleness and identical code are
  checked with the pages' twins in ``tests/course/site/test_translations.py``).
- ``[zh.checks]`` in ``kit.toml``: one sentence per grader test function, shown in a failure's
  report (``explain.check``) above the grader's own (English) details and values.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from miniagent_course.grading.course import (
    load_course,
    pristine_stub,
    pristine_stubs,
    stub_path,
    stub_problems,
)

ROOT = Path(__file__).resolve().parents[3]
COURSE = load_course(ROOT, lang="zh")
DAYS = [e.id for e in COURSE.exercises]
HAN = re.compile(r"[\u4e00-\u9fff]")


def grader_tests(kit: Path) -> set[str]:
    """The test functions a kit's graders define (module level, ``test_*``)."""
    names = set()
    for path in sorted((kit / "graders").glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names |= {
            node.name
            for node in tree.body
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and node.name.startswith("test_")
        }
    return names


@pytest.mark.parametrize("day", DAYS)
def test_every_grader_test_says_in_chinese_what_it_checks(day):
    exercise = COURSE.exercise(day)
    wanted = grader_tests(ROOT / exercise.kit)
    said = exercise.checks
    assert set(said) == wanted, (
        f"{exercise.kit}/kit.toml [zh.checks]: missing {sorted(wanted - set(said))}, "
        f"names no grader test {sorted(set(said) - wanted)}"
    )
    for name, text in said.items():
        assert HAN.search(text) and "\n" not in text.strip(), f"{day} {name}: {text!r}"


@pytest.mark.parametrize("day", DAYS)
def test_every_stub_has_a_chinese_twin_laid_out_in_chinese(day):
    exercise = COURSE.exercise(day)
    zh, en = stub_path(COURSE, exercise, "zh"), stub_path(COURSE, exercise, "en")
    assert zh is not None and zh.name == "stub.zh.py" and zh.is_file()
    source = pristine_stub(COURSE, exercise, "zh")
    assert HAN.search(ast.get_docstring(ast.parse(source)) or ""), "its contract is not Chinese"
    # a pristine Chinese stub is as "not started" as the English one, and counts as pristine
    assert stub_problems(source, exercise) == stub_problems(en.read_text("utf-8"), exercise) == []
    assert {source, en.read_text("utf-8")} <= pristine_stubs(COURSE, exercise)
