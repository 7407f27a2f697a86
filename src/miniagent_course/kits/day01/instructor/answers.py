"""Day 01's Think part, answered.

The answer: what ``add_messages`` returns for each (left, right) pair, or which error it raises.

The instructors' side: no learner file, kit.toml, ``cases.py`` nor grader holds this function; the
engine finds it here because kit.toml names no ``reference`` for ``predictions``
(``grading/course.py``, ``ANSWERS``). The table is run, never written down: every pair of
``cases.pairs`` through miniagent's ``add_messages``. The mutants ``mutants/predicts_*.patch`` edit
this function's source.
"""

from __future__ import annotations

from miniagent_course.kits.day01.cases import Result, pairs, what_it_returns


def predictions() -> dict[str, Result]:
    """What ``add_messages`` returns for each pair of :func:`pairs`, run on miniagent."""
    from miniagent_course.sides import mini

    lib = mini()
    table = {case: what_it_returns(lib, *pair) for case, pair in pairs(lib).items()}
    return table
