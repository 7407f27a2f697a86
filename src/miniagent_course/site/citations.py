"""Check every citation of upstream code in the course pages against the pinned packages.

Two kinds of citation are checked (``tests/course/site/test_citations.py`` runs this on ``course/``):

* **directives**: each ``upstream`` block must resolve (file, symbol or range, and its
  ``lines``/``expect``/``annotate`` options); each ``mini`` block must name an existing section;
* **prose citations**: ``chat_agent_executor.py:137``, ``langchain_core/runnables/base.py:3449``,
  ``l.137`` or ``l.568–590``. If a backticked *name* stands right before the citation
  (`` `_get_prompt_runnable` (l.137) ``), the symbol must start on that line; if a backticked
  *code fragment* stands there, the fragment must appear on the cited line(s); otherwise the
  line must exist. A bare ``l.N`` refers to the page's ``upstream:`` front matter; on a page
  without one, to the last upstream file named above it.

Text inside fenced code blocks is not prose and is not checked (except the directives).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from miniagent_course.site.fences import fence_options, mini_excerpt, select_lines
from miniagent_course.site.upstream import (
    CitationError,
    SourceFile,
    files_by_basename,
    find_file,
    find_symbol,
    resolve,
)

UPSTREAM_TOPS = ("langgraph/", "langchain/", "langchain_core/")
FILE_CITE = re.compile(
    r"(?<![\w/.-])((?:[\w.-]+/)*[\w-]+\.py):(\d+)(?:\s*[-–]\s*(\d+))?(?!\w|\.\d)"
)
LINE_CITE = re.compile(r"(?<![\w.])ll?\.\s?(\d+)(?:\s*[-–]\s*(\d+))?(?!\w|\.\d)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
NAME = re.compile(r"^[A-Za-z_][\w.]*(?:\(\))?$")
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w-]*)(.*)$")
OPTION = re.compile(r'(\w+)="([^"]*)"')
# What may stand between a backticked span and the citation that belongs to it:
# "`x` (l.1)", "`x` at l.1", "`x`, l.1", "`x` starts at l.1", "`x` is defined on line l.1".
GAP = re.compile(r"^[\s(\[,:–—-]*(?:(?:at|on|in|is|see|starts|defined|line)\s+)*[\s(\[]*$")
PREFERRED = "langgraph/prebuilt/"  # the course's subject wins when a file name is ambiguous


@dataclass(frozen=True)
class Problem:
    """One citation that does not hold, with where it is."""

    where: str  # "course/days/day05.md:42"
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass(frozen=True)
class Block:
    """A fenced directive block: ``upstream`` or ``mini``."""

    kind: str
    spec: str
    options: dict
    line: int  # line of the opening fence in the page


# --- reading a page ---------------------------------------------------------------------------


def front_matter_upstream(text: str) -> str | None:
    """The ``upstream:`` key of a page's YAML front matter, if any."""
    m = re.match(r"^---\n(.*?)\n---\n", text, re.S)
    if m:
        found = re.search(r"^upstream:\s*['\"]?([^'\"\n]+?)['\"]?\s*$", m.group(1), re.M)
        if found:
            return found.group(1).strip()
    return None


def split_page(text: str) -> tuple[list[tuple[int, str]], list[Block]]:
    """Prose lines ``(number, text)`` outside fenced blocks, and the directive blocks."""
    prose: list[tuple[int, str]] = []
    blocks: list[Block] = []
    fence: tuple[str, int, str, str, int] | None = None  # (marker, length, kind, info, line)
    body: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        m = FENCE.match(line)
        if fence is None:
            if m:
                marker, kind, info = m.group(2), m.group(3), m.group(4)
                fence = (marker[0], len(marker), kind, info, number)
                body = []
            else:
                prose.append((number, line))
            continue
        char, length, kind, info, start = fence
        stripped = line.strip()
        if stripped and set(stripped) == {char} and len(stripped) >= length:
            if kind in ("upstream", "mini"):
                spec = next((b.strip() for b in body if b.strip()), "")
                blocks.append(Block(kind, spec, dict(OPTION.findall(info)), start))
            fence = None
        else:
            body.append(line)
    return prose, blocks


# --- checking ---------------------------------------------------------------------------------


def _upstream_path(path: str) -> str | None:
    """The site-packages path a cited file name stands for, or None if it is not upstream."""
    if path.startswith(UPSTREAM_TOPS):
        return path
    if "/" in path:  # src/miniagent/..., tests/..., some other tree: not an upstream citation
        return None
    matches = files_by_basename().get(path, [])
    preferred = [p for p in matches if p.startswith(PREFERRED)]
    if len(matches) > 1 and len(preferred) == 1:
        return preferred[0]
    if len(matches) > 1:
        raise CitationError(f"{path} is ambiguous, write the path: {', '.join(sorted(matches))}")
    return matches[0] if matches else None


def _span_before(line: str, start: int) -> str | None:
    """The backticked text that belongs to the citation at ``start``, if any."""
    best = None
    for m in CODE_SPAN.finditer(line):
        if m.end() <= start:
            best = m
    if best is None or not GAP.match(line[best.end() : start]):
        return None
    text = best.group(2).strip()
    if FILE_CITE.search(text) or LINE_CITE.search(text):  # the span is itself a citation
        return None
    return text


def check_line_citation(source: SourceFile, first: int, last: int, named: str | None) -> None:
    """Raise CitationError unless lines ``first..last`` of ``source`` fit what the page says."""
    n = len(source.lines)
    if not 1 <= first <= last <= n:
        raise CitationError(f"{source.path}: line {first}-{last} is outside 1-{n}")
    if named is None:
        return
    if NAME.match(named):
        name = named.removesuffix("()")
        try:
            symbol = find_symbol(source, name)
        except CitationError:
            symbol = None  # not a symbol of this file: check it as a code fragment below
        if symbol is not None:
            if symbol.line != first:
                raise CitationError(
                    f"`{named}` starts at {source.path}:{symbol.line} in {source.dist} "
                    f"{source.version}, not at line {first}"
                )
            return
    wanted = " ".join(named.split())
    cited = " ".join(" ".join(source.lines[first - 1 : last]).split())
    if wanted not in cited:
        where = f"{first}" if first == last else f"{first}-{last}"
        raise CitationError(
            f"`{named}` is not on {source.path}:{where} in {source.dist} {source.version} "
            f"(that is: {cited[:120]!r})"
        )


def check_block(block: Block, project_dir: Path) -> None:
    """Raise CitationError if an ``upstream``/``mini`` block would not build."""
    if block.kind == "upstream":
        excerpt = resolve(block.spec)
        lines = excerpt.source.lines[excerpt.first_line - 1 : excerpt.end_line]
        select_lines(lines, excerpt.first_line, fence_options(block.options))
    else:
        _, first, lines = mini_excerpt(block.spec, project_dir)
        select_lines(lines, first, fence_options(block.options))


def check_text(text: str, name: str, project_dir: Path) -> list[Problem]:
    """Every problem with the citations in one Markdown page."""
    problems: list[Problem] = []
    prose, blocks = split_page(text)
    page_file = front_matter_upstream(text)  # when set, every bare l.N refers to it
    current = page_file
    block_at = {b.line: b for b in blocks}
    events = sorted(
        [(n, "prose", line) for n, line in prose] + [(n, "block", "") for n in block_at]
    )
    for number, kind, line in events:
        where = f"{name}:{number}"
        if kind == "block":
            block = block_at[number]
            try:
                check_block(block, project_dir)
            except CitationError as exc:
                problems.append(Problem(where, f"{block.kind} block `{block.spec}`: {exc}"))
            if block.kind == "upstream" and page_file is None:
                current = block.spec.partition(":")[0].strip()
            continue
        cites = [(m, "file") for m in FILE_CITE.finditer(line)]
        cites += [(m, "line") for m in LINE_CITE.finditer(line)]
        for m, how in sorted(cites, key=lambda c: c[0].start()):
            try:
                if how == "file":
                    path = _upstream_path(m.group(1))
                    if path is None:
                        continue
                    current = page_file or path
                    first, last = int(m.group(2)), int(m.group(3) or m.group(2))
                else:
                    if current is None:
                        raise CitationError(
                            "no file for this line number: add `upstream: path.py` to the front "
                            "matter or name the file first"
                        )
                    path = current
                    first, last = int(m.group(1)), int(m.group(2) or m.group(1))
                source = find_file(path)
                check_line_citation(source, first, last, _span_before(line, m.start()))
            except CitationError as exc:
                problems.append(Problem(where, f"{m.group(0)!r}: {exc}"))
    return problems


def check_pages(course_dir: Path, project_dir: Path) -> list[Problem]:
    """Problems in every ``*.md`` page under ``course_dir``."""
    problems: list[Problem] = []
    for page in sorted(course_dir.rglob("*.md")):
        rel = page.relative_to(project_dir).as_posix()
        problems += check_text(page.read_text(encoding="utf-8"), rel, project_dir)
    return problems
