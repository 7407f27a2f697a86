"""Mutants: known-wrong versions of the graded functions, each one a small patch of the reference.

Each is a file in its day kit's ``instructor/mutants/`` (instructors' side; a learner is never
pointed there): ``<name>.patch``, a unified diff of the reference function's source whose first
lines say ``why: ...`` (what is wrong, in one line), ``function: ...`` (the graded function it
replaces) and, for an inner function, ``target: ...``. Each hunk is a (``replace``, ``with``) pair:
its context and ``-`` lines are an anchor, exact text that must occur exactly once (the ``@@``
line numbers are for readers), its context and ``+`` lines what it becomes. At load time the
pairs are applied, in order, to ``inspect.getsource`` of the reference (dedented), and
the patched source is compiled and bound to the reference's own module globals, so the helpers it
names resolve as in the reference. A diff of a mutant against the reference is its one mistake,
and the mutant follows the reference when it changes (or stops loading, naming the anchor).

``target`` names the function the patch edits when it is not the graded function's reference:
a function ``create_react_agent`` defines inside itself (``module:create_react_agent.call_model``).
The graded function is then the reference's maker (a kit's ``cases.py``), built on the patched inner
function instead of the real one (see :func:`maker_with_inner`).

A mistake that touches more than one place may stay a whole file, ``<name>.py`` defining the
function, whose ``# why:`` / ``# function:`` header also says ``# whole_file_because:``; a weak
test suite for a "be the grader" part is such a file with ``# part: judgment``.
"""

from __future__ import annotations
import __future__

import inspect
import linecache
import re
import textwrap
import types
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

INNER_LOOKUP = "reference_inner_function"  # how a kit's maker reaches its inner function


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
    function: str  # the graded function it replaces (its name in kit.toml)
    why: str
    target: str = ""  # the source the patches edit, when not the function's reference
    patches: tuple[Patch, ...] = ()
    file: str = ""  # the mutant's file, relative to the course root
    whole_file_because: str = ""
    # "function": a wrong graded function; "judgment": a weak test suite for a "be the grader"
    # part (its ``file`` holds the ``test_*`` functions; the judgment graders must reject it).
    part: str = "function"

    @property
    def key(self) -> str:
        """``day05_wrong_error``: unique in the course; ``--impl=mutant:<key>`` picks it."""
        return f"{self.day}_{self.name}"

    @property
    def is_patch(self) -> bool:
        return self.file.endswith(".patch")


HEADER = re.compile(r"^(?:# )?([a-z_]+): (.*)$")


def read_mutants(folder: Path, day: str, root: Path) -> tuple[Mutant, ...]:
    """The mutants of one kit: each ``<name>.patch`` and ``<name>.py`` in ``folder``, by name."""
    if not folder.is_dir():
        return ()
    found = []
    for path in sorted(folder.iterdir()):
        if path.suffix not in (".patch", ".py") or path.name.startswith("_"):
            continue
        text = path.read_text(encoding="utf-8")
        fields = dict(_header(text))
        patches = parse_patch_hunks(text) if path.suffix == ".patch" else ()
        relative = path.relative_to(root).as_posix()
        found.append(Mutant(day=day, name=path.stem, patches=patches, file=relative, **fields))
    return tuple(found)


def _header(text: str) -> list[tuple[str, str]]:
    """The ``key: value`` lines a mutant file starts with (``# key: value`` in a .py)."""
    fields = []
    for line in text.splitlines():
        match = HEADER.match(line)
        if not match:
            break
        fields.append((match.group(1), match.group(2)))
    return fields


def parse_patch_hunks(text: str) -> tuple[Patch, ...]:
    """The hunks of a unified diff as (replace, with) pairs: the context and ``-`` lines of a
    hunk are its anchor, found by text (the ``@@`` line numbers are for readers, not used)."""
    patches: list[Patch] = []
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.startswith("+++ ")), len(lines))
    old: list[str] = []
    new: list[str] = []
    last = ""
    for line in lines[start + 1 :]:
        if line.startswith("@@"):
            if old or new:
                patches.append(Patch("".join(old), "".join(new)))
            old, new = [], []
            continue
        mark, rest = line[:1], line[1:]
        if mark == "\\":  # "\ No newline at end of file": the line before has no newline
            for side in (old, new) if last == " " else (old,) if last == "-" else (new,):
                side[-1] = side[-1].rstrip("\n")
            continue
        if mark in (" ", "-"):
            old.append(rest if rest else "\n")
        if mark in (" ", "+"):
            new.append(rest if rest else "\n")
        last = mark
    if old or new:
        patches.append(Patch("".join(old), "".join(new)))
    return tuple(patches)


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
    """The reference ``maker`` (a kit's cases.py), building ``patched`` where it built ``inner``.

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
