"""Mutants: known-wrong versions of the graded functions, each one a small patch of the reference.

``tests/course/mutants/mutants.toml`` lists them (instructors' metadata; course.toml stays
learner-facing). A mutant names its ``day``, a ``name``, the graded ``function`` it replaces,
``why`` it is wrong, and one or more ``[[mutants.patch]]`` pairs: ``replace`` (an anchor: exact
text of the reference function's source, which must occur exactly once) and ``with``. At load
time the pairs are applied, in order, to ``inspect.getsource`` of the reference (dedented), and
the patched source is compiled and bound to the reference's own module globals, so the helpers it
names resolve as in the reference. A diff of a mutant against the reference is its one mistake,
and the mutant follows the reference when it changes (or stops loading, naming the anchor).

``target`` names the function the patch edits when it is not the graded function's reference:
a function ``create_react_agent`` defines inside itself (``module:create_react_agent.call_model``).
The graded function is then the reference's maker (``grading/inner/``), built on the patched inner
function instead of the real one (see :func:`maker_with_inner`).

A mistake that touches more than one place may stay a whole file (``file``); its entry must say
why in ``whole_file_because``.
"""

from __future__ import annotations
import __future__

import inspect
import linecache
import sys
import textwrap
import types
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

MUTANTS_FILE = "tests/course/mutants/mutants.toml"
INNER_LOOKUP = "reference_inner_function"  # how a grading/inner maker reaches its inner function


@dataclass(frozen=True)
class Patch:
    """One edit: the exact text ``replace`` (found once) becomes ``with_``."""

    replace: str
    with_: str


@dataclass(frozen=True)
class Mutant:
    """A known-wrong implementation that at least one grader must reject."""

    day: str
    name: str
    function: str  # the graded function it replaces (its name in course.toml)
    why: str
    target: str = ""  # the source the patches edit, when not the function's reference
    patches: tuple[Patch, ...] = ()
    file: str = ""  # a whole-file mutant (relative to the course root)
    whole_file_because: str = ""
    # "function": a wrong graded function; "judgment": a weak test suite for a "be the grader"
    # part (its ``file`` holds the ``test_*`` functions; the judgment graders must reject it).
    part: str = "function"

    @property
    def key(self) -> str:
        """``day05_wrong_error``: unique in the course; ``--impl=mutant:<key>`` picks it."""
        return f"{self.day}_{self.name}"


def read_mutants(root: Path) -> tuple[Mutant, ...]:
    """Every entry of ``tests/course/mutants/mutants.toml`` (none when the file is absent)."""
    path = root / MUTANTS_FILE
    if not path.is_file():
        return ()
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return tuple(_mutant(entry) for entry in data.get("mutants", []))


def _mutant(entry: dict[str, Any]) -> Mutant:
    fields = {k: v for k, v in entry.items() if k != "patch"}
    patches = tuple(Patch(p["replace"], p["with"]) for p in entry.get("patch", []))
    return Mutant(**fields, patches=patches)


class PatchError(Exception):
    """A mutant's patch cannot be applied (its anchor is gone or ambiguous, a bad target...)."""

    def __init__(self, detail: str, anchor: str | None = None, count: int = 0) -> None:
        super().__init__(detail)
        self.anchor = anchor
        self.count = count


def apply_patches(source: str, patches: tuple[Patch, ...], where: str) -> str:
    """``source`` with each pair applied in order; each anchor must occur exactly once."""
    for patch in patches:
        count = source.count(patch.replace) if patch.replace else 0
        if count != 1:
            raise PatchError(where, anchor=patch.replace, count=count)
        source = source.replace(patch.replace, patch.with_)
    return source


def target_function(target: str) -> Callable[..., Any]:
    """``module:create_react_agent.<inner>`` -> that inner function of miniagent's agent."""
    from miniagent_course.grading.closures import reference_inner_function

    module, _, qualname = target.partition(":")
    outer, _, inner = qualname.rpartition(".")
    try:
        function = reference_inner_function(inner)
    except KeyError:
        raise PatchError(f"target {target}: no inner function {inner!r}") from None
    if (function.__module__, function.__qualname__) != (module, f"{outer}.<locals>.{inner}"):
        found = f"{function.__module__}:{function.__qualname__}"
        raise PatchError(f"target {target} is not the inner function found ({found})")
    return function


def patched_function(
    original: Callable[..., Any], patches: tuple[Patch, ...], label: str
) -> types.FunctionType:
    """``original`` rebuilt from its patched source, with the same globals and free variables.

    A function defined inside another one (it has free variables) is compiled inside a factory
    that declares those names, so the patched code closes over the same names; fill them in with
    ``closures.rebind``. The patched source is registered with linecache, so a traceback through
    the mutant shows its lines.
    """
    source = textwrap.dedent(inspect.getsource(original))
    source = apply_patches(source, patches, f"{original.__module__}:{original.__qualname__}")
    free = original.__code__.co_freevars
    if free:
        declared = "".join(f"    {name} = None\n" for name in free)
        body = textwrap.indent(source, "    ")
        source = f"def _factory():\n{declared}{body}    return {original.__name__}\n"
    filename = f"<mutant {label}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
    future = __future__.annotations.compiler_flag
    flags = original.__code__.co_flags & future
    namespace = dict(original.__globals__)  # defaults and annotations resolve as in the module
    try:
        code = compile(source, filename, "exec", flags=flags, dont_inherit=True)
    except SyntaxError as error:
        where = f"{original.__module__}:{original.__qualname__}"
        raise PatchError(f"the patched source of {where} is not valid Python: {error}") from None
    exec(code, namespace)
    built = namespace["_factory"]() if free else namespace[original.__name__]
    return copy_function(built, original.__globals__, like=original)


def copy_function(
    fn: types.FunctionType, globals_: dict[str, Any], like: Callable[..., Any]
) -> types.FunctionType:
    """``fn``'s code with ``globals_``, named and documented like ``like``."""
    copy = types.FunctionType(fn.__code__, globals_, fn.__name__, fn.__defaults__, fn.__closure__)
    copy.__kwdefaults__ = fn.__kwdefaults__
    copy.__annotations__ = dict(fn.__annotations__)
    copy.__qualname__ = like.__qualname__
    copy.__doc__ = like.__doc__
    return copy


def maker_with_inner(
    maker: types.FunctionType, inner: str, patched: Callable[..., Any]
) -> types.FunctionType:
    """The reference ``maker`` (grading/inner/), building ``patched`` where it built ``inner``.

    A maker returns ``rebind(reference_inner_function(<inner>), ...)``; the copy runs the same
    code, with a ``reference_inner_function`` that answers ``patched`` for ``inner``.
    """
    if INNER_LOOKUP not in maker.__code__.co_names:
        where = f"{maker.__module__}:{maker.__qualname__}"
        raise PatchError(f"{where} does not build on {INNER_LOOKUP}, so it cannot reach {inner}")
    real = maker.__globals__[INNER_LOOKUP]

    def lookup(name: str) -> Callable[..., Any]:
        return patched if name == inner else real(name)

    return copy_function(maker, {**maker.__globals__, INNER_LOOKUP: lookup}, like=maker)
