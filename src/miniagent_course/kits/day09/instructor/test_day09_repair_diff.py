"""Day 09's repair is a repair of the real library: the travel desk's scenarios on upstream.

The graders run the desk's scenarios (``cases.SCENARIOS``) on miniagent. Here the same
application code runs against the pinned langgraph ``create_react_agent`` (``cases.on_side``
takes each miniagent name the code reads from upstream instead): the desk as it shipped
misbehaves there in the same words, the reference and both alternative solutions repair it
there too, and every wrong repair among the mutants fails there with the sentence it gets on
miniagent. The one exception is the mutant that patches miniagent itself: upstream does not run
that code, so only the graders' check of the library can reject it.
"""

import contextlib
import importlib
from pathlib import Path

import pytest

pytest.importorskip("langgraph")
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # upstream's prebuilt agent

from miniagent_course.grading.course import load_course, load_implementation  # noqa: E402
from miniagent_course.kits.day09.cases import (  # noqa: E402
    SCENARIOS,
    SITUATIONS,
    UNTOUCHED,
    answer_as_shipped,
    observe,
)
from miniagent_course.sides import mini, upstream  # noqa: E402

ROOT = Path(__file__).resolve().parents[5]
COURSE = load_course(ROOT)
DAY = COURSE.exercise("day09")
PATCHES_THE_LIBRARY = {"switches_off_the_soft_landing"}  # upstream never runs miniagent's code
THINK_MUTANTS = [m.name for m in DAY.mutants if m.function == "answer"]
SOLUTIONS = sorted(
    p.relative_to(ROOT).as_posix() for p in (ROOT / DAY.kit / "instructor/solutions").glob("*.py")
)


def _answer(spec: str):
    return load_implementation(COURSE, DAY, spec).functions["answer"]


@contextlib.contextmanager
def _library_put_back():
    """Whatever a wrong repair sets in miniagent's agent and loop modules is put back after."""
    modules = [importlib.import_module(name) for name in UNTOUCHED]
    before = [dict(vars(module)) for module in modules]
    try:
        yield
    finally:
        for module, names in zip(modules, before, strict=True):
            for name, value in names.items():
                setattr(module, name, value)


def _verdict(check, answer, lib) -> str | None:
    """None when ``answer`` passes the scenario ``check`` on side ``lib``, else its sentence."""
    with _library_put_back():
        try:
            check(answer, lib)
        except AssertionError as error:
            return str(error)
    return None


@pytest.mark.parametrize("situation", list(SITUATIONS))
def test_the_shipped_desk_does_the_same_on_both_libraries(situation):
    assert observe(mini(), answer_as_shipped, situation) == observe(
        upstream(), answer_as_shipped, situation
    )


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_the_shipped_desk_misbehaves_on_upstream_too(scenario):
    check = SCENARIOS[scenario]
    on_mini = _verdict(check, answer_as_shipped, mini())
    assert _verdict(check, answer_as_shipped, upstream()) == on_mini
    if scenario == "a_model_that_never_stops":  # the platform's limit wins: 12 lookups
        assert on_mini is not None and "`search` ran 12 times" in on_mini


@pytest.mark.parametrize("spec", ["reference", *(f"solution:{s}" for s in SOLUTIONS)])
@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_each_repair_repairs_upstream_too(scenario, spec):
    answer = _answer(spec)
    assert _verdict(SCENARIOS[scenario], answer, upstream()) is None


@pytest.mark.parametrize("mutant", THINK_MUTANTS)
def test_each_wrong_repair_fails_on_upstream_as_on_miniagent(mutant):
    answer = _answer(f"mutant:day09_{mutant}")
    verdicts = {
        name: (_verdict(check, answer, mini()), _verdict(check, answer, upstream()))
        for name, check in SCENARIOS.items()
    }
    if mutant in PATCHES_THE_LIBRARY:  # it behaves on both: only the library check rejects it
        assert all(v == (None, None) for v in verdicts.values()), verdicts
        return
    assert all(on_mini == on_upstream for on_mini, on_upstream in verdicts.values()), verdicts
    assert any(on_upstream is not None for _, on_upstream in verdicts.values()), verdicts


def test_every_think_mutant_is_tried():
    assert len(THINK_MUTANTS) >= 5 and PATCHES_THE_LIBRARY <= set(THINK_MUTANTS)
