"""Upstream's results, recorded as data: one way to compute them, read them back and write them.

The graders and ``miniagent mine`` compare the learner's code with what the pinned upstream
packages do, without importing upstream: its results are recorded in JSON files. A
:class:`Recording` is one such file and the function that computes its content on upstream's
side (``miniagent_course.sides.upstream()``)::

    RECORDING = Recording(Path(__file__).parent / "instructor" / "recorded.json", upstream_results)
    record, recorded = RECORDING.record, RECORDING.recorded

A kit names its recordings in its ``kit.toml`` (``recordings = ["module:RECORDING"]``); the
contributors' suite checks each one with ``record() == recorded()`` against the pinned packages,
so a stale file fails there. Write them again (needs ``pip install -e ".[upstream]"``)::

    python -m miniagent_course.grading.recording            # every recording
    python -m miniagent_course.grading.recording day12 mine # Day 12's, and ``miniagent mine``'s
"""

from __future__ import annotations

import json
import sys
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from miniagent_course.grading.course import Course, Exercise, import_target, load_course
from miniagent_course.sides import upstream

if sys.version_info >= (3, 11):
    pass
else:  # pragma: no cover - Python 3.10
    pass

NEEDS_UPSTREAM = 'recording needs the upstream packages: pip install -e ".[upstream]"'


def as_recorded(value: Any) -> Any:
    """``value`` as its JSON file gives it back (tuples become lists, keys become strings)."""
    return json.loads(json.dumps(value, ensure_ascii=False))


@dataclass(frozen=True)
class Recording:
    """One JSON file of upstream's results and the function that computes them.

    ``compute(side)`` gets upstream's side (``miniagent_course.sides``) and returns plain data;
    its warnings (upstream's deprecations) are silenced while it runs.
    """

    path: Path
    compute: Callable[[SimpleNamespace], Any]

    def recorded(self) -> Any:
        """The results as the file holds them."""
        return json.loads(self.path.read_text(encoding="utf-8"))

    def record(self) -> Any:
        """The results computed afresh on upstream (contributors: needs the pinned packages),
        as the file would give them back."""
        side = upstream()
        if side is None:
            raise RuntimeError(NEEDS_UPSTREAM)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return as_recorded(self.compute(side))

    def write(self) -> Any:
        """Record the results and write them to the file; returns them."""
        results = self.record()
        text = json.dumps(results, indent=1, ensure_ascii=False) + "\n"
        self.path.write_text(text, encoding="utf-8")
        return results


def kit_recordings(course: Course, exercise: Exercise) -> list[Recording]:
    """The recordings a kit names in its ``kit.toml`` (``recordings = ["module:NAME", ...]``)."""
    return [import_target(target) for target in exercise.data.get("recordings", [])]


def main(argv: Sequence[str], engine: dict[str, Recording], course: Course | None = None) -> int:
    """Write the recordings named in ``argv`` (a day, or a key of ``engine``), or every one."""
    course = course or load_course()
    wanted = list(argv) or [*(e.id for e in course.exercises), *engine]
    chosen: list[tuple[str, Recording]] = []
    for name in wanted:
        if name in engine:
            chosen.append((name, engine[name]))
            continue
        try:
            exercise = course.exercise(name)
        except KeyError:
            known = ", ".join([*(e.id for e in course.exercises), *engine])
            print(f"no recordings called {name!r}: name a day or one of {known}", file=sys.stderr)
            return 2
        found = kit_recordings(course, exercise)
        if argv and not found:
            print(f"{exercise.id} records nothing (no `recordings` in its kit.toml)")
        chosen += [(exercise.id, recording) for recording in found]
    for name, recording in chosen:
        results = recording.write()
        print(f"{name}: recorded {len(results)} entries in {course.relative(recording.path)}")
    return 0


# The program: the top layer, as cli.py is (tests/course/meta/test_layers.py), so it may name the
# engine's own recordings; the kits' come from their kit.toml.
if __name__ == "__main__":
    from miniagent_course.mine import RECORDING as MINE

    sys.exit(main(sys.argv[1:], {"mine": MINE}))
