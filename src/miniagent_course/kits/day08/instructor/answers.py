"""Day 08's Think part, answered.

The answer: what the agent node does in each situation: which gate ends it, and what it returns.

The instructors' side: no learner file, kit.toml, ``cases.py`` nor grader holds this function; the
engine finds it here because kit.toml names no ``reference`` for ``predictions``
(``grading/course.py``, ``ANSWERS``). The table is run, never written down: every situation of
``cases.SITUATIONS`` on the miniature, watched by ``cases.observe``. The mutants
``mutants/predicts_*.patch`` edit this function's source.
"""

from __future__ import annotations

from miniagent_course.kits.day08.cases import (  # noqa: F401  (the mutants use ANSWER, SORRY)
    ANSWER,
    SITUATIONS,
    SORRY,
    what_call_model_does,
)


def predictions() -> dict[str, tuple[int, str, str | None]]:
    """What the agent node does in each situation of ``SITUATIONS``, found by running it."""
    return {key: what_call_model_does(key) for key in SITUATIONS}
