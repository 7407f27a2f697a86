"""Grade a folder of submissions on this machine, into a CSV of scores.

Each entry of the folder is one learner's submission: a folder (in any layout
:mod:`.submission` reads) or a ``.zip``. Submissions are graded side by side by ``workers``
threads, each waiting on its own grading runs, so ``workers`` is how many gradings run at once
(default: the machine's cores). On Linux each thread borrows a worker of a :class:`.pool.Pool`,
which has collected the graders once and forks each run (elsewhere every run is a new process).
The CSV has one row per submission: its name, the total, each day part's score, and the days
flagged (with why).
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from miniagent_course.classroom.config import Classroom
from miniagent_course.classroom.grade import SubmissionResult, grade_submission
from miniagent_course.classroom.gradescope import results_json
from miniagent_course.classroom.pool import Pool, forking
from miniagent_course.grading.course import Course


def submissions(folder: Path) -> list[Path]:
    """The submissions in ``folder``: its subfolders and zips, by name (hidden ones skipped)."""
    return sorted(
        p
        for p in folder.iterdir()
        if not p.name.startswith(".")
        and (p.is_dir() or (p.is_file() and p.suffix.lower() == ".zip"))
    )


def _grade_one(
    course: Course, classroom: Classroom, path: Path, guarded: list[Path], pool: Pool | None
) -> SubmissionResult:
    if path.is_dir():
        return grade_submission(course, classroom, path, guarded, pool)
    with tempfile.TemporaryDirectory(prefix="miniagent-zip-") as scratch:  # a zip: its own upload
        shutil.copy2(path, Path(scratch) / path.name)
        return grade_submission(course, classroom, Path(scratch), guarded, pool)


def header(classroom: Classroom) -> list[str]:
    columns = ["submission", "score", "max_score"]
    for plan in classroom.days:
        columns += [f"{plan.day} part {n}" for n in range(1, len(plan.part_points()) + 1)]
    return [*columns, "flagged"]


def row(name: str, result: SubmissionResult) -> list[str]:
    cells = [name, f"{result.score:g}", f"{result.classroom.total:g}"]
    cells += [f"{p.score:g}" for p in result.parts()]
    flagged = "; ".join(f"{day}: {why}" for day, why in result.flags)
    return [*cells, flagged]


def grade_folder(
    course: Course,
    classroom: Classroom,
    folder: Path,
    csv_path: Path,
    workers: int | None = None,
    json_dir: Path | None = None,
    progress: Callable[[str, SubmissionResult], None] | None = None,
) -> dict[str, SubmissionResult]:
    """Grade every submission in ``folder``; write ``csv_path`` (and each ``results.json`` into
    ``json_dir``); the results by submission name."""
    found = submissions(folder)
    guarded = [csv_path.resolve()]
    workers = max(1, min(workers or os.cpu_count() or 1, len(found) or 1))
    results: dict[str, SubmissionResult] = {}
    pool = Pool(course, classroom, workers) if found and forking() else None

    def work(path: Path) -> tuple[str, SubmissionResult]:
        result = _grade_one(course, classroom, path, guarded, pool)
        if progress is not None and not (pool is not None and pool.closed):  # not: interrupted
            progress(path.name, result)
        return path.name, result

    threads = ThreadPoolExecutor(max_workers=workers)
    try:
        for name, result in threads.map(work, found):
            results[name] = result
    finally:
        if pool is not None:
            pool.close()  # first: a run still going (an interrupt) ends with its worker
        threads.shutdown(cancel_futures=True)
    csv_path.parent.mkdir(parents=True, exist_ok=True)
    with open(csv_path, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(header(classroom))
        for name, result in results.items():
            writer.writerow(row(name, result))
    if json_dir is not None:
        json_dir.mkdir(parents=True, exist_ok=True)
        for name, result in results.items():
            data = json.dumps(results_json(course, result), indent=2, ensure_ascii=False)
            (json_dir / f"{Path(name).stem}.json").write_text(data + "\n", encoding="utf-8")
    return results
