"""The learner's loop: how long the course's everyday commands take. Prints a table, asserts nothing.

    python bench/bench_loop.py            # about 10 minutes on an idle 2-core machine
    python bench/bench_loop.py --quick    # one timed run of each (about 4 minutes)
    python bench/bench_loop.py --only check,list,pytest  # of: check, list, site, notebooks, pytest

Everything runs in a temporary copy of the course (``copy_course``: the repository without
``.git``, ``.venv``, ``site/``, caches and ``exercises/``; ``node_modules`` is linked), whose
``exercises/`` is laid out from the pristine stubs -- or, for "solved", with each graded function
replaced by the reference's own source (``solved_source`` of ``tests/course/meta/conftest.py``)
and each day's predictions table written as values, as a learner writes it (the reference
computes it by running every case, for each row's grader); or, for "failing", solved but for a
mistake: the day's first graded function returns None.
The repository's own ``exercises/``, ``site/`` and caches are never touched. Commands run as a
learner runs them: the venv's console scripts, from the course root, with bytecode caching on.
The packages themselves (miniagent, miniagent_course) come from the installed package, as on a
learner's machine: with an editable install, that is this checkout's ``src/``.

Contract (each printed with PASS/MISS; wall time of the whole command, spawn to exit):

* ``miniagent check dayNN`` <= 0.5 s, warm, for a day not started, a solved day and a day with a
  failing function: for every day kit, one untimed call, then the timed calls (the days take
  turns); the slowest day's median, and each day's minimum and median printed;
* ``miniagent list`` <= 1 s when no exercise changed since the last ``list``, <= 1.5 s after one
  exercise file changed (it regrades that day only): the median of the timed calls;
* all notebooks executed <= 60 s: nbclient, one after another, as
  ``tests/course/notebooks/test_notebooks.py`` runs them (``MINIAGENT_NOTEBOOK_IMPL=reference``);
  the median of the passes;
* ``mkdocs build --strict`` <= 20 s with the executed notebooks cached: one build fills the cache
  (its time is printed, no target), then the median of the timed builds;
* the README's plain ``pytest`` (no arguments: ``testpaths`` of pyproject.toml) <= 5 s with every
  day not started and <= 6 s with every day solved: one untimed run, then the median.

Each timed command is checked (a solved day must pass, the site must build, pytest must end with
every day in the expected state), so a broken setup fails loudly instead of timing an error.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

from miniagent_course.grading import warm
from miniagent_course.grading.course import (
    Course,
    Exercise,
    load_course,
    load_implementation,
    pristine_stub,
)
from miniagent_course.grading.judgments import KINDS
from miniagent_course.text import say

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent  # the venv's console scripts: miniagent, pytest, mkdocs
REPS = {"check": 5, "list": 5, "notebooks": 3, "mkdocs": 3, "pytest": 5}
QUICK_REPS = {"check": 1, "list": 1, "notebooks": 1, "mkdocs": 1, "pytest": 1}
TARGETS = {
    "check": 0.5,
    "list": 1.0,
    "list_one": 1.5,
    "notebooks": 60.0,
    "mkdocs": 20.0,
    "pytest_new": 5.0,
    "pytest_done": 6.0,
}
STATES = {"not_started": "not started", "done": "solved", "failing": "failing"}  # check's days
NOT_COPIED = {"venv", "site", "exercises", "node_modules", "build", "dist"}  # and dot-folders
NOT_COPIED_ANYWHERE = ["__pycache__", "*.pyc", ".cache", ".*_cache", ".hypothesis", ".miniagent"]


# ---- the course copy ---------------------------------------------------------------------------


def _meta_conftest() -> ModuleType:
    """``tests/course/meta/conftest.py``, for its ``solved_source`` (one way to solve a stub)."""
    spec = importlib.util.spec_from_file_location(
        "_bench_meta_conftest", REPO / "tests/course/meta/conftest.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def copy_course(destination: Path, *, solved: bool, failing: bool = False) -> Course:
    """A copy of the course in ``destination`` (see the module docstring), its exercises laid
    out from the stubs, or solved with the reference when ``solved`` (with a mistake in each day's
    first graded function when ``failing`` too)."""
    ignore = shutil.ignore_patterns(*NOT_COPIED_ANYWHERE)
    for entry in REPO.iterdir():
        if entry.name in NOT_COPIED or entry.name.startswith("."):
            continue
        if entry.is_dir():
            shutil.copytree(entry, destination / entry.name, ignore=ignore)
        else:
            shutil.copy2(entry, destination / entry.name)
    if (REPO / "node_modules").is_dir():  # the site's two offline assets (168 MB: linked)
        (destination / "node_modules").symlink_to(REPO / "node_modules")
    course = load_course(destination)
    solve = _meta_conftest().solved_source if solved else None
    for exercise in course.exercises:
        stub = pristine_stub(course, exercise)
        target = destination / exercise.file
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(solve(exercise, stub) if solve else stub, encoding="utf-8")
        if solve:
            written = target.read_text(encoding="utf-8")
            target.write_text(tables_as_values(course, exercise, written), encoding="utf-8")
        if solve and failing:
            with target.open("a", encoding="utf-8") as file:
                file.write(mistake(exercise))
    return course


def tables_as_values(course: Course, exercise: Exercise, source: str) -> str:
    """``source`` with the day's predictions function returning its table as values (what a
    learner writes), instead of the reference's runs of every case. Unchanged for a day without
    a predictions table, or one whose values are not Python literals."""
    judgment = exercise.judgment
    if judgment is None or not KINDS[judgment.kind].sealed:  # a table: predict, read
        return source
    name = judgment.function or "predictions"
    table = load_implementation(course, exercise, "learner").functions[name]()
    text = repr(table)
    try:
        if ast.literal_eval(text) != table:
            return source
    except (ValueError, SyntaxError):
        return source
    node = next(
        n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef) and n.name == name
    )
    lines = source.splitlines(keepends=True)
    start = min([node.lineno] + [d.lineno for d in node.decorator_list]) - 1
    lines[start : node.end_lineno] = [f"def {name}():\n    return {text}\n"]
    return "".join(lines)


def mistake(exercise: Exercise) -> str:
    """A redefinition of the day's first graded function that returns None: a failing day."""
    name = exercise.functions[0].name
    return f"\n\ndef {name}(*args, **kwargs):  # a mistake\n    return None\n"


def learner_env() -> dict[str, str]:
    """This environment as a learner's shell has it: bytecode is cached, nothing of a
    surrounding pytest run (options, xdist worker ids) leaks into the child, and the ``miniagent``
    command keeps a warm grader as it does in a terminal (``grading/warm.py``)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k != "PYTHONDONTWRITEBYTECODE" and not k.startswith("PYTEST_")
        and k != "MINIAGENT_NOTEBOOK_IMPL"
    }  # fmt: skip
    return {**env, "NO_MKDOCS_2_WARNING": "1", "MINIAGENT_GRADING": "warm"}


def timed(
    command: Sequence[str], cwd: Path, codes: Sequence[int] = (0,)
) -> tuple[float, subprocess.CompletedProcess[str]]:
    """Wall seconds of ``command`` from spawn to exit, and the finished process; raises if the
    command exits with a code not in ``codes``."""
    t0 = time.perf_counter()
    done = subprocess.run(list(command), cwd=cwd, env=learner_env(), capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    if done.returncode not in codes:
        output = (done.stdout + done.stderr)[-3000:]
        raise RuntimeError(f"{' '.join(command)} exited with {done.returncode}:\n{output}")
    return elapsed, done


# ---- the four measurements ---------------------------------------------------------------------


def check_command(exercise: Exercise) -> list[str]:
    return [str(BIN / "miniagent"), "check", exercise.id]


def bench_check(
    course: Course, days: Sequence[Exercise], reps: int, expected: str = "done"
) -> dict[str, float]:
    """Median seconds of ``miniagent check <day>`` per day, warm (see the docstring); each day's
    status line must say ``expected`` (``done``, ``not_started`` or ``failing``)."""
    return {
        day: statistics.median(t) for day, t in check_times(course, days, reps, expected).items()
    }


def check_times(
    course: Course, days: Sequence[Exercise], reps: int, expected: str = "done"
) -> dict[str, list[float]]:
    """Every timed run of ``miniagent check <day>``, per day (see :func:`bench_check`)."""
    status = say(f"status.{expected}", n=0, m=0).split("0")[0]  # "done", "failing ", ...

    def run(exercise: Exercise) -> float:
        elapsed, done = timed(check_command(exercise), course.root, codes=(0, 1))
        output = done.stdout + done.stderr
        first = output.splitlines()[0] if output.strip() else ""
        if f" {exercise.id}  " not in first or status not in first.split(exercise.title[:20])[-1]:
            raise RuntimeError(f"{exercise.id} is not {status!r} here:\n{output}")
        if expected == "done" and say("cli.done", day=exercise.id) not in output:
            raise RuntimeError(f"{exercise.id} does not pass with the reference:\n{output}")
        return elapsed

    for exercise in days:
        run(exercise)  # untimed: the first call after a change compiles and caches bytecode
    times: dict[str, list[float]] = {e.id: [] for e in days}
    for _ in range(reps):  # the days take turns: a slow spell of the machine hits all alike
        for exercise in days:
            times[exercise.id].append(run(exercise))
    return times


def list_command() -> list[str]:
    return [str(BIN / "miniagent"), "list"]


def bench_list(course: Course, reps: int, changed: Exercise | None = None) -> float:
    """Median seconds of ``miniagent list`` after one untimed call (which fills its cache); with
    ``changed``, that day's exercise file gets a new comment line before each timed call, so each
    call regrades that one day. The file is put back after."""
    path = course.root / changed.file if changed is not None else None
    original = path.read_text(encoding="utf-8") if path is not None else ""

    def run() -> float:
        elapsed, done = timed(list_command(), course.root)
        if not all(f" {e.id}  " in done.stdout for e in course.exercises):
            raise RuntimeError(f"miniagent list did not list every day:\n{done.stdout}")
        return elapsed

    run()  # untimed: fills the status cache
    times = []
    try:
        for n in range(reps):
            if path is not None:
                path.write_text(original + f"\n# edit {n}\n", encoding="utf-8")
            times.append(run())
    finally:
        if path is not None:
            path.write_text(original, encoding="utf-8")
    return statistics.median(times)


def notebooks_of(course: Course) -> list[Path]:
    return sorted((course.root / "notebooks").glob("*.ipynb"))


def execute_notebooks(paths: Sequence[Path]) -> dict[str, float]:
    """Seconds to execute each notebook with nbclient, one after another, as
    ``tests/course/notebooks/test_notebooks.py`` does (kernel cwd = the notebook's folder). Run
    in a child (``--notebooks``) so the kernels' chatter on stderr stays out of the table."""
    import nbclient
    import nbformat

    os.environ["MINIAGENT_NOTEBOOK_IMPL"] = "reference"  # the kernels inherit it
    times = {}
    for path in paths:
        notebook = nbformat.read(path, as_version=4)
        client = nbclient.NotebookClient(
            notebook,
            timeout=30,
            kernel_name="python3",
            resources={"metadata": {"path": str(path.parent)}},
        )
        t0 = time.perf_counter()
        client.execute()  # raises CellExecutionError on a failing cell
        times[path.stem] = time.perf_counter() - t0
    return times


def bench_notebooks(course: Course, paths: Sequence[Path], reps: int) -> dict[str, float]:
    """Median over ``reps`` passes: seconds per notebook and ``total`` (the whole pass, kernel
    start-ups included)."""
    command = [sys.executable, __file__, "--notebooks", *map(str, paths)]
    passes = []
    for _ in range(reps):
        total, done = timed(command, course.root)
        passes.append({**json.loads(done.stdout.strip().splitlines()[-1]), "total": total})
    return {key: statistics.median(p[key] for p in passes) for key in passes[0]}


def site_command(course: Course, site_dir: Path) -> list[str]:
    return [str(BIN / "mkdocs"), "build", "--strict", "--site-dir", str(site_dir), "--quiet"]


def bench_site(course: Course, reps: int) -> tuple[float, float]:
    """(seconds of the build that fills the notebook cache, median seconds of the cached builds).
    The site goes to a temporary folder inside the copy."""
    site_dir = course.root / "_bench_site"
    cold, _ = timed(site_command(course, site_dir), course.root)
    if not (site_dir / "index.html").is_file():
        raise RuntimeError("mkdocs build wrote no index.html")
    warm = [timed(site_command(course, site_dir), course.root)[0] for _ in range(reps)]
    return cold, statistics.median(warm)


def pytest_command(*args: str) -> list[str]:
    return [str(BIN / "pytest"), *args]  # the README's command has no arguments


def bench_pytest(
    course: Course,
    reps: int,
    expected: str,
    warmups: int = 1,
    days: Sequence[Exercise] | None = None,
) -> float:
    """Median seconds of the README's ``pytest`` in ``course``, after ``warmups`` untimed runs;
    every day's row of the progress table must show ``expected`` (a ``status`` catalogue key).
    With ``days``, only their graders run (a smaller run, for the script's own tests)."""
    status = say(f"status.{expected}")
    args = [str(f) for e in days for f in course.grader_files(e)] if days is not None else []
    days = course.exercises if days is None else days

    def run() -> float:
        elapsed, done = timed(pytest_command(*args), course.root)
        output = done.stdout + done.stderr
        states = {}  # day: what its row says after the title
        for exercise in days:
            for line in output.splitlines():
                if line.startswith(f"  {exercise.id}  "):  # day, title (maybe cut with …), state
                    states[exercise.id] = re.split(r"\s{2,}", line.strip())[-1]
        wrong = {day: state for day, state in states.items() if not state.startswith(status)}
        wrong |= {e.id: None for e in days if e.id not in states}
        if wrong:
            raise RuntimeError(f"pytest: expected every day {status!r}, got {wrong}:\n{output}")
        return elapsed

    for _ in range(warmups):
        run()  # untimed: compiles and caches the graders' bytecode
    return statistics.median(run() for _ in range(reps))


# ---- the report --------------------------------------------------------------------------------


IDLE_START_MS = 10.6  # `python -c pass` on the course box when it was idle (1 December)


def start_ms(runs: int = 9) -> float:
    """Median milliseconds of ``python -c pass``: how fast the box is now (it is shared)."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def speed_line() -> str:
    now = start_ms()
    return (
        f"`python -c pass` {now:.1f} ms against {IDLE_START_MS} ms on the idle box: "
        f"this box runs {now / IDLE_START_MS:.2f}x slower than idle"
    )


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def row(label: str, target: str, measured: str, ok: bool | None) -> str:
    """One line of the summary table (Markdown, to paste into bench/README.md)."""
    return f"| {label} | {target} | {measured} | {'info' if ok is None else verdict(ok)} |"


def part_check(copies: dict[str, Course], reps: dict[str, int]) -> list[str]:
    rows = []
    workspaces = {"not_started": "new", "done": "solved", "failing": "failing"}
    for expected, label in STATES.items():
        course = copies[workspaces[expected]]
        times = check_times(course, course.exercises, reps["check"], expected)
        for day, seconds in times.items():
            print(f"miniagent check {day:6s} ({label + ', warm)':18s}  min {min(seconds):5.2f} s"
                  f"  median {statistics.median(seconds):5.2f} s")  # fmt: skip
        medians = {day: statistics.median(t) for day, t in times.items()}
        slowest = max(medians, key=medians.__getitem__)
        fastest = min(medians, key=medians.__getitem__)
        under = sum(1 for m in medians.values() if m <= TARGETS["check"])
        measured = (
            f"{medians[slowest]:.2f} s ({slowest}); fastest {medians[fastest]:.2f} s "
            f"({fastest}); {under} of {len(medians)} days under"
        )
        ok = medians[slowest] <= TARGETS["check"]
        label = f"`miniagent check dayNN`, {label}, warm: slowest day"
        rows.append(row(label, f"<= {TARGETS['check']:g} s", measured, ok))
    return rows


def part_list(copies: dict[str, Course], reps: dict[str, int]) -> list[str]:
    course = copies["solved"]
    unchanged = bench_list(course, reps["list"])
    one = bench_list(course, reps["list"], changed=course.exercises[len(course.exercises) // 2])
    print(f"miniagent list, nothing changed                  {unchanged:7.2f} s")
    print(f"miniagent list, one exercise file changed        {one:7.2f} s")
    return [
        row("`miniagent list`, nothing changed", f"<= {TARGETS['list']:g} s", f"{unchanged:.2f} s",
            unchanged <= TARGETS["list"]),
        row("`miniagent list`, one exercise file changed", f"<= {TARGETS['list_one']:g} s",
            f"{one:.2f} s", one <= TARGETS["list_one"]),
    ]  # fmt: skip


def part_site(copies: dict[str, Course], reps: dict[str, int]) -> list[str]:
    new = copies["new"]
    cold, warm = bench_site(new, reps["mkdocs"])
    print(f"mkdocs build --strict, filling the notebook cache {cold:7.1f} s")
    print(f"mkdocs build --strict, notebooks cached          {warm:7.1f} s")
    measured = f"{warm:.1f} s (filling the cache: {cold:.0f} s)"
    return [row("`mkdocs build --strict`, notebooks cached", "<= 20 s", measured,
                warm <= TARGETS["mkdocs"])]  # fmt: skip


def part_notebooks(copies: dict[str, Course], reps: dict[str, int]) -> list[str]:
    new = copies["new"]
    notebooks = bench_notebooks(new, notebooks_of(new), reps["notebooks"])
    for name, seconds in notebooks.items():
        print(f"notebook {name:40s} {seconds:7.1f} s")
    total = notebooks["total"]
    return [row("all notebooks executed (nbclient, one after another)", "<= 60 s",
                f"{total:.1f} s", total <= TARGETS["notebooks"])]  # fmt: skip


def part_pytest(copies: dict[str, Course], reps: dict[str, int]) -> list[str]:
    rows = []
    new, solved = copies["new"], copies["solved"]
    for course, state, key in ((new, "not_started", "pytest_new"), (solved, "done", "pytest_done")):
        seconds = bench_pytest(course, reps["pytest"], state)
        label = "every day not started" if state == "not_started" else "every day solved"
        print(f"plain pytest, {label:35s} {seconds:7.1f} s")
        target = TARGETS[key]
        rows.append(row(f"plain `pytest`, {label}", f"<= {target:g} s", f"{seconds:.1f} s",
                        seconds <= target))  # fmt: skip
    return rows


PARTS = {
    "check": part_check,
    "list": part_list,
    "site": part_site,
    "notebooks": part_notebooks,
    "pytest": part_pytest,
}


def main(argv: list[str]) -> None:
    if argv[:1] == ["--notebooks"]:  # a child: execute these notebooks, print seconds as JSON
        print(json.dumps(execute_notebooks([Path(p) for p in argv[1:]])))
        return
    warnings.filterwarnings("ignore")
    reps = QUICK_REPS if "--quick" in argv else REPS
    parts = list(PARTS)
    if "--only" in argv:  # e.g. --only check,pytest
        parts = argv[argv.index("--only") + 1].split(",")
    print(f"python {sys.version.split()[0]}; {os.cpu_count()} cores; load average "
          f"{os.getloadavg()[0]:.1f} (timings assume an otherwise idle machine)")  # fmt: skip
    print(f"timed runs: {reps}; wall seconds, spawn to exit, median")
    print(f"speed: {speed_line()}\n")
    summary: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bench-loop-") as tmp:
        copies = {
            "new": copy_course(Path(tmp) / "new", solved=False),
            "solved": copy_course(Path(tmp) / "solved", solved=True),
        }
        if "check" in parts:
            copies["failing"] = copy_course(Path(tmp) / "failing", solved=True, failing=True)
        try:
            for part in parts:
                summary += PARTS[part](copies, reps)
        finally:
            for copy in copies.values():
                warm.stop(copy.root)  # the commands' warm graders: ended with their copies
    print(f"\n(load average at the end: {os.getloadavg()[0]:.1f}; speed: {speed_line()})\n")
    print("| the learner's loop (2 cores) | target | measured | |")
    print("|---|---|---|---|")
    print("\n".join(summary))


if __name__ == "__main__":
    main(sys.argv[1:])
