"""A submission, as a learner uploads it, turned into a fresh course to grade.

Only the exercise files are taken, by name: each day's ``exercises/dayNN_<topic>.py`` from the
``exercises/`` folder, from loose files anywhere in the upload, or from a zip of the repository
(GitHub's "Download ZIP" nests it one folder down). Nothing else of the upload is used: a
submission that brings its own graders, kits, ``course.toml`` or ``conftest.py`` is graded by the
course's own. For each day the file whose name is the kit's exactly wins over a looser
``dayNN_*.py``; among several, the one in an ``exercises/`` folder, then the shortest path.

The workspace is a copy of the pristine course's learner side (``course.toml``, the kits'
``kit.toml``, stubs, graders) and only the instructor files grading reads (a "be the grader"
part's mutants and reference tests); alternative solutions and the instructors' own checks are
never copied. A day with no file gets its stub, so it grades as not started.
"""

from __future__ import annotations

import fnmatch
import os
import shutil
import stat
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from miniagent_course.grading.course import COURSE_FILE, Course, Exercise, load_course

MAX_FILE = 1_000_000  # bytes of one exercise file
MAX_ZIP = 50_000_000  # bytes unpacked from the zips of one submission
MAX_ZIP_FILES = 20_000
SKIPPED_DIRS = {"__MACOSX", "__pycache__", "node_modules", "site-packages", "venv", "site"}
NEVER_COPIED = ["instructor/solutions", "instructor/test_*.py"]  # not needed to grade
COURSE_FILES = [COURSE_FILE]


@dataclass
class Found:
    """What was taken from a submission: day -> its file in the upload (relative), or None."""

    files: dict[str, str | None] = field(default_factory=dict)
    contents: dict[str, bytes] = field(default_factory=dict)
    too_big: list[str] = field(default_factory=list)


def _skipped(name: str) -> bool:
    return name.startswith(".") or name in SKIPPED_DIRS


def _walk(folder: Path) -> list[Path]:
    """Every regular file under ``folder`` (no symlinks followed, hidden folders skipped)."""
    found = []
    for current, dirs, files in os.walk(folder, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not _skipped(d))
        for name in sorted(files):
            path = Path(current) / name
            if path.is_file() and not path.is_symlink():
                found.append(path)
    return found


def _unzip(archive: Path, into: Path, budget: list[int]) -> None:
    """Extract the ``.py`` members of ``archive`` safely: no absolute or ``..`` paths, no links,
    within the byte and file budget ``[bytes, files]``."""
    try:
        with zipfile.ZipFile(archive) as zipped:
            for info in zipped.infolist():
                name = PurePosixPath(info.filename)
                mode = info.external_attr >> 16
                if (
                    info.is_dir()
                    or not info.filename.endswith(".py")
                    or name.is_absolute()
                    or ".." in name.parts
                    or stat.S_ISLNK(mode)
                    or any(_skipped(p) for p in name.parts[:-1])
                ):
                    continue
                budget[0] -= info.file_size
                budget[1] -= 1
                if budget[0] < 0 or budget[1] < 0:
                    return
                target = into.joinpath(*name.parts)
                target.parent.mkdir(parents=True, exist_ok=True)
                with zipped.open(info) as source, open(target, "wb") as out:
                    shutil.copyfileobj(source, out)
    except (zipfile.BadZipFile, OSError, ValueError):
        return  # not a zip we can read: its files are simply not found


def _rank(path: PurePosixPath) -> tuple[int, int, str]:
    return (0 if path.parent.name == "exercises" else 1, len(path.parts), path.as_posix())


def find_exercises(upload: Path, exercises: list[Exercise]) -> Found:
    """Each day's exercise file in ``upload``, read into memory (see the module's docstring)."""
    found = Found()
    with tempfile.TemporaryDirectory(prefix="miniagent-upload-") as scratch:
        budget = [MAX_ZIP, MAX_ZIP_FILES]
        files = {PurePosixPath(p.relative_to(upload).as_posix()): p for p in _walk(upload)}
        for number, (relative, path) in enumerate(sorted(files.items())):
            if relative.suffix.lower() == ".zip":
                into = Path(scratch) / f"{number}"
                _unzip(path, into, budget)
                for inner in _walk(into):
                    name = PurePosixPath(relative.as_posix(), inner.relative_to(into).as_posix())
                    files[name] = inner
        for exercise in exercises:
            exact = PurePosixPath(exercise.file).name
            candidates = [r for r in files if r.name == exact] or [
                r
                for r in files
                if r.suffix == ".py"
                and (
                    fnmatch.fnmatch(r.name, f"{exercise.id}_*.py") or r.name == f"{exercise.id}.py"
                )
            ]
            if not candidates:
                found.files[exercise.id] = None
                continue
            chosen = min(candidates, key=_rank)
            path = files[chosen]
            if path.stat().st_size > MAX_FILE:
                found.files[exercise.id] = None
                found.too_big.append(exercise.id)
                continue
            found.files[exercise.id] = chosen.as_posix()
            found.contents[exercise.id] = path.read_bytes()
    return found


def _kit_ignore(kit: Path):
    """``shutil.copytree``'s ignore: caches, and the instructor files grading never reads."""

    def ignore(folder: str, names: list[str]) -> set[str]:
        skipped = {n for n in names if n == "__pycache__" or n.endswith(".pyc")}
        here = Path(folder)
        for name in names:
            relative = (here / name).relative_to(kit).as_posix()
            if any(fnmatch.fnmatch(relative, pattern) for pattern in NEVER_COPIED):
                skipped.add(name)
        return skipped

    return ignore


def copy_course(course: Course, days: list[str], into: Path) -> Course:
    """A fresh course in ``into``: the course files and the kits of ``days`` (learner side and
    what grading reads), with no exercise file yet."""
    for name in COURSE_FILES:
        if (course.root / name).is_file():
            shutil.copy2(course.root / name, into / name)
    for day in days:
        exercise = course.exercise(day)
        kit = course.root / exercise.kit
        shutil.copytree(kit, into / exercise.kit, ignore=_kit_ignore(kit))
    return load_course(into)


def lay_out(course: Course, days: list[str], found: Found, into: Path) -> Course:
    """The workspace to grade: :func:`copy_course`, each day's submitted file in place (its stub
    when the submission has none)."""
    workspace = copy_course(course, days, into)
    for day in days:
        exercise = workspace.exercise(day)
        target = workspace.root / exercise.file
        target.parent.mkdir(parents=True, exist_ok=True)
        content = found.contents.get(day)
        if content is None:
            content = (workspace.root / exercise.kit / "stub.py").read_bytes()
        target.write_bytes(content)
    return workspace
