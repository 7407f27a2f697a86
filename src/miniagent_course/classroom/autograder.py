"""What Gradescope's ``run_autograder`` runs: grade ``/autograder/submission`` into
``/autograder/results/results.json``.

``python -m miniagent_course.classroom.autograder --root /autograder`` reads the zip's
``source/classroom.toml`` and ``source/course/``, grades the submission (:mod:`.grade`) and writes
the results itself, after the grading child has ended, over whatever a submission may have written
there (which is itself flagged: the file is one the child is told to guard). Everything printed
goes to Gradescope's stdout, which only instructors see (``stdout_visibility`` is ``hidden``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from miniagent_course.classroom.config import CONFIG_FILE, ConfigError, load_config
from miniagent_course.classroom.grade import grade_submission
from miniagent_course.classroom.gradescope import results_json
from miniagent_course.grading.course import load_course
from miniagent_course.text import say

ROOT_ENV = "AUTOGRADER_ROOT"


def run(root: Path) -> int:
    source = root / "source"
    results = root / "results" / "results.json"
    results.parent.mkdir(parents=True, exist_ok=True)
    results.unlink(missing_ok=True)
    course = load_course(source / "course")
    try:
        classroom = load_config(source / CONFIG_FILE, course)
    except ConfigError as error:
        print(error, file=sys.stderr)
        return 2
    try:
        built = json.loads((source / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        built = {}
    result = grade_submission(course, classroom, root / "submission", guarded=[results])
    data = results_json(course, result, built)
    results.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(say("classroom.autograder_done", score=data["score"], total=classroom.total))
    for day, why in result.flags:
        print(say("classroom.flagged", day=day, why=why))
    print("\n".join(result.log))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="run_autograder")
    parser.add_argument("--root", default=os.environ.get(ROOT_ENV, "/autograder"))
    args = parser.parse_args(argv)
    return run(Path(args.root))


if __name__ == "__main__":
    sys.exit(main())
