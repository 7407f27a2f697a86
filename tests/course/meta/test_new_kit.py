"""A day is a kit: a new day needs its kit folder and nothing else.

In a temporary copy of the course this test adds ``day16``, a throw-away kit (metadata, stub,
graders, two mutants, two alternative solutions, ``[mine]``), plus its page and notebook, and
edits no file of the engine (which runs from the installed ``miniagent_course``, untouched). The
copy must then list the day, grade it with the README's ``pytest`` and with ``miniagent check``,
prove its mutants killed and its solutions passing, and put the learner's function into their
own agent (``miniagent mine``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from miniagent_course.grading.course import load_course
from miniagent_course.grading.run import run_graders

from .conftest import COPIED, _copy

KIT = {
    "kit.toml": """title = "Throw-away: read one value from any agent state, again"
lesson = "course/days/day16-throwaway.md"
notebook = "notebooks/day16_throwaway.ipynb"
file = "exercises/day16_throwaway.py"
hints = ["A dict or an object?", "Which built-in takes a default?"]

[[functions]]
name = "_get_state_value"
reference = "miniagent.prebuilt.chat_agent_executor:_get_state_value"
upstream = "langgraph.prebuilt.chat_agent_executor:_get_state_value"

[mine]
functions = ["_get_state_value"]
""",
    "stub.py": '''"""Day 16, a throw-away day."""

from miniagent_course.todo import NotStarted


def _get_state_value(state, key, default=None):
    """``state[key]`` for a dict, ``state.<key>`` otherwise; ``default`` when missing."""
    # TODO(day16): your code
    raise NotStarted("day16")
''',
    "graders/test_day16_throwaway.py": """from types import SimpleNamespace


def test_a_dict_gives_its_value(impl):
    assert impl._get_state_value({"a": 0}, "a", 5) == 0


def test_an_object_gives_its_attribute(impl):
    assert impl._get_state_value(SimpleNamespace(a=[]), "a", 5) == []


def test_a_missing_key_gives_the_default(impl):
    assert impl._get_state_value({}, "a", 5) == 5
""",
    "instructor/mutants/always_get.patch": """why: calls .get on every state
function: _get_state_value
--- miniagent.prebuilt.chat_agent_executor:_get_state_value
+++ mutant always_get
@@ -3 +3 @@
-    return state.get(key, default) if isinstance(state, dict) else getattr(state, key, default)
+    return state.get(key, default)
""",
    "instructor/mutants/or_default.py": """# why: `or default` replaces a stored falsy value
# function: _get_state_value
# whole_file_because: the throw-away kit shows a whole-file mutant as well
def _get_state_value(state, key, default=None):
    found = state.get(key) if isinstance(state, dict) else getattr(state, key, None)
    return found or default
""",
    "instructor/solutions/try_except.py": """def _get_state_value(state, key, default=None):
    try:
        return state[key] if isinstance(state, dict) else getattr(state, key)
    except (KeyError, AttributeError):
        return default
""",
    "instructor/solutions/membership.py": """def _get_state_value(state, key, default=None):
    if isinstance(state, dict):
        return state[key] if key in state else default
    return getattr(state, key) if hasattr(state, key) else default
""",
}


@pytest.fixture
def copy_with_new_kit(tmp_path) -> Path:
    root = tmp_path / "course"
    _copy(COPIED, root)
    kit = root / "src" / "miniagent_course" / "kits" / "day16"
    for name, text in KIT.items():
        (kit / name).parent.mkdir(parents=True, exist_ok=True)
        (kit / name).write_text(text, encoding="utf-8")
    (root / "course/days/day16-throwaway.md").write_text("# Day 16\n", encoding="utf-8")
    (root / "notebooks/day16_throwaway.ipynb").write_text("{}", encoding="utf-8")
    return root


def _run(root: Path, *command: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "MINIAGENT_"))}
    return subprocess.run(
        command, cwd=root, env=env, capture_output=True, text=True, timeout=300, check=False
    )


def test_a_new_kit_is_listed_graded_proven_and_joins_the_learners_agent(copy_with_new_kit):
    root = copy_with_new_kit
    miniagent = [sys.executable, "-m", "miniagent_course.cli"]
    listed = _run(root, *miniagent, "list")  # lays out exercises/ from the stubs, day16's too
    assert listed.returncode == 0, listed.stderr
    assert "day16" in listed.stdout and "not started" in listed.stdout.split("day16")[1]
    assert (root / "exercises/day16_throwaway.py").read_text() == KIT["stub.py"]

    course = load_course(root)
    assert [e.id for e in course.exercises][-1] == "day16"
    day16 = course.exercise("day16")
    assert {m.key for m in day16.mutants} == {"day16_always_get", "day16_or_default"}

    mutants = run_graders(course, [day16], "mutants")
    for mutant in day16.mutants:
        tests = mutants.day_tests(day16, f"mutant-{mutant.key}")
        assert tests and all(t["status"] in ("passed", "failed") for t in tests), tests
        assert any(t["status"] == "failed" for t in tests), f"{mutant.key} survives"
    solutions = run_graders(course, [day16], "solutions")
    assert {t["impl"] for t in solutions.tests} == {
        "solution-day16_membership",
        "solution-day16_try_except",
    }
    assert {t["status"] for t in solutions.tests} == {"passed"}, solutions.output[-2000:]

    solved = KIT["instructor/solutions/membership.py"]
    (root / "exercises/day16_throwaway.py").write_text(solved, encoding="utf-8")
    graded = _run(root, sys.executable, "-m", "pytest")  # the README's `pytest`
    row = next(line for line in graded.stdout.splitlines() if line.startswith("  day16  "))
    assert "passed 3 of 3" in row or "done" in row, graded.stdout[-3000:]
    checked = _run(root, *miniagent, "check", "day16")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    mine = _run(root, *miniagent, "mine")
    assert "day16  yours: _get_state_value" in mine.stdout, mine.stdout
