"""Gradescope: the autograder zip, and the ``results.json`` it writes.

The zip (:func:`build_zip`) holds, at its root as Gradescope requires:

* ``setup.sh``: run once when Gradescope builds the image; installs the course's wheel into
  ``/autograder/venv``;
* ``run_autograder``: run for each submission; ``python -m miniagent_course.classroom.autograder``;
* ``classroom.toml``: the days, points, visibility and time limits (:mod:`.config`);
* ``manifest.json``: the course version and commit the zip was built from;
* ``miniagent-<version>-py3-none-any.whl``: the course itself (:mod:`.wheel`);
* ``course/``: ``course.toml`` and the graded days' kits, learner side plus what grading reads.

Both scripts take the autograder's root from ``AUTOGRADER_ROOT`` (default ``/autograder``), so a
test can lay out the same tree in a temporary folder; ``setup.sh`` also reads ``MINIAGENT_PIP_ARGS``
(extra pip options, e.g. ``--no-index --no-deps`` offline), ``MINIAGENT_PYTHON`` (the Python that
makes the venv) and ``MINIAGENT_SKIP_APT`` (skip the system packages), and keeps a venv that is
already there.

``results.json`` (:func:`results_json`) follows Gradescope's autograder specification: one test
per day part, whose ``output`` is what the learner reads about that part, with ``score``,
``max_score``, ``status``, ``name``, ``number``, ``tags``, ``visibility`` and ``extra_data``; the
top level has the total ``score``, ``execution_time``, an ``output`` and the formats (plain text).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

from miniagent_course.classroom.config import Classroom
from miniagent_course.classroom.grade import SubmissionResult
from miniagent_course.classroom.submission import copy_course
from miniagent_course.classroom.wheel import build_wheel
from miniagent_course.grading.course import Course
from miniagent_course.text import say

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

SETUP = """#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image: it installs the course
# at the version this zip was built from ({wheel}) into $AUTOGRADER_ROOT/venv.
# For a test: AUTOGRADER_ROOT (default /autograder), MINIAGENT_PIP_ARGS (e.g. --no-index --no-deps),
# MINIAGENT_PYTHON (the Python that makes the venv), MINIAGENT_SKIP_APT=1; a venv already there is kept.
set -euo pipefail
ROOT="${{AUTOGRADER_ROOT:-/autograder}}"
if [ -z "${{MINIAGENT_SKIP_APT:-}}" ] && command -v apt-get >/dev/null 2>&1; then
  apt-get update
  apt-get install -y python3 python3-venv python3-pip
fi
if [ ! -x "$ROOT/venv/bin/python" ]; then
  "${{MINIAGENT_PYTHON:-python3}}" -m venv "$ROOT/venv"
fi
"$ROOT/venv/bin/python" -m pip install --force-reinstall ${{MINIAGENT_PIP_ARGS:-}} "$ROOT/source/{wheel}[dev]"
"""

RUN = """#!/usr/bin/env bash
# Gradescope runs this for every submission: it grades $AUTOGRADER_ROOT/submission and writes
# $AUTOGRADER_ROOT/results/results.json (AUTOGRADER_ROOT defaults to /autograder).
ROOT="${AUTOGRADER_ROOT:-/autograder}"
exec "$ROOT/venv/bin/python" -m miniagent_course.classroom.autograder --root "$ROOT"
"""


def _built_from(root: Path) -> dict[str, Any]:
    """The course version, and the git commit of the checkout (with ``dirty`` when it has
    changes), if git can tell."""
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    found: dict[str, Any] = {"name": project["name"], "version": project["version"]}
    try:
        commit = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
        )
        status = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--", "src", "course.toml"],
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return found
    if commit.returncode == 0:
        found["commit"] = commit.stdout.strip()
        found["dirty"] = bool(status.stdout.strip())
    return found


def _add(zipped: zipfile.ZipFile, name: str, data: bytes, mode: int = 0o644) -> None:
    info = zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0))
    info.external_attr = mode << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    zipped.writestr(info, data)


def build_zip(course: Course, classroom: Classroom, out: Path) -> Path:
    """The Gradescope autograder zip of ``course`` for ``classroom``, written to ``out``."""
    with tempfile.TemporaryDirectory(prefix="miniagent-gradescope-") as scratch:
        wheel = build_wheel(course.root, Path(scratch) / "wheel")
        pristine = Path(scratch) / "course"
        pristine.mkdir()
        copy_course(course, [p.day for p in classroom.days], pristine)
        manifest = {**_built_from(course.root), "wheel": wheel.name}
        manifest["days"] = [p.day for p in classroom.days]
        out.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zipped:
            _add(zipped, "setup.sh", SETUP.format(wheel=wheel.name).encode(), 0o755)
            _add(zipped, "run_autograder", RUN.encode(), 0o755)
            _add(zipped, "classroom.toml", classroom.text.encode("utf-8"))
            _add(zipped, "manifest.json", (json.dumps(manifest, indent=2) + "\n").encode())
            _add(zipped, wheel.name, wheel.read_bytes())
            for path in sorted(pristine.rglob("*")):
                if path.is_file():
                    name = f"course/{path.relative_to(pristine).as_posix()}"
                    _add(zipped, name, path.read_bytes())
    return out


def part_title(course: Course, day: str, part: int) -> str:
    """Part 1: the functions to write; part 2: the judgment part's title."""
    exercise = course.exercise(day)
    judgment = exercise.judgment
    if part == 2 and judgment is not None:
        return judgment.title
    names = [f.name for f in exercise.functions if judgment is None or f.name != judgment.function]
    return ", ".join(names or [f.name for f in exercise.functions])


def _number(day: str, index: int, part: int) -> str:
    digits = day.removeprefix("day")
    return f"{int(digits) if digits.isdigit() else index}.{part}"


def results_json(
    course: Course, result: SubmissionResult, built: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Gradescope's ``results.json`` for one graded submission."""
    classroom = result.classroom
    order = {p.day: n for n, p in enumerate(classroom.days)}
    tests = []
    for part in result.parts():
        passed = not part.flagged and part.total > 0 and part.passed == part.total
        tags = [part.day, f"part{part.part}", *(["flagged"] if part.flagged else [])]
        tests.append(
            {
                "name": say(
                    "classroom.test_name",
                    day=part.day,
                    part=part.part,
                    title=part_title(course, part.day, part.part),
                ),
                "number": _number(part.day, order[part.day], part.part),
                "score": part.score,
                "max_score": part.max_score,
                "status": "passed" if passed else "failed",
                "output": part.output,
                "output_format": "text",
                "tags": tags,
                "visibility": part.visibility,
                "extra_data": {
                    "passed": part.passed,
                    "total": part.total,
                    "flagged": part.flagged,
                },
            }
        )
    score = round(sum(t["score"] for t in tests), 2)
    lines = [say("classroom.summary", title=classroom.title, score=score, total=classroom.total)]
    lines += [say("classroom.flagged", day=day, why=why) for day, why in result.flags]
    if result.broken:
        lines.append(result.broken)
    return {
        "score": score,
        "execution_time": int(round(result.duration)),
        "output": "\n".join(lines),
        "output_format": "text",
        "test_output_format": "text",
        "test_name_format": "text",
        "visibility": classroom.visibility,
        "stdout_visibility": "hidden",
        "extra_data": {
            "course": built or {},
            "flagged": [{"day": day, "why": why} for day, why in result.flags],
        },
        "tests": tests,
    }
