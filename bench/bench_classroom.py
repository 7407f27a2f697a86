"""How long grading a class takes: ``miniagent classroom grade`` on a folder of submissions.

Builds a class of N submissions in a temporary folder, in the layouts learners upload (an
``exercises/`` folder, loose files, a zip of the repository) and of every kind (the kits'
alternative solutions, a wrong answer, stubs, a day left out), grades it with ``W`` workers into a
CSV, and prints the figures: wall time, CPU time (this process and every grading process it
waited for), time per submission, submissions per minute. By default the class hands in the whole
course, every day, as a class grading the course does. It asserts nothing
(``tests/course/classroom/test_batch.py`` runs its pieces on two submissions).

    python bench/bench_classroom.py                         # 30 submissions, 2 workers, all days
    python bench/bench_classroom.py --days day00,day05,day13 # a week's assignment
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from miniagent_course.classroom.batch import grade_folder
from miniagent_course.classroom.config import parse_config
from miniagent_course.grading.course import Course, load_course

ROOT = Path(__file__).resolve().parents[1]
WEEK = ["day00", "day05", "day13"]  # a week's assignment: one day of each judgment kind
KINDS = ["solutions", "other_solutions", "repo_zip", "wrong", "stubs", "day_left_out"]
WRONG_DAY00 = (
    "def _get_state_value(state, key, default=None):\n"
    "    if isinstance(state, dict):\n"
    "        return state.get(key) or default\n"
    "    return getattr(state, key, None) or default\n"
)


def _files(course: Course, days: list[str], kind: str) -> dict[str, bytes]:
    """The exercise files of one submission of ``kind``."""
    files = {}
    for number, day in enumerate(days):
        exercise = course.exercise(day)
        solutions = course.solution_files(exercise)
        content = solutions[1 if kind == "other_solutions" else 0].read_bytes()
        if kind == "stubs" or (kind == "day_left_out" and number == len(days) - 1):
            if kind == "day_left_out":
                continue
            content = (course.root / exercise.kit / "stub.py").read_bytes()
        if kind == "wrong" and day == "day00":
            content = WRONG_DAY00.encode()
        files[Path(exercise.file).name] = content
    return files


def make_class(course: Course, days: list[str], folder: Path, n: int) -> list[str]:
    """``n`` submissions in ``folder`` (one subfolder or zip each), kinds in turn; their kinds."""
    kinds = []
    for number in range(n):
        kind = KINDS[number % len(KINDS)]
        files = _files(course, days, kind)
        name = f"learner{number:03d}"
        if kind == "repo_zip":
            with zipfile.ZipFile(folder / f"{name}.zip", "w") as zipped:
                for file, data in files.items():
                    zipped.writestr(f"miniagent-main/exercises/{file}", data)
        else:
            target = folder / name / ("exercises" if kind != "other_solutions" else "")
            target.mkdir(parents=True)
            for file, data in files.items():
                (target / file).write_bytes(data)
        kinds.append(kind)
    return kinds


def bench(n: int, workers: int, days: list[str] | None) -> dict[str, float]:
    course = load_course(ROOT)
    chosen = days or [e.id for e in course.exercises]
    plan = parse_config(f"days = {chosen!r}\n".replace("'", '"'), course)
    with tempfile.TemporaryDirectory(prefix="miniagent-bench-class-") as scratch:
        folder = Path(scratch) / "class"
        folder.mkdir()
        make_class(course, chosen, folder, n)
        csv_path = Path(scratch) / "scores.csv"
        before = _cpu()
        started = time.perf_counter()
        results = grade_folder(course, plan, folder, csv_path, workers)
        wall = time.perf_counter() - started
        cpu = _cpu() - before
        rows = len(csv_path.read_text(encoding="utf-8").splitlines()) - 1
    each = [r.duration for r in results.values()]
    return {
        "submissions": float(len(results)),
        "csv_rows": float(rows),
        "wall": wall,
        "median": statistics.median(each),
        "mean": statistics.fmean(each),
        "per_minute": 60.0 * len(results) / wall,
        "flagged": float(sum(1 for r in results.values() if r.flags)),
        "cpu": cpu,
        "idle_estimate": cpu / max(1, min(workers, os.cpu_count() or 1)),
    }


def _cpu() -> float:
    """CPU seconds of this process and of the grading processes it has waited for (a worker's
    forks count with their worker, which ends before ``grade_folder`` returns)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=30, help="submissions in the class (30)")
    parser.add_argument("--workers", type=int, default=2, help="gradings at once (2)")
    parser.add_argument(
        "--days", default="all", help=f"days ({','.join(WEEK)}: a week), or 'all' (the default)"
    )
    args = parser.parse_args(argv)
    days = None if args.days == "all" else args.days.split(",")
    print(f"cores: {os.cpu_count()}, load average: {os.getloadavg()[0]:.1f}")
    figures = bench(args.n, args.workers, days)
    print(
        f"days: {args.days}; workers: {args.workers}; load average after: {os.getloadavg()[0]:.1f}"
    )
    print(
        "| submissions | wall (s) | CPU (s) | CPU / workers (s) | CPU per submission (s) "
        "| per submission, median (s) | per minute | CSV rows |"
    )
    print("|---|---|---|---|---|---|---|---|")
    print(
        f"| {figures['submissions']:.0f} | {figures['wall']:.1f} | {figures['cpu']:.1f} | "
        f"{figures['idle_estimate']:.1f} | {figures['cpu'] / figures['submissions']:.2f} | "
        f"{figures['median']:.2f} | {figures['per_minute']:.1f} | {figures['csv_rows']:.0f} |"
    )
    print(
        "CPU / workers: the wall time on as many idle cores. On a shared, busy machine the wall "
        "time is longer by the others' load."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
