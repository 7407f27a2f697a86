"""Day 12's Think part, answered.

The answer: what a client of the stream sees, chunk by chunk, in each short run.

The instructors' side: no learner file, kit.toml, ``cases.py`` nor grader holds this function; the
engine finds it here because kit.toml names no ``reference`` for ``predictions``
(``grading/course.py``, ``ANSWERS``). The table is run, never written down: every situation of
``cases.SITUATIONS`` streamed on miniagent (``cases.client_view``). The mutants
``mutants/predicts_*.patch`` edit this function's source.
"""

from typing import Any

from miniagent_course.kits.day12.cases import (  # noqa: F401  (the mutants use SORRY)
    SITUATIONS,
    SORRY,
    client_view,
)


def what_a_client_sees(key: str) -> list[tuple[Any, ...]]:
    """``client_view`` on miniagent, as the tuples a prediction holds."""
    from miniagent_course.sides import mini

    return [tuple(r) for r in client_view(mini(), key)]


def predictions() -> dict[str, list[tuple[Any, ...]]]:
    """What a client sees in each situation of ``SITUATIONS``, found by running it."""
    return {key: what_a_client_sees(key) for key in SITUATIONS}
