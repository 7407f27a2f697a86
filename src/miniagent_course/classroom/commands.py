"""``miniagent classroom ...``: the instructors' commands (``cli.py`` wires them in).

    miniagent classroom gradescope [--config F] [--out autograder.zip]
    miniagent classroom github     [--config F] [--out classroom-template]
    miniagent classroom grade FOLDER [--config F] [--csv scores.csv] [--workers N] [--json-dir D]
    miniagent classroom check DAY --part N [--config F]     (the GitHub Classroom step's command)
    miniagent classroom sample                              (a classroom.toml to start from)

``--config`` defaults to ``classroom.toml`` in the course folder when there is one, else every day
at the defaults (:mod:`.config`).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from miniagent_course.classroom.config import (
    CONFIG_FILE,
    SAMPLE,
    Classroom,
    ConfigError,
    load_config,
    parse_config,
)
from miniagent_course.grading.course import Course
from miniagent_course.text import say


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """The ``classroom`` subcommand and its own subcommands."""
    classroom = commands.add_parser("classroom", help=say("classroom.help"))
    which = classroom.add_subparsers(dest="classroom_command", metavar="WHAT", required=True)
    gradescope = which.add_parser("gradescope", help=say("classroom.help_gradescope"))
    gradescope.add_argument("--out", default="autograder.zip", help=say("classroom.help_out_zip"))
    github = which.add_parser("github", help=say("classroom.help_github"))
    github.add_argument("--out", default="classroom-template", help=say("classroom.help_out_dir"))
    grade = which.add_parser("grade", help=say("classroom.help_grade"))
    grade.add_argument("folder", help=say("classroom.help_folder"))
    grade.add_argument("--csv", default="scores.csv", help=say("classroom.help_csv"))
    grade.add_argument("--workers", type=int, default=None, help=say("classroom.help_workers"))
    grade.add_argument("--json-dir", default=None, help=say("classroom.help_json_dir"))
    check = which.add_parser("check", help=say("classroom.help_check"))
    check.add_argument("day", help=say("cli.help_day"))
    check.add_argument(
        "--part", type=int, choices=(1, 2), default=1, help=say("classroom.help_part")
    )
    which.add_parser("sample", help=say("classroom.help_sample"))
    for sub in (gradescope, github, grade, check):
        sub.add_argument("--config", default=None, help=say("classroom.help_config"))


def _classroom(course: Course, args: argparse.Namespace) -> Classroom:
    path = args.config
    if path is None and (course.root / CONFIG_FILE).is_file():
        path = course.root / CONFIG_FILE
    return load_config(path, course)


def run(course: Course, args: argparse.Namespace) -> int:
    """Dispatch ``miniagent classroom <what>``."""
    if args.classroom_command == "sample":
        print(SAMPLE, end="")
        return 0
    try:
        classroom = _classroom(course, args)
    except ConfigError as error:
        print(error, file=sys.stderr)
        return 2
    if args.classroom_command == "check":
        return _check(course, classroom, args)
    return {"gradescope": _gradescope, "github": _github, "grade": _grade}[args.classroom_command](
        course, classroom, args
    )


def _gradescope(course: Course, classroom: Classroom, args: argparse.Namespace) -> int:
    from miniagent_course.classroom.gradescope import build_zip

    out = build_zip(course, classroom, Path(args.out).resolve())
    days = ", ".join(p.day for p in classroom.days)
    print(say("classroom.gradescope_written", file=out, days=days, total=f"{classroom.total:g}"))
    return 0


def _github(course: Course, classroom: Classroom, args: argparse.Namespace) -> int:
    from miniagent_course.classroom.github import steps, write_template

    written = write_template(course, classroom, Path(args.out).resolve())
    found = steps(course, classroom)
    total = sum(int(s["points"]) for s in found)  # type: ignore[call-overload]
    print(say("classroom.github_written", folder=Path(args.out), steps=len(found), total=total))
    for path in written:
        print(f"  {path}")
    for step in found:
        if not step["exact"]:
            print(say("classroom.github_rounded", step=step["id"], points=step["points"]))
    return 0


def _grade(course: Course, classroom: Classroom, args: argparse.Namespace) -> int:
    from miniagent_course.classroom.batch import grade_folder

    folder = Path(args.folder)
    if not folder.is_dir():
        print(say("classroom.no_folder", folder=folder), file=sys.stderr)
        return 2

    def progress(name: str, result) -> None:  # type: ignore[no-untyped-def]
        print(
            say(
                "classroom.graded_one",
                name=name,
                score=f"{result.score:g}",
                total=f"{classroom.total:g}",
                seconds=result.duration,
            ),
            flush=True,
        )

    csv_path = Path(args.csv).resolve()
    json_dir = Path(args.json_dir).resolve() if args.json_dir else None
    workers = args.workers or os.cpu_count() or 1
    results = grade_folder(course, classroom, folder, csv_path, workers, json_dir, progress)
    print(say("classroom.csv_written", n=len(results), file=csv_path))
    return 0


def _check(course: Course, classroom: Classroom, args: argparse.Namespace) -> int:
    """Grade one day part of the course's own ``exercises/``: exit 0 only if every check of the
    part passes (GitHub Classroom's command grader gives the points on exit 0)."""
    from dataclasses import replace

    from miniagent_course.classroom.grade import grade_submission

    day = course.exercise(args.day).id
    plan = next((p for p in classroom.days if p.day == day), None)
    if plan is None:
        plan = parse_config(f'days = ["{day}"]\n', course).days[0]
    if args.part > plan.parts:
        print(say("classroom.no_part", day=day, part=args.part), file=sys.stderr)
        return 2
    single = replace(classroom, days=(plan,))
    upload = course.root / "exercises"
    result = grade_submission(course, single, upload if upload.is_dir() else course.root)
    part = next(p for p in result.parts() if p.part == args.part)
    print(part.output)
    return 0 if part.total and part.passed == part.total and not part.flagged else 1
