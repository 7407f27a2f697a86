"""Day 02's Think part, answered.

The answer: what the model reads for each function, converted one of three ways.

The instructors' side: no learner file, kit.toml, ``cases.py`` nor grader holds this function; the
engine finds it here because kit.toml names no ``reference`` for ``predictions``
(``grading/course.py``, ``ANSWERS``). The table is run, never written down: every case of
``cases.PREDICTED`` through miniagent's real conversion. The mutants ``mutants/predicts_*.patch``
edit this function's source.
"""

from __future__ import annotations

from miniagent_course.kits.day02.cases import PREDICTED, Seen, miniagent_names, seen


def predictions() -> dict[str, Seen]:
    """What the model reads for each case of :data:`PREDICTED`, run on miniagent's conversion."""
    lib = miniagent_names()
    table = {case: seen(lib, case) for case in PREDICTED}
    return table
