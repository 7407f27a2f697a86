"""Find upstream source at the pinned versions: files, symbols and their real line numbers.

The course never copies LangGraph or LangChain code into this repository. A lesson names a file
and a symbol (``langgraph/prebuilt/chat_agent_executor.py:_get_prompt_runnable``); this module
finds that file in the *installed* pinned distribution and tells where the symbol starts and
ends. The site's ``upstream`` fence (``site/fences.py``) and the citation test
(``tests/course/site/test_citations.py``) both use it, so what the site shows is what the test checks.

A citation's line is the line of the ``def``/``class`` statement (what ``ast`` reports as
``lineno``), e.g. ``chat_agent_executor.py:137`` is ``_get_prompt_runnable``. Decorators above it
are shown with the code but do not move the cited line.
"""

from __future__ import annotations

import ast
import functools
import importlib.metadata as metadata
import re
from dataclasses import dataclass
from pathlib import Path

from miniagent import UPSTREAM_VERSIONS

INSTALL_HINT = 'pip install -e ".[upstream]"'


class CitationError(ValueError):
    """A citation that does not resolve: unknown file, unknown symbol, wrong line."""


class UpstreamMissing(CitationError):
    """The pinned distribution that holds the file is not installed (the `upstream` extra)."""


@dataclass(frozen=True)
class SourceFile:
    """One ``.py`` file inside a pinned distribution."""

    dist: str  # distribution name, e.g. "langgraph-prebuilt"
    version: str  # installed version (always equal to the pin)
    path: str  # path inside site-packages, e.g. "langgraph/prebuilt/chat_agent_executor.py"
    abs_path: Path

    @property
    def lines(self) -> list[str]:
        return _read_lines(self.abs_path)


@dataclass(frozen=True)
class Symbol:
    """A function, class, method or module/class-level assignment in a file."""

    qualname: str  # "create_react_agent.call_model", "ToolNode._func", "Prompt"
    kind: str  # "def", "class" or "assign"
    line: int  # the cited line: the `def`/`class` line, or the assignment's first line
    first_line: int  # first line to show (decorators included)
    end_line: int


@dataclass(frozen=True)
class Excerpt:
    """What an ``upstream`` fence shows: real lines ``first_line..end_line`` of one file."""

    source: SourceFile
    first_line: int
    end_line: int
    cite_line: int  # the line named in the caption
    symbol: Symbol | None = None

    @property
    def text(self) -> str:
        return "".join(self.source.lines[self.first_line - 1 : self.end_line])

    @property
    def caption(self) -> str:
        return self.caption_for(self.first_line, self.end_line)

    def caption_for(self, first: int, last: int) -> str:
        """The caption of lines ``first..last`` of this excerpt (all of it, or a part)."""
        head = f"{self.source.dist} {self.source.version} · {self.source.path}"
        if self.symbol and first <= self.symbol.line <= last:
            return f"{head}:{self.symbol.line}"
        where = f"{first}" if first == last else f"{first}-{last}"
        inside = f" (in {self.symbol.qualname}, l.{self.symbol.line})" if self.symbol else ""
        return f"{head}:{where}{inside}"


# --- files ------------------------------------------------------------------------------------


@functools.cache
def _read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


@functools.cache
def _dist_files(dist: str) -> tuple[str, dict[str, Path]] | None:
    """``(version, {relative .py path: absolute path})`` of an installed distribution, or None."""
    try:
        d = metadata.distribution(dist)
    except metadata.PackageNotFoundError:
        return None
    files = {str(f): Path(d.locate_file(f)) for f in d.files or () if str(f).endswith(".py")}
    return d.version, files


def _candidate_dists(path: str) -> list[str]:
    """Pinned distributions that could own ``path``, judged by its top-level package."""
    top = path.split("/", 1)[0]
    return [d for d in UPSTREAM_VERSIONS if d.replace("-", "_").split("_")[0] == top.split("_")[0]]


def find_file(path: str) -> SourceFile:
    """Locate ``path`` (e.g. ``langgraph/prebuilt/tool_node.py``) in the pinned packages."""
    path = path.strip().lstrip("/")
    candidates = _candidate_dists(path)
    if not candidates:
        raise CitationError(
            f"{path}: not in a pinned upstream package ({', '.join(UPSTREAM_VERSIONS)})"
        )
    installed = False
    for dist in candidates:
        found = _dist_files(dist)
        if found is None:
            continue
        installed = True
        version, files = found
        if path in files:
            if version != UPSTREAM_VERSIONS[dist]:
                raise CitationError(
                    f"{path}: {dist} {version} is installed but the course cites "
                    f"{UPSTREAM_VERSIONS[dist]}; run {INSTALL_HINT}"
                )
            return SourceFile(dist, version, path, files[path])
    if not installed:
        pins = ", ".join(f"{d}=={UPSTREAM_VERSIONS[d]}" for d in candidates)
        raise UpstreamMissing(f"{path}: needs {pins}; run {INSTALL_HINT}")
    raise CitationError(f"{path}: no such file in {', '.join(candidates)}")


@functools.cache
def files_by_basename() -> dict[str, list[str]]:
    """``{"chat_agent_executor.py": ["langgraph/prebuilt/chat_agent_executor.py"], ...}``."""
    out: dict[str, list[str]] = {}
    for dist in UPSTREAM_VERSIONS:
        found = _dist_files(dist)
        for path in found[1] if found else ():
            out.setdefault(path.rsplit("/", 1)[-1], []).append(path)
    return out


# --- symbols ----------------------------------------------------------------------------------


@functools.cache
def symbols(abs_path: Path) -> dict[str, Symbol]:
    """Every def/class (at any depth) and every module- or class-level assignment, by qualname."""
    tree = ast.parse(abs_path.read_text(encoding="utf-8"))
    found: dict[str, Symbol] = {}

    def visit(body: list[ast.stmt], prefix: str, in_function: bool) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                qualname = prefix + node.name
                first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                kind = "class" if isinstance(node, ast.ClassDef) else "def"
                end = node.end_lineno or node.lineno
                sym = Symbol(qualname, kind, node.lineno, first, end)
                # A later definition wins (the implementation after `@overload` stubs, the
                # last branch of an if/else), but an `@overload` stub never replaces one.
                if qualname not in found or not _is_overload(node):
                    found[qualname] = sym
                visit(node.body, qualname + ".", in_function=kind == "def")
            elif not in_function and isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name):
                        end = node.end_lineno or node.lineno
                        sym = Symbol(prefix + target.id, "assign", node.lineno, node.lineno, end)
                        found.setdefault(sym.qualname, sym)
            elif isinstance(node, (ast.If, ast.Try)):  # `if TYPE_CHECKING:` / try-import blocks
                for block in (
                    node.body,
                    getattr(node, "orelse", []),
                    getattr(node, "finalbody", []),
                ):
                    visit(block, prefix, in_function)

    visit(tree.body, "", False)
    return found


def _is_overload(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> bool:
    return any(
        (isinstance(d, ast.Name) and d.id == "overload")
        or (isinstance(d, ast.Attribute) and d.attr == "overload")
        for d in node.decorator_list
    )


def find_symbol(source: SourceFile, name: str) -> Symbol:
    """Resolve ``name``: a qualname (``ToolNode._func``) or a bare name unique in the file."""
    table = symbols(source.abs_path)
    if name in table:
        return table[name]
    matches = [s for q, s in table.items() if q.rsplit(".", 1)[-1] == name]
    if len(matches) == 1:
        return matches[0]
    if matches:
        options = ", ".join(s.qualname for s in matches)
        raise CitationError(f"{source.path}: '{name}' is ambiguous, write one of: {options}")
    raise CitationError(f"{source.path}: no symbol '{name}' in {source.dist} {source.version}")


def symbols_starting_at(source: SourceFile, line: int) -> list[Symbol]:
    """Symbols whose cited line is ``line``."""
    return [s for s in symbols(source.abs_path).values() if s.line == line]


# --- specs: "path:symbol", "path:137", "path:568-590" -----------------------------------------

_RANGE = re.compile(r"^(\d+)(?:\s*[-–]\s*(\d+))?$")


def resolve(spec: str) -> Excerpt:
    """Turn ``path:target`` into an :class:`Excerpt`; raise :class:`CitationError` if it fails."""
    path, sep, target = spec.strip().partition(":")
    if not sep or not target.strip():
        raise CitationError(f"'{spec}': expected 'package/module.py:symbol' or 'path:FIRST-LAST'")
    source = find_file(path)
    target = target.strip()
    m = _RANGE.match(target)
    if m:
        first = int(m.group(1))
        last = int(m.group(2) or first)
        n = len(source.lines)
        if not 1 <= first <= last <= n:
            raise CitationError(f"{source.path}: lines {first}-{last} outside 1-{n}")
        return Excerpt(source, first, last, first)
    sym = find_symbol(source, target)
    return Excerpt(source, sym.first_line, sym.end_line, sym.line, sym)


def parse_range(text: str) -> tuple[int, int]:
    """``"661-700"`` -> ``(661, 700)``; ``"137"`` -> ``(137, 137)``."""
    m = _RANGE.match(text.strip())
    if not m:
        raise CitationError(f"'{text}': expected a line or a range like 661-700")
    return int(m.group(1)), int(m.group(2) or m.group(1))
