"""``miniagent``: the learner's command for the course's exercises.

    miniagent list               every day and its status
    miniagent check [DAY]        grade one day (or all) and explain the result
    miniagent hint DAY           the next hint for a day
    miniagent watch [DAY]        re-grade every time you save an exercise file
    miniagent reset DAY          back up your file, then restore the original stub
    miniagent solution DAY       once DAY passes: the reference and upstream, side by side
    miniagent mine               your agent: create_react_agent made of your functions, tested
    miniagent trace [--agent A]  the demo, then the request body of every model call (JSON)
    miniagent open               build the course site and open it
    miniagent grade --json FILE  for instructors: a Gradescope results.json (strict)
    miniagent classroom WHAT     for instructors: Gradescope zip, GitHub Classroom, a class CSV

Grading runs pytest in a process of its own (see ``grading/run.py``); every message comes from
``text/cli.<lang>.toml``.
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import importlib
import importlib.util
import inspect
import json
import os
import shutil
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from miniagent_course.grading.course import (
    ANSWERS,
    Course,
    Exercise,
    PristineStubError,
    ensure_workspace,
    import_target,
    load_course,
    pristine_stub,
    pristine_stubs,
    stub_problems,
    stubbed_functions,
    todo_line,
    untouched,
)
from miniagent_course.grading.report import SEVERITY, WIDTH, fit, short_name
from miniagent_course.grading.run import GradingRun, run_graders
from miniagent_course.grading.sealed import FIRST_TRY, first_tries
from miniagent_course.text import columns, language, pad, say
from miniagent_course.text.helpformat import (
    HelpParser,
    RawDescriptionColumnsHelpFormatter,
    fill_columns,
)

STATE_FILE = Path(".miniagent") / "state.json"
STATUS_CACHE = Path(".miniagent") / "status.json"  # `miniagent list`'s day statuses, by content
SITE_URL = "http://127.0.0.1:8000"  # where `miniagent open` serves the course (its default port)
SITE_ADDRESS = Path(".miniagent") / "site.json"  # site/serve.py's ADDRESS_FILE: where it serves now
SITE_DOCS = "course"  # mkdocs.yml's docs_dir; pages are <name>.html (use_directory_urls: false)
DEFAULT_GRADE_REPORT = "results.grade.json"  # git ignores *.grade.json
MARKS = {"done": "✓", "failing": "✗", "broken": "✗", "in_progress": "…", "not_started": "·"}
COLORS = {"done": "32", "failing": "31", "broken": "31", "in_progress": "33", "not_started": "2"}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``miniagent`` console script."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")  # old Windows consoles cannot print every symbol
    try:
        try:
            return _main(list(sys.argv[1:] if argv is None else argv))
        finally:
            sys.stdout.flush()  # a buffered stdout meets a closed pipe here, not at exit
    except BrokenPipeError:
        # `miniagent check day01 | head -1`: the reader has gone, so stop quietly. Point stdout
        # at nothing, or Python's own flush at exit fails on the closed pipe once more.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141  # what a shell reports for a command ended by SIGPIPE (128 + 13)


def _main(argv: list[str]) -> int:
    if argv[:1] == ["open"]:
        _lay_out_workspace(None)  # the README's install command ends here: exercises/ is ready
        return _open(argv[1:])  # its options belong to the site helper
    args = _parser().parse_args(argv)
    if args.command is None:
        _parser().print_help()
        return 0
    try:
        course = load_course(args.root)
        _lay_out_workspace(course)
        return COMMANDS[args.command](course, args)
    except (FileNotFoundError, KeyError) as error:
        print(error.args[0] if error.args else error, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print()
        return 130


def _lay_out_workspace(course: Course | None) -> None:
    """Create any missing exercise file from its stub, and say so once."""
    try:
        course = course or load_course()
    except FileNotFoundError:
        return  # not in a course folder: the command says so itself
    created = ensure_workspace(course)
    if created:
        key = "workspace.created_one" if len(created) == 1 else "workspace.created"
        print(say(key, count=len(created), folder="exercises/"))


def _parser() -> argparse.ArgumentParser:
    parser = HelpParser(prog="miniagent", description=say("cli.description"))
    parser.add_argument("--root", help=say("cli.help_root"))
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.add_parser("list", help=say("cli.help_list"))
    check = commands.add_parser("check", help=say("cli.help_check"))
    check.add_argument("day", nargs="?", help=say("cli.help_day"))
    check.add_argument("--strict", action="store_true", help=say("cli.help_strict"))
    hint = commands.add_parser("hint", help=say("cli.help_hint"))
    hint.add_argument("day", help=say("cli.help_day"))
    hint.add_argument("--all", action="store_true", help=say("cli.help_hint_all"))
    watch = commands.add_parser("watch", help=say("cli.help_watch"))
    watch.add_argument("day", nargs="?", help=say("cli.help_day"))
    watch.add_argument("--interval", type=float, default=0.5, help=say("cli.help_interval"))
    watch.add_argument("--max-runs", type=int, default=None, help=argparse.SUPPRESS)
    reset = commands.add_parser("reset", help=say("cli.help_reset"))
    reset.add_argument("day", help=say("cli.help_day"))
    reset.add_argument("--undo", action="store_true", help=say("cli.help_reset_undo"))
    solution = commands.add_parser("solution", help=say("cli.help_solution"))
    solution.add_argument("day", help=say("cli.help_day"))
    solution.add_argument("--stacked", action="store_true", help=say("cli.help_stacked"))
    commands.add_parser("mine", help=say("cli.help_mine"))
    from miniagent.demo import DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT, RENDERERS  # stdlib only

    trace_parser = commands.add_parser(
        "trace",
        help=say("cli.help_trace"),
        description=fill_columns(say("trace.description"), 79),
        epilog=say("trace.variables", timeout=DEFAULT_TIMEOUT, retries=DEFAULT_MAX_RETRIES),
        formatter_class=RawDescriptionColumnsHelpFormatter,
    )
    trace_parser.add_argument(
        "--agent", choices=list(RENDERERS), default="react", help=say("cli.help_agent")
    )
    trace_parser.add_argument("--traceback", action="store_true", help=say("trace.help_traceback"))
    commands.add_parser("open", help=say("cli.help_open"))  # handled in main()
    grade = commands.add_parser("grade", help=say("cli.help_grade"))
    grade.add_argument("--json", metavar="FILE", help=say("cli.help_grade_json"))
    grade.add_argument("days", nargs="*", help=say("cli.help_day"))
    from miniagent_course.classroom.commands import add_parser as add_classroom_parser

    add_classroom_parser(commands)  # `miniagent classroom ...`: its own subcommands
    return parser


# --- output helpers ---------------------------------------------------------------------------


def _paint(text: str, status: str) -> str:
    if not sys.stdout.isatty() or os.environ.get("NO_COLOR"):
        return text
    return f"\033[{COLORS.get(status, '0')}m{text}\033[0m"


def _status_line(exercise: Exercise, run: GradingRun, width: int, after: str = "") -> str:
    """``✓ day05  <title, cut to width>  done``: ``width`` keeps the line within 80 columns."""
    status = run.day_status(exercise)
    text = run.day_text(exercise) or say("cli.status_broken")
    mark = MARKS.get(status, "?")
    title = pad(fit(exercise.title, width), width)
    line = f"{_paint(mark, status)} {exercise.id}  {title}  {_paint(text, status)}"
    return f"{line}  {after}" if after else line


def _print_held(exercise: Exercise, run: GradingRun) -> None:
    """Under a day's status line: why its part 1 waits (a sealed table with no first try)."""
    held = run.status.get("learner", {}).get(exercise.id, {}).get("held")
    if held:
        print(fit(say("table.held", line=held), WIDTH))


def _title_width(exercises: Sequence[Exercise], run: GradingRun, after: int = 0) -> int:
    """Room for the titles, so the status column lines up and no line passes 80 columns."""
    longest = max((columns(e.title) for e in exercises), default=0)
    status = max(
        (columns(run.day_text(e) or say("cli.status_broken")) for e in exercises), default=0
    )
    day = max((len(e.id) for e in exercises), default=0)
    room = WIDTH - (2 + day + 2) - 2 - status - (2 + after if after else 0)
    return max(min(longest, room), 12)


# --- check, list, grade ------------------------------------------------------------------------


def _pick(course: Course, day: str | None) -> list[Exercise]:
    return [course.exercise(day)] if day else list(course.exercises)


def _grade(course: Course, exercises: Sequence[Exercise], *extra: str) -> GradingRun:
    if importlib.util.find_spec("pytest") is None:
        raise FileNotFoundError(say("cli.no_pytest"))
    run = run_graders(course, exercises, "learner", *extra)
    if run.exitstatus == -1:
        print(say("cli.run_timeout"), file=sys.stderr)
    return run


def check(course: Course, args: argparse.Namespace) -> int:
    """Grade one day (or all) and explain what to do next."""
    exercises = _pick(course, args.day)
    # A day whose file is all stubs is "not started" without starting pytest (strict mode grades
    # it, so that each of its graders counts as a failure).
    fresh = [] if args.strict else [e for e in exercises if untouched(course, e)]
    graded = [e for e in exercises if e not in fresh]
    if graded:
        run = _grade(course, graded, *(["--strict-exercises"] if args.strict else []))
    else:
        run = GradingRun(exitstatus=0, output="")
    for exercise in fresh:
        text = say("status.not_started")
        run.status.setdefault("learner", {})[exercise.id] = {"status": "not_started", "text": text}
    width = _title_width(exercises, run)
    for exercise in exercises:
        print(_status_line(exercise, run, width))
        _print_held(exercise, run)
    for exercise in exercises:
        _explain(course, exercise, run, detailed=bool(args.day))
    statuses = [run.day_status(e) for e in exercises]
    if not args.day:
        current = next((e for e in exercises if run.day_status(e) != "done"), None)
        print("\n" + (say("cli.list_next", day=current.id) if current else say("cli.course_done")))
    if args.day or args.strict:
        return 0 if statuses == ["done"] * len(statuses) else 1
    return 1 if {"failing", "broken", "in_progress"} & set(statuses) else 0


def _explain(course: Course, exercise: Exercise, run: GradingRun, detailed: bool) -> None:
    """What a day's result means and what to do next (in full when one day was checked)."""
    status = run.day_status(exercise)
    if status == "broken":
        print("\n" + say("cli.broken", day=exercise.id))
        print(run.output.strip()[-4000:])
    elif status == "failing":
        _explain_failures(course, exercise, run, detailed)
    elif status == "in_progress":
        stubs = stubbed_functions(course.root / exercise.file, exercise.id)
        names = ", ".join(say("cli.stub_at", name=name, line=line) for name, line in stubs)
        key = {0: "cli.in_progress", 1: "cli.in_progress_one"}.get(
            len(stubs), "cli.in_progress_named"
        )
        print("\n" + say(key, day=exercise.id, file=exercise.file, names=names))
    elif status == "not_started" and detailed:
        line = todo_line(course.root / exercise.file, exercise.id) or 1
        print("\n" + say("cli.not_started", day=exercise.id, file=exercise.file, line=line))
    elif status == "done" and detailed:
        print("\n" + say("cli.done", day=exercise.id))
        notes = [line for test in run.day_tests(exercise) for line in test.get("notes", [])]
        if notes:
            print(say("judge.notes_header"))
            print("\n".join(f"  {line}" for line in notes))
        following = _next_exercise(course, exercise)
        if following is None:
            print(say("cli.last_day"))
        else:
            print(
                say(
                    "cli.next_day",
                    day=following.id,
                    title=following.title,
                    lesson=lesson_address(following, course.root),
                )
            )


def _explain_failures(course: Course, exercise: Exercise, run: GradingRun, detailed: bool) -> None:
    failing = [t for t in run.day_tests(exercise) if t["status"] in ("failed", "error")]
    if detailed and len(failing) == 1:  # one failure: its details say it, once
        print("\n" + say("cli.one_failure", day=exercise.id, file=exercise.file))
        print(failing[0]["details"].rstrip())
    else:
        print("\n" + say("cli.failing_header", day=exercise.id, file=exercise.file))
        for test in failing:
            name = short_name(test["nodeid"])
            print(say("cli.failing_test", name=name, message=test["message"]))
    if detailed and len(failing) > 1:
        print("\n" + say("cli.first_failure", name=short_name(failing[0]["nodeid"])))
        print(failing[0]["details"].rstrip())
    print(
        "\n"
        + say("cli.failing_next", day=exercise.id, lesson=lesson_address(exercise, course.root))
    )


def lesson_address(exercise: Exercise, root: Path | None = None) -> str:
    """Where the lesson is on the site ``miniagent open`` serves, and its file; in the learner's
    language when the lesson has a twin in it (``zh/days/x.html``, ``course/days/x.zh.md``)."""
    lesson = Path(exercise.lesson)
    page = lesson.relative_to(SITE_DOCS).with_suffix(".html").as_posix()
    lang = language()
    twin = lesson.with_name(f"{lesson.stem}.{lang}{lesson.suffix}")
    if lang != "en" and root is not None and (root / twin).is_file():
        page, lesson = f"{lang}/{page}", twin
    address = SITE_URL
    if root is not None and (root / SITE_ADDRESS).exists():  # `miniagent open` has served it
        from miniagent_course.site.serve import served_address  # http.server: only then

        address = served_address(root, SITE_URL)
    return say("cli.lesson_address", url=f"{address}/{page}", file=lesson.as_posix())


def _next_exercise(course: Course, exercise: Exercise) -> Exercise | None:
    ids = [e.id for e in course.exercises]
    position = ids.index(exercise.id) + 1
    return course.exercises[position] if position < len(ids) else None


def _day_key(course: Course, exercise: Exercise) -> str:
    """What a day's status depends on: the learner's file, its kit's metadata, its graders and
    its table's recorded first try (which opens a sealed day's part 1)."""
    digest = hashlib.sha256()
    first_try = course.root / FIRST_TRY / f"{exercise.id}.json"
    for path in [course.root / exercise.file, course.root / exercise.kit / "kit.toml", first_try]:
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"(missing)")
    for path in course.grader_files(exercise):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _graded_with_cache(course: Course, exercises: Sequence[Exercise] = ()) -> GradingRun:
    """Every day's status (or those of ``exercises``), regrading only the days whose files
    changed since they were last graded this way (``list``, ``hint``).

    Kept in ``.miniagent/status.json``; a day's entry is trusted only while its key (the content
    of the learner's file, its kit.toml and its graders) is unchanged. An entry holds the day's
    status, its words and ``checks``: each grader test's worst outcome, by the test's name. The
    words are in the language they were graded in (``lang``): after a switch of ``MINIAGENT_LANG``
    (or the locale) an entry in the other language is stale, so no list mixes two languages.
    """
    path = course.root / STATUS_CACHE
    try:
        cache = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        cache = {}
    wanted = list(exercises) or list(course.exercises)
    keys = {e.id: _day_key(course, e) for e in wanted}
    lang = language()
    stale = [
        e
        for e in wanted
        if cache.get(e.id, {}).get("key") != keys[e.id]
        or cache[e.id].get("lang") != lang
        or "checks" not in cache[e.id]
    ]
    if stale:
        run = _grade(course, stale)
        for exercise in stale:
            if run.exitstatus != -1 and run.day_status(exercise) != "broken":
                cache[exercise.id] = {
                    "key": keys[exercise.id],
                    "lang": lang,
                    "status": run.day_status(exercise),
                    "text": run.day_text(exercise),
                    "held": run.status["learner"][exercise.id].get("held", ""),
                    "checks": _checks(run.day_tests(exercise)),
                }
            else:  # a run that did not finish says nothing lasting about the day
                cache.pop(exercise.id, None)
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps(cache, indent=1) + "\n", encoding="utf-8")
    status = {e.id: cache[e.id] for e in wanted if e.id in cache}
    return GradingRun(exitstatus=0, output="", status={"learner": status})


def _checks(tests: list[dict[str, Any]]) -> dict[str, str]:
    """``{test name: worst outcome}``: ``test_y`` for ``.../test_x.py::test_y[learner-a]``."""
    worst: dict[str, str] = {}
    for test in tests:
        name = test["nodeid"].split("::")[-1].split("[")[0]
        if SEVERITY[test["status"]] >= SEVERITY.get(worst.get(name, "passed"), 0):
            worst[name] = test["status"]
    return worst


def list_days(course: Course, args: argparse.Namespace) -> int:
    """Every day with its status, how many hints were used, and a predict day's first try."""
    run = _graded_with_cache(course)
    shown = _load_state(course).get("hints_shown", {})
    hints = {
        e.id: say("cli.hints_used", shown=len(_shown(shown.get(e.id))), total=len(e.hints))
        for e in course.exercises
    }
    tries = first_tries(course.root, hints)  # a predict day's recorded first try
    for day, first in tries.items():
        hints[day] = say("cli.list_first_try", hints=hints[day], score=first.score)
    width = _title_width(course.exercises, run, after=max(map(len, hints.values())))
    for exercise in course.exercises:
        print(_status_line(exercise, run, width, after=hints[exercise.id]))
        _print_held(exercise, run)
    current = next((e for e in course.exercises if run.day_status(e) != "done"), None)
    print("\n" + (say("cli.list_next", day=current.id) if current else say("cli.course_done")))
    return 0


def grade(course: Course, args: argparse.Namespace) -> int:
    """Instructor export: grade in strict mode and write a Gradescope results.json."""
    report = Path(args.json).resolve() if args.json else course.root / DEFAULT_GRADE_REPORT
    report.unlink(missing_ok=True)  # so a stale file is never mistaken for this run's
    exercises = [course.exercise(d) for d in args.days] or list(course.exercises)
    run = _grade(course, exercises, "--strict-exercises", f"--grade-report={report}")
    if not report.exists():
        print(say("cli.grade_failed"), file=sys.stderr)
        print(run.output.strip()[-4000:], file=sys.stderr)
        return 1
    data = json.loads(report.read_text(encoding="utf-8"))
    print(say("cli.grade_written", score=data["score"], total=len(data["tests"]), file=report))
    return 0


# --- hints ---------------------------------------------------------------------------------------


def _load_state(course: Course) -> dict[str, Any]:
    path = course.root / STATE_FILE
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _save_state(course: Course, state: dict[str, Any]) -> None:
    path = course.root / STATE_FILE
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(state, indent=2) + "\n", encoding="utf-8")


def hint(course: Course, args: argparse.Namespace) -> int:
    """Show the next hint of a day: the first you have not seen that helps with a check that
    fails now, else the next in order (``--all``: every hint you have seen, in order)."""
    exercise = course.exercise(args.day)
    state = _load_state(course)
    shown_by_day = state.setdefault("hints_shown", {})
    shown = _shown(shown_by_day.get(exercise.id))
    total = len(exercise.hints)
    if total == 0:
        return 0
    number, check = _pick_hint(exercise, shown, _day_checks(course, exercise))
    earlier = [n for n in shown if n != number]
    if number not in shown:
        shown.append(number)
    for n in sorted(shown) if args.all else [number]:
        text = exercise.hints[n - 1]
        if n == number and check:
            print(say("cli.hint_for", n=n, total=total, check=check, text=text))
        else:
            print(say("cli.hint", n=n, total=total, text=text))
    if earlier and not args.all:
        print(say("cli.hint_earlier", day=exercise.id, count=len(earlier)))
    if len(shown) == total:
        print(say("cli.hint_last", lesson=lesson_address(exercise, course.root)))
    else:
        print(say("cli.hint_more", day=exercise.id))
    shown_by_day[exercise.id] = shown
    _save_state(course, state)
    return 0


def _shown(saved: Any) -> list[int]:
    """The hints of a day seen so far, in the order they were shown (an older state.json kept
    only how many: the first ones)."""
    if isinstance(saved, int):
        return list(range(1, saved + 1))
    return [n for n in saved if isinstance(n, int)] if isinstance(saved, list) else []


def _day_checks(course: Course, exercise: Exercise) -> dict[str, str] | None:
    """Each grader test's outcome now, by name, when a hint of the day is tied to tests. None
    (the hints come in order) for a day with plain hints, a day not started (nothing is graded)
    and a day that cannot be graded (a file that does not load)."""
    if not any(exercise.hint_checks) or untouched(course, exercise):
        return None
    entry = _graded_with_cache(course, [exercise]).status["learner"].get(exercise.id)
    return entry.get("checks") if entry else None


FAILING = ("failed", "error")  # a check that fails now
WAITING = ("not_started", "not_run")  # a check whose code is not written (or not reached) yet


def _pick_hint(
    exercise: Exercise, shown: list[int], checks: dict[str, str] | None
) -> tuple[int, str]:
    """The hint to show and the check it was chosen for ("" when chosen by its order).

    First the first unseen hint tied to a failing check, then one tied to a check still waiting
    for code, then the next unseen hint in order; once all were seen, the one that helps most
    now (else the last one shown). A hint is tied to a whole part, never to one case of a
    prediction table, so which hint comes never tells which prediction is wrong.
    """
    numbers = range(1, len(exercise.hints) + 1)
    unseen = [n for n in numbers if n not in shown]
    for candidates in (unseen, list(numbers)):
        for outcomes in (FAILING, WAITING):
            for n in candidates:
                globs = exercise.hint_checks[n - 1] if n <= len(exercise.hint_checks) else ()
                check = _tied_check(globs, checks, outcomes)
                if check:
                    return n, check
        if candidates is unseen and unseen:
            return unseen[0], ""
    return (shown[-1] if shown else 1), ""


def _tied_check(
    globs: Sequence[str], checks: dict[str, str] | None, outcomes: tuple[str, ...]
) -> str:
    """The first check that one of ``globs`` names and whose outcome is one of ``outcomes``."""
    for glob in globs if checks else ():
        for name, outcome in checks.items():
            if outcome in outcomes and fnmatch.fnmatchcase(name, glob):
                return name
    return ""


# --- watch ---------------------------------------------------------------------------------------


def _stamps(course: Course) -> dict[str, tuple[int, int] | None]:
    stamps: dict[str, tuple[int, int] | None] = {}
    for exercise in course.exercises:
        try:
            info = (course.root / exercise.file).stat()
            stamps[exercise.id] = (info.st_mtime_ns, info.st_size)
        except OSError:
            stamps[exercise.id] = None
    return stamps


def _working_on(course: Course) -> Exercise:
    """The day you saved last (among files that are no longer stubs); else the first day.

    Read from the files alone, so ``watch`` starts at once instead of grading every day first.
    """
    edited = []
    for exercise in course.exercises:
        path = course.root / exercise.file
        try:
            source = path.read_text(encoding="utf-8")
        except OSError:
            continue
        if stub_problems(source, exercise):  # not a pristine stub: you have been working here
            edited.append((path.stat().st_mtime_ns, exercise))
    return max(edited, key=lambda pair: pair[0])[1] if edited else course.exercises[0]


def watch(course: Course, args: argparse.Namespace) -> int:
    """Re-grade a day each time its file is saved. Polls, so it works on every file system."""
    first = course.exercise(args.day) if args.day else _working_on(course)
    runs = 0

    def regrade(exercise: Exercise) -> None:
        nonlocal runs
        if sys.stdout.isatty():
            print("\033[2J\033[H", end="")
        print(say("cli.watch_banner", file=exercise.file, time=datetime.now().strftime("%H:%M:%S")))
        check(course, argparse.Namespace(day=exercise.id, strict=False))
        print("\n" + say("cli.watch_waiting"), flush=True)
        runs += 1

    stamps = _stamps(course)
    regrade(first)
    try:
        while args.max_runs is None or runs < args.max_runs:
            time.sleep(args.interval)
            now = _stamps(course)
            changed = [e for e in course.exercises if now[e.id] != stamps[e.id]]
            stamps = now
            for exercise in changed:
                regrade(exercise)
    except KeyboardInterrupt:
        print("\n" + say("cli.watch_stopped"))
    return 0


# --- reset ---------------------------------------------------------------------------------------


def reset(course: Course, args: argparse.Namespace) -> int:
    """Restore the original stub of a day, after saving your file to exercises/.backup/.

    With ``--undo``: put back the latest backup instead (your current file is backed up first,
    unless it is the stub, so nothing you wrote is ever lost).
    """
    exercise = course.exercise(args.day)
    path = course.root / exercise.file
    try:
        stub = pristine_stub(course, exercise)
    except PristineStubError as error:
        print(error, file=sys.stderr)
        return 1
    current = path.read_text(encoding="utf-8") if path.exists() else None
    if args.undo:
        return _undo_reset(course, exercise, current, stub)
    if current == stub:
        print(say("cli.reset_nothing", file=exercise.file))
        return 0
    if current is not None and current not in pristine_stubs(course, exercise):
        _back_up(course, path)  # (another language's stub holds nothing of yours to keep)
    path.write_text(stub, encoding="utf-8")
    print(say("cli.reset_done", file=exercise.file, day=exercise.id))
    return 0


def _backups(path: Path) -> list[Path]:
    """The backups ``reset`` made of ``path``, oldest first (by the time in their names)."""

    def when(backup: Path) -> tuple[str, int]:  # name-<date>-<time>[-<n>]
        date, time_, *number = backup.stem.removeprefix(f"{path.stem}-").split("-")
        return f"{date}-{time_}", int(number[0]) if number else 1

    return sorted((path.parent / ".backup").glob(f"{path.stem}-*{path.suffix}"), key=when)


def _back_up(course: Course, path: Path) -> None:
    stamp = f"{datetime.now():%Y%m%d-%H%M%S}"
    backup = path.parent / ".backup" / f"{path.stem}-{stamp}{path.suffix}"
    number = 1
    while backup.exists():  # two in one second: never overwrite an earlier backup
        number += 1
        backup = path.parent / ".backup" / f"{path.stem}-{stamp}-{number}{path.suffix}"
    backup.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(path, backup)
    print(say("cli.reset_backup", backup=backup.relative_to(course.root).as_posix()))


def _undo_reset(course: Course, exercise: Exercise, current: str | None, stub: str) -> int:
    path = course.root / exercise.file
    backups = _backups(path)
    if not backups:
        print(say("cli.reset_no_backup", file=exercise.file, day=exercise.id))
        return 1
    latest = backups[-1]
    shown = latest.relative_to(course.root).as_posix()
    saved = latest.read_text(encoding="utf-8")
    if current == saved:
        print(say("cli.reset_undo_nothing", file=exercise.file, backup=shown))
        return 0
    if current is not None and current not in pristine_stubs(course, exercise) | {stub}:
        _back_up(course, path)
    path.write_text(saved, encoding="utf-8")
    print(say("cli.reset_undone", file=exercise.file, backup=shown))
    return 0


# --- solution ------------------------------------------------------------------------------------


def solution(course: Course, args: argparse.Namespace) -> int:
    """Once a day passes: each graded function in miniagent and upstream, side by side."""
    exercise = course.exercise(args.day)
    run = _grade(course, [exercise])
    if run.day_status(exercise) != "done":
        print(say("cli.solution_locked", day=exercise.id, status=run.day_text(exercise)))
        return 1
    for function in exercise.functions:
        left_title, left = _source(function.reference, course.root)
        if ANSWERS in function.reference:  # a Think answer: its file is the instructors'
            left_title = say("cli.answer_title", function=function.name)
        try:
            right_title, right = _source(function.upstream, course.root, quiet=True)
        except ImportError:
            right_title, right = say("cli.upstream_title_missing"), say("cli.upstream_missing")
        print(_side_by_side(left_title, left, right_title, right, stacked=args.stacked))
    print(say("cli.solution_footer", day=exercise.id, file=exercise.file))
    return 0


def _source(target: str, root: Path, quiet: bool = False) -> tuple[str, str]:
    """(``path:line`` title, source text) of ``module:function``.

    ``module:outer.inner`` names a function defined inside another one, such as
    ``create_react_agent.call_model``; it is found in the module's source, not imported.
    """
    module_name, _, qualname = target.rpartition(":")  # a kit's answers.py: a path, maybe "C:..."
    with warnings.catch_warnings():
        if quiet:
            warnings.simplefilter("ignore")  # upstream warns about its deprecated agent on import
        obj = import_target(f"{module_name}:{qualname.split('.')[0]}")
    path = Path(inspect.getsourcefile(obj) or "?")
    if "." in qualname or getattr(obj, "__name__", qualname) != qualname:  # or a decorator's
        from miniagent_course.site.upstream import symbols

        path = Path(importlib.import_module(module_name).__file__ or "?")  # not the decorator's
        symbol = symbols(path)[qualname]
        first = symbol.first_line
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        lines = lines[first - 1 : symbol.end_line]
    else:
        lines, first = inspect.getsourcelines(obj)
    try:
        shown = path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        parts = path.parts
        shown = (
            "/".join(parts[parts.index("site-packages") + 1 :])
            if "site-packages" in parts
            else str(path)
        )
    return f"{shown}:{first}", "".join(lines).rstrip("\n")


def _side_by_side(left_title: str, left: str, right_title: str, right: str, stacked: bool) -> str:
    left_lines = [left_title, "-" * len(left_title), *left.splitlines()]
    right_lines = [right_title, "-" * len(right_title), *right.splitlines()]
    width = max(len(line) for line in left_lines)
    columns = shutil.get_terminal_size((120, 24)).columns
    if stacked or width + 3 + max(len(line) for line in right_lines) > columns:
        return "\n".join([*left_lines, "", *right_lines, ""])
    rows = max(len(left_lines), len(right_lines))
    left_lines += [""] * (rows - len(left_lines))
    right_lines += [""] * (rows - len(right_lines))
    return (
        "\n".join(
            f"{a:<{width}} | {b}".rstrip() for a, b in zip(left_lines, right_lines, strict=True)
        )
        + "\n"
    )


# --- mine ----------------------------------------------------------------------------------------


def mine(course: Course, args: argparse.Namespace) -> int:
    """Your agent: which functions are yours, the demo run on it, and the scenarios it passes."""
    from miniagent_course.grading.timeout import GraderTimeout, call_with_timeout
    from miniagent_course.mine import SCENARIO_TIMEOUT, check, your_agent, your_functions
    from miniagent_course.mine.scenarios import AGENT_SCENARIOS

    yours = your_functions(course)
    print(say("mine.title"))
    for exercise in course.exercises:
        if exercise.id in yours.functions:
            names = ", ".join(yours.functions[exercise.id])
            print(say("mine.yours", day=exercise.id, names=names))
        elif exercise.id in yours.broken:
            print(say("mine.broken", day=exercise.id, why=yours.broken[exercise.id]))
        elif exercise.id in yours.not_started:
            print(say("mine.theirs", day=exercise.id))
    print("\n" + say("mine.demo_title"))
    from miniagent.demo import render

    with your_agent(yours.functions):
        try:
            print(call_with_timeout(render, {}, SCENARIO_TIMEOUT))
        except GraderTimeout:
            print(say("mine.demo_timeout", seconds=SCENARIO_TIMEOUT))
        except Exception as error:  # your functions may break the demo: say how, go on
            print(say("mine.demo_failed", error=f"{type(error).__name__}: {error}".splitlines()[0]))
    report = check(course)
    print(say("mine.score", k=len(report.passed), n=report.total))
    for name, days in report.failed.items():
        print(say("mine.failed", scenario=name, days=", ".join(days)))
    agent_report = check(course, AGENT_SCENARIOS)
    print(say("mine.agent_score", k=len(agent_report.passed), n=agent_report.total))
    for name, days in agent_report.failed.items():
        print(say("mine.failed", scenario=name, days=", ".join(days)))
    if not report.failed and not agent_report.failed and not yours.not_started and not yours.broken:
        print(say("mine.all_yours"))
    from miniagent_course.mine.loop import check_loop

    loop = check_loop(course)  # your Day 03 loop replaces the whole graph: a line of its own
    if loop is not None and loop.state == "yours":
        print(say("mine.loop_score", day=loop.day, k=len(loop.passed), n=loop.total))
        for name in loop.failed:
            print(say("mine.loop_failed", script=name, day=loop.day))
    elif loop is not None and loop.state == "broken":
        print(say("mine.loop_broken", day=loop.day, why=loop.why))
    elif loop is not None:
        print(say("mine.loop_not_started", day=loop.day))
    return 0 if not report.failed and not agent_report.failed and not (loop and loop.failed) else 1


# --- trace ---------------------------------------------------------------------------------------


def trace(course: Course, args: argparse.Namespace) -> int:
    """The demo (``python -m miniagent.demo --agent A``), traced: what each model call sent.

    The model is the course's switch (``course_model``): the demo's scripted fake, unless
    ``MINIAGENT_MODEL`` names a real one. The payload is built by ``miniagent.openai``'s
    converter, so offline it is the body a real model would have received. A real model is
    announced in one line and runs with the course's timeout and retries; if it fails (a refused
    key, a wrong URL, a server that hangs, no key), two lines on stderr say what and the fix
    (``--traceback`` or ``MINIAGENT_TRACEBACK=1``: the traceback too, the key blanked out).
    """
    from miniagent.demo import RENDERERS
    from miniagent_course.models import course_model, report_failure
    from miniagent_course.tracer import PayloadTracer

    tracer = PayloadTracer()
    model = None
    try:
        model = course_model(None)  # a real one is announced in one line: model, URL, key hidden
        print(RENDERERS[args.agent](model, config={"callbacks": [tracer]}))
    except Exception as error:  # a real model's failure: two lines, the fix, no traceback
        if not report_failure(error, model, show_traceback=args.traceback):
            raise
        return 1
    print("\n" + say("trace.header", n=len(tracer.calls)))
    for number, call in enumerate(tracer.calls, 1):
        print(
            "\n"
            + say(
                "trace.call",
                n=number,
                total=len(tracer.calls),
                messages=len(call.messages),
                tools=len(call.tools),
            )
        )
        if call.payload is None:
            print(say("trace.no_payload", error=call.payload_error))
        else:
            print(call.payload_json())
    return 0


# --- open ----------------------------------------------------------------------------------------


def _open(argv: list[str]) -> int:
    """Delegate to the site helper (imported only now: it needs the [course] extra)."""
    try:
        from miniagent_course.site.serve import open_course
    except ImportError as error:
        print(say("cli.open_unavailable", detail=error), file=sys.stderr)
        return 1
    return open_course(argv)


# --- classroom -----------------------------------------------------------------------------------


def classroom(course: Course, args: argparse.Namespace) -> int:
    """For instructors: ``miniagent classroom gradescope|github|grade|check|sample``."""
    from miniagent_course.classroom.commands import run

    return run(course, args)


COMMANDS: dict[str, Callable[[Course, argparse.Namespace], int]] = {
    "list": list_days,
    "check": check,
    "hint": hint,
    "watch": watch,
    "reset": reset,
    "solution": solution,
    "grade": grade,
    "mine": mine,
    "trace": trace,
    "classroom": classroom,
}


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
