"""Day 05's Think part, answered.

The answer: what the model is sent for each prompt, or which error the run raises.

The instructors' side: no learner file, kit.toml, ``cases.py`` nor grader holds this function; the
engine finds it here because kit.toml names no ``reference`` for ``predictions``
(``grading/course.py``, ``ANSWERS``). The table is run, never written down: an agent built with
every prompt of ``cases.prompts``, one turn each, on miniagent. The mutants
``mutants/predicts_*.patch`` edit this function's source.
"""

from __future__ import annotations

from miniagent_course.kits.day05.cases import Seen, miniagent_names, prompts, what_the_model_sees


def predictions() -> dict[str, Seen]:
    """What the model sees for each prompt of :func:`prompts`, run on miniagent's real agent."""
    lib = miniagent_names()
    table = {case: what_the_model_sees(lib, prompt) for case, prompt in prompts(lib).items()}
    return table
